import { describe, expect, it } from 'vitest';
import { ApiKeyCreate, MfaCodeBody, TokenRequest } from '../../../server/schemas/auth.ts';

const issueField = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.error?.issues[0]?.path.map(String).join('.');

describe('API key creation body', () => {
  it('takes a name, distinct known permissions and an optional future expiry', () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    expect(
      ApiKeyCreate.parse({ name: ' CI ', permissions: ['read:scans', 'write:grc'], expires_at: future }),
    ).toEqual({
      name: 'CI',
      permissions: ['read:scans', 'write:grc'],
      expires_at: future,
    });
    expect(ApiKeyCreate.safeParse({ name: 'CI', permissions: ['read:scans'] }).success).toBe(true);
    expect(
      ApiKeyCreate.safeParse({ name: 'CI', permissions: ['read:scans'], expires_at: null }).success,
    ).toBe(true);
    expect(
      ApiKeyCreate.safeParse({
        name: 'CI',
        permissions: ['read:scans'],
        expires_at: '2999-01-01T00:00:00+02:00',
      }).success,
    ).toBe(true);
  });

  it('names the field of each mistake', () => {
    const past = new Date(Date.now() - 1000).toISOString();
    const cases: [unknown, string][] = [
      [{ name: '', permissions: ['read:scans'] }, 'name'],
      [{ name: 'k', permissions: [] }, 'permissions'],
      [{ name: 'k', permissions: ['read:scans', 'read:scans'] }, 'permissions'],
      [{ name: 'k', permissions: ['read:everything'] }, 'permissions.0'],
      [{ name: 'k', permissions: ['read:scans'], expires_at: past }, 'expires_at'],
      [{ name: 'k', permissions: ['read:scans'], expires_at: '2999-01-01' }, 'expires_at'],
    ];
    for (const [body, field] of cases) expect(issueField(ApiKeyCreate.safeParse(body))).toBe(field);
  });
});

describe('login and MFA bodies', () => {
  it('requires username and password and leaves mfa_code optional', () => {
    expect(TokenRequest.safeParse({ username: 'a@b.test', password: 'pw' }).success).toBe(true);
    expect(issueField(TokenRequest.safeParse({ password: 'pw' }))).toBe('username');
    expect(issueField(TokenRequest.safeParse({ username: 'a@b.test', password: '' }))).toBe('password');
  });

  it('takes an MFA code of exactly six digits', () => {
    expect(MfaCodeBody.safeParse({ code: '012345' }).success).toBe(true);
    for (const code of ['12345', '1234567', 'abcdef', 123456]) {
      expect(issueField(MfaCodeBody.safeParse({ code }))).toBe('code');
    }
  });
});
