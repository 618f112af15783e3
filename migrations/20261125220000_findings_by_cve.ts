import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * One weakness, one finding (docs/checks.md, "One weakness, one finding"): a finding standing
 * for a CVE is now keyed by the CVE on the service (`template_id` the CVE, `affected_component`
 * the service URL without a path), so a template's proof and a version match of one CVE are one
 * finding. This rekeys the findings recorded before:
 *
 * - a finding whose `template_id` is a CVE id, and a template finding (tool `nuclei-template`)
 *   naming a CVE that was not folded into a built-in check, gets the new identity (fingerprint,
 *   `template_id`, `affected_component`, the CVE in `cve_ids`, `evidence.established`);
 * - findings that now share an identity are merged into the first detected: its id stays; the
 *   others' history, comments, observations and AI analysis move to it; the triage state kept
 *   is the most deliberate one (accepted or false positive, then in progress, then open, then
 *   resolved; the latest updated among equals), and an assignee, priority, due date or notes
 *   set on any of them is kept; dates, sightings, severity, KEV, CVEs and CWEs are combined;
 *   a `merged` history entry records each finding merged (`from` its id, `to` the survivor's);
 * - the others are deleted.
 *
 * The identity rules and the fingerprint are copied here as they are today, so the migration
 * keeps meaning what it meant when later code changes. `down` does nothing: a merge cannot be
 * undone, and the old keys would only make the duplicates again.
 */

const CVE_ID = /^CVE-\d{4}-\d{4,}$/i;
const TEMPLATE_TOOL = 'nuclei-template';
/** The built-in checks' ids on 2026-11-25: a template folded into one is keyed by the check, not a CVE. */
const BUILT_IN = new Set([
  'redis-unauthenticated',
  'postgresql-trust-auth',
  'mongodb-unauthenticated',
  'elasticsearch-unauthenticated',
  'mqtt-anonymous-access',
  'nats-no-auth',
  'memcached-exposed',
  'mysql-empty-root-password',
  'postgresql-default-password',
  'rabbitmq-default-guest-amqp',
  'rabbitmq-default-guest-management',
  'ftp-anonymous-login',
  'erlang-distribution-exposed',
  'ssh-weak-algorithms',
  'ssh-protocol-version-1',
  'smtp-open-relay',
  'http-missing-security-headers',
  'directory-listing',
  'git-config-exposed',
  'env-file-exposed',
  'https-missing-hsts',
  'cors-arbitrary-origin-credentials',
  'session-cookie-attributes',
  'http-trace-enabled',
  'http-version-disclosure',
  'apache-server-status',
  'tls-legacy-protocol',
  'tls-certificate-expired',
  'tls-certificate-self-signed',
  'tls-weak-cipher',
  'tls-certificate-weak-key',
  'tls-certificate-not-yet-valid',
  'tls-certificate-hostname-mismatch',
  'tls-certificate-chain-incomplete',
]);

interface Row {
  id: string;
  org_id: string;
  fingerprint: string;
  last_scan_id: string;
  title: string;
  severity: string;
  severity_rank: number;
  status: string;
  epss_score: number | null;
  target: string;
  affected_component: string;
  tool: string;
  template_id: string;
  cve_ids: string[] | string;
  cwe_ids: string[] | string;
  evidence: Record<string, unknown> | string;
  kev: boolean;
  assignee: string | null;
  priority: string | null;
  due_date: Date | null;
  notes: string | null;
  detected_at: Date;
  last_seen_at: Date;
  times_seen: number;
  resolved_at: Date | null;
  updated_at: Date;
}

function list(value: string[] | string): string[] {
  if (Array.isArray(value)) return value;
  const inner = value.replace(/^\{|\}$/g, '');
  return inner ? inner.split(',').map((s) => s.replace(/^"|"$/g, '')) : [];
}

function json(value: Record<string, unknown> | string): Record<string, unknown> {
  return typeof value === 'string' ? (JSON.parse(value) as Record<string, unknown>) : value;
}

function fingerprint(orgId: string, target: string, component: string, checkId: string): string {
  const trimmed = component.trim();
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(.*)$/is.exec(trimmed);
  const normalized = match ? match[1]!.toLowerCase() + match[2]! : trimmed;
  const canonical = JSON.stringify([orgId, target.trim().toLowerCase(), normalized, checkId.trim()]);
  return createHash('sha256').update(canonical).digest('hex');
}

function cveOf(row: Row): string | undefined {
  if (CVE_ID.test(row.template_id)) return row.template_id.toUpperCase();
  if (row.tool !== TEMPLATE_TOOL || BUILT_IN.has(row.template_id)) return undefined;
  return list(row.cve_ids)
    .find((id) => CVE_ID.test(id.trim()))
    ?.trim()
    .toUpperCase();
}

function serviceOf(component: string): string {
  return /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i.exec(component.trim())?.[1] ?? component.trim();
}

const DELIBERATE: Record<string, number> = {
  accepted: 4,
  false_positive: 4,
  in_progress: 3,
  open: 2,
  resolved: 1,
};

function historyId(): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
  let out = '';
  for (const b of randomBytes(24)) out += alphabet[b % 36];
  return `hist_${out}`;
}

const established = (row: Row): string =>
  row.tool === 'scanward-versions' ? 'inferred from version' : 'confirmed';

