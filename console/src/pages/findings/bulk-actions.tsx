import { useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/contract';
import { apiClientRef, useApi } from '../../api/context';
import { FINDING_STATUSES } from '../../api/vocabulary';
import { useAction } from '../../data';
import { JustificationFields, justified, type Justified } from '../../triage';
import { Notice, Options, Problem } from '../../ui';

const NO_REASON: Justified = { justification: '', expiresOn: '' };

/**
 * The findings list's bulk change: a new status (with its reason, and a note) for every
 * finding ticked. `onDone` runs after a change the API took (the list clears its ticks and
 * reloads).
 */
export function BulkActions({
  selected,
  onDone,
}: {
  selected: ReadonlySet<string>;
  onDone: () => Promise<void>;
}) {
  const api = useApi(apiClientRef);
  const action = useAction();
  const [status, setStatus] = useState<Schemas['FindingStatus']>('in_progress');
  const [note, setNote] = useState('');
  const [reason, setReason] = useState<Justified>(NO_REASON);

  const apply = async (event: FormEvent) => {
    event.preventDefault();
    const done = await action.act(
      api.POST('/api/v1/findings/bulk', {
        body: {
          finding_ids: [...selected],
          update: {
            status,
            ...(note.trim() ? { notes: note.trim() } : {}),
            ...justified(status, reason),
          },
        },
      }),
      (data) =>
        `${data.updated} finding${data.updated === 1 ? '' : 's'} set to ${FINDING_STATUSES.label(status)}` +
        (data.failed.length ? `; ${data.failed.length} not changed` : '') +
        '.',
    );
    if (!done) return;
    setNote('');
    setReason(NO_REASON);
    await onDone();
  };

  return (
    <>
      <Problem message={action.error} />
      <Notice message={action.notice} />
      <form className="bulk card" onSubmit={(e) => void apply(e)} aria-label="Change selected findings">
        <span>{selected.size} selected</span>
        <label>
          New status
          <select
            name="bulk_status"
            value={status}
            onChange={(e) => setStatus(e.target.value as Schemas['FindingStatus'])}
          >
            <Options of={FINDING_STATUSES} />
          </select>
        </label>
        <JustificationFields status={status} value={reason} onChange={setReason} />
        <label>
          Note (optional)
          <input name="bulk_note" value={note} onChange={(e) => setNote(e.target.value)} />
        </label>
        <button type="submit" disabled={selected.size === 0}>
          Change status of selected
        </button>
      </form>
    </>
  );
}
