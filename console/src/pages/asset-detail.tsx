import { apiClientRef, useApi } from '../api/context';
import { useLoad } from '../data';
import { Link } from '../router';
import { Page, Problem, queryString, when } from '../ui';
import { EolBadge, OpenFindings } from './asset-parts';

/** One asset: its names, its services with their end-of-life state, and its open findings. */
export function AssetDetail({ id }: { id: string }) {
  const api = useApi(apiClientRef);
  const asset = useLoad(
    () => api.GET('/api/v1/assets/{asset_id}', { params: { path: { asset_id: id } } }),
    `asset/${id}`,
  );
  const a = asset.data;
  return (
    <Page title={a ? `Asset ${a.address}` : 'Asset'}>
      <p>
        <Link href="/inventory">All assets</Link>
      </p>
      <Problem message={asset.error} />
      {a && (
        <>
          <dl className="facts card">
            <dt>Address</dt>
            <dd>{a.address}</dd>
            <dt>Names</dt>
            <dd className="names">{a.names.length > 0 ? a.names.join(', ') : '—'}</dd>
            <dt>First seen</dt>
            <dd>{when(a.first_seen_at)}</dd>
            <dt>Last seen</dt>
            <dd>
              {when(a.last_seen_at)}
              {a.last_scan_id && (
                <>
                  {' '}
                  (<Link href={`/scans/${a.last_scan_id}`}>scan</Link>)
                </>
              )}
            </dd>
            <dt>Open findings</dt>
            <dd>
              <OpenFindings assetId={a.id} open={a.open_findings} />{' '}
              <Link href={`/findings${queryString({ asset_id: a.id })}`}>All findings on this asset</Link>
            </dd>
          </dl>
          <h2>Services</h2>
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Services">
            <table>
              <thead>
                <tr>
                  <th scope="col">Port</th>
                  <th scope="col">Service</th>
                  <th scope="col">Product</th>
                  <th scope="col">Version</th>
                  <th scope="col">TLS</th>
                  <th scope="col">End of life</th>
                  <th scope="col">Last seen</th>
                </tr>
              </thead>
              <tbody>
                {a.services.map((s) => (
                  <tr key={`${s.protocol}/${s.port}`}>
                    <td>
                      {s.port}/{s.protocol}
                    </td>
                    <td>{s.service === 'unknown' ? 'Not identified' : s.service}</td>
                    <td>{s.product ?? '—'}</td>
                    <td>{s.version ?? '—'}</td>
                    <td>{s.tls ? 'Yes' : 'No'}</td>
                    <td>
                      <EolBadge eol={s.eol} />
                    </td>
                    <td>{when(s.last_seen_at)}</td>
                  </tr>
                ))}
                {a.services.length === 0 && (
                  <tr>
                    <td colSpan={7}>No open port seen on this host.</td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Page>
  );
}
