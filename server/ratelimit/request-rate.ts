import type { Context } from 'koa';
import type { Knex } from 'knex';
import type { Principal } from '../auth/principal.ts';
import { effectiveLimits } from '../identity/plans.ts';
import { rateLimited } from '../http/errors.ts';
import { incrementWindows } from './counters.ts';

const WINDOWS = [
  { name: 'hour', seconds: 3600, limit: (l: ReturnType<typeof effectiveLimits>) => l.hourlyRequests },
  { name: 'day', seconds: 86_400, limit: (l: ReturnType<typeof effectiveLimits>) => l.dailyRequests },
] as const;

/**
 * Counts one request against the organization's hourly and daily limits and
 * sets `X-RateLimit-*` from the window closest to running out. Over either
 * limit: 429 RATE_LIMIT_EXCEEDED with `Retry-After`. A window whose limit is
 * -1 (unlimited) is not counted.
 */
export async function countRequest(
  db: Knex,
  ctx: Context,
  principal: Principal,
  now = new Date(),
): Promise<void> {
  const limits = effectiveLimits(principal.org);
  const active = WINDOWS.map((w) => ({ ...w, max: w.limit(limits) })).filter((w) => w.max >= 0);
  if (active.length === 0) return;
  const counts = await incrementWindows(
    db,
    active.map((w) => ({ bucket: `org:${principal.org.id}:${w.name}`, seconds: w.seconds })),
    now,
  );
  const states = active.map((w, i) => {
    const c = counts[i]!;
    return {
      name: w.name,
      max: w.max,
      used: c.count,
      reset: c.windowEnd,
      remaining: Math.max(0, w.max - c.count),
    };
  });
  const exceeded = states
    .filter((s) => s.used > s.max)
    .sort((a, b) => b.reset.getTime() - a.reset.getTime())[0];
  const closest =
    exceeded ??
    [...states].sort((a, b) => a.remaining - b.remaining || a.reset.getTime() - b.reset.getTime())[0]!;
  const headers = {
    'X-RateLimit-Limit': String(closest.max),
    'X-RateLimit-Remaining': String(closest.remaining),
    'X-RateLimit-Reset': String(Math.ceil(closest.reset.getTime() / 1000)),
  };
  if (exceeded) {
    const err = rateLimited(
      'RATE_LIMIT_EXCEEDED',
      `request rate limit exceeded (${exceeded.max} requests per ${exceeded.name})`,
      (exceeded.reset.getTime() - now.getTime()) / 1000,
    );
    Object.assign(err.headers, headers);
    throw err;
  }
  ctx.set(headers);
}
