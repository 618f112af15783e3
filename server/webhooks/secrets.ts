import { randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/** Whether a supplied secret is `whsec_` + base64 of 24 to 64 bytes (decisions.md). */
export function isValidWebhookSecret(secret: string): boolean {
  if (!secret.startsWith(PREFIX)) return false;
  const encoded = secret.slice(PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return false;
  const bytes = Buffer.from(encoded, 'base64').length;
  return bytes >= 24 && bytes <= 64;
}
