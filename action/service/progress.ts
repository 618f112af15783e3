import type { ScanRecord } from '../core/scan.ts';

/**
 * Progress lines while the Action or scanward-ci polls: one line when the status, phase,
 * progress or running tool changes, nothing when a poll saw the same state,
 * so a 40-minute scan polled every 10 seconds does not flood the log.
 */
export function progressLine(scan: ScanRecord): string {
  if (scan.status === 'pending') return `Scan ${scan.id}: pending, waiting for a scan runner`;
  const parts = [`${scan.status}`, `${Math.round(scan.progress)}%`];
  if (scan.phase && scan.phase !== 'complete') parts.push(`phase ${scan.phase.replace(/_/g, ' ')}`);
  if (scan.current_tool) parts.push(`running ${scan.current_tool}`);
  return `Scan ${scan.id}: ${parts.join(', ')}`;
}

export class ProgressLog {
  private last: string | undefined;

  constructor(private readonly log: (line: string) => void) {}

  /** Logs the scan's state if it differs from the last one logged; says whether it did. */
  report(scan: ScanRecord): boolean {
    const line = progressLine(scan);
    if (line === this.last) return false;
    this.last = line;
    this.log(line);
    return true;
  }
}
