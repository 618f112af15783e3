import { apiClientRef, useApi } from '../../api/context';
import { useLoad } from '../../data';
import { Link } from '../../router';
import { DueDate, Problem, Severity, Status, queryString } from '../../ui';
import { liveScanFindings } from './live';

/** The scan's findings (the first 50), and a link to all of them in the findings list. */
export function FindingsCard({ id }: { id: string }) {
  const api = useApi(apiClientRef);
  const findings = useLoad(
    () =>
      api.GET('/api/v1/scans/{scan_id}/findings', {
        params: { path: { scan_id: id }, query: { per_page: 50 } },
      }),
    `scan/${id}/findings`,
    liveScanFindings(id),
  );
  return (
    <>
      <h2>Findings of this scan</h2>
      <Problem message={findings.error} />
      {findings.data && (
        <div className="table-wrap stacked" tabIndex={0}>
          <table aria-label="Findings of this scan">
            <thead>
              <tr>
                <th scope="col">Severity</th>
                <th scope="col">Title</th>
                <th scope="col">Component</th>
                <th scope="col">Status</th>
                <th scope="col">Due</th>
              </tr>
            </thead>
            <tbody>
              {findings.data.items.map((f) => (
                <tr key={f.id}>
                  <td data-label="Severity">
                    <Severity value={f.severity} />
                  </td>
                  <td data-label="Title">
                    <Link href={`/findings/${f.id}`}>{f.title}</Link>
                  </td>
                  <td data-label="Component">{f.affected_component}</td>
                  <td data-label="Status">
                    <Status value={f.status} />
                  </td>
                  <td data-label="Due">
                    <DueDate due={f.due_date} overdue={f.overdue} />
                  </td>
                </tr>
              ))}
              {findings.data.items.length === 0 && (
                <tr>
                  <td colSpan={5}>No findings (yet).</td>
                </tr>
              )}
            </tbody>
          </table>
          {findings.data.total > findings.data.items.length && (
            <p>
              <Link href={`/findings${queryString({ scan_id: id })}`}>
                All {findings.data.total} findings of this scan
              </Link>
            </p>
          )}
        </div>
      )}
    </>
  );
}
