import { presentScanListItem } from '../scans/presenter.ts';
import type { ScanRow } from '../scans/repository.ts';

/** The `data` of `scan.*` webhook events: the scan list view, from the counts the lifecycle service wrote. */
export function presentScanEvent(row: unknown) {
  const scan = row as ScanRow &
    Record<'critical_count' | 'high_count' | 'medium_count' | 'low_count' | 'info_count', number>;
  return presentScanListItem(scan, {
    critical: scan.critical_count,
    high: scan.high_count,
    medium: scan.medium_count,
    low: scan.low_count,
    info: scan.info_count,
  });
}
