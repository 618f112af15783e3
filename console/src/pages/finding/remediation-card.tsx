import type { Schemas } from '../../api/contract';
import { Markdown } from '../../markdown';

/** How to fix the finding: the summary, the steps, an example and references. */
export function RemediationCard({
  remediation: r,
}: {
  remediation: Schemas['FindingDetail']['remediation'];
}) {
  return (
    <>
      <h2>Remediation</h2>
      <div data-testid="remediation">
        <Markdown text={r.summary} />
        {r.steps.length > 0 && (
          <ol>
            {r.steps.map((s) => (
              <li key={s}>
                <Markdown text={s} inline />
              </li>
            ))}
          </ol>
        )}
      </div>
      {r.code_example && (
        <>
          <h3>Example</h3>
          <pre tabIndex={0}>
            <code>{r.code_example}</code>
          </pre>
        </>
      )}
      {r.references.length > 0 && (
        <ul className="references">
          {r.references.map((ref) => (
            <li key={ref}>
              <a href={ref} rel="noreferrer" target="_blank">
                {ref}
              </a>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
