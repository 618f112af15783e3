import type { Db } from '../db/index.ts';
import { newId } from '../identity/ids.ts';
import type { FindingPriority, FindingStatus } from '../schemas/findings.ts';
import type { SlaPolicy } from '../schemas/settings.ts';
import { writeScanCounts, type ScanTally } from '../scans/lifecycle.ts';
import type { ScanChanges } from '../scans/scans.repository.ts';
import { tryCvssScore } from '../scoring/cvss.ts';
import { isSeverity, severityRank, type Severity } from '../scoring/severity.ts';
import { appendEvents, type NewDomainEvent } from '../events/outbox.ts';
import { insertHistoryRows } from './finding-history.repository.ts';
import {
  insertObservations,
  observationTally,
  observedFindingIds,
  type NewObservation,
  type ObservationChange,
} from './finding-observations.repository.ts';
import { findingFingerprint } from './fingerprint.ts';
import {
  applySightings,
  findingListRows,
  insertFindingsIfNew,
  lockCoveredUnobserved,
  lockFindingsByFingerprint,
  markFindingsResolved,
  type CoveredCombination,
  type FindingKey,
  type Sighting,
} from './findings-lifecycle.repository.ts';
import type { NewFindingRow } from './findings.repository.ts';
import { statusChange } from './history.ts';
import { dueDateFor, slaPolicyOf } from './sla.ts';
import { bumpFindingsVersion } from './finding-versions.repository.ts';
import {
  SYSTEM_ACTOR,
  type EvidenceValue,
  type FrameworkValue,
  type HistoryRow,
  type RemediationValue,
} from './rows.ts';
import { findingListItem } from './views.ts';

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

/**
 * One detection as the lifecycle records it: one weakness seen at one place.
 * The scan engine's `Detection` (server/scanner/types.ts) has this shape; the
 * lifecycle states its own input so findings/ does not depend on the engine.
 */
export interface FindingDetection {
  /** Canonical check (template) id. */
  check_id: string;
  /** Upstream template ids this check stands for, so two tools' reports stay one finding. */
  upstream_ids?: string[];
  title: string;
  severity: Severity;
  /** CVSS vector; the score is computed from it (0.0 without a valid one, unless `cvss_score` states one). */
  cvss_vector?: string | null;
  /**
   * A base score stated without a vector (another tool's report, server/imports/): the finding's
   * score only when `cvss_vector` gives none. A vector always wins, since the score is computed.
   */
  cvss_score?: number | null;
  epss_score?: number | null;
  /** The concrete host scanned. */
  target: string;
  /** A URL with an explicit port: `https://host:443/path`, `redis://host:6379`. */
  affected_component: string;
  port?: number | null;
  tool: string;
  category?: string | null;
  cve_ids: string[];
  cwe_ids: string[];
  description: string;
  impact: string;
  /** Kept from the last detection that carried one when absent. */
  remediation?: RemediationValue;
  evidence: {
    request: string;
    response: string;
    screenshot_url?: string | null;
    established?: 'confirmed' | 'inferred from version';
  };
  /** Kept from the last detection that carried them when absent. */
  frameworks?: FrameworkValue[];
  kev?: boolean;
  /** A suggested priority, applied to new findings only (never over a person's choice). */
  priority?: FindingPriority;
  /** Remediation planning's plan, applied when the finding is new or reopened (see {@link PlannedRemediation}). */
  planned?: PlannedRemediation;
}

/**
 * What remediation planning worked out for a detection. Applied only when the
 * sighting is new or reopened: `remediation` replaces the detection's, and
 * `priority` is set where the detection and the finding have none.
 */
export interface PlannedRemediation {
  priority: FindingPriority;
  remediation: RemediationValue;
}

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
  now?: Date;
}

export interface ScanFindingsSummary {
  counts: ScanTally;
  changes: ScanChanges;
  new_finding_ids: string[];
  reopened_finding_ids: string[];
  resolved_finding_ids: string[];
}

