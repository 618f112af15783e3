import { useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/contract';
import { apiClientRef, useApi } from '../../api/context';
import { FRAMEWORKS, SCAN_TYPES, SCHEDULE_FREQUENCIES, vocabulary } from '../../api/vocabulary';
import { useCollection } from '../../data';
import { useSession } from '../../session';
import { Choices, confirmed, Notice, Options, Problem, when } from '../../ui';
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
  const [scanType, setScanType] = useState<Schemas['ScanType']>('quick');
  const [ports, setPorts] = useState('');
  const [frameworks, setFrameworks] = useState<Schemas['Framework'][]>([]);
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
          scan_type: scanType,
          ...(ports.trim() ? { ports: ports.trim() } : {}),
          ...(frameworks.length ? { frameworks } : {}),
          ...(frequency === 'weekly'
            ? { frequency, day_of_week: 1 }
            : frequency === 'monthly'
              ? { frequency, day_of_month: 1 }
              : { frequency }),
        },
      }),
      (created) => {
        setTarget('');
        setPorts('');
        setFrameworks([]);
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
  const canManage = useSession().session.user.role === 'admin';
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
        <form onSubmit={create} className="row">
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
          <label>
            Scan type
            <select
              name="schedule_scan_type"
              value={scanType}
              onChange={(e) => setScanType(e.target.value as Schemas['ScanType'])}
            >
              <Options of={SCAN_TYPES} />
            </select>
          </label>
          <label>
            Ports (optional)
            <input
              name="schedule_ports"
              placeholder="22,80,443 or 1-1024"
              value={ports}
              onChange={(e) => setPorts(e.target.value)}
            />
          </label>
          <Choices legend="Frameworks" of={FRAMEWORKS} chosen={frameworks} onChange={setFrameworks} />
          <label className="inline">
            <input type="checkbox" checked={authorized} onChange={(e) => setAuthorized(e.target.checked)} /> I
            am authorized to scan this target
          </label>
          <button type="submit">Add schedule</button>
        </form>
      )}
    </Section>
  );
}
