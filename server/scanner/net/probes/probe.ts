/**
 * What a protocol probe is: given a fresh connection to the port, speak just enough of one
 * protocol to recognise it, and answer with what the service revealed, or `null` when the
 * answer was not that protocol. Probes never send anything that changes the service's
 * state, never authenticate with credentials, and close politely where the protocol has a
 * way to say goodbye.
 */
import type { ProbeSession } from '../probe-session.ts';
import type { ServiceDetails, ServiceName } from '../services.ts';

export interface ProbeFinding {
  service: ServiceName;
  product?: string;
  version?: string;
  banner?: string;
  anonymousAccess?: boolean;
  details?: ServiceDetails;
}

export interface ProbeContext {
  address: string;
  port: number;
  /** The session runs inside TLS. */
  tls: boolean;
  /** Longest wait for one answer. */
  replyWaitMs: number;
}

export interface ClientFirstProbe {
  readonly name: string;
  run(session: ProbeSession, context: ProbeContext): Promise<ProbeFinding | null>;
}

/**
 * A protocol whose server greets first: recognised from the greeting alone (`recognize`),
 * optionally followed by a short exchange on the same connection (`followUp`).
 */
export interface BannerProtocol {
  readonly name: string;
  recognize(banner: Buffer): ProbeFinding | null;
  followUp?(session: ProbeSession, finding: ProbeFinding, context: ProbeContext): Promise<ProbeFinding>;
}

/** `"nginx/1.24.0 (Debian)"` → `{ product: "nginx", version: "1.24.0" }`; `"cloudflare"` → product only. */
export function productAndVersion(token: string): { product?: string; version?: string } {
  const first = token.trim().split(/\s+/)[0] ?? '';
  const match = /^([^/\s]+)\/(v?\d[\w.+~-]*)/.exec(first);
  if (match) return { product: match[1], version: match[2] };
  return first === '' ? {} : { product: first };
}

/** The text up to the first line break, without control characters. */
export function firstLine(data: Buffer | string, maxChars = 512): string {
  const text = typeof data === 'string' ? data : data.toString('latin1');
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  // eslint-disable-next-line no-control-regex
  return line.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '').slice(0, maxChars);
}

/** A product a greeting may name; the pattern's first group, when it has one, is the version. */
export interface GreetingProduct {
  pattern: RegExp;
  product: string;
}

/**
 * The first line of `banner` (cut to 512 characters) when `greeting` recognises it, with the
 * first of `products` it names: the reading the mail-access probes (IMAP, POP3) share.
 */
export function readGreeting(
  banner: Buffer,
  greeting: RegExp,
  products: readonly GreetingProduct[],
): { greeting: string; product?: string; version?: string } | null {
  const line = banner.toString('latin1').split(/\r?\n/, 1)[0] ?? '';
  if (!greeting.test(line)) return null;
  const text = line.slice(0, 512);
  for (const { pattern, product } of products) {
    const match = pattern.exec(text);
    if (match) return { greeting: text, product, version: match[1] };
  }
  return { greeting: text };
}

export function endsWithLine(data: Buffer): boolean {
  return data.includes(0x0a);
}

/** `T` with its possibly-undefined members made optional (and never undefined). */
export type Compacted<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** Drops undefined members, so findings serialise without empty keys. */
export function compact<T extends object>(value: T): Compacted<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, member]) => member !== undefined),
  ) as Compacted<T>;
}
