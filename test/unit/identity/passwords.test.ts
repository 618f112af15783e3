import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../../server/identity/passwords.ts';

/**
 * Stored passwords (server/identity/passwords.ts): scrypt at the product's cost unless a caller
 * names another, each hash carrying the parameters it was made with, so a check uses them (the
 * test factory's users are hashed cheaply, test/helpers/factory.ts; every other user at full cost).
 */
describe('password hashes', () => {
  it('are scrypt with N=2^15, r=8, p=1 and a salt of their own by default', async () => {
    const [first, second] = await Promise.all([hashPassword('correct horse'), hashPassword('correct horse')]);
    const [scheme, n, r, p, salt, hash] = first.split('$');
    expect({ scheme, n, r, p }).toEqual({ scheme: 'scrypt', n: '32768', r: '8', p: '1' });
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(hash!, 'base64url')).toHaveLength(32);
    expect(second).not.toBe(first);
  });

  it('check a password with the parameters the hash names', async () => {
    const cheap = await hashPassword('correct horse', { N: 2 ** 10, r: 8, p: 1 });
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('correct horse', cheap)).toBe(true);
    expect(await verifyPassword('correct horsf', cheap)).toBe(false);
    // The same password under the same salt with the product's parameters is another hash.
    const [, , , , salt, hash] = cheap.split('$');
    expect(await verifyPassword('correct horse', `scrypt$32768$8$1$${salt}$${hash}`)).toBe(false);
  });

  it('refuse what is not a scrypt hash of theirs', async () => {
    expect(await verifyPassword('x', 'bcrypt$2b$10$abc')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$1024$8$1$')).toBe(false);
  });
});
