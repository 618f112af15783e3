import { useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/contract';
import { apiClientRef, useApi } from '../../api/context';
import { FINDING_PRIORITIES } from '../../api/vocabulary';
import { useAction, useLoad } from '../../data';
import { useMayChange } from '../../session';
import { Notice, Options, Problem } from '../../ui';

type Finding = Schemas['FindingDetail'];
type Priority = NonNullable<Schemas['FindingPriority']>;

/** `YYYY-MM-DD` of an ISO time in UTC, for a date box; empty when there is none. */
const dayOf = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

/** The finding page's Assignment card, for a role that may change findings (docs/roles.md). */
export function AssignmentCard(props: { finding: Finding; onChanged: () => void }) {
  return useMayChange('findings') ? <Assignment {...props} /> : null;
}

/**
 * Who works on the finding, how urgent it is and by when: a person's due date replaces the one
 * the SLA set at detection (an empty box clears it, and the SLA does not set it again). The
 * assignee box suggests the organization's people as you type (a datalist over
 * `GET /findings/assignees`) and still takes any address the API accepts.
 */
function Assignment({ finding, onChanged }: { finding: Finding; onChanged: () => void }) {
  const api = useApi(apiClientRef);
  const people = useLoad(() => api.GET('/api/v1/findings/assignees'), 'findings/assignees');
  const action = useAction();
  const [assignee, setAssignee] = useState(finding.assignee ?? '');
  const [priority, setPriority] = useState<Priority | ''>(finding.priority ?? '');
  const [due, setDue] = useState(dayOf(finding.due_date));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await action.act(
      api.PATCH('/api/v1/findings/{finding_id}', {
        params: { path: { finding_id: finding.id } },
        body: {
          assignee: assignee.trim() || null,
          priority: priority || null,
          // The end of the chosen day, in UTC: due on that day means overdue after it.
          due_date: due ? `${due}T23:59:59.000Z` : null,
        },
      }),
      () => {
        onChanged();
        return 'Assignment saved.';
      },
    );
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="assignment">
      <h2 id="assignment">Assignment</h2>
      <label>
        Assignee
        <input
          type="email"
          name="assignee"
          placeholder="e-mail"
          list="assignee-people"
          autoComplete="off"
          value={assignee}
          onChange={(e) => setAssignee(e.target.value)}
        />
      </label>
      <datalist id="assignee-people" data-testid="assignee-people">
        {(people.data?.items ?? []).map((person) => (
          <option key={person.email} value={person.email} />
        ))}
      </datalist>
      <label>
        Priority
        <select
          name="priority"
          value={priority}
          onChange={(e) => setPriority(e.target.value as Priority | '')}
        >
          <option value="">None</option>
          <Options of={FINDING_PRIORITIES} />
        </select>
      </label>
      <label>
        Due date
        <input type="date" name="due_date" value={due} onChange={(e) => setDue(e.target.value)} />
      </label>
      <Problem message={action.error} />
      <Notice message={action.notice} />
      <button type="submit">Save assignment</button>
    </form>
  );
}
