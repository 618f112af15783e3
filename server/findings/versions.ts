/**
 * The organization's findings version: a counter bumped by every transaction that
 * changes the organization's findings (recording a scan, PATCH, bulk update).
 * Because the bump commits with the change, a reader that reads the version
 * first and the data second never pairs an old result with a new version, so
 * caches keyed by the version stay exact across server processes.
 *
 * The queries live in finding-versions.repository.ts; this module keeps the
 * names the lifecycle, the triage and the caches import.
 */
export { bumpFindingsVersion, findingsVersion } from './finding-versions.repository.ts';
