import { describe, expect, it } from 'vitest';
import { AppError } from '../../../server/errors.ts';
import { apiKeyOwnerScope, mayManageApiKeyOf } from '../../../server/policies/api-keys.ts';
import { readableEventFamilies } from '../../../server/policies/events.ts';
import { mayScrapeMetrics } from '../../../server/policies/metrics.ts';
import { isActiveAdmin, removesAnActiveAdmin } from '../../../server/policies/people.ts';
import type { Principal } from '../../../server/policies/principal.ts';
import { maySeeScans } from '../../../server/policies/scans.ts';
import type { Permission, Role } from '../../../server/schemas/common.ts';

const org: Principal['org'] = {
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
const user = (role: Role) => ({ id: 'user_1', email: 'u@example.test', role });
const session = (role: Role): Principal => ({ via: 'cookie', user: user(role), org, sessionId: 'sess_1' });
const apiKey = (permissions: Permission[], role: Role = 'member'): Principal => ({
  via: 'api_key',
  user: user(role),
  org,
  apiKeyId: 'key_1',
  permissions: new Set(permissions),
});

describe('the API-key policy', () => {
  it('lets an admin manage every key and anyone else only their own', () => {
    expect(mayManageApiKeyOf(session('admin'), 'user_other')).toBe(true);
    expect(mayManageApiKeyOf(session('member'), 'user_other')).toBe(false);
    expect(mayManageApiKeyOf(session('viewer'), 'user_1')).toBe(true);
    expect(apiKeyOwnerScope(session('admin'))).toBeUndefined();
    expect(apiKeyOwnerScope(session('member'))).toBe('user_1');
  });
});

describe('the events policy', () => {
  it("gives a person's session both families and an API key those its permissions name", () => {
    expect(readableEventFamilies(session('viewer'))).toEqual(['scan', 'finding']);
    expect(readableEventFamilies(apiKey(['read:scans']))).toEqual(['scan']);
    expect(readableEventFamilies(apiKey(['read:findings']))).toEqual(['finding']);
    expect(readableEventFamilies(apiKey(['read:findings', 'read:scans']))).toEqual(['scan', 'finding']);
  });

  it('refuses an API key with neither read:scans nor read:findings', () => {
    expect(() => readableEventFamilies(apiKey(['read:grc']))).toThrow(AppError);
    expect(() => readableEventFamilies(apiKey(['read:grc']))).toThrow(/read:scans or read:findings/);
  });
});

describe('the scans policy', () => {
  it('shows scans to a session always and to an API key only with read:scans', () => {
    expect(maySeeScans(session('viewer'))).toBe(true);
    expect(maySeeScans(apiKey(['read:findings']))).toBe(false);
    expect(maySeeScans(apiKey(['read:findings', 'read:scans']))).toBe(true);
  });
});

describe('the metrics policy', () => {
  it("answers the operator's token only, or everyone when the metrics are public", () => {
    const locked = { metricsPublic: false, metricsToken: 'operator-secret' };
    expect(mayScrapeMetrics(locked, 'Bearer operator-secret')).toBe(true);
    expect(mayScrapeMetrics(locked, 'bearer operator-secret')).toBe(true);
    expect(mayScrapeMetrics(locked, 'Bearer operator-secreT')).toBe(false);
    expect(mayScrapeMetrics(locked, '')).toBe(false);
    expect(mayScrapeMetrics({ metricsPublic: false, metricsToken: undefined }, 'Bearer x')).toBe(false);
    expect(mayScrapeMetrics({ metricsPublic: true, metricsToken: undefined }, '')).toBe(true);
  });
});

describe('the people policy', () => {
  const admin = { role: 'admin' as const, disabled_at: null };
  it('counts an admin as active until disabled', () => {
    expect(isActiveAdmin(admin)).toBe(true);
    expect(isActiveAdmin({ ...admin, disabled_at: new Date(0) })).toBe(false);
    expect(isActiveAdmin({ role: 'member', disabled_at: null })).toBe(false);
  });

  it('says which changes take an active admin away', () => {
    expect(removesAnActiveAdmin(admin, { role: 'member' })).toBe(true);
    expect(removesAnActiveAdmin(admin, { role: 'admin' })).toBe(false);
    expect(removesAnActiveAdmin(admin, 'disable')).toBe(true);
    expect(removesAnActiveAdmin(admin, 'delete')).toBe(true);
    expect(removesAnActiveAdmin({ role: 'member', disabled_at: null }, 'delete')).toBe(false);
    expect(removesAnActiveAdmin({ ...admin, disabled_at: new Date(0) }, { role: 'viewer' })).toBe(false);
  });
});
