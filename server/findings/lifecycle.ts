import type { Knex } from 'knex';
import { newId } from '../identity/ids.ts';
import { tryCvssScore } from '../scoring/cvss.ts';
import { isSeverity, severityRank, SEVERITIES, type Severity } from '../scoring/severity.ts';
import type { FindingPriority, FindingStatus } from '../schemas/findings.ts';
import { enqueueWebhookEvent } from '../webhooks/outbox.ts';
import { findingFingerprint } from './fingerprint.ts';
import { statusChange } from './history.ts';
import { bumpFindingsVersion } from './versions.ts';
import {
  LIST_COLUMNS,
  SYSTEM_ACTOR,
  type EvidenceValue,
  type FrameworkValue,
  type HistoryRow,
  type ListRow,
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
 * - `vulnerability.found` is queued for every new or reopened finding, and
 *   `vulnerability.critical` too when it is critical, in the same transaction.
 *
 * Recording is idempotent per scan and may be incremental: a finding the scan
 * already observed is not counted twice, and resolution only happens on the
 * call that says the scan is complete, against everything the scan observed.
 */

export interface Detection {
  /** Canonical check (template) id. */
  check_id: string;
  /** Upstream template ids this check stands for, so two tools' reports stay one finding. */
  upstream_ids?: string[];
  title: string;
  severity: Severity;
  /** CVSS vector; the score is computed from it (0.0 without a valid one). */
  cvss_vector?: string | null;
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
  evidence: { request: string; response: string; screenshot_url?: string | null };
  /** Kept from the last detection that carried them when absent. */
  frameworks?: FrameworkValue[];
  kev?: boolean;
  /** A suggested priority, applied to new findings only (never over a person's choice). */
  priority?: FindingPriority;
}

/**
 * A (target, check, port) combination the scan tested; without a port it covers every
 * port. A sweep of many ports names them as inclusive `port_ranges` instead: one entry
 * per host rather than one per port.
 */
export interface Coverage {
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
  detections: Detection[];
  coverage: Coverage[];
  /** True when the scan finished: only then are undetected covered findings resolved. */
  completed: boolean;
  now?: Date;
}

export interface ScanCounts {
  critical: number;
  high: number;
  medium: number;
  low: number;
  info: number;
  /** critical + high + medium + low; informational findings are not counted. */
  vulnerabilities_found: number;
}

export interface ScanChanges {
  new: number;
  reopened: number;
  resolved: number;
  unchanged: number;
}

export interface ScanFindingsSummary {
  counts: ScanCounts;
  changes: ScanChanges;
  new_finding_ids: string[];
  reopened_finding_ids: string[];
  resolved_finding_ids: string[];
}

type Change = 'new' | 'reopened' | 'unchanged';

/** A detection ready to write. */
interface Prepared {
  fingerprint: string;
  checkId: string;
  detection: Detection;
  severity: Severity;
  cvssScore: number;
  cvssVector: string | null;
  evidence: EvidenceValue;
}

interface ExistingFinding {
  id: string;
  fingerprint: string;
  status: FindingStatus;
}

/** Rows per multi-row statement: well under PostgreSQL's 65,535 bind parameters. */
const CHUNK = 500;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function isTransaction(db: Knex | Knex.Transaction): db is Knex.Transaction {
  return (db as Knex.Transaction).isTransaction === true;
}

/**
 * Records one scan's detections in one transaction: the caller's, or a new one
 * when given the root connection. Writes findings, observations, history, the
 * scan's per-severity counts (and its `changes` once complete) and the webhook
 * outbox rows.
 */
export async function recordScanFindings(
  db: Knex | Knex.Transaction,
  input: RecordScanFindingsInput,
): Promise<ScanFindingsSummary> {
  if (isTransaction(db)) return record(db, input);
  return db.transaction((trx) => record(trx, input));
}

async function record(trx: Knex.Transaction, input: RecordScanFindingsInput): Promise<ScanFindingsSummary> {
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
  const inserted = await insertNewFindings(trx, scan, fresh, now);
  // A concurrent scan may have created some of them first: treat those as known.
  const raced = fresh.filter((p) => !inserted.has(p.fingerprint)).map((p) => p.fingerprint);
  if (raced.length > 0) {
    for (const [fp, f] of await lockByFingerprint(trx, orgId, raced)) existing.set(fp, f);
  }

  // A finding this scan already observed (an earlier call for the same scan) is not counted again.
  const seen = await observedBy(
    trx,
    scan.id,
    [...existing.values()].map((f) => f.id),
  );
  const sightings = [...existing.values()].filter((f) => !seen.has(f.id));
  const reopened = sightings.filter((f) => f.status === 'resolved');
  await updateSeenFindings(trx, scan.id, orgId, sightings, prepared, now);

  const observations: { finding_id: string; severity: Severity; change: Change }[] = [];
  for (const [fp, id] of inserted)
    observations.push({ finding_id: id, severity: prepared.get(fp)!.severity, change: 'new' });
  for (const f of sightings) {
    observations.push({
      finding_id: f.id,
      severity: prepared.get(f.fingerprint)!.severity,
      change: f.status === 'resolved' ? 'reopened' : 'unchanged',
    });
  }
  for (const batch of chunks(observations)) {
    await trx('finding_observations')
      .insert(batch.map((o) => ({ ...o, scan_id: scan.id, org_id: orgId, observed_at: now })))
      .onConflict(['scan_id', 'finding_id'])
      .ignore();
  }

  const history: HistoryRow[] = [
    ...[...inserted.values()].map((id) => statusChange(orgId, id, null, 'open', SYSTEM_ACTOR, now)),
    ...reopened.map((f) => statusChange(orgId, f.id, 'resolved', 'open', SYSTEM_ACTOR, now)),
  ];

  const resolved = input.completed
    ? await resolveUndetected(trx, scan.id, orgId, input.coverage, canonical, now)
    : [];
  history.push(...resolved.map((f) => statusChange(orgId, f.id, f.status, 'resolved', SYSTEM_ACTOR, now)));
  for (const batch of chunks(history)) await trx('finding_history').insert(batch);

  const newIds = [...inserted.values()];
  const reopenedIds = reopened.map((f) => f.id);
  const { counts, changes } = await writeScanCounts(trx, scan, resolved.length, input.completed, now);
  await queueVulnerabilityEvents(trx, orgId, scan.id, [...newIds, ...reopenedIds], now);
  if (observations.length > 0 || resolved.length > 0) await bumpFindingsVersion(trx, orgId);

  return {
    counts,
    changes,
    new_finding_ids: newIds,
    reopened_finding_ids: reopenedIds,
    resolved_finding_ids: resolved.map((f) => f.id),
  };
}

/** upstream template id → canonical check id, from every detection's declaration. */
function canonicalCheckIds(detections: Detection[]): Map<string, string> {
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
  detections: Detection[],
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
      cvssScore: score?.baseScore ?? 0,
      cvssVector: score ? score.vector : null,
      evidence: {
        request: detection.evidence.request,
        response: detection.evidence.response,
        screenshot_url: detection.evidence.screenshot_url ?? null,
      },
    };
    const earlier = out.get(fingerprint);
    if (!earlier || severityRank(candidate.severity) > severityRank(earlier.severity))
      out.set(fingerprint, candidate);
  }
  return out;
}

