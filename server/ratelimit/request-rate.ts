import type { Context } from 'koa';
import type { Db } from '../db/index.ts';
import type { Principal } from '../policies/principal.ts';
import { effectiveLimits, type Limits } from '../identity/plans.ts';
import { rateLimited } from '../errors.ts';
import { incrementWindows, readWindows, type WindowCount } from './counters.ts';

/** The two windows every organization is limited in (decisions.md, "Rate limits"). */
const WINDOWS = [
  { name: 'hour', seconds: 3600, limit: (l: Limits) => l.hourlyRequests },
  { name: 'day', seconds: 86_400, limit: (l: Limits) => l.dailyRequests },
] as const;

export interface WindowState {
  name: string;
  /** Requests allowed in the window. */
  max: number;
  /** Requests counted so far, this one included. */
  used: number;
  /** When the window ends and its count starts over. */
  reset: Date;
}

export interface RateVerdict {
  /** The `X-RateLimit-*` headers: the window closest to running out, or the one that ran out. */
  headers: Record<'X-RateLimit-Limit' | 'X-RateLimit-Remaining' | 'X-RateLimit-Reset', string>;
  /** Set when a window is over its limit: the one that stays closed longest. */
  exceeded?: WindowState;
}

/**
 * Decides from the window counts whether a request may pass and which window
 * the headers describe. Over a limit, the window that reopens last is reported,
 * so `Retry-After` is never too early. Otherwise the window with the fewest
 * requests left is reported (the sooner-resetting one on a tie).
 */
export function rateVerdict(states: WindowState[]): RateVerdict {
  const remaining = (s: WindowState) => Math.max(0, s.max - s.used);
  const exceeded = states
    .filter((s) => s.used > s.max)
    .sort((a, b) => b.reset.getTime() - a.reset.getTime())[0];
  const shown =
    exceeded ??
    [...states].sort((a, b) => remaining(a) - remaining(b) || a.reset.getTime() - b.reset.getTime())[0]!;
  return {
    headers: {
      'X-RateLimit-Limit': String(shown.max),
      'X-RateLimit-Remaining': String(remaining(shown)),
      'X-RateLimit-Reset': String(Math.ceil(shown.reset.getTime() / 1000)),
    },
    ...(exceeded ? { exceeded } : {}),
  };
}

/**
 * The headers of an organization without a request limit: -1 for the limit and
 * what remains (as the API writes "unlimited" everywhere), and the end of the
 * current day window, so every authenticated response still carries all three.
 */
export function unlimitedHeaders(now: Date): RateVerdict['headers'] {
  const day = WINDOWS[1].seconds;
  return {
    'X-RateLimit-Limit': '-1',
    'X-RateLimit-Remaining': '-1',
    'X-RateLimit-Reset': String((Math.floor(now.getTime() / 1000 / day) + 1) * day),
  };
}

/** The organization's limited windows and their counter buckets; a limit of -1 (unlimited) is left out. */
function activeWindows(principal: Principal) {
  const limits = effectiveLimits(principal.org);
  return WINDOWS.map((w) => ({
    name: w.name,
    seconds: w.seconds,
    max: w.limit(limits),
    bucket: `org:${principal.org.id}:${w.name}`,
  })).filter((w) => w.max >= 0);
}

function statesOf(windows: ReturnType<typeof activeWindows>, counts: WindowCount[]): WindowState[] {
  return windows.map((w, i) => ({
    name: w.name,
    max: w.max,
    used: counts[i]!.count,
    reset: counts[i]!.windowEnd,
  }));
}

/**
 * Counts one request against the organization's hourly and daily limits and
 * sets `X-RateLimit-*`. Over either limit: 429 RATE_LIMIT_EXCEEDED with
 * `Retry-After` and the same headers, and the request is not counted. The
 * counters live in the database and each increment is one atomic upsert, so
 * every server process sharing the database enforces one limit exactly.
 */
export async function countRequest(
  db: Db,
  ctx: Context,
  principal: Principal,
  now = new Date(),
): Promise<void> {
  const windows = activeWindows(principal);
  if (windows.length === 0) {
    ctx.set(unlimitedHeaders(now));
    return;
  }
  const counts = await incrementWindows(db, windows, now);
  const verdict = rateVerdict(statesOf(windows, counts));
  if (verdict.exceeded) {
    // A refused request does not spend the allowance: hammering past the hourly limit
    // must not use up the day. Taken back in the same windows it was counted in.
    await incrementWindows(db, windows, now, -1);
    const { name, max, reset } = verdict.exceeded;
    const err = rateLimited(
      'RATE_LIMIT_EXCEEDED',
      `request rate limit exceeded (${max} requests per ${name}); retry after the window resets`,
      (reset.getTime() - now.getTime()) / 1000,
    );
    Object.assign(err.headers, verdict.headers);
    throw err;
  }
  ctx.set(verdict.headers);
}

/**
 * Sets `X-RateLimit-*` on an authenticated response that is not counted (the
 * documentation), so every authenticated response carries them.
 */
export async function describeRequestRate(
  db: Db,
  ctx: Context,
  principal: Principal,
  now = new Date(),
): Promise<void> {
  const windows = activeWindows(principal);
  if (windows.length === 0) {
    ctx.set(unlimitedHeaders(now));
    return;
  }
  const counts = await readWindows(db, windows, now);
  ctx.set(rateVerdict(statesOf(windows, counts)).headers);
}
