import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_KEY_RECOGNITION_LENGTH, generateApiKey } from '../../../server/auth/api-keys.ts';
import { hashApiKey } from '../../../server/auth/gatekeeper.ts';
import type { Principal } from '../../../server/policies/principal.ts';
import { AppError } from '../../../server/errors.ts';
import type { OrganizationRow } from '../../../server/identity/organizations.repository.ts';
import type { Permission, Role } from '../../../server/schemas/common.ts';
import { assertKeyWithinRole, mayManageApiKeyOf } from '../../../server/policies/api-keys.ts';
import { authorize, routeRoles } from '../../../server/policies/roles.ts';

const org: OrganizationRow = {
  id: 'org_test',
  name: 'Test',
  plan: 'professional',
  hourly_request_limit: null,
  daily_request_limit: null,
  monthly_scan_limit: null,
  concurrent_scan_limit: null,
  monthly_ai_credits: null,
  created_at: new Date(0),
  updated_at: new Date(0),
};

const bearer = (role: Role): Principal => ({
  via: 'bearer',
  user: { id: 'user_1', email: 'u@example.test', role },
  org,
  sessionId: 'sess_1',
});
const apiKey = (role: Role, permissions: Permission[]): Principal => ({
  via: 'api_key',
  user: { id: 'user_1', email: 'u@example.test', role },
  org,
  apiKeyId: 'key_1',
  permissions: new Set(permissions),
});

function refusal(fn: () => void): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(403);
    return (err as AppError).code;
  }
}

describe('access rules', () => {
  it('gives a bearer token its user full rights on permission routes', () => {
    expect(refusal(() => authorize({ permission: 'write:grc' }, bearer('member')))).toBeUndefined();
  });

  it('limits an API key to its permissions', () => {
    expect(
      refusal(() => authorize({ permission: 'read:scans' }, apiKey('admin', ['read:scans']))),
    ).toBeUndefined();
    expect(refusal(() => authorize({ permission: 'write:scans' }, apiKey('admin', ['read:scans'])))).toBe(
      'INSUFFICIENT_PERMISSION',
    );
  });

  it('refuses every API key on bearer-only routes', () => {
    const all: Permission[] = [
      'read:scans',
      'write:scans',
      'read:findings',
      'write:findings',
      'read:grc',
      'write:grc',
    ];
    expect(refusal(() => authorize({ bearerOnly: true }, apiKey('admin', all)))).toBe(
      'INSUFFICIENT_PERMISSION',
    );
    expect(refusal(() => authorize({ bearerOnly: true }, bearer('member')))).toBeUndefined();
  });

  it('keeps admin routes to admins, whichever credential they use', () => {
    expect(refusal(() => authorize({ bearerOnly: true, admin: true }, bearer('member')))).toBe(
      'INSUFFICIENT_PERMISSION',
    );
    expect(refusal(() => authorize({ bearerOnly: true, admin: true }, bearer('admin')))).toBeUndefined();
    expect(
      refusal(() => authorize({ permission: 'write:scans', admin: true }, apiKey('member', ['write:scans']))),
    ).toBe('INSUFFICIENT_PERMISSION');
    expect(
      refusal(() => authorize({ permission: 'write:scans', admin: true }, apiKey('admin', ['write:scans']))),
    ).toBeUndefined();
  });

  it('lets a viewer read and nothing more, with a bearer token', () => {
    expect(refusal(() => authorize({ permission: 'read:grc' }, bearer('viewer')))).toBeUndefined();
    for (const permission of ['write:scans', 'write:findings', 'write:grc'] as const) {
      expect(refusal(() => authorize({ permission }, bearer('viewer')))).toBe('INSUFFICIENT_PERMISSION');
      expect(refusal(() => authorize({ permission }, bearer('member')))).toBeUndefined();
    }
    // Self-service routes (no permission) are every role's.
    expect(refusal(() => authorize({ bearerOnly: true }, bearer('viewer')))).toBeUndefined();
    expect(routeRoles({ bearerOnly: true, roles: ['admin', 'member'] })).toEqual(['admin', 'member']);
  });

  it("never lets an API key do more than its creator's current role", () => {
    const all: Permission[] = ['read:findings', 'write:findings'];
    expect(refusal(() => authorize({ permission: 'write:findings' }, apiKey('viewer', all)))).toBe(
      'INSUFFICIENT_PERMISSION',
    );
    expect(refusal(() => authorize({ permission: 'read:findings' }, apiKey('viewer', all)))).toBeUndefined();
    expect(() => assertKeyWithinRole('viewer', ['read:scans', 'write:scans'])).toThrow(/write:scans/);
    expect(() => assertKeyWithinRole('member', ['read:scans', 'write:scans'])).not.toThrow();
  });

  it('lets admins manage what anyone owns, others only their own', () => {
    expect(mayManageApiKeyOf(bearer('admin'), 'user_other')).toBe(true);
    expect(mayManageApiKeyOf(bearer('member'), 'user_other')).toBe(false);
    expect(mayManageApiKeyOf(bearer('member'), 'user_1')).toBe(true);
  });
});

describe('API key material', () => {
  it('is sw_ followed by 32 random bytes in base64url, different every time', () => {
    const keys = new Set(Array.from({ length: 50 }, generateApiKey));
    expect(keys.size).toBe(50);
    for (const key of keys) {
      expect(key).toMatch(/^sw_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(key.slice(3), 'base64url')).toHaveLength(32);
    }
  });

  it('is stored as its SHA-256 and recognised by its first 10 characters', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(API_KEY_RECOGNITION_LENGTH).toBe(10);
  });
});
