import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { matchingStep, newTotpSecret, totpStep } from '../../../server/auth/mfa.ts';

/** The SHA-1 seed of RFC 6238 Appendix B ("12345678901234567890") in base32. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

const at = (seconds: number) => new Date(seconds * 1000);

describe('TOTP code matching', () => {
  it('accepts the RFC 6238 SHA-1 test vectors, truncated to 6 digits', () => {
    // Appendix B lists 8-digit codes; the 6-digit code is the last six digits.
    const vectors: [number, string][] = [
      [59, '287082'],
      [1_111_111_109, '081804'],
      [1_111_111_111, '050471'],
      [1_234_567_890, '005924'],
      [2_000_000_000, '279037'],
    ];
    for (const [time, code] of vectors) {
      expect(matchingStep(RFC_SECRET, code, at(time))).toBe(Math.floor(time / 30));
    }
  });

  it('accepts the previous, current and next 30-second step and nothing further', () => {
    const secret = new Secret({ size: 20 });
    const now = at(1_800_000_015);
    const current = totpStep(now);
    const code = (step: number) =>
      new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({
        timestamp: step * 30_000,
      });
    for (const delta of [-1, 0, 1]) {
      expect(matchingStep(secret.base32, code(current + delta), now)).toBe(current + delta);
    }
    for (const delta of [-3, -2, 2, 3]) {
      const candidate = code(current + delta);
      // Skip the one-in-a-million case of two steps sharing a code.
      const collides = [-1, 0, 1].some((d) => code(current + d) === candidate);
      if (!collides) expect(matchingStep(secret.base32, candidate, now)).toBeUndefined();
    }
  });

  it('knows which step a moment falls in', () => {
    expect(totpStep(at(0))).toBe(0);
    expect(totpStep(at(29.999))).toBe(0);
    expect(totpStep(at(30))).toBe(1);
  });

  it('refuses anything that is not six digits', () => {
    const now = at(59);
    for (const code of ['', '28708', '2870820', '94287082', '28708a', ' 287082', '287 082']) {
      expect(matchingStep(RFC_SECRET, code, now)).toBeUndefined();
    }
  });

  it('makes a fresh 160-bit secret and an otpauth URI with the parameters it checks', () => {
    const a = newTotpSecret('alice@example.test');
    const b = newTotpSecret('alice@example.test');
    expect(a.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(a.secret).not.toBe(b.secret);
    const uri = new URL(a.otpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Scanward:alice@example.test');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      issuer: 'Scanward',
      secret: a.secret,
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});
