import { useEffect, useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/contract';
import { apiClientRef, useApi } from '../../api/context';
import { SEVERITIES } from '../../api/vocabulary';
import { useAction, useLoad } from '../../data';
import { useMayChange } from '../../session';
import { Notice, Problem } from '../../ui';
import { Section } from './section';

type Policy = Schemas['SlaPolicyChange'];
const LEVELS = ['critical', 'high', 'medium', 'low'] as const;
type Draft = Record<(typeof LEVELS)[number], string> & { require_justification: boolean };

/**
 * The triage policy (`/api/v1/settings/sla`): days from detection to a new finding's due date,
 * by severity, and whether accepting a risk or marking a false positive needs a justification
 * (the console always asks for one; the switch makes the API refuse a change without one).
 * Everyone sees it; an admin changes it (the API refuses anyone else), and is asked on saving
 * whether open findings take the new days too (`apply_to_open`). Informational findings
 * get no due date.
 */
export function Sla() {
  const api = useApi(apiClientRef);
  const admin = useMayChange('settings');
  const policy = useLoad(() => api.GET('/api/v1/settings/sla'), 'settings/sla');
  const action = useAction();
  const [draft, setDraft] = useState<Draft>();

  useEffect(() => {
    if (policy.data) {
      const p = policy.data;
      setDraft({
        critical: String(p.critical),
        high: String(p.high),
        medium: String(p.medium),
        low: String(p.low),
        require_justification: p.require_justification,
      });
    }
  }, [policy.data]);

  const [asking, setAsking] = useState(false);

  // Saving asks first whether open findings take the new days too (apply_to_open).
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft) setAsking(true);
  };
  const save = (applyToOpen: boolean) => {
    if (!draft) return;
    setAsking(false);
    const body: Policy = {
      ...(Object.fromEntries(LEVELS.map((l) => [l, Number(draft[l])])) as Pick<
        Policy,
        (typeof LEVELS)[number]
      >),
      require_justification: draft.require_justification,
      ...(applyToOpen ? { apply_to_open: true } : {}),
    };
    void action.act(api.PUT('/api/v1/settings/sla', { body }), (saved) => {
      void policy.reload();
      if (!applyToOpen) return 'Triage policy saved; due dates apply to findings detected from now on.';
      const moved = saved.open_findings_updated ?? 0;
      return `Triage policy saved; ${moved === 1 ? '1 open finding has' : `${moved} open findings have`} a new due date.`;
    });
  };

  return (
    <Section id="sla" title="Triage policy">
      <p className="hint">
        Days from detection to a finding’s due date, by severity. A finding past its due date and still open
        or in progress is overdue. Informational findings have no due date. Requiring a justification makes
        the API refuse an accepted risk or a false positive without one (the console always asks).
      </p>
      <Problem message={policy.error ?? action.error} />
      <Notice message={action.notice} />
      {draft && admin && (
        <form onSubmit={submit} className="sla-form">
          {LEVELS.map((level) => (
            <label key={level}>
              {SEVERITIES.label(level)} (days)
              <input
                type="number"
                name={`sla_${level}`}
                min={1}
                max={3650}
                required
                value={draft[level]}
                onChange={(e) => setDraft({ ...draft, [level]: e.target.value })}
              />
            </label>
          ))}
          <label>
            <input
              type="checkbox"
              name="require_justification"
              checked={draft.require_justification}
              onChange={(e) => setDraft({ ...draft, require_justification: e.target.checked })}
            />
            Require a justification to accept a risk or mark a false positive
          </label>
          <button type="submit">Save triage policy</button>
        </form>
      )}
      {asking && (
        <div role="group" aria-label="Apply the SLA policy to open findings?" className="confirm">
          <p>
            Also move the due dates of open and in-progress findings to the new days? Dates a person set stay
            as they are.
          </p>
          <div className="row">
            <button type="button" onClick={() => save(true)}>
              Save and update open findings
            </button>
            <button type="button" onClick={() => save(false)}>
              Save for new findings only
            </button>
            <button type="button" className="link" onClick={() => setAsking(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {policy.data && !admin && (
        <ul>
          {LEVELS.map((level) => (
            <li key={level}>
              {SEVERITIES.label(level)}: {policy.data![level]} days
            </li>
          ))}
          <li>
            Justification for accepted risks and false positives:{' '}
            {policy.data.require_justification ? 'required' : 'optional'}
          </li>
        </ul>
      )}
    </Section>
  );
}
