/**
 * Heartbeats: often enough that a cancel stops the work within seconds. (The
 * scan row itself is written only through server/scans/lifecycle.ts.)
 */
export function heartbeatIntervalMs(leaseSeconds: number): number {
  return Math.min(2000, (leaseSeconds * 1000) / 3);
}
