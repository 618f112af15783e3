import type { Schemas } from '../../api/contract';
import { FINDING_PRIORITIES } from '../../api/vocabulary';
import { Link } from '../../router';
import { DueDate, Severity, Status, when } from '../../ui';
import { AssetLink } from '../asset-parts';

const cveLink = (id: string) => `https://nvd.nist.gov/vuln/detail/${encodeURIComponent(id)}`;
const cweLink = (id: string) => `https://cwe.mitre.org/data/definitions/${id.replace(/^CWE-/i, '')}.html`;

/** Identifiers as links (CVE to NVD, CWE to MITRE), or a dash when there are none. */
function Links({ ids, href }: { ids: readonly string[]; href: (id: string) => string }) {
  if (ids.length === 0) return <>—</>;
  return (
    <>
      {ids.map((c) => (
        <a key={c} href={href(c)} rel="noreferrer" target="_blank">
          {c}
        </a>
      ))}
    </>
  );
}

/** How the finding was established, in words. */
function established(value: Schemas['FindingDetail']['evidence']['established']): string {
  if (value === 'inferred from version') return 'Inferred from the announced version';
  if (value === 'confirmed') return 'Confirmed by a probe';
  return '—';
}

/** The finding's facts: severity, status, due date, who and what, where, when seen, identifiers, EPSS. */
export function FactsCard({ finding: f }: { finding: Schemas['FindingDetail'] }) {
  return (
    <dl className="facts">
      <dt>Severity</dt>
      <dd>
        <Severity value={f.severity} /> (CVSS {f.cvss_score.toFixed(1)}
        {f.cvss_vector ? `, ${f.cvss_vector}` : ''})
      </dd>
      <dt>Status</dt>
      <dd data-testid="finding-status">
        <Status value={f.status} />
      </dd>
      <dt>Due</dt>
      <dd data-testid="finding-due">
        <DueDate due={f.due_date} overdue={f.overdue} />
      </dd>
      <dt>Assignee</dt>
      <dd data-testid="finding-assignee">{f.assignee ?? 'Nobody'}</dd>
      <dt>Priority</dt>
      <dd data-testid="finding-priority">{f.priority ? FINDING_PRIORITIES.label(f.priority) : 'None'}</dd>
      <dt>Target</dt>
      <dd>{f.target}</dd>
      <dt>Component</dt>
      <dd>{f.affected_component}</dd>
      <dt>Asset</dt>
      <dd data-testid="finding-asset">
        {f.asset_id ? <AssetLink key={f.asset_id} id={f.asset_id} /> : 'None known yet'}
      </dd>
      <dt>Scan</dt>
      <dd>
        <Link href={`/scans/${f.scan_id}`}>{f.scan_id}</Link>
      </dd>
      <dt>Seen</dt>
      <dd>
        {f.times_seen}× · first {when(f.first_seen_at)} · last {when(f.last_seen_at)}
      </dd>
      <dt>CVE</dt>
      <dd>
        <Links ids={f.cve_ids} href={cveLink} />
      </dd>
      <dt>CWE</dt>
      <dd>
        <Links ids={f.cwe_ids} href={cweLink} />
      </dd>
      {f.justification !== null && (
        <>
          <dt>Justification</dt>
          <dd data-testid="finding-justification">
            {f.justification} ({f.justified_by ?? 'unknown'}, {when(f.justified_at)}
            {f.acceptance_expires_at ? `; accepted until ${when(f.acceptance_expires_at)}` : ''})
          </dd>
        </>
      )}
      <dt>EPSS</dt>
      <dd data-testid="finding-epss">
        {f.epss_score === null
          ? '—'
          : `${(f.epss_score * 100).toFixed(1)}% probability of exploitation in the next 30 days (FIRST EPSS, ${f.epss_snapshot_date ?? 'date unknown'})`}
      </dd>
      <dt>Established</dt>
      <dd>{established(f.evidence.established)}</dd>
    </dl>
  );
}