/** A detection ready to write. */
interface Prepared {
  fingerprint: string;
  checkId: string;
  detection: FindingDetection;
  severity: Severity;
  cvssScore: number;
  cvssVector: string | null;
  evidence: EvidenceValue;
}

/** A stated score within CVSS's 0.0 to 10.0, else 0.0. */
function statedScore(score: number | null | undefined): number {
  return typeof score === 'number' && Number.isFinite(score) && score >= 0 && score <= 10 ? score : 0;
}

/** Rows per multi-row statement: well under PostgreSQL's 65,535 bind parameters. */
const CHUNK = 500;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Records one scan's detections in one transaction: the caller's, or a new one
 * when given the root connection. Writes findings, observations, history, the
 * scan's per-severity counts (and its `changes` once complete, through the scan
 * lifecycle) and the domain events.
 */
export async function recordScanFindings(
  db: Db,
  input: RecordScanFindingsInput,
): Promise<ScanFindingsSummary> {
  if (db.isTransaction === true) return record(db, input);
  return db.transaction((trx) => record(trx, input));
}

async function record(trx: Db, input: RecordScanFindingsInput): Promise<ScanFindingsSummary> {
  const { scan } = input;
  const orgId = scan.org_id;
  const now = input.now ?? new Date();
  const canonical = canonicalCheckIds(input.detections);
  const prepared = prepareDetections(orgId, input.detections, canonical);

  // Known findings are locked, and new ones inserted, in fingerprint order: two scans
  // of one organization recording the same findings take their locks in one order.
  const fingerprints = [...prepared.keys()].sort();
  const existing = await lockByFingerprint(trx, orgId, fingerprints);
  const fresh = fingerprints.filter((fp) => !existing.has(fp)).map((fp) => prepared.get(fp)!);
  const sla = fresh.length > 0 ? await slaPolicyOf(trx, orgId) : undefined;
  const inserted = await insertNewFindings(trx, scan, fresh, now, sla);
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
    await applySightings(
      trx,
      orgId,
      scan.id,
      batch.map((f) => sightingOf(f, prepared.get(f.fingerprint)!)),
      now,
    );
  }

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

  const history: HistoryRow[] = [
    ...[...inserted.values()].map((id) => statusChange(orgId, id, null, 'open', SYSTEM_ACTOR, now)),
    ...reopened.map((f) => statusChange(orgId, f.id, 'resolved', 'open', SYSTEM_ACTOR, now)),
  ];

  const resolved = input.completed
    ? await resolveUndetected(trx, scan.id, orgId, input.coverage, canonical, now, input.resolvable)
    : [];
  history.push(...resolved.map((f) => statusChange(orgId, f.id, f.status, 'resolved', SYSTEM_ACTOR, now)));
  for (const batch of chunks(history)) await insertHistoryRows(trx, scan.org_id, batch);

  const newIds = [...inserted.values()];
  const reopenedIds = reopened.map((f) => f.id);
  const counts = await countScan(trx, scan, resolved.length, input.completed, now);
  await queueVulnerabilityEvents(trx, orgId, scan.id, [...newIds, ...reopenedIds], now);
  if (observations.length > 0 || resolved.length > 0) await bumpFindingsVersion(trx, orgId);

  return {
    ...counts,
    new_finding_ids: newIds,
    reopened_finding_ids: reopenedIds,
    resolved_finding_ids: resolved.map((f) => f.id),
  };
}

/** upstream template id → canonical check id, from every detection's declaration. */
function canonicalCheckIds(detections: readonly FindingDetection[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const d of detections) for (const upstream of d.upstream_ids ?? []) map.set(upstream, d.check_id);
  return map;
}

/**
 * Scores, normalizes and fingerprints the detections; two detections of one
 * fingerprint in the same scan are one sighting (the more severe one wins).
 */
