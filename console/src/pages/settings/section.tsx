import type { ReactNode } from 'react';

/** What settings sections are built of: the card, a table of items, a shown-once secret. */

/** One section of the settings page: a heading and what belongs under it. */
export function Section(props: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card settings-section" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

export interface Column<Item> {
  header: string;
  cell(item: Item): ReactNode;
}

/**
 * The items of a section as a table in its own scrolling box: one column per `columns`
 * entry, then the row's actions (a column whose header only screen readers read), and the
 * `empty` text as the only row when there are none. On a narrow screen each row stacks into
 * a card of "header: value" lines (`.stacked`, styles.css), so nothing scrolls sideways.
 */
export function ItemTable<Item extends { id: string }>(props: {
  items: readonly Item[];
  columns: ReadonlyArray<Column<Item>>;
  actions?: (item: Item) => ReactNode;
  empty?: string;
}) {
  const { items, columns, actions, empty } = props;
  return (
    <div className="table-wrap stacked" tabIndex={0}>
      <table>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col">
                {column.header}
              </th>
            ))}
            {actions && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id}>
              {columns.map((column) => (
                <td key={column.header} data-label={column.header}>
                  {column.cell(item)}
                </td>
              ))}
              {actions && <td className="actions">{actions(item)}</td>}
            </tr>
          ))}
          {empty !== undefined && items.length === 0 && (
            <tr>
              <td colSpan={columns.length + (actions ? 1 : 0)}>{empty}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** The shown-once secret of a new API key or webhook. */
export function Secret({ what, value }: { what: string; value: string | undefined }) {
  if (!value) return null;
  return (
    <div className="secret" role="status">
      <p>The {what} is shown only now; copy it somewhere safe:</p>
      <code data-testid="secret">{value}</code>
    </div>
  );
}
