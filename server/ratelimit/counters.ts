import type { Db } from '../db/index.ts';
import { addToCounters, deleteExpiredCounters, findCounters } from './rate-counters.repository.ts';

export interface WindowCount {
  bucket: string;
  windowStart: Date;
  windowEnd: Date;
  count: number;
}

export interface WindowSpec {
  bucket: string;
  seconds: number;
  /** Keep the counter this much longer after its window ends (a sliding window reads the previous one). */
  retainSeconds?: number;
}

function windowOf(now: Date, seconds: number): { start: Date; end: Date } {
  const ms = seconds * 1000;
  const start = Math.floor(now.getTime() / ms) * ms;
  return { start: new Date(start), end: new Date(start + ms) };
}

/**
 * Adds `by` to fixed-window counters in one statement and returns the new counts.
 * The upsert is atomic in PostgreSQL, so any number of server processes sharing
 * the database count one limit.
 */
export async function incrementWindows(
  db: Db,
  windows: WindowSpec[],
  now = new Date(),
  by = 1,
): Promise<WindowCount[]> {
  if (windows.length === 0) return [];
  const rows = windows.map((w) => {
    const { start, end } = windowOf(now, w.seconds);
    const expires = new Date(end.getTime() + (w.retainSeconds ?? 0) * 1000);
    return { bucket: w.bucket, window_start: start, count: by, expires_at: expires };
  });
  const result = await addToCounters(db, rows);
  return windows.map((w) => {
    const { start, end } = windowOf(now, w.seconds);
    const row = result.find((r) => r.bucket === w.bucket);
    return { bucket: w.bucket, windowStart: start, windowEnd: end, count: row?.count ?? 0 };
  });
}

/** Reads counters without changing them (0 for a window nobody counted yet). */
export async function readWindows(db: Db, windows: WindowSpec[], now = new Date()): Promise<WindowCount[]> {
  const specs = windows.map((w) => ({ ...w, ...windowOf(now, w.seconds) }));
  const rows = await findCounters(
    db,
    specs.map((s) => ({ bucket: s.bucket, window_start: s.start })),
  );
  return specs.map((s) => ({
    bucket: s.bucket,
    windowStart: s.start,
    windowEnd: s.end,
    count: rows.find((r) => r.bucket === s.bucket)?.count ?? 0,
  }));
}

/** Drops counters whose window has passed. */
export async function sweepExpiredCounters(db: Db, now = new Date()): Promise<number> {
  return deleteExpiredCounters(db, now);
}
