import type { Schemas } from '../../api/contract';
import { FINDING_STATUSES } from '../../api/vocabulary';
import { label, when } from '../../ui';

/** A history entry's statuses in words: `Open → In progress`. */
function statusWords(value: string | null): string {
  if (value === null) return '';
  return (FINDING_STATUSES.words as Record<string, string>)[value] ?? label(value);
}

/** What happened to the finding, oldest first: who moved it from what to what, and why. */
export function HistoryCard({ history }: { history: Schemas['FindingDetail']['history'] }) {
  return (
    <section aria-labelledby="history">
      <h2 id="history">History</h2>
      <ol className="history">
        {history.map((h, i) => (
          <li key={i}>
            {label(h.action)}: {h.from ? `${statusWords(h.from)} → ` : ''}
            {statusWords(h.to)}{' '}
            <span className="sub">
              by {h.user}, {when(h.timestamp)}
            </span>
            {h.justification && <p className="history-text">Justification: {h.justification}</p>}
            {h.note && <p className="history-text">Note: {h.note}</p>}
          </li>
        ))}
      </ol>
    </section>
  );
}
