import type { Db } from '../db/index.ts';
import { newId } from '../identity/ids.ts';
import type { FindingStatus } from '../schemas/findings.ts';
import type { SlaPolicy } from '../schemas/settings.ts';
import { normalizeDetections, type NormalizedDetection } from './normalize.ts';
import { severityRank, type Severity } from '../scoring/severity.ts';
import { insertHistoryRows } from './finding-history.repository.ts';
import {
  insertObservations,
  observationTally,
  observedFindingIds,
  type NewObservation,
  type ObservationChange,
} from './finding-observations.repository.ts';
import {
  findingsWithActiveSources,
  markSourcesResolved,
  selectSourcesOf,
  upsertSources,
  type FindingSourceRow,
  type SourceKind,
} from './finding-sources.repository.ts';
import { headlineOf, type Headline } from './sources.ts';
import {
  applySightings,
  insertFindingsIfNew,
  lockCoveredUnobserved,
  lockFindingsByFingerprint,
  type CoveredCombination,
  type FindingKey,
  type NewOpenFinding,
  type Sighting,
} from './findings-lifecycle.repository.ts';
import { statusChange } from './history.ts';
import { dueDateFor, slaPolicyOf } from './sla.ts';
import { bumpFindingsVersion } from './finding-versions.repository.ts';
import { SYSTEM_ACTOR, type HistoryRow, type RemediationValue } from './rows.ts';
import { reopenSighted, resolveUndetected as resolveFindings } from './transitions.ts';
import { queueVulnerabilityEvents } from './vulnerability-events.ts';

/**
 * The finding lifecycle: what one scan's detections do to an organization's
 * findings. See docs/finding-lifecycle.md.
 *
 * - A detection is identified by its fingerprint (fingerprint.ts). A new
 *   fingerprint becomes an `open` finding owned by the scan; a known one is
 *   updated in place (last seen, times seen, latest evidence).
 * - A `resolved` finding detected again is reopened by `system`.
 * - When the scan is complete, an `open` or `in_progress` finding whose target,
 *   check and port the scan covered but did not detect is resolved by `system`.
 * - `false_positive` and `accepted` findings are never changed by the system
 *   (their sightings are still recorded).
 * - Every sighting is an observation (scan, finding, severity then, change), so
 *   a scan's counts and finding list never change when later scans run.
 * - `vulnerability.found` is appended to the domain-event outbox for every new or
 *   reopened finding, and `vulnerability.critical` too when it is critical, in the
 *   same transaction (webhooks and the event stream read it there).
 *
 * Recording is idempotent per scan and may be incremental: a finding the scan
 * already observed is not counted twice, and resolution only happens on the
 * call that says the scan is complete, against everything the scan observed.
 */

export type { FindingDetection, PlannedRemediation } from './normalize.ts';
import type { FindingDetection } from './normalize.ts';

/**
 * A (target, check, port) combination the scan tested; without a port it covers every
 * port. A sweep of many ports names them as inclusive `port_ranges` instead: one entry
 * per host rather than one per port.
 */
export interface FindingCoverage {
  target: string;
  check_id: string;
  port?: number | null;
  port_ranges?: ReadonlyArray<readonly [number, number]>;
}

export interface ScanRef {
  id: string;
  org_id: string;
  target: string;
  scan_type: string;
}

export interface RecordScanFindingsInput {
  scan: ScanRef;
  detections: readonly FindingDetection[];
  coverage: readonly FindingCoverage[];
  /** True when the scan finished: only then are undetected covered findings resolved. */
  completed: boolean;
  /**
   * When given, the only findings the scan may resolve (an import resolves only what its own
   * tool alone reported: server/imports/); coverage still says which of them it covered.
   */
  resolvable?: readonly string[];
  /** Who saw the detections: Scanward's own scan (the default) or one tool's import. */
  source?: ResultSource;
  now?: Date;
}

/** Where a batch of detections came from: each source keeps its own view of a finding (sources.ts). */
export interface ResultSource {
  kind: SourceKind;
  /** The engine's name for a scan (`scanward`), the report's tool for an import (`nuclei`). */
  tool: string;
}

/** A source's key: `scan` for Scanward's own scans (whichever check's tool), `import:<tool>` for imports. */
export function sourceKeyOf(source: ResultSource): string {
  return source.kind === 'scan' ? 'scan' : `import:${source.tool.trim().toLowerCase()}`;
}

function sourceOf(source: ResultSource | undefined): ResultSource & { key: string } {
  const s = source ?? { kind: 'scan' as const, tool: 'scanward' };
  return { ...s, key: sourceKeyOf(s) };
}

