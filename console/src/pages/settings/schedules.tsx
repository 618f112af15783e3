import { useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/contract';
import { apiClientRef, useApi } from '../../api/context';
import { SCHEDULE_FREQUENCIES, vocabulary } from '../../api/vocabulary';
import { useCollection } from '../../data';
import { Options, Problem, when } from '../../ui';
import { ItemTable, Section } from './section';

type Frequency = Schemas['ScheduleFrequency'];

/** The form's choices: a weekly schedule runs on Mondays, a monthly one on the 1st. */
const FREQUENCY_CHOICES = vocabulary<Frequency>({
  daily: 'Daily',
  weekly: 'Weekly (Mondays)',
  monthly: 'Monthly (the 1st)',
});

/** Recurring scans: the list, a form to add one, delete. */
export function Schedules() {
  const api = useApi(apiClientRef);
  const schedules = useCollection('settings/schedules', () =>
    api.GET('/api/v1/scans/schedules', { params: { query: { per_page: 100 } } }),
  );
  const [target, setTarget] = useState('');
  const [frequency, setFrequency] = useState<Frequency>('weekly');
  const [hour, setHour] = useState('3');
  const [authorized, setAuthorized] = useState(false);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

  const create = (event: FormEvent) => {
    event.preventDefault();
    if (!authorized) return schedules.fail('Confirm that you are authorized to scan this target.');
    void schedules.act(
      api.POST('/api/v1/scans/schedules', {
        body: {
          target: target.trim(),
          hour: Number(hour),
          timezone: zone,
          authorized: true,
          ...(frequency === 'weekly'
            ? { frequency, day_of_week: 1 }
            : frequency === 'monthly'
              ? { frequency, day_of_month: 1 }
              : { frequency }),
        },
      }),
      () => setTarget(''),
    );
  };
  const remove = (id: string) =>
    void schedules.act(
      api.DELETE('/api/v1/scans/schedules/{schedule_id}', { params: { path: { schedule_id: id } } }),
    );

  return (
    <Section id="schedules" title="Scheduled scans">
      <Problem message={schedules.error} />
      {schedules.items && (
        <ItemTable
          items={schedules.items}
          empty="No schedules."
          columns={[
            { header: 'Target', cell: (s) => `${s.target} (${s.scan_type})` },
            {
              header: 'When',
              cell: (s) => `${SCHEDULE_FREQUENCIES.label(s.frequency)} at ${s.hour}:00 ${s.timezone}`,
            },
            { header: 'Next run', cell: (s) => when(s.next_run_at) },
            {
              header: 'Last run',
              cell: (s) => `${when(s.last_run_at)}${s.last_error ? ` — ${s.last_error}` : ''}`,
            },
          ]}
          actions={(s) => (
            <button type="button" className="link" onClick={() => remove(s.id)}>
              Delete schedule of {s.target}
            </button>
          )}
        />
      )}
      <form onSubmit={create} className="row">
        <label>
          Schedule target
          <input name="schedule_target" required value={target} onChange={(e) => setTarget(e.target.value)} />
        </label>
        <label>
          Frequency
          <select
            name="frequency"
            value={frequency}
            onChange={(e) => setFrequency(e.target.value as Frequency)}
          >
            <Options of={FREQUENCY_CHOICES} />
          </select>
        </label>
        <label>
          Hour ({zone})
          <input
            name="hour"
            type="number"
            min={0}
            max={23}
            required
            value={hour}
            onChange={(e) => setHour(e.target.value)}
          />
        </label>
        <label className="inline">
          <input type="checkbox" checked={authorized} onChange={(e) => setAuthorized(e.target.checked)} /> I
          am authorized to scan this target
        </label>
        <button type="submit">Add schedule</button>
      </form>
    </Section>
  );
}
