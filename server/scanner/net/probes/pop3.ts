/**
 * POP3 (RFC 1939, RFC 2449): the server greets with `+OK`. `CAPA` lists its capabilities
 * (a server without it answers `-ERR`), then `QUIT`. `STLS` among them means the service
 * can be upgraded in-band (RFC 2595); `USER` and `SASL` say how it takes a login. No login
 * is attempted.
 */
import {
  compact,
  readGreeting,
  type BannerProtocol,
  type GreetingProduct,
  type ProbeFinding,
} from './probe.ts';

const GREETING = /^\+OK\b/;

const PRODUCTS: GreetingProduct[] = [
  { pattern: /\bDovecot\b/i, product: 'Dovecot' },
  { pattern: /\bCyrus POP3(?: v?(\d[\w.]*))?/i, product: 'Cyrus POP3' },
  { pattern: /\bCourier-POP3\b|\bCourier\b/i, product: 'Courier-POP3' },
  { pattern: /\bMicrosoft Exchange\b/i, product: 'Microsoft Exchange' },
];

export const pop3: BannerProtocol = {
  name: 'pop3',
  recognize(banner) {
    const read = readGreeting(banner, GREETING, PRODUCTS);
    if (!read) return null;
    return compact<ProbeFinding>({
      service: 'pop3',
      banner: read.greeting,
      product: read.product,
      version: read.version,
    });
  },
  async followUp(session, finding, context) {
    session.write('CAPA\r\n');
    const reply = (await session.read(capaComplete, context.replyWaitMs)).toString('latin1');
    session.write('QUIT\r\n');
    await session.read(undefined, Math.min(500, context.replyWaitMs));
    if (!/^\+OK\b/.test(reply)) return finding;
    const list = reply
      .split(/\r?\n/)
      .slice(1)
      .map((line) => line.trim())
      .filter((line) => line !== '' && line !== '.');
    const sasl = list
      .find((c) => /^SASL\b/i.test(c))
      ?.slice(5)
      .trim();
    return compact({
      ...finding,
      details: compact({
        ...finding.details,
        pop3_capabilities: list.join(', '),
        starttls: list.some((c) => /^STLS$/i.test(c)),
        user_login: list.some((c) => /^USER$/i.test(c)),
        auth_mechanisms: sasl === '' ? undefined : sasl,
      }),
    });
  },
};

/** `-ERR …` (one line), or `+OK` followed by lines up to a lone `.`. */
function capaComplete(data: Buffer): boolean {
  const text = data.toString('latin1');
  if (/^-ERR\b/.test(text)) return text.includes('\n');
  return /(^|\n)\.\r?\n/.test(text);
}