/** A scan's findings per severity, from its observations. */
export interface ScanTally {
  critical: number;
  high: number;
  medium: number;
  low: number;
  info: number;
  /** critical + high + medium + low; informational findings are not counted. */
  vulnerabilities_found: number;
}

/**
 * What recording a batch did: the scan's tally over all its observations so far (per
 * severity, and per change), and the findings this call created, reopened and resolved. The
 * scan lifecycle writes the tally to the scan row (scans/recording.ts).
 */
export interface FindingsRecording {
  counts: ScanTally;
  byChange: Record<ObservationChange, number>;
  new_finding_ids: string[];
  reopened_finding_ids: string[];
  resolved_finding_ids: string[];
}

/** Rows per multi-row statement: well under PostgreSQL's 65,535 bind parameters. */
const CHUNK = 500;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Records one scan's detections in the caller's transaction: findings, observations, history
 * and the domain events, and answers the scan's tally. The scan lifecycle calls it and writes
 * the tally to the scan row (`recordScanFindings`, scans/recording.ts): findings sit below scans.
 */
export async function recordFindings(trx: Db, input: RecordScanFindingsInput): Promise<FindingsRecording> {
  const { scan } = input;
  const orgId = scan.org_id;
  const now = input.now ?? new Date();
  const { byFingerprint: prepared, canonical } = normalizeDetections(orgId, input.detections);
  const source = sourceOf(input.source);

  // Known findings are locked, and new ones inserted, in fingerprint order: two scans
  // of one organization recording the same findings take their locks in one order.
  const fingerprints = [...prepared.keys()].sort();
  const existing = await lockByFingerprint(trx, orgId, fingerprints);
  const fresh = fingerprints.filter((fp) => !existing.has(fp)).map((fp) => prepared.get(fp)!);
  const sla = fresh.length > 0 ? await slaPolicyOf(trx, orgId) : undefined;
  const inserted = await insertNewFindings(trx, scan, fresh, now, sla);
  const sourceRows: FindingSourceRow[] = [];
  for (const [fp, id] of inserted)
    sourceRows.push(sourceRow(orgId, id, scan.id, source, prepared.get(fp)!, now));
  // A concurrent scan may have created some of them first: treat those as known.
  const raced = fresh.filter((p) => !inserted.has(p.fingerprint)).map((p) => p.fingerprint);
  if (raced.length > 0) {
    for (const [fp, f] of await lockByFingerprint(trx, orgId, raced)) existing.set(fp, f);
  }

  // A finding this scan already observed (an earlier call for the same scan) is not counted again.
  const seen = await observedBy(
    trx,
    orgId,
    scan.id,
    [...existing.values()].map((f) => f.id),
  );
  const sightings = [...existing.values()].filter((f) => !seen.has(f.id));
  const reopened = sightings.filter((f) => f.status === 'resolved');
  for (const batch of chunks(sightings)) {
    // Each sighted finding's other sources: its headline is the strongest view of all (sources.ts).
    const stored = new Map<string, FindingSourceRow[]>();
    for (const row of await selectSourcesOf(
      trx,
      orgId,
      batch.map((f) => f.id),
    ))
      stored.set(row.finding_id, [...(stored.get(row.finding_id) ?? []), row]);
    const views = batch.map((f) => {
      const mine = sourceRow(orgId, f.id, scan.id, source, prepared.get(f.fingerprint)!, now);
      const earlier = stored.get(f.id) ?? [];
      const own = earlier.find((r) => r.source_key === source.key);
      if (own) {
        mine.first_scan_id = own.first_scan_id;
        mine.first_seen_at = own.first_seen_at;
      }
      sourceRows.push(mine);
      return {
        finding: f,
        headline: headlineOf([...earlier.filter((r) => r.source_key !== source.key), mine]),
      };
    });
    await applySightings(
      trx,
      orgId,
      scan.id,
      views.map(({ finding, headline }) =>
        sightingOf(finding, prepared.get(finding.fingerprint)!, headline, source),
      ),
      now,
    );
  }
  for (const batch of chunks(sourceRows)) await upsertSources(trx, batch);
  // A resolved finding seen again is open again (transitions.ts: the scan's move).
  await reopenSighted(trx, orgId, reopened, now);

  const observations: NewObservation[] = [];
  for (const [fp, id] of inserted)
    observations.push({ finding_id: id, severity: prepared.get(fp)!.severity, change: 'new' });
  for (const f of sightings) {
    observations.push({
      finding_id: f.id,
      severity: prepared.get(f.fingerprint)!.severity,
      change: f.status === 'resolved' ? 'reopened' : 'unchanged',
    });
  }
  for (const batch of chunks(observations)) await insertObservations(trx, orgId, scan.id, batch, now);

  // A new finding is born `open` (the column's default): its first history entry.
  const history: HistoryRow[] = [...inserted.values()].map((id) =>
    statusChange(orgId, id, null, 'open', SYSTEM_ACTOR, now),
  );

  const resolved = input.completed
    ? await resolveUndetected(
        trx,
        scan.id,
        orgId,
        input.coverage,
        canonical,
        now,
        source.key,
        input.resolvable,
      )
    : [];
  for (const batch of chunks(history)) await insertHistoryRows(trx, scan.org_id, batch);

  const newIds = [...inserted.values()];
  const reopenedIds = reopened.map((f) => f.id);
  const tally = await tallyScan(trx, scan);
  await queueVulnerabilityEvents(trx, orgId, [...newIds, ...reopenedIds], now, { scanId: scan.id });
  if (observations.length > 0 || resolved.length > 0) await bumpFindingsVersion(trx, orgId);

  return {
    ...tally,
    new_finding_ids: newIds,
    reopened_finding_ids: reopenedIds,
    resolved_finding_ids: resolved.map((f) => f.id),
  };
}

