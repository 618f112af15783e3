import { useState } from 'react';
import type { Schemas } from '../../api/contract';
import { apiClientRef, useApi } from '../../api/context';
import { useLoad, type Live } from '../../data';
import { useLocation } from '../../router';
import { useMayChange } from '../../session';
import { Page, Pager, Problem } from '../../ui';
import { BulkActions } from './bulk-actions';
import { Filters } from './filters';
import { FindingsTable } from './findings-table';
import { GroupedFindings } from './grouped-table';
import { apiQuery, exportHref, pageHref, viewOf, type View } from './view';

/** The list is read again when a scan finds a finding, or someone triages one it shows. */
const liveFindings: Live<Schemas['FindingList']> = {
  on(event, list) {
    if (event.type === 'vulnerability.found') return 'reload';
    if (event.type === 'finding.updated' && list.items.some((f) => f.id === event.data.id)) return 'reload';
    return undefined;
  },
};

/** The findings list, or its groups when `group` is chosen. */
export function FindingList() {
  const { query, href } = useLocation();
  const view = viewOf(query);
  return view.group ? <GroupedFindings key={href} view={view} href={href} /> : <UngroupedFindings />;
}

/** The view's export links: CSV, JSON, PDF. */
function Exports({ view }: { view: View }) {
  return (
    <span className="exports">
      Export this view:{' '}
      <a href={exportHref(view, 'csv')} download>
        CSV
      </a>{' '}
      <a href={exportHref(view, 'json')} download>
        JSON
      </a>{' '}
      <a href={exportHref(view, 'pdf')} download>
        PDF
      </a>
    </span>
  );
}

/**
 * The findings, a page at a time: filters, the table, and the bulk status change for a role
 * that may change findings (docs/roles.md; a viewer has neither the form nor the boxes to tick).
 */
function UngroupedFindings() {
  const api = useApi(apiClientRef);
  const { query, href } = useLocation();
  const view = viewOf(query);
  const list = useLoad(
    () => api.GET('/api/v1/findings', { params: { query: apiQuery(view) } }),
    href,
    liveFindings,
  );
  const mayChange = useMayChange('findings');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const afterBulk = async () => {
    setSelected(new Set());
    await list.reload();
  };
  return (
    <Page title="Findings" actions={<Exports view={view} />}>
      <Filters key={href} view={view} />
      <Problem message={list.error} />
      {mayChange && <BulkActions selected={selected} onDone={afterBulk} />}
      {list.data && (
        <>
          <FindingsTable
            view={view}
            items={list.data.items}
            selection={mayChange ? { selected, onChange: setSelected } : undefined}
          />
          <Pager
            page={list.data.page}
            pages={list.data.pages}
            total={list.data.total}
            hrefOf={pageHref(view)}
          />
        </>
      )}
    </Page>
  );
}