async function lockByFingerprint(
  trx: Knex.Transaction,
  orgId: string,
  fingerprints: string[],
): Promise<Map<string, ExistingFinding>> {
  const found = new Map<string, ExistingFinding>();
  for (const batch of chunks(fingerprints)) {
    const rows = (await trx('findings')
      .where('org_id', orgId)
      .whereIn('fingerprint', batch)
      .orderBy('fingerprint')
      .forUpdate()
      .select('id', 'fingerprint', 'status')) as ExistingFinding[];
    for (const row of rows) found.set(row.fingerprint, row);
  }
  return found;
}

const EMPTY_REMEDIATION: RemediationValue = { summary: '', steps: [], code_example: '', references: [] };

/** Inserts the new findings; returns fingerprint → id of those this call created. */
async function insertNewFindings(
  trx: Knex.Transaction,
  scan: ScanRef,
  fresh: Prepared[],
  now: Date,
): Promise<Map<string, string>> {
  const created = new Map<string, string>();
  for (const batch of chunks(fresh)) {
    const rows = batch.map((p) => {
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
        remediation: JSON.stringify(d.remediation ?? EMPTY_REMEDIATION),
        evidence: JSON.stringify(p.evidence),
        frameworks: JSON.stringify(d.frameworks ?? []),
        kev: d.kev ?? false,
        priority: d.priority ?? null,
        detected_at: now,
        last_seen_at: now,
        times_seen: 1,
        created_at: now,
        updated_at: now,
      };
    });
    const returned = (await trx('findings')
      .insert(rows)
      .onConflict(['org_id', 'fingerprint'])
      .ignore()
      .returning(['id', 'fingerprint'])) as { id: string; fingerprint: string }[];
    for (const r of returned) created.set(r.fingerprint, r.id);
  }
  return created;
}

