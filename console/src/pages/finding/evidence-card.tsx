import type { Schemas } from '../../api/contract';
import { Markdown } from '../../markdown';

/** What the finding is and the proof: its description, its impact, the request and the answer. */
export function EvidenceCard({ finding: f }: { finding: Schemas['FindingDetail'] }) {
  return (
    <>
      <h2>Description</h2>
      <Markdown text={f.description} />
      {f.impact && (
        <>
          <h2>Impact</h2>
          <p>{f.impact}</p>
        </>
      )}
      <h2>Evidence</h2>
      <h3>Request</h3>
      <pre tabIndex={0}>{f.evidence.request || '—'}</pre>
      <h3>Response</h3>
      <pre tabIndex={0}>{f.evidence.response || '—'}</pre>
    </>
  );
}
