/**
 * Compatibility names for importers not yet moved (test helpers and tests).
 * New code imports the scan lifecycle (lifecycle.ts: every state change) and
 * the scans repository (scans.repository.ts: the SQL) directly.
 */
export {
  cancelScan,
  getScan,
  queueScan as insertScan,
  scanNotCancellable,
  type NewScan,
} from './lifecycle.ts';
export {
  ACTIVE_STATUSES,
  activeScans,
  countScansCreatedSince,
  FINISHED_STATUSES,
  findScan,
  listScans,
  type ScanFilters,
  type ScanRow,
} from './scans.repository.ts';
export { severityCounts, type SeverityCounts } from '../findings/finding-observations.repository.ts';