async function observedBy(trx: Knex.Transaction, scanId: string, findingIds: string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  for (const batch of chunks(findingIds)) {
    const rows = (await trx('finding_observations')
      .where('scan_id', scanId)
      .whereIn('finding_id', batch)
      .select('finding_id')) as { finding_id: string }[];
    for (const r of rows) seen.add(r.finding_id);
  }
  return seen;
}

/**
 * Applies a new sighting to known findings in one statement per batch: the
 * latest detection's data, one more sighting, and `resolved` back to `open`.
 * Remediation, frameworks, EPSS, KEV and category are kept when the detection
 * does not carry them; people's fields (assignee, priority, notes…) and the
 * owning scan never change here.
 */
async function updateSeenFindings(
  trx: Knex.Transaction,
  scanId: string,
  orgId: string,
  sightings: ExistingFinding[],
  prepared: Map<string, Prepared>,
  now: Date,
): Promise<void> {
  for (const batch of chunks(sightings)) {
    const values = batch.map((f) => {
      const p = prepared.get(f.fingerprint)!;
      const d = p.detection;
      return {
        id: f.id,
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
        remediation: d.remediation ?? null,
        evidence: p.evidence,
        frameworks: d.frameworks ?? null,
        kev: d.kev ?? null,
      };
    });
    await trx.raw(
      `update findings as f set
         last_scan_id = ?, last_seen_at = ?, updated_at = ?, times_seen = f.times_seen + 1,
         title = v.title, severity = v.severity, severity_rank = v.severity_rank,
         cvss_score = v.cvss_score, cvss_vector = v.cvss_vector,
         epss_score = coalesce(v.epss_score, f.epss_score),
         port = coalesce(v.port, f.port), tool = v.tool, category = coalesce(v.category, f.category),
         cve_ids = v.cve_ids, cwe_ids = v.cwe_ids, description = v.description, impact = v.impact,
         remediation = coalesce(v.remediation, f.remediation), evidence = v.evidence,
         frameworks = coalesce(v.frameworks, f.frameworks), kev = coalesce(v.kev, f.kev),
         status = case when f.status = 'resolved' then 'open' else f.status end,
         resolved_at = case when f.status = 'resolved' then null else f.resolved_at end
       from jsonb_to_recordset(?::jsonb) as v(
         id text, title text, severity text, severity_rank smallint, cvss_score float8, cvss_vector text,
         epss_score float8, port int, tool text, category text, cve_ids text[], cwe_ids text[],
         description text, impact text, remediation jsonb, evidence jsonb, frameworks jsonb, kev boolean)
       where f.id = v.id and f.org_id = ?`,
      [scanId, now, now, JSON.stringify(values), orgId],
    );
  }
}

/**
 * Resolves, as `system`, the open and in-progress findings whose target, check
 * and port the completed scan covered without observing them. Returns them with
 * the status they had.
 */
