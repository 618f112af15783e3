/**
 * FTP and SMTP both greet with `220`, so the greeting alone does not always tell them
 * apart. SMTP is confirmed (and its extensions listed) with `EHLO`, which an FTP server
 * rejects as an unknown command; an FTP server is then asked for its features (`FEAT`,
 * RFC 2389), whose `AUTH TLS` says it can be upgraded to TLS (RFC 4217). Either way the
 * session ends with `QUIT`. No login, no mail transaction.
 */
import type { ProbeSession } from '../probe-session.ts';
import type { ServiceDetails, ServiceName } from '../services.ts';
import { compact, type BannerProtocol, type ProbeContext, type ProbeFinding } from './probe.ts';

const GREETING = /^220[ -]/;

interface ProductPattern {
  pattern: RegExp;
  product: string;
}

const FTP_PRODUCTS: ProductPattern[] = [
  { pattern: /vsFTPd (\d[\w.]*)/i, product: 'vsftpd' },
  { pattern: /ProFTPD(?: (\d[\w.]*))?/i, product: 'ProFTPD' },
  { pattern: /Pure-FTPd/i, product: 'Pure-FTPd' },
  { pattern: /FileZilla Server(?: version)?(?: (\d[\w.]*))?/i, product: 'FileZilla Server' },
  { pattern: /Microsoft FTP Service/i, product: 'Microsoft ftpd' },
];

const SMTP_PRODUCTS: ProductPattern[] = [
  { pattern: /Postfix/i, product: 'Postfix' },
  { pattern: /Exim (\d[\w.]*)/i, product: 'Exim' },
  { pattern: /Sendmail (\d[\w.]*)/i, product: 'Sendmail' },
  { pattern: /OpenSMTPD/i, product: 'OpenSMTPD' },
  { pattern: /Microsoft ESMTP MAIL Service(?:, Version: (\d[\w.]*))?/i, product: 'Microsoft ESMTP' },
  { pattern: /Haraka(?:\/(\d[\w.]*))?/i, product: 'Haraka' },
];

export const ftpOrSmtp: BannerProtocol = {
  name: 'ftp-smtp',
  recognize(banner) {
    const text = banner.toString('latin1');
    if (!GREETING.test(text)) return null;
    const greeting = greetingText(text);
    const service: ServiceName = /\bE?SMTP\b|\bmail\b/i.test(greeting) ? 'smtp' : 'ftp';
    return withProduct({ service, banner: greeting }, greeting);
  },
  async followUp(session, finding, context) {
    const extensions = await ehlo(session, context);
    const features =
      extensions === undefined && finding.service === 'ftp' ? await feat(session, context) : undefined;
    session.write('QUIT\r\n');
    await session.read(completeReply, Math.min(500, context.replyWaitMs));
    // An SMTP greeting stays SMTP even if EHLO is refused (a HELO-only server).
    const service: ServiceName = extensions !== undefined || finding.service === 'smtp' ? 'smtp' : 'ftp';
    const details =
      extensions !== undefined
        ? { ...finding.details, ...extensions }
        : features !== undefined
          ? { ...finding.details, ...features }
          : finding.details;
    return withProduct(compact({ ...finding, service, details }), finding.banner ?? '');
  },
};

/** The greeting without reply codes: `220-a\r\n220 b` → `a b`. */
function greetingText(text: string): string {
  return text
    .split(/\r?\n/)
    .filter((line) => /^220[ -]/.test(line))
    .map((line) => line.slice(4).trim())
    .join(' ')
    .slice(0, 512);
}

function withProduct(finding: ProbeFinding, greeting: string): ProbeFinding {
  const table = finding.service === 'smtp' ? SMTP_PRODUCTS : FTP_PRODUCTS;
  for (const { pattern, product } of table) {
    const match = pattern.exec(greeting);
    if (match) return compact({ ...finding, product, version: match[1] });
  }
  const { product: _product, version: _version, ...rest } = finding;
  return rest;
}

/** A full reply: the last line is `NNN text` (not a `NNN-` continuation). */
function completeReply(data: Buffer): boolean {
  const lines = data.toString('latin1').split(/\r?\n/);
  if (lines.at(-1) !== '') return false;
  const last = lines.at(-2) ?? '';
  return /^\d{3}(?: |$)/.test(last);
}

/**
 * Sends EHLO; returns the SMTP extensions when the answer is `250`, `undefined` when the
 * server rejected the command (not SMTP, most likely FTP).
 */
async function ehlo(session: ProbeSession, context: ProbeContext): Promise<ServiceDetails | undefined> {
  session.write('EHLO scanward.invalid\r\n');
  const reply = (await session.read(completeReply, context.replyWaitMs)).toString('latin1');
  if (!/^250[ -]/.test(reply)) return undefined;
  const extensions = reply
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => /^250[ -]/.test(line))
    .map((line) => line.slice(4).trim())
    .filter((extension) => extension !== '');
  return compact({
    smtp_extensions: extensions.join(', '),
    starttls: extensions.some((extension) => /^STARTTLS\b/i.test(extension)),
    auth_mechanisms: extensions.find((extension) => /^AUTH\b/i.test(extension))?.slice(5),
  });
}

/** Sends FEAT; returns the FTP features when the answer is `211`, `undefined` otherwise. */
async function feat(session: ProbeSession, context: ProbeContext): Promise<ServiceDetails | undefined> {
  session.write('FEAT\r\n');
  const reply = (await session.read(completeReply, context.replyWaitMs)).toString('latin1');
  if (!/^211[ -]/.test(reply)) return undefined;
  // Feature lines start with a space (RFC 2389); the first and last lines are the 211 reply.
  const features = reply
    .split(/\r?\n/)
    .filter((line) => /^ \S/.test(line))
    .map((line) => line.trim());
  return {
    ftp_features: features.join(', '),
    starttls: features.some((feature) => /^AUTH\b.*\bTLS\b/i.test(feature)),
  };
}