async function lockByFingerprint(
  trx: Db,
  orgId: string,
  fingerprints: string[],
): Promise<Map<string, FindingKey>> {
  const found = new Map<string, FindingKey>();
  for (const batch of chunks(fingerprints)) {
    for (const row of await lockFindingsByFingerprint(trx, orgId, batch)) found.set(row.fingerprint, row);
  }
  return found;
}

const EMPTY_REMEDIATION: RemediationValue = { summary: '', steps: [], code_example: '', references: [] };

/**
 * Inserts the new findings; returns fingerprint → id of those this call created.
 * A new finding takes remediation planning's plan: its remediation, and its
 * priority unless the detection suggested one.
 */
async function insertNewFindings(
  trx: Db,
  scan: ScanRef,
  fresh: NormalizedDetection[],
  now: Date,
  sla: SlaPolicy | undefined,
): Promise<Map<string, string>> {
  const created = new Map<string, string>();
  for (const batch of chunks(fresh)) {
    const rows = batch.map((p): NewOpenFinding => {
      const d = p.detection;
      return {
        id: newId('finding'),
        org_id: scan.org_id,
        fingerprint: p.fingerprint,
        scan_id: scan.id,
        last_scan_id: scan.id,
        title: d.title,
        severity: p.severity,
        severity_rank: severityRank(p.severity),
        cvss_score: p.cvssScore,
        cvss_vector: p.cvssVector,
        epss_score: d.epss_score ?? null,
        target: d.target,
        affected_component: d.affected_component,
        port: d.port ?? null,
        tool: d.tool,
        template_id: p.checkId,
        category: d.category ?? null,
        cve_ids: d.cve_ids,
        cwe_ids: d.cwe_ids,
        description: d.description,
        impact: d.impact,
        remediation: JSON.stringify(d.planned?.remediation ?? d.remediation ?? EMPTY_REMEDIATION),
        evidence: JSON.stringify(p.evidence),
        frameworks: JSON.stringify(d.frameworks ?? []),
        kev: d.kev ?? false,
        priority: d.priority ?? d.planned?.priority ?? null,
        // The SLA's due date, set once at detection (sla.ts); a person may change it.
        due_date: sla ? dueDateFor(sla, p.severity, now) : null,
        detected_at: now,
        last_seen_at: now,
        times_seen: 1,
        created_at: now,
        updated_at: now,
      };
    });
    for (const r of await insertFindingsIfNew(trx, scan.org_id, rows)) created.set(r.fingerprint, r.id);
  }
  return created;
}

async function observedBy(
  trx: Db,
  orgId: string,
  scanId: string,
  findingIds: string[],
): Promise<Set<string>> {
  const seen = new Set<string>();
  for (const batch of chunks(findingIds)) {
    for (const id of await observedFindingIds(trx, orgId, scanId, batch)) seen.add(id);
  }
  return seen;
}

/**
 * A new sighting of a known finding: the latest detection's data. Remediation,
 * frameworks, EPSS, KEV and category are kept when the detection does not carry
 * them. A reopened finding (it was `resolved`) takes remediation planning's plan:
 * its remediation, and its priority where none is set.
 */
