import { randomBytes } from 'node:crypto';

export type IdKind =
  | 'org'
  | 'user'
  | 'sess'
  | 'key'
  | 'rcode'
  | 'scan'
  | 'finding'
  | 'comment'
  | 'sched'
  | 'wh'
  | 'whd'
  | 'evid'
  | 'hist'
  | 'inv'
  | 'audit'
  | 'asset'
  | 'citp'
  | 'msg'
  | 'intg'
  | 'nrule'
  | 'pwr';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * An unguessable, URL-safe id with its kind prefix: `scan_` + 24 base-36
 * characters (about 124 bits of randomness).
 */
export function newId(kind: IdKind): string {
  const bytes = randomBytes(24);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % 36];
  return `${kind}_${out}`;
}
