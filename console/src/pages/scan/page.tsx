import { apiClientRef, useApi } from '../../api/context';
import { useLoad } from '../../data';
import { Link } from '../../router';
import { Page, Problem } from '../../ui';
import { CancelButton } from './cancel-button';
import { ChangesCard } from './changes-card';
import { FactsCard } from './facts-card';
import { FindingsCard } from './findings-card';
import { liveScan } from './live';
import { PhasesCard } from './phases-card';
import { TimingsCard } from './timings-card';

/**
 * One scan: live status, phases, current tool, counts, changes since the previous scan, its
 * findings — one card per file in this folder.
 */
export function ScanDetail({ id }: { id: string }) {
  const api = useApi(apiClientRef);
  const scan = useLoad(
    () => api.GET('/api/v1/scans/{scan_id}', { params: { path: { scan_id: id } } }),
    `scan/${id}`,
    liveScan(id),
  );
  const s = scan.data;
  return (
    <Page
      title={s ? `Scan of ${s.target}` : 'Scan'}
      actions={s ? <CancelButton scan={s} onCancelled={scan.reload} /> : undefined}
    >
      <p>
        <Link href="/scans">All scans</Link>
      </p>
      <Problem message={scan.error} />
      {s && (
        <>
          <FactsCard scan={s} />
          <PhasesCard scan={s} />
          <ChangesCard scan={s} />
          <TimingsCard scan={s} />
        </>
      )}
      <FindingsCard id={id} />
    </Page>
  );
}
