import type { Schemas } from '../../api/contract';
import { Link } from '../../router';
import { Severity, when } from '../../ui';

type Source = Schemas['FindingSource'];

/** Who a source is, in words: `Scanward scan (scanward-probe)`, `nuclei import`. */
export function sourceName(s: Source): string {
  return s.source === 'scan' ? `Scanward scan (${s.tool})` : `${s.tool} import`;
}

/**
 * "Seen by": every source that saw the finding, strongest first (docs/finding-lifecycle.md,
 * "Sources"): what each saw (severity, score, proof or version match), when, and whether it still
 * reports it. The headline (the finding's severity, score and evidence) is the first.
 */
export function SourcesCard({ sources = [] }: { sources?: readonly Source[] | undefined }) {
  if (sources.length === 0) return null;
  return (
    <section aria-labelledby="seen-by" data-testid="seen-by">
      <h2 id="seen-by">Seen by</h2>
      <ul className="seen-by">
        {sources.map((s) => (
          <li key={`${s.source}:${s.tool}`}>
            <strong>{sourceName(s)}</strong> <Severity value={s.severity} />
            {s.cvss_score > 0 && <> CVSS {s.cvss_score.toFixed(1)}</>}
            {', '}
            {s.established === 'confirmed' ? 'proof' : 'version match'}
            {s.headline && <span className="sub"> (headline)</span>}
            <div className="sub">
              last {when(s.last_seen_at)}
              {s.last_scan_id && (
                <>
                  {' in '}
                  <Link href={`/scans/${encodeURIComponent(s.last_scan_id)}`}>{s.last_scan_id}</Link>
                </>
              )}
              {s.status === 'resolved' && ', no longer reported'}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
