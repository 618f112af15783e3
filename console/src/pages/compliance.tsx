import { api, type Schemas } from '../api/client';
import { Link, navigate, useLocation } from '../router';
import { Page, Pager, Problem, label, queryString, useLoad } from '../ui';

export const FRAMEWORK_NAMES: Record<Schemas['ComplianceFramework'], string> = {
  soc2: 'SOC 2',
  'pci-dss': 'PCI-DSS',
  iso27001: 'ISO 27001',
};

export function ControlStatus({ value }: { value: Schemas['ControlStatus'] }) {
  return <span className={`status control-${value}`}>{label(value)}</span>;
}

/** Controls per framework with their status and evidence count. */
export function ComplianceList() {
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
            {Object.entries(FRAMEWORK_NAMES).map(([value, name]) => (
              <option key={value} value={value}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select name="status" value={status} onChange={(e) => go({ status: e.target.value })}>
            <option value="">Any</option>
            <option value="failing">Failing</option>
            <option value="passing">Passing</option>
            <option value="not_assessed">Not assessed</option>
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
