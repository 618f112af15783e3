import { describe, expect, it } from 'vitest';
import {
  canonicalTimeZone,
  isValidTimeZone,
  nextRunAt,
  type Recurrence,
} from '../../../server/scans/schedule-time.ts';

const daily = (timezone: string, hour: number): Recurrence => ({
  frequency: 'daily',
  day_of_week: null,
  day_of_month: null,
  hour,
  timezone,
});

/** Runs a recurrence forward from `from`, answering its next `count` run instants. */
function runs(r: Recurrence, from: string, count: number): string[] {
  const out: string[] = [];
  let after = new Date(from);
  for (let i = 0; i < count; i++) {
    after = nextRunAt(r, after);
    out.push(after.toISOString());
  }
  return out;
}

describe('next run of a schedule', () => {
  it('runs daily at the local hour, strictly after the given instant', () => {
    expect(runs(daily('UTC', 0), '2026-01-01T00:00:00Z', 2)).toEqual([
      '2026-01-02T00:00:00.000Z',
      '2026-01-03T00:00:00.000Z',
    ]);
    expect(nextRunAt(daily('Asia/Tokyo', 9), new Date('2026-01-01T23:59:59Z')).toISOString()).toBe(
      '2026-01-02T00:00:00.000Z',
    );
  });

  it('runs weekly on the given weekday, 0 being Sunday', () => {
    const sunday: Recurrence = { ...daily('UTC', 9), frequency: 'weekly', day_of_week: 0 };
    expect(runs(sunday, '2026-01-01T00:00:00Z', 2)).toEqual([
      '2026-01-04T09:00:00.000Z',
      '2026-01-11T09:00:00.000Z',
    ]);
    const saturdayLa: Recurrence = {
      ...daily('America/Los_Angeles', 22),
      frequency: 'weekly',
      day_of_week: 6,
    };
    // Saturday 22:00 in Los Angeles is Sunday 06:00 UTC.
    expect(runs(saturdayLa, '2026-01-01T00:00:00Z', 1)).toEqual(['2026-01-04T06:00:00.000Z']);
  });

  it('runs monthly on the given day, across month ends and years', () => {
    const on28: Recurrence = { ...daily('Europe/Berlin', 23), frequency: 'monthly', day_of_month: 28 };
    expect(runs(on28, '2026-11-15T00:00:00Z', 3)).toEqual([
      '2026-11-28T22:00:00.000Z',
      '2026-12-28T22:00:00.000Z',
      '2027-01-28T22:00:00.000Z',
    ]);
    expect(runs(on28, '2026-02-01T00:00:00Z', 1)).toEqual(['2026-02-28T22:00:00.000Z']);
  });

  describe('America/New_York', () => {
    it('runs a skipped 02:00 on the spring-forward day when the clock jumps to 03:00, then at 02:00 again', () => {
      // 2026-03-08: 02:00 EST does not exist; the clock jumps at 07:00Z.
      expect(runs(daily('America/New_York', 2), '2026-03-07T12:00:00Z', 3)).toEqual([
        '2026-03-08T07:00:00.000Z',
        '2026-03-09T06:00:00.000Z',
        '2026-03-10T06:00:00.000Z',
      ]);
    });

    it('runs the repeated 01:00 of the fall-back day once, at its first occurrence', () => {
      // 2026-11-01: 01:00 happens at 05:00Z (EDT) and again at 06:00Z (EST).
      expect(runs(daily('America/New_York', 1), '2026-10-31T12:00:00Z', 3)).toEqual([
        '2026-11-01T05:00:00.000Z',
        '2026-11-02T06:00:00.000Z',
        '2026-11-03T06:00:00.000Z',
      ]);
    });

    it('keeps the local hour across the change (09:00 is 14:00Z in winter, 13:00Z in summer)', () => {
      expect(runs(daily('America/New_York', 9), '2026-03-07T15:00:00Z', 2)).toEqual([
        '2026-03-08T13:00:00.000Z',
        '2026-03-09T13:00:00.000Z',
      ]);
    });
  });

  describe('Europe/Berlin', () => {
    it('runs a skipped 02:00 on 2026-03-29 at the jump (03:00 CEST, 01:00Z)', () => {
      expect(runs(daily('Europe/Berlin', 2), '2026-03-28T12:00:00Z', 2)).toEqual([
        '2026-03-29T01:00:00.000Z',
        '2026-03-30T00:00:00.000Z',
      ]);
    });

    it('runs the repeated 02:00 of 2026-10-25 once, at 00:00Z', () => {
      expect(runs(daily('Europe/Berlin', 2), '2026-10-24T12:00:00Z', 2)).toEqual([
        '2026-10-25T00:00:00.000Z',
        '2026-10-26T01:00:00.000Z',
      ]);
    });

    it('runs a weekly Sunday 02:00 schedule once on both change days', () => {
      const sunday: Recurrence = { ...daily('Europe/Berlin', 2), frequency: 'weekly', day_of_week: 0 };
      expect(runs(sunday, '2026-03-22T12:00:00Z', 2)).toEqual([
        '2026-03-29T01:00:00.000Z',
        '2026-04-05T00:00:00.000Z',
      ]);
      expect(runs(sunday, '2026-10-18T12:00:00Z', 2)).toEqual([
        '2026-10-25T00:00:00.000Z',
        '2026-11-01T01:00:00.000Z',
      ]);
    });
  });

  it('handles half-hour shifts and a skipped calendar day', () => {
    // Lord Howe Island moves from +10:30 to +11 at 02:00 local on 2026-10-04.
    expect(nextRunAt(daily('Australia/Lord_Howe', 2), new Date('2026-10-03T00:00:00Z')).toISOString()).toBe(
      '2026-10-03T15:30:00.000Z',
    );
    // Samoa skipped 2011-12-30 entirely: 05:00 that day runs at the jump, 2011-12-31 00:00 local.
    expect(nextRunAt(daily('Pacific/Apia', 5), new Date('2011-12-29T16:00:00Z')).toISOString()).toBe(
      '2011-12-30T10:00:00.000Z',
    );
  });
});

describe('time zone names', () => {
  it('accepts IANA names and UTC, refuses anything else', () => {
    for (const zone of ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata']) {
      expect(isValidTimeZone(zone)).toBe(true);
    }
    for (const zone of ['Mars/Olympus', 'GMT+25', '', 'Europe/Berlin ', '+02:00', '-0530'])
      expect(isValidTimeZone(zone)).toBe(false);
  });

  it('spells a zone canonically', () => {
    expect(canonicalTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
  });
});
