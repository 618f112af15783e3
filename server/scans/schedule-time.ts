import { IANAZone } from 'luxon';
import type { Frequency } from '../schemas/schedules.ts';

/**
 * When a schedule runs next, in its own time zone. A schedule names a local
 * wall-clock hour; daylight-saving changes make some of those hours not exist
 * (spring forward) and others happen twice (fall back). The rule for both: a
 * run happens at the first instant at which the local clock reads the
 * scheduled time or later. A skipped hour therefore runs at the moment the
 * clock jumps past it, and a repeated hour runs once, at its first occurrence.
 */

export interface Recurrence {
  frequency: Frequency;
  /** 0 = Sunday … 6 = Saturday (weekly). */
  day_of_week: number | null;
  /** 1–28 (monthly). */
  day_of_month: number | null;
  hour: number;
  timezone: string;
}

/**
 * Whether `name` is an IANA time zone this process knows (`UTC` included). Node 24's Intl also
 * takes UTC offsets such as `+02:00` as zones; an offset is not a zone name (it has no daylight
 * saving rules), so it is refused on every Node alike.
 */
export function isValidTimeZone(name: string): boolean {
  return !/^[+-]/.test(name) && IANAZone.isValidZone(name);
}

/** The canonical spelling of a valid zone name (`europe/berlin` → `Europe/Berlin`), or the name as given. */
export function canonicalTimeZone(name: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return name;
  }
}

const MINUTE = 60_000;

/** The local clock reading of an instant in a zone, as milliseconds on a UTC-like axis. */
function wallClock(zone: IANAZone, instant: number): number {
  return instant + zone.offset(instant) * MINUTE;
}

/**
 * The first instant at which the zone's clock reads `wall` (a local date and
 * time as milliseconds on a UTC-like axis) or later, looking around that time.
 */
export function firstInstantAtOrAfter(zone: IANAZone, wall: number): number {
  // The offsets in force a day before and a day after bracket every candidate.
  const offsets = [
    ...new Set([zone.offset(wall - 86_400_000), zone.offset(wall), zone.offset(wall + 86_400_000)]),
  ];
  const exact = offsets
    .map((o) => wall - o * MINUTE)
    .filter((t) => wallClock(zone, t) === wall)
    .sort((a, b) => a - b);
  if (exact.length > 0) return exact[0]!;
  // The time was skipped: find the jump, the earliest instant whose clock reads later than `wall`.
  const candidates = offsets.map((o) => wall - o * MINUTE);
  let lo = Math.min(...candidates); // the clock reads earlier than `wall` here
  let hi = Math.max(...candidates); // and later here
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    if (wallClock(zone, mid) >= wall) hi = mid;
    else lo = mid;
  }
  return hi;
}

const DAY = 86_400_000;

/** Whether a local calendar day (midnight of it on the UTC-like axis) is one the recurrence runs on. */
function runsOn(r: Recurrence, localMidnight: number): boolean {
  const d = new Date(localMidnight);
  if (r.frequency === 'weekly') return d.getUTCDay() === r.day_of_week;
  if (r.frequency === 'monthly') return d.getUTCDate() === r.day_of_month;
  return true;
}

/**
 * The first run of a recurrence strictly after `after`. Every matching local
 * day yields exactly one instant, so a repeated hour never runs twice.
 */
export function nextRunAt(r: Recurrence, after: Date): Date {
  const zone = IANAZone.create(r.timezone);
  if (!zone.isValid) throw new Error(`unknown time zone ${r.timezone}`);
  // Walk local calendar days, starting a day early: the local date of `after`
  // may lag the date its next run falls on.
  const localToday = Math.floor(wallClock(zone, after.getTime()) / DAY) * DAY;
  for (let day = localToday - DAY; day <= localToday + 400 * DAY; day += DAY) {
    if (!runsOn(r, day)) continue;
    const at = firstInstantAtOrAfter(zone, day + r.hour * 3_600_000);
    if (at > after.getTime()) return new Date(at);
  }
  throw new Error('no run found within 400 days');
}