export async function up(db: Knex): Promise<void> {
  // The tables as they are at this migration (untyped: the row types of today's code may change).
  const knex = Object.assign((name: string) => db(name), { raw: db.raw.bind(db) });
  const rows = (await knex('findings')
    .where('template_id', '~*', '^CVE-[0-9]{4}-[0-9]{4,}$')
    .orWhere((q) => q.where('tool', TEMPLATE_TOOL).whereRaw('cardinality(cve_ids) > 0'))
    .orderBy([{ column: 'detected_at' }, { column: 'id' }])) as Row[];

  const groups = new Map<string, { cve: string; component: string; rows: Row[] }>();
  for (const row of rows) {
    const cve = cveOf(row);
    if (!cve) continue;
    const component = serviceOf(row.affected_component);
    const fp = fingerprint(row.org_id, row.target, component, cve);
    const key = `${row.org_id}\u0000${fp}`;
    const group = groups.get(key) ?? { cve, component, rows: [] };
    group.rows.push(row);
    groups.set(key, group);
  }

  for (const [key, { cve, component, rows: members }] of groups) {
    const fp = key.split('\u0000')[1]!;
    const [survivor, ...others] = members as [Row, ...Row[]];
    // A finding of the new identity recorded by a scan that ran between deploy and migration is not expected;
    // should one exist outside the group, it keeps its key and this group keeps its old one.
    const clash = await knex('findings')
      .where({ org_id: survivor.org_id, fingerprint: fp })
      .whereNotIn(
        'id',
        members.map((m) => m.id),
      )
      .first('id');
    if (clash) continue;

    const triage = [...members].sort(
      (a, b) =>
        (DELIBERATE[b.status] ?? 0) - (DELIBERATE[a.status] ?? 0) ||
        new Date(b.updated_at).getTime() - new Date(a.updated_at).getTime(),
    )[0]!;
    const latest = [...members].sort(
      (a, b) => new Date(b.last_seen_at).getTime() - new Date(a.last_seen_at).getTime(),
    )[0]!;
    const highest = [...members].sort((a, b) => b.severity_rank - a.severity_rank)[0]!;
    const proof = members.find((m) => established(m) === 'confirmed');
    const evidenceFrom = proof ?? latest;
    const firstSet = <K extends 'assignee' | 'priority' | 'due_date'>(k: K): Row[K] =>
      triage[k] ?? members.find((m) => m[k] !== null)?.[k] ?? null;
    const notes = [...new Set(members.map((m) => m.notes).filter((n): n is string => !!n))];
    const epss = members.map((m) => m.epss_score).filter((e): e is number => e !== null);

    for (const other of others) {
      await knex('finding_history').where({ finding_id: other.id }).update({ finding_id: survivor.id });
      await knex('finding_comments').where({ finding_id: other.id }).update({ finding_id: survivor.id });
      await knex('finding_observations')
        .where({ finding_id: other.id })
        .whereNotIn(
          'scan_id',
          knex('finding_observations').select('scan_id').where({ finding_id: survivor.id }),
        )
        .update({ finding_id: survivor.id });
      const hasAnalysis = await knex('ai_analyses').where({ finding_id: survivor.id }).first('finding_id');
      if (!hasAnalysis)
        await knex('ai_analyses').where({ finding_id: other.id }).update({ finding_id: survivor.id });
      await knex('finding_history').insert({
        id: historyId(),
        org_id: survivor.org_id,
        finding_id: survivor.id,
        action: 'merged',
        from_status: other.id,
        to_status: survivor.id,
        actor: 'system',
        created_at: new Date(),
      });
    }
    if (others.length > 0)
      await knex('findings')
        .whereIn(
          'id',
          others.map((o) => o.id),
        )
        .delete();

    const observed = await knex('finding_observations')
      .where({ finding_id: survivor.id })
      .count<{ n: string | number }[]>({ n: '*' });
    await knex('findings')
      .where({ id: survivor.id })
      .update({
        fingerprint: fp,
        template_id: cve,
        affected_component: component,
        title: (proof ?? highest).title,
        tool: (proof ?? highest).tool,
        severity: highest.severity,
        severity_rank: highest.severity_rank,
        status: triage.status,
        resolved_at: triage.status === 'resolved' ? triage.resolved_at : null,
        assignee: firstSet('assignee'),
        priority: firstSet('priority'),
        due_date: firstSet('due_date'),
        notes: notes.length > 0 ? notes.join('\n\n') : null,
        kev: members.some((m) => m.kev),
        epss_score: epss.length > 0 ? Math.max(...epss) : null,
        cve_ids: [...new Set([cve, ...members.flatMap((m) => list(m.cve_ids))])],
        cwe_ids: [...new Set(members.flatMap((m) => list(m.cwe_ids)))],
        evidence: JSON.stringify({
          ...json(evidenceFrom.evidence),
          established: proof ? 'confirmed' : 'inferred from version',
        }),
        last_scan_id: latest.last_scan_id,
        last_seen_at: latest.last_seen_at,
        times_seen: Math.max(Number(observed[0]?.n ?? 0), ...members.map((m) => m.times_seen)),
      });
  }
}

export async function down(): Promise<void> {
  // A merge cannot be undone; the old keys would only make the duplicates again.
}
