import type { Schemas } from '../../api/contract';
import { findingsOf } from '../scans';

/** What changed since the previous scan of the target: new, reopened, unchanged, resolved. */
export function ChangesCard({ scan: s }: { scan: Schemas['ScanDetail'] }) {
  if (!s.changes) return null;
  return (
    <>
      <h2>Changes since the previous scan</h2>
      <p className="changes" data-testid="scan-changes">
        Of the {findingsOf(s)} findings: {s.changes.new} new · {s.changes.reopened} reopened ·{' '}
        {s.changes.unchanged} unchanged. {s.changes.resolved} resolved (not seen again).
      </p>
    </>
  );
}
