import type { Schemas } from '../../api/contract';
import { apiClientRef, useApi } from '../../api/context';
import { useAction } from '../../data';
import { useMayChange } from '../../session';
import { confirmed, Problem } from '../../ui';
import { isActive } from '../scans';

/**
 * "Cancel scan", asked first, for a running scan and a role that may change scans
 * (docs/roles.md). The answer's message is the scan's: it shows once, from the scan read again
 * (`onCancelled`); only a refusal shows here.
 */
export function CancelButton({
  scan,
  onCancelled,
}: {
  scan: Schemas['ScanDetail'];
  onCancelled: () => Promise<void>;
}) {
  const api = useApi(apiClientRef);
  const action = useAction();
  const mayCancel = useMayChange('scans');
  if (!mayCancel || !isActive(scan.status)) return <Problem message={action.error} />;
  const cancel = async () => {
    if (!confirmed(`Cancel the scan of ${scan.target}? Its findings so far are kept.`)) return;
    await action.act(api.DELETE('/api/v1/scans/{scan_id}', { params: { path: { scan_id: scan.id } } }));
    await onCancelled();
  };
  return (
    <>
      <button type="button" className="danger" onClick={() => void cancel()}>
        Cancel scan
      </button>
      <Problem message={action.error} />
    </>
  );
}
