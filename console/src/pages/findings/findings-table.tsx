import type { Schemas } from '../../api/contract';
import { Link } from '../../router';
import { DueDate, Severity, Status, queryString, when } from '../../ui';
import type { Sort, View } from './view';

function SortHeader(props: { view: View; sort: Sort; children: string }) {
  const { view, sort } = props;
  const active = (view.sort || 'severity') === sort;
  const order = view.order || 'desc';
  const next = active && order === 'desc' ? 'asc' : 'desc';
  return (
    <th scope="col" aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : undefined}>
      <Link href={`/findings${queryString({ ...view, sort, order: next, page: '' })}`}>
        {props.children}
        {active ? (order === 'asc' ? ' ▲' : ' ▼') : ''}
      </Link>
    </th>
  );
}

/** Which findings are ticked for a bulk change, and how ticking changes that. */
export interface Selection {
  selected: ReadonlySet<string>;
  onChange(selected: Set<string>): void;
}

/**
 * A page of findings, sortable by severity, score and detection time. With `selection`, each
 * row has a box to tick for the bulk change (a role that may not change findings has none).
 */
export function FindingsTable(props: {
  view: View;
  items: readonly Schemas['FindingList']['items'][number][];
  selection?: Selection | undefined;
}) {
  const { view, items, selection } = props;
  const allSelected = items.length > 0 && items.every((f) => selection?.selected.has(f.id));
  const toggle = (id: string) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    selection.onChange(next);
  };
  return (
    <div className="table-wrap" tabIndex={0}>
      <table>
        <thead>
          <tr>
            {selection && (
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label="Select all on this page"
                  checked={allSelected}
                  onChange={() =>
                    selection.onChange(allSelected ? new Set() : new Set(items.map((f) => f.id)))
                  }
                />
              </th>
            )}
            <SortHeader view={view} sort="severity">
              Severity
            </SortHeader>
            <th scope="col">Title</th>
            <th scope="col">Target</th>
            <th scope="col">Status</th>
            <SortHeader view={view} sort="cvss_score">
              CVSS
            </SortHeader>
            <SortHeader view={view} sort="created_at">
              Detected
            </SortHeader>
            <th scope="col">Due</th>
          </tr>
        </thead>
        <tbody>
          {items.map((f) => (
            <tr key={f.id}>
              {selection && (
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Select ${f.title} on ${f.affected_component}`}
                    checked={selection.selected.has(f.id)}
                    onChange={() => toggle(f.id)}
                  />
                </td>
              )}
              <td>
                <Severity value={f.severity} />
              </td>
              <td>
                <Link href={`/findings/${f.id}`}>{f.title}</Link>
                <div className="sub">{f.affected_component}</div>
              </td>
              <td>{f.target}</td>
              <td>
                <Status value={f.status} />
              </td>
              <td>{f.cvss_score.toFixed(1)}</td>
              <td>{when(f.detected_at)}</td>
              <td>
                <DueDate due={f.due_date} overdue={f.overdue} />
              </td>
            </tr>
          ))}
          {items.length === 0 && (
            <tr>
              <td colSpan={selection ? 8 : 7}>No findings match these filters.</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
