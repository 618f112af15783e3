import { useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/contract';
import { apiClientRef, useApi } from '../../api/context';
import { FRAMEWORKS, SCAN_TYPES, SCHEDULE_FREQUENCIES, vocabulary } from '../../api/vocabulary';
import { useCollection } from '../../data';
import { useMayChange } from '../../session';
import { confirmed, Notice, Options, Problem, when } from '../../ui';
import { DEFAULT_SCAN_OPTIONS, NOT_AUTHORIZED, scanRequestOf, ScanOptionsFields } from '../scan-options';
import { DEFAULT_WEB_OPTIONS } from '../web-application-fields';
import { ItemTable, Section } from './section';

type Frequency = Schemas['ScheduleFrequency'];

/** The form's choices: a weekly schedule runs on Mondays, a monthly one on the 1st. */
const FREQUENCY_CHOICES = vocabulary<Frequency>({
  daily: 'Daily',
  weekly: 'Weekly (Mondays)',
  monthly: 'Monthly (the 1st)',
});

/** A schedule's scan in words: `Full, ports 22,443, PCI DSS 4.0`. */
function scanOf(s: Schemas['Schedule']): string {
  return [
    SCAN_TYPES.label(s.scan_type),
    s.ports ? `ports ${s.ports}` : 'default ports',
    ...s.frameworks.map((f) => FRAMEWORKS.label(f)),
    ...(s.web?.active ? ['active web testing'] : []),
    ...(s.web?.authentication ? ['signed in'] : []),
  ].join(', ');
}

/** Recurring scans: the list, a form to add one with every option of a scan, delete. */
export function Schedules() {
  const api = useApi(apiClientRef);
  const schedules = useCollection('settings/schedules', () =>
    api.GET('/api/v1/scans/schedules', { params: { query: { per_page: 100 } } }),
  );
  const [target, setTarget] = useState('');
  const [frequency, setFrequency] = useState<Frequency>('weekly');
  const [hour, setHour] = useState('3');
  const [options, setOptions] = useState(DEFAULT_SCAN_OPTIONS);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

  const create = (event: FormEvent) => {
    event.preventDefault();
    if (!options.authorized) return schedules.fail(NOT_AUTHORIZED);
    void schedules.act(
      api.POST('/api/v1/scans/schedules', {
        body: {
          target: target.trim(),
          hour: Number(hour),
          timezone: zone,
          ...scanRequestOf(options),
          ...(frequency === 'weekly'
            ? { frequency, day_of_week: 1 }
            : frequency === 'monthly'
              ? { frequency, day_of_month: 1 }
              : { frequency }),
        },
      }),
      (created) => {
        setTarget('');
        // The web section's password and header values are not kept once sent.
        setOptions((o) => ({ ...o, ports: '', frameworks: [], web: DEFAULT_WEB_OPTIONS }));
        return `Schedule of ${created.target} added.`;
      },
    );
  };
  const remove = (s: Schemas['Schedule']) => {
    if (!confirmed(`Delete the schedule of ${s.target}? Scans it already ran are kept.`)) return;
    void schedules.act(
      api.DELETE('/api/v1/scans/schedules/{schedule_id}', { params: { path: { schedule_id: s.id } } }),
      () => `Schedule of ${s.target} deleted.`,
    );
  };

  // Schedules are the admin's (the API's policy); everyone else reads them.
  const canManage = useMayChange('settings');
  return (
    <Section id="schedules" title="Scheduled scans">
      <Problem message={schedules.error} />
      <Notice message={schedules.notice} />
      {schedules.items && (
        <ItemTable
          items={schedules.items}
          empty="No schedules."
          columns={[
            { header: 'Target', cell: (s) => s.target },
            { header: 'Scan', cell: scanOf },
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
          actions={
            canManage
              ? (s) => (
                  <button type="button" className="link" onClick={() => remove(s)}>
                    Delete schedule of {s.target}
                  </button>
                )
              : undefined
          }
        />
      )}
      {canManage && (
        <form onSubmit={create}>
          <ScanOptionsFields value={options} onChange={setOptions} namePrefix="schedule_">
            <label>
              Schedule target
              <input
                name="schedule_target"
                required
                value={target}
                onChange={(e) => setTarget(e.target.value)}
              />
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
          </ScanOptionsFields>
          <button type="submit">Add schedule</button>
        </form>
      )}
    </Section>
  );
}
