import { useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/contract';
import { apiClientRef, useApi } from '../../api/context';
import { FINDING_STATUSES } from '../../api/vocabulary';
import { useAction } from '../../data';
import { useMayChange } from '../../session';
import { JustificationFields, justified, type Justified } from '../../triage';
import { Notice, Options, Problem } from '../../ui';

type Finding = Schemas['FindingDetail'];

const NO_REASON: Justified = { justification: '', expiresOn: '' };

/** The finding page's "Change status" card, for a role that may triage (docs/roles.md). */
export function StatusCard(props: { finding: Finding; onChanged: () => void }) {
  return useMayChange('findings') ? <ChangeStatus {...props} /> : null;
}

/**
 * The status form. It starts at the finding's status and follows it when someone else changes
 * it (another person, or the timer reopening a lapsed acceptance, seen through the event
 * stream): the choice, the reason and the last notice are reset then, so the form never offers
 * or reports a status the finding has left. The form's own change is not such a change.
 */
function ChangeStatus({ finding, onChanged }: { finding: Finding; onChanged: () => void }) {
  const api = useApi(apiClientRef);
  const action = useAction();
  const [status, setStatus] = useState<Schemas['FindingStatus']>(finding.status);
  const [notes, setNotes] = useState('');
  const [reason, setReason] = useState<Justified>(NO_REASON);
  // The finding's status at the last render, and the status this form saved last: a new status
  // that is not the saved one came from elsewhere. Adjusted while rendering, as React advises
  // for state that follows a prop.
  const [seen, setSeen] = useState(finding.status);
  const [saved, setSaved] = useState<Schemas['FindingStatus']>();
  if (finding.status !== seen) {
    setSeen(finding.status);
    setSaved(undefined);
    if (finding.status !== saved) {
      setStatus(finding.status);
      setReason(NO_REASON);
      action.clear();
    }
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await action.act(
      api.PATCH('/api/v1/findings/{finding_id}', {
        params: { path: { finding_id: finding.id } },
        body: { status, ...(notes.trim() ? { notes: notes.trim() } : {}), ...justified(status, reason) },
      }),
      (data) => {
        setSaved(data.status);
        setNotes('');
        setReason(NO_REASON);
        onChanged();
        return `Status is now ${FINDING_STATUSES.label(data.status)}.`;
      },
    );
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="change-status">
      <h2 id="change-status">Change status</h2>
      <label>
        Status
        <select
          name="status"
          value={status}
          onChange={(e) => setStatus(e.target.value as Schemas['FindingStatus'])}
        >
          <Options of={FINDING_STATUSES} />
        </select>
      </label>
      <JustificationFields status={status} value={reason} onChange={setReason} />
      <label>
        Note (optional)
        <textarea name="notes" rows={2} value={notes} onChange={(e) => setNotes(e.target.value)} />
      </label>
      <Problem message={action.error} />
      <Notice message={action.notice} />
      <button type="submit">Save status</button>
    </form>
  );
}