function sightingOf(
  finding: FindingKey,
  p: NormalizedDetection,
  headline: Headline,
  source: { key: string },
): Sighting {
  const d = p.detection;
  const plan = finding.status === 'resolved' ? d.planned : undefined;
  // This source leads: its whole view; else only what adds to the finding (CVEs, CWEs, KEV, EPSS).
  const leads = headline.source_key === source.key;
  return {
    id: finding.id,
    title: headline.title,
    severity: headline.severity,
    severity_rank: severityRank(headline.severity),
    cvss_score: headline.cvss_score,
    cvss_vector: headline.cvss_vector,
    epss_score: d.epss_score ?? null,
    port: d.port ?? null,
    tool: headline.tool,
    category: leads ? (d.category ?? null) : null,
    cve_ids: d.cve_ids,
    cwe_ids: d.cwe_ids,
    description: headline.description,
    impact: leads && d.impact.trim() ? d.impact : null,
    remediation: plan?.remediation ?? (leads ? (d.remediation ?? null) : null),
    evidence: headline.evidence,
    frameworks: d.frameworks ?? null,
    kev: d.kev ?? null,
    planned_priority: plan?.priority ?? null,
  };
}

/** A source's view of a finding, as this batch saw it. */
function sourceRow(
  orgId: string,
  findingId: string,
  scanId: string,
  source: ResultSource & { key: string },
  p: NormalizedDetection,
  now: Date,
): FindingSourceRow {
  return {
    finding_id: findingId,
    org_id: orgId,
    source_key: source.key,
    kind: source.kind,
    tool: p.detection.tool,
    first_scan_id: scanId,
    last_scan_id: scanId,
    first_seen_at: now,
    last_seen_at: now,
    severity: p.severity,
    cvss_score: p.cvssScore,
    cvss_vector: p.cvssVector,
    title: p.detection.title,
    description: p.detection.description,
    evidence: p.evidence,
    established: p.evidence.established ?? 'confirmed',
    status: 'active',
    resolved_at: null,
  };
}

/**
 * Resolves, as `system`, the open and in-progress findings whose target, check
 * and port the completed scan covered without observing them (and, when given, that
 * are `resolvable`). Returns them with the status they had.
 */
async function resolveUndetected(
  trx: Db,
  scanId: string,
  orgId: string,
  coverage: readonly FindingCoverage[],
  canonical: Map<string, string>,
  now: Date,
  sourceKey: string,
  resolvable?: readonly string[],
): Promise<{ id: string; status: FindingStatus }[]> {
  const allowed = resolvable && new Set(resolvable);
  const combos = new Map<string, { targets: Set<string>; combo: Omit<CoveredCombination, 'targets'> }>();
  for (const c of coverage) {
    const combo = {
      check_id: canonical.get(c.check_id) ?? c.check_id,
      port: c.port_ranges ? null : (c.port ?? null),
      port_ranges: c.port_ranges ?? null,
    };
    const key = JSON.stringify(combo);
    const entry = combos.get(key) ?? { targets: new Set<string>(), combo };
    entry.targets.add(c.target.trim().toLowerCase());
    combos.set(key, entry);
  }
  if (combos.size === 0) return [];
  const found = new Map<string, FindingStatus>();
  const combinations = [...combos.values()].map(({ targets, combo }) => ({
    targets: [...targets],
    ...combo,
  }));
  for (const batch of chunks(combinations, 2000)) {
    const rows = await lockCoveredUnobserved(trx, orgId, scanId, batch);
    // A finding may match combos of two batches; it is resolved once.
    for (const r of rows) if (!found.has(r.id) && (!allowed || allowed.has(r.id))) found.set(r.id, r.status);
  }
  // The source stops reporting them: its own view is resolved; a finding another source still
  // reports stays as it is.
  const stillReported = new Set<string>();
  for (const batch of chunks([...found.keys()])) {
    await markSourcesResolved(trx, orgId, sourceKey, batch, now);
    for (const id of await findingsWithActiveSources(trx, orgId, batch)) stillReported.add(id);
  }
  for (const id of stillReported) found.delete(id);
  const resolved = [...found].map(([id, status]) => ({ id, status }));
  await resolveFindings(trx, orgId, resolved, now);
  return resolved;
}

/**
 * The scan's per-severity counts and its observations per change, from its observations (so
 * they are the scan's own and never change later).
 */
async function tallyScan(
  trx: Db,
  scan: ScanRef,
): Promise<{ counts: ScanTally; byChange: Record<ObservationChange, number> }> {
  const bySeverity: Record<Severity, number> = { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  const byChange: Record<ObservationChange, number> = { new: 0, reopened: 0, unchanged: 0 };
  for (const r of await observationTally(trx, scan.org_id, scan.id)) {
    bySeverity[r.severity] += r.n;
    byChange[r.change] += r.n;
  }
  const counts: ScanTally = {
    ...bySeverity,
    vulnerabilities_found: bySeverity.critical + bySeverity.high + bySeverity.medium + bySeverity.low,
  };
  return { counts, byChange };
}
