import type { Schemas } from '../api/contract';
import { apiClientRef, useApi } from '../api/context';
import { CONTROL_STATUSES, FRAMEWORKS } from '../api/vocabulary';
import { useLoad } from '../data';
import { Link, navigate, useLocation } from '../router';
import { Options, Page, Pager, Problem, queryString } from '../ui';

export function ControlStatus({ value }: { value: Schemas['ControlStatus'] }) {
  return <span className={`status control-${value}`}>{CONTROL_STATUSES.label(value)}</span>;
}

/** Controls per framework with their status and evidence count. */
export function ComplianceList() {
  const api = useApi(apiClientRef);
  const { query, href } = useLocation();
  const framework = (query.get('framework') ?? 'soc2') as Schemas['ComplianceFramework'];
  const status = (query.get('status') ?? '') as Schemas['ControlStatus'] | '';
  const page = Number(query.get('page') ?? '1') || 1;
  const { data, error } = useLoad(
    () =>
      api.GET('/api/v1/controls', {
        params: { query: { framework, page, per_page: 50, ...(status ? { status } : {}) } },
      }),
    href,
  );
  const go = (changes: Record<string, string>) =>
    navigate(`/compliance${queryString({ framework, status, ...changes })}`);

  return (
    <Page title="Compliance">
      <form className="filters card" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Framework
          <select name="framework" value={framework} onChange={(e) => go({ framework: e.target.value })}>
            <Options of={FRAMEWORKS} />
          </select>
        </label>
        <label>
          Status
          <select name="status" value={status} onChange={(e) => go({ status: e.target.value })}>
            <option value="">Any</option>
            <Options of={CONTROL_STATUSES} />
          </select>
        </label>
      </form>
      <Problem message={error} />
      {data && (
        <>
          <div className="table-wrap" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Control</th>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Evidence</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((c) => (
                  <tr key={c.id}>
                    <td>
                      <Link href={`/compliance/${encodeURIComponent(c.id)}`}>{c.reference}</Link>
                    </td>
                    <td>{c.name}</td>
                    <td>
                      <ControlStatus value={c.status} />
                    </td>
                    <td>{c.evidence_count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={data.page}
            pages={data.pages}
            total={data.total}
            hrefOf={(p) => `/compliance${queryString({ framework, status, page: p })}`}
          />
        </>
      )}
    </Page>
  );
}
