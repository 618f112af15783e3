/**
 * SSH (RFC 4253 §4.2): the server greets with `SSH-protoversion-softwareversion comments`.
 * The greeting is all we take; nothing is sent.
 */
import { compact, firstLine, type BannerProtocol, type ProbeFinding } from './probe.ts';

const GREETING = /^SSH-(\d+\.\d+)-(\S+)(?: (.*))?$/;

export const ssh: BannerProtocol = {
  name: 'ssh',
  recognize(banner) {
    const line = firstLine(banner);
    const match = GREETING.exec(line);
    if (!match) return null;
    const [, protocol = '', software = '', comments] = match;
    return compact<ProbeFinding>({
      service: 'ssh',
      ...softwareProductVersion(software),
      banner: line,
      details: compact({ ssh_protocol: protocol, comments }),
    });
  },
};

/** `OpenSSH_9.2p1` → OpenSSH 9.2p1; `dropbear_2022.83` → dropbear 2022.83; `Cisco-1.25` → Cisco 1.25. */
export function softwareProductVersion(software: string): { product: string; version?: string } {
  const underscore = /^([^_]+)_(\d[\w.+-]*)$/.exec(software);
  if (underscore) return { product: underscore[1] as string, version: underscore[2] as string };
  const dash = /^(.+?)-(\d[\w.]*)$/.exec(software);
  if (dash) return { product: dash[1] as string, version: dash[2] as string };
  return { product: software };
}