async function resolveUndetected(
  trx: Knex.Transaction,
  scanId: string,
  orgId: string,
  coverage: Coverage[],
  canonical: Map<string, string>,
  now: Date,
): Promise<{ id: string; status: FindingStatus }[]> {
  type Combo = {
    target: string;
    check_id: string;
    port: number | null;
    port_ranges: ReadonlyArray<readonly [number, number]> | null;
  };
  const combos = new Map<string, Combo>();
  for (const c of coverage) {
    const combo: Combo = {
      target: c.target.trim().toLowerCase(),
      check_id: canonical.get(c.check_id) ?? c.check_id,
      port: c.port_ranges ? null : (c.port ?? null),
      port_ranges: c.port_ranges ?? null,
    };
    combos.set(JSON.stringify(combo), combo);
  }
  if (combos.size === 0) return [];
  const found = new Map<string, FindingStatus>();
  for (const batch of chunks([...combos.values()], 2000)) {
    const targets = [...new Set(batch.map((c) => c.target))];
    const rows = (await trx('findings as f')
      .where('f.org_id', orgId)
      .whereIn('f.status', ['open', 'in_progress'])
      .whereRaw(`lower(f.target) in (${targets.map(() => '?').join(', ')})`, targets)
      .whereRaw(
        `exists (select 1 from jsonb_to_recordset(?::jsonb) as c(target text, check_id text, port int, port_ranges jsonb)
                  where c.target = lower(f.target) and c.check_id = f.template_id
                    and case when c.port_ranges is null then c.port is null or c.port = f.port
                        else exists (select 1 from jsonb_array_elements(c.port_ranges) as r(b)
                                     where f.port between (r.b->>0)::int and (r.b->>1)::int) end)`,
        [JSON.stringify(batch)],
      )
      .whereNotExists(function observedByThisScan() {
        this.select(this.client.raw('1'))
          .from('finding_observations as o')
          .where('o.scan_id', scanId)
          .whereRaw('o.finding_id = f.id');
      })
      .orderBy('f.id')
      .forUpdate()
      .select('f.id', 'f.status')) as { id: string; status: FindingStatus }[];
    // A finding may match combos of two batches; it is resolved once.
    for (const r of rows) if (!found.has(r.id)) found.set(r.id, r.status);
  }
  for (const batch of chunks([...found.keys()])) {
    await trx('findings')
      .where('org_id', orgId)
      .whereIn('id', batch)
      .update({ status: 'resolved', resolved_at: now, updated_at: now });
  }
  return [...found].map(([id, status]) => ({ id, status }));
}

/**
 * The scan's per-severity counts and changes, from its observations (so they
 * are the scan's own and never change later), written to the scan row.
 * `changes` is written once the scan is complete.
 */
async function writeScanCounts(
  trx: Knex.Transaction,
  scan: ScanRef,
  resolvedNow: number,
  completed: boolean,
  now: Date,
): Promise<{ counts: ScanCounts; changes: ScanChanges }> {
  const rows = (await trx('finding_observations')
    .where('scan_id', scan.id)
    .groupBy('severity', 'change')
    .select('severity', 'change', trx.raw('count(*)::int as n'))) as {
    severity: Severity;
    change: Change;
    n: number;
  }[];
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  const byChange: Record<Change, number> = { new: 0, reopened: 0, unchanged: 0 };
  for (const r of rows) {
    bySeverity[r.severity] += r.n;
    byChange[r.change] += r.n;
  }
  const counts: ScanCounts = {
    ...bySeverity,
    vulnerabilities_found: bySeverity.critical + bySeverity.high + bySeverity.medium + bySeverity.low,
  };
  const previous = (await trx('scans').where({ id: scan.id, org_id: scan.org_id }).first('changes')) as
    { changes: ScanChanges | null } | undefined;
  const changes: ScanChanges = { ...byChange, resolved: (previous?.changes?.resolved ?? 0) + resolvedNow };
  await trx('scans')
    .where({ id: scan.id, org_id: scan.org_id })
    .update({
      vulnerabilities_found: counts.vulnerabilities_found,
      critical_count: counts.critical,
      high_count: counts.high,
      medium_count: counts.medium,
      low_count: counts.low,
      info_count: counts.info,
      updated_at: now,
      ...(completed ? { changes: JSON.stringify(changes) } : {}),
    });
  return { counts, changes };
}

/**
 * `vulnerability.found` for each new or reopened finding, and
 * `vulnerability.critical` as well for a critical one. The data is the finding's
 * list view with `scan_id` naming the detecting scan.
 */
async function queueVulnerabilityEvents(
  trx: Knex.Transaction,
  orgId: string,
  scanId: string,
  findingIds: string[],
  now: Date,
): Promise<void> {
  if (findingIds.length === 0) return;
  // Most organizations have no such webhook: one query instead of one per finding.
  const subscribed = await trx('webhooks')
    .where({ org_id: orgId, active: true })
    .whereRaw("events && array['vulnerability.found', 'vulnerability.critical']::text[]")
    .first('id');
  if (!subscribed) return;
  for (const batch of chunks(findingIds)) {
    const rows = (await trx('findings')
      .where('org_id', orgId)
      .whereIn('id', batch)
      .orderBy([{ column: 'severity_rank', order: 'desc' }, { column: 'id' }])
      .select(LIST_COLUMNS)) as ListRow[];
    for (const row of rows) {
      const data = { ...findingListItem(row), scan_id: scanId };
      await enqueueWebhookEvent(trx, orgId, 'vulnerability.found', data, now);
      if (row.severity === 'critical')
        await enqueueWebhookEvent(trx, orgId, 'vulnerability.critical', data, now);
    }
  }
}
