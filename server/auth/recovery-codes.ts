import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/index.ts';
import { newId } from '../identity/ids.ts';
import {
  countUnusedRecoveryCodes,
  replaceRecoveryCodes,
  spendRecoveryCode,
} from './mfa-recovery-codes.repository.ts';

/**
 * MFA recovery codes: 10 per enrolment, each logging in once in place of a TOTP
 * code when the authenticator is lost. A code is 16 characters of Crockford's
 * base32 (80 random bits), shown as `xxxx-xxxx-xxxx-xxxx`; read back without
 * regard to case, dashes or spaces, with `o` read as 0 and `i`/`l` as 1. With 80
 * bits a fast hash is enough (as for API keys): only the SHA-256 is stored.
 */
export const RECOVERY_CODE_COUNT = 10;

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const LENGTH = 16;
const GROUP = 4;

/** A recovery code as it is handed out: `xxxx-xxxx-xxxx-xxxx`. */
export function generateRecoveryCode(): string {
  // 256 is a multiple of 32: each byte's low five bits are uniform.
  const chars = [...randomBytes(LENGTH)].map((b) => ALPHABET[b & 31]!).join('');
  return chars.match(new RegExp(`.{${GROUP}}`, 'g'))!.join('-');
}

/** The canonical form of what a person typed, or undefined when it cannot be a recovery code. */
export function normalizeRecoveryCode(input: string): string | undefined {
  const compact = input.toLowerCase().replace(/[\s-]/g, '').replace(/o/g, '0').replace(/[il]/g, '1');
  return compact.length === LENGTH && [...compact].every((c) => ALPHABET.includes(c)) ? compact : undefined;
}

/** Whether the text has the shape of a recovery code (not whether it is one of anybody's). */
export const looksLikeRecoveryCode = (input: string): boolean => normalizeRecoveryCode(input) !== undefined;

function hashRecoveryCode(normalized: string): string {
  return createHash('sha256').update(normalized).digest('hex');
}

interface CodeOwner {
  orgId: string;
  userId: string;
}

/**
 * Replaces the user's recovery codes with 10 new ones and answers them: the only
 * time they exist outside the user's hands. Runs in the caller's transaction, so the
 * codes are handed out together with the change that calls for them.
 */
export async function issueRecoveryCodes(trx: Db, owner: CodeOwner): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, generateRecoveryCode);
  await replaceRecoveryCodes(
    trx,
    owner.orgId,
    owner.userId,
    codes.map((code) => ({
      id: newId('rcode'),
      org_id: owner.orgId,
      user_id: owner.userId,
      code_hash: hashRecoveryCode(normalizeRecoveryCode(code)!),
    })),
  );
  return codes;
}

/** Spends one of the user's unused recovery codes; false for anything else (wrong, used, malformed). */
export async function spendRecoveryCodeOf(
  db: Db,
  owner: CodeOwner,
  input: string,
  now = new Date(),
): Promise<boolean> {
  const normalized = normalizeRecoveryCode(input);
  if (!normalized) return false;
  return spendRecoveryCode(db, owner.orgId, owner.userId, hashRecoveryCode(normalized), now);
}

/** How many unused recovery codes the user has left. */
export async function recoveryCodesLeft(db: Db, owner: CodeOwner): Promise<number> {
  return countUnusedRecoveryCodes(db, owner.orgId, owner.userId);
}
