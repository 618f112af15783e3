import type { Schemas } from '../../api/contract';
import { apiClientRef, useApi } from '../../api/context';
import { FINDING_GROUP_BYS, SEVERITIES } from '../../api/vocabulary';
import { useLoad, type Live } from '../../data';
import { Link } from '../../router';
import { Page, Pager, Problem, queryString } from '../../ui';
import { Filters } from './filters';
import { apiQuery, pageHref, type View } from './view';

/** Which list filter shows a group's findings. */
const GROUP_FILTER = { asset: 'asset_id', cve: 'cve', check: 'template_id' } as const;

/** Groups are counted again when a scan finds a finding or someone triages one. */
const liveGroups: Live<Schemas['FindingGroupList']> = {
  on: (event) =>
    event.type === 'vulnerability.found' || event.type === 'finding.updated' ? 'reload' : undefined,
};

/** The findings counted by asset, CVE or check and severity; a group's name opens its findings. */
export function GroupedFindings({ view, href }: { view: View; href: string }) {
  const api = useApi(apiClientRef);
  const by = (FINDING_GROUP_BYS.values as readonly string[]).includes(view.group)
    ? (view.group as Schemas['FindingGroupBy'])
    : 'asset';
  const { group: _group, sort: _sort, order: _order, ...filters } = view;
  const groups = useLoad(
    () => api.GET('/api/v1/findings/groups', { params: { query: { ...apiQuery(view), by } } }),
    href,
    liveGroups,
  );
  const items = groups.data?.items ?? [];
  const hrefOf = (key: string) =>
    `/findings${queryString({ ...filters, page: '', [GROUP_FILTER[by]]: key })}`;
  return (
    <Page title="Findings">
      <Filters key={href} view={view} />
      <Problem message={groups.error} />
      {groups.data && (
        <>
          <div
            className="table-wrap"
            tabIndex={0}
            role="region"
            aria-label={`Findings by ${FINDING_GROUP_BYS.label(by)}`}
          >
            <table>
              <thead>
                <tr>
                  <th scope="col">{FINDING_GROUP_BYS.label(by)}</th>
                  {SEVERITIES.values.map((s) => (
                    <th scope="col" key={s}>
                      {SEVERITIES.label(s)}
                    </th>
                  ))}
                  <th scope="col">Total</th>
                </tr>
              </thead>
              <tbody>
                {items.map((g) => (
                  <tr key={g.key ?? ''}>
                    <td>
                      {g.key === null ? g.label : <Link href={hrefOf(g.key)}>{g.label}</Link>}
                      {g.detail && <div className="sub names">{g.detail}</div>}
                    </td>
                    {SEVERITIES.values.map((s) => (
                      <td key={s}>{g.by_severity[s]}</td>
                    ))}
                    <td>{g.total}</td>
                  </tr>
                ))}
                {items.length === 0 && (
                  <tr>
                    <td colSpan={SEVERITIES.values.length + 2}>No findings match these filters.</td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
          <Pager
            page={groups.data.page}
            pages={groups.data.pages}
            total={groups.data.total}
            hrefOf={pageHref(view)}
          />
        </>
      )}
    </Page>
  );
}
