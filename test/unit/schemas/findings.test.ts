import { describe, expect, it } from 'vitest';
import { resolvedAtAfter } from '../../../server/findings/history.ts';
import {
  BulkUpdateBody,
  DateParam,
  ExportFindingsQuery,
  ListFindingsQuery,
  UpdateFindingBody,
} from '../../../server/schemas/findings.ts';

describe('findings request schemas', () => {
  it('reads a date as midnight UTC and a date-time with its offset', () => {
    expect(DateParam.parse('2026-01-31').toISOString()).toBe('2026-01-31T00:00:00.000Z');
    expect(DateParam.parse('2026-01-31T10:00:00+02:00').toISOString()).toBe('2026-01-31T08:00:00.000Z');
    // The same rules as the scans list: no offset means UTC, seconds may be left out.
    expect(DateParam.parse('2026-01-31T10:00:00').toISOString()).toBe('2026-01-31T10:00:00.000Z');
    expect(DateParam.parse('2026-01-31T10:00Z').toISOString()).toBe('2026-01-31T10:00:00.000Z');
    expect(DateParam.safeParse('31/01/2026').success).toBe(false);
    expect(DateParam.safeParse('2026-02-30').success).toBe(false);
  });

  it('applies list defaults and rejects out-of-range pages', () => {
    expect(ListFindingsQuery.parse({})).toEqual({ page: 1, per_page: 20 });
    expect(ListFindingsQuery.safeParse({ per_page: '101' }).success).toBe(false);
    expect(ListFindingsQuery.safeParse({ sort: 'title' }).success).toBe(false);
    expect(ListFindingsQuery.parse({ target: '  app.example.test ' }).target).toBe('app.example.test');
  });

  it('defaults the export to CSV and tolerates page parameters', () => {
    expect(ExportFindingsQuery.parse({ page: '3', per_page: '5' }).format).toBe('csv');
  });

  it('needs at least one field in an update and an e-mail as assignee', () => {
    expect(UpdateFindingBody.safeParse({}).success).toBe(false);
    expect(UpdateFindingBody.safeParse({ assignee: null }).success).toBe(true);
    expect(UpdateFindingBody.safeParse({ assignee: 'someone' }).success).toBe(false);
    // Any address an account can have: the bootstrap admin's has no dot in its domain.
    for (const address of ['admin@localhost', 'ops@intranet', 'a.b+c@example.test']) {
      expect(UpdateFindingBody.safeParse({ assignee: address }).success, address).toBe(true);
    }
    for (const address of ['a@b@c', 'a b@c', '@localhost', 'admin@', 'ad\u0001min@localhost']) {
      expect(UpdateFindingBody.safeParse({ assignee: address }).success, address).toBe(false);
    }
    expect(UpdateFindingBody.safeParse({ priority: 'p4' }).success).toBe(true);
    expect(UpdateFindingBody.safeParse({ priority: 'high' }).success).toBe(false);
  });

  it('takes between 1 and 1000 ids in a bulk update', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `finding_${i}`);
    const body = (n: number) => ({ finding_ids: ids(n), update: { status: 'resolved' } });
    expect(BulkUpdateBody.safeParse(body(0)).success).toBe(false);
    expect(BulkUpdateBody.safeParse(body(1000)).success).toBe(true);
    expect(BulkUpdateBody.safeParse(body(1001)).success).toBe(false);
  });
});

describe('resolvedAtAfter', () => {
  const earlier = new Date('2026-01-01T00:00:00Z');
  const now = new Date('2026-01-10T00:00:00Z');
  it('stamps a new resolution, keeps an existing one and clears it when the finding leaves resolved', () => {
    expect(resolvedAtAfter('open', 'resolved', null, now)).toBe(now);
    expect(resolvedAtAfter('resolved', 'resolved', earlier, now)).toBe(earlier);
    expect(resolvedAtAfter('resolved', 'open', earlier, now)).toBeNull();
    expect(resolvedAtAfter('in_progress', 'accepted', null, now)).toBeNull();
  });
});