function prepareDetections(
  orgId: string,
  detections: readonly FindingDetection[],
  canonical: Map<string, string>,
): Map<string, Prepared> {
  const out = new Map<string, Prepared>();
  for (const detection of detections) {
    if (!isSeverity(detection.severity))
      throw new Error(`detection has an unknown severity "${detection.severity}"`);
    if (!detection.check_id.trim()) throw new Error('detection has no check_id');
    const checkId = canonical.get(detection.check_id) ?? detection.check_id;
    const fingerprint = findingFingerprint({
      orgId,
      target: detection.target,
      affectedComponent: detection.affected_component,
      checkId,
    });
    const score = tryCvssScore(detection.cvss_vector);
    const cveIds = [...new Set(detection.cve_ids.map((id) => id.trim().toUpperCase()))];
    const candidate: Prepared = {
      fingerprint,
      checkId,
      detection: { ...detection, cve_ids: cveIds },
      severity: detection.severity,
      cvssScore: score?.baseScore ?? statedScore(detection.cvss_score),
      cvssVector: score ? score.vector : null,
      evidence: {
        request: detection.evidence.request,
        response: detection.evidence.response,
        screenshot_url: detection.evidence.screenshot_url ?? null,
        ...(detection.evidence.established && { established: detection.evidence.established }),
      },
    };
    const earlier = out.get(fingerprint);
    if (!earlier || severityRank(candidate.severity) > severityRank(earlier.severity))
      out.set(fingerprint, candidate);
  }
  return out;
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
  fresh: Prepared[],
  now: Date,
  sla: SlaPolicy | undefined,
): Promise<Map<string, string>> {
  const created = new Map<string, string>();
  for (const batch of chunks(fresh)) {
    const rows = batch.map((p): NewFindingRow => {
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
        status: 'open',
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
function sightingOf(finding: FindingKey, p: Prepared): Sighting {
  const d = p.detection;
  const plan = finding.status === 'resolved' ? d.planned : undefined;
  return {
    id: finding.id,
    title: d.title,
    severity: p.severity,
    severity_rank: severityRank(p.severity),
    cvss_score: p.cvssScore,
    cvss_vector: p.cvssVector,
    epss_score: d.epss_score ?? null,
    port: d.port ?? null,
    tool: d.tool,
    category: d.category ?? null,
    cve_ids: d.cve_ids,
    cwe_ids: d.cwe_ids,
    description: d.description,
    impact: d.impact,
    remediation: plan?.remediation ?? d.remediation ?? null,
    evidence: p.evidence,
    frameworks: d.frameworks ?? null,
    kev: d.kev ?? null,
    planned_priority: plan?.priority ?? null,
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
  for (const batch of chunks([...found.keys()])) await markFindingsResolved(trx, orgId, batch, now);
  return [...found].map(([id, status]) => ({ id, status }));
}

/**
 * The scan's per-severity counts and changes, from its observations (so they
 * are the scan's own and never change later), written to the scan row by the
 * scan lifecycle. `changes` is written once the scan is complete.
 */
async function countScan(
  trx: Db,
  scan: ScanRef,
  resolvedNow: number,
  completed: boolean,
  now: Date,
): Promise<{ counts: ScanTally; changes: ScanChanges }> {
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
  const changes = await writeScanCounts(trx, scan, { counts, byChange, resolvedNow, completed }, now);
  return { counts, changes };
}

/**
 * `vulnerability.found` for each new or reopened finding, and
 * `vulnerability.critical` as well for a critical one, appended to the domain-event
 * outbox (events/outbox.ts). The data is the finding's list view with `scan_id`
 * naming the detecting scan.
 */
async function queueVulnerabilityEvents(
  trx: Db,
  orgId: string,
  scanId: string,
  findingIds: string[],
  now: Date,
): Promise<void> {
  for (const batch of chunks(findingIds)) {
    const events: NewDomainEvent[] = [];
    for (const row of await findingListRows(trx, orgId, batch)) {
      const data = { ...findingListItem(row), scan_id: scanId };
      events.push({ type: 'vulnerability.found', subjectId: row.id, data });
      if (row.severity === 'critical')
        events.push({ type: 'vulnerability.critical', subjectId: row.id, data });
    }
    await appendEvents(trx, orgId, events, now);
  }
}
