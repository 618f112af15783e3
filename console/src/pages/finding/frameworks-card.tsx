import type { Schemas } from '../../api/contract';
import { FRAMEWORKS } from '../../api/vocabulary';
import { Link } from '../../router';

/** The framework's name as people write it (`PCI DSS 4.0`), for a mapping's `name`. */
function frameworkName(name: string): string {
  return (FRAMEWORKS.words as Record<string, string>)[name] ?? name;
}

/** The compliance controls the finding fails, by framework, each a link to its control page. */
export function FrameworksCard({ frameworks }: { frameworks: Schemas['FindingDetail']['frameworks'] }) {
  return (
    <>
      <h2>Frameworks and controls</h2>
      {frameworks.length ? (
        <ul>
          {frameworks.map((m) => (
            <li key={m.name}>
              {frameworkName(m.name)}:{' '}
              {m.control_details.map((c, i) => (
                <span key={c.id}>
                  {i > 0 && ', '}
                  <Link href={`/compliance/${encodeURIComponent(c.id)}`}>
                    {c.reference} {c.name}
                  </Link>
                </span>
              ))}
            </li>
          ))}
        </ul>
      ) : (
        <p>Not mapped to a control.</p>
      )}
    </>
  );
}
