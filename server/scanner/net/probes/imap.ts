/**
 * IMAP (RFC 9051, RFC 3501): the server greets with `* OK` (or `* PREAUTH`, `* BYE`). The
 * capabilities come from the greeting's `[CAPABILITY …]` code or one `CAPABILITY` command,
 * then `LOGOUT`. `STARTTLS` among them means the service can be upgraded in-band;
 * `LOGINDISABLED` that it refuses a plain-text `LOGIN`. No login is attempted.
 */
import {
  compact,
  readGreeting,
  type BannerProtocol,
  type GreetingProduct,
  type ProbeFinding,
} from './probe.ts';

const GREETING = /^\* (OK|PREAUTH|BYE)\b/i;

const PRODUCTS: GreetingProduct[] = [
  { pattern: /\bDovecot\b/i, product: 'Dovecot' },
  { pattern: /\bCyrus IMAP(?:4)?(?: v?(\d[\w.]*))?/i, product: 'Cyrus IMAP' },
  { pattern: /\bCourier-IMAP\b/i, product: 'Courier-IMAP' },
  { pattern: /\bMicrosoft Exchange\b/i, product: 'Microsoft Exchange' },
];

export const imap: BannerProtocol = {
  name: 'imap',
  recognize(banner) {
    const read = readGreeting(banner, GREETING, PRODUCTS);
    if (!read) return null;
    return compact<ProbeFinding>({
      service: 'imap',
      banner: read.greeting,
      product: read.product,
      version: read.version,
      details: capabilityDetails(capabilityCode(read.greeting)),
    });
  },
  async followUp(session, finding, context) {
    let capabilities = capabilityCode(finding.banner ?? '');
    if (capabilities === undefined) {
      session.write('C1 CAPABILITY\r\n');
      const reply = (await session.read(tagged('C1'), context.replyWaitMs)).toString('latin1');
      const line = reply.split(/\r?\n/).find((l) => /^\* CAPABILITY /i.test(l));
      capabilities = line?.slice('* CAPABILITY '.length).trim();
    }
    session.write('C2 LOGOUT\r\n');
    await session.read(tagged('C2'), Math.min(500, context.replyWaitMs));
    return compact({ ...finding, details: { ...finding.details, ...capabilityDetails(capabilities) } });
  },
};

/** `* OK [CAPABILITY IMAP4rev1 STARTTLS] ready` → `IMAP4rev1 STARTTLS`. */
function capabilityCode(greeting: string): string | undefined {
  return /\[CAPABILITY ([^\]]*)\]/i.exec(greeting)?.[1]?.trim();
}

function capabilityDetails(capabilities: string | undefined) {
  if (capabilities === undefined) return undefined;
  const list = capabilities.split(/\s+/).filter(Boolean);
  const has = (name: string): boolean => list.some((c) => c.toUpperCase() === name);
  return {
    imap_capabilities: list.join(' '),
    starttls: has('STARTTLS'),
    login_disabled: has('LOGINDISABLED'),
  };
}

function tagged(tag: string): (data: Buffer) => boolean {
  return (data) => new RegExp(`(^|\\n)${tag} `).test(data.toString('latin1'));
}
