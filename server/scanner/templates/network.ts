/**
 * Nuclei's network protocol (`tcp:`, formerly `network:`), compiled: the subset the public
 * corpus's `network/` templates use. A block names where to connect (`host: {{Hostname}}`,
 * `tls://{{Hostname}}`, `{{Host}}:7001`) and on which ports (`port: 6379,6380`), writes its
 * `inputs` in order (`data` as text, or `type: hex`; an input may `read` bytes, and a `name`
 * makes that read a matcher part), reads `read-size` bytes (default 1024) and judges the
 * answer with the HTTP engine's matchers. As in nuclei, a matcher's default part (`data`,
 * `body`) is that final read and `raw` is every byte read on the connection.
 *
 * Running them is execute-network.ts; this file is pure (it runs in the loader's worker).
 */
import { z } from 'zod';
import { UnsupportedTemplate, compileInfo, compileMatcher } from './loader.ts';
import {
  matcherSchema,
  type CompiledNetworkRequest,
  type NetworkInput,
  type NetworkTemplate,
  type RawTemplate,
} from './schema.ts';

/** Nuclei's default `read-size`. */
export const DEFAULT_READ_SIZE = 1024;
/** Most bytes one read may ask for. */
export const MAX_READ_SIZE = 64 * 1024;
/** Most inputs one block may write. */
const MAX_INPUTS = 8;

const inputSchema = z
  .object({
    data: z.union([z.string(), z.number()]).transform(String),
    type: z.enum(['hex', 'text']).optional(),
    read: z.number().int().min(0).optional(),
    name: z.string().optional(),
  })
  .strict();

const networkBlockSchema = z
  .object({
    host: z.array(z.string()).min(1),
    port: z.union([z.string(), z.number()]).transform(String).optional(),
    inputs: z.array(inputSchema).optional(),
    'read-size': z.number().int().min(1).optional(),
    'read-all': z.boolean().optional(),
    'matchers-condition': z.enum(['and', 'or']).optional(),
    matchers: z.array(matcherSchema).min(1),
    extractors: z.array(z.object({ type: z.string(), internal: z.boolean().optional() }).loose()).optional(),
  })
  .strict();

/** Response variables of a network exchange, besides the names of its inputs. */
export const NETWORK_VARIABLES = ['data', 'raw', 'body', 'all', 'response'];

/** `{{Hostname}}` → plain, `tls://{{Hostname}}` → TLS, `{{Host}}:7001` → plain on 7001. */
function parseHost(host: string): { tls: boolean; port?: number } {
  const h = host.trim();
  if (/^\{\{Hostname\}\}$/.test(h)) return { tls: false };
  if (/^tls:\/\/\{\{Hostname\}\}$/.test(h)) return { tls: true };
  const fixed = /^(tls:\/\/)?\{\{Host\}\}:(\d{1,5})$/.exec(h);
  if (fixed) return { tls: Boolean(fixed[1]), port: Number(fixed[2]) };
  throw new UnsupportedTemplate('network-host');
}

function parsePorts(value: string | undefined): number[] {
  if (value === undefined) return [];
  const ports = value.split(',').map((p) => Number(p.trim()));
  if (ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) throw new UnsupportedTemplate('invalid');
  return ports;
}

export function compileNetworkTemplate(
  template: RawTemplate,
  blocks: unknown,
  file: string,
): NetworkTemplate {
  if (!Array.isArray(blocks) || blocks.length === 0) throw new UnsupportedTemplate('invalid');
  const variables = new Map<string, string>();
  for (const [name, value] of Object.entries(template.variables ?? {})) {
    if (value.includes('{{')) throw new UnsupportedTemplate('dynamic-variables');
    variables.set(name, value);
  }
  const ports = new Set<number>();
  const requests = blocks.map((block: unknown): CompiledNetworkRequest => {
    if (typeof block === 'object' && block !== null && ('payloads' in block || 'attack' in block))
      throw new UnsupportedTemplate('payloads');
    const parsed = networkBlockSchema.safeParse(block);
    if (!parsed.success) {
      const unknownKey = parsed.error.issues.find((i) => i.code === 'unrecognized_keys');
      if (unknownKey) throw new UnsupportedTemplate(`unsupported-key:${unknownKey.keys[0]}`);
      const noMatchers = parsed.error.issues.some((i) => i.path[0] === 'matchers');
      throw new UnsupportedTemplate(noMatchers ? 'no-matchers' : 'invalid');
    }
    const b = parsed.data;
    if (b.extractors?.some((e) => e.internal)) throw new UnsupportedTemplate('multi-step');
    const hosts = b.host.map(parseHost);
    for (const port of parsePorts(b.port)) ports.add(port);
    for (const host of hosts) if (host.port) ports.add(host.port);
    const known = new Set(['Hostname', 'Host', 'Port', ...variables.keys()]);
    const inputs = (b.inputs ?? []).map((input): NetworkInput => {
      for (const m of input.data.matchAll(/\{\{([^{}]*)\}\}/g)) {
        if (!known.has((m[1] as string).trim())) throw new UnsupportedTemplate('unsupported-variable');
      }
      let data = input.data;
      if (input.type === 'hex') {
        if (!/^([0-9a-f]{2})*$/i.test(data)) throw new UnsupportedTemplate('invalid');
        data = Buffer.from(data, 'hex').toString('latin1');
      }
      return {
        data,
        read: Math.min(input.read ?? 0, MAX_READ_SIZE),
        name: input.name?.trim().toLowerCase() || undefined,
      };
    });
    if (inputs.length > MAX_INPUTS) throw new UnsupportedTemplate('too-many-requests');
    const names = new Set(inputs.flatMap((i) => (i.name ? [i.name] : [])));
    const partOf = (part: string | undefined): string => {
      const p = (part ?? 'data').trim().toLowerCase();
      if (p.startsWith('interactsh')) throw new UnsupportedTemplate('out-of-band');
      if (p === 'data' || p === 'body') return 'body';
      if (p === 'raw' || p === 'all' || p === 'response') return 'all';
      if (names.has(p)) return `header:${p}`;
      throw new UnsupportedTemplate(`unsupported-part:${p}`);
    };
    const extractorNames = new Set(
      (b.extractors ?? [])
        .map((e) => (typeof e.name === 'string' ? e.name.toLowerCase() : ''))
        .filter(Boolean),
    );
    const dslKnown = new Set([...variables.keys()].map((k) => k.toLowerCase()));
    return {
      tls: [...new Set(hosts.map((h) => h.tls))],
      inputs,
      readSize: Math.min(b['read-size'] ?? DEFAULT_READ_SIZE, MAX_READ_SIZE),
      matchersCondition: b['matchers-condition'] ?? 'or',
      matchers: b.matchers.map((m) =>
        compileMatcher(m, extractorNames, dslKnown, {
          partOf,
          variables: new Set([...NETWORK_VARIABLES, ...names]),
        }),
      ),
    };
  });
  return {
    protocol: 'network',
    id: template.id,
    file,
    info: compileInfo(template.info),
    ports: [...ports].sort((a, b) => a - b),
    variables,
    requests,
  };
}
