import type { Schemas } from '../../api/contract';
import { SCAN_PHASES } from '../../api/vocabulary';

/** Milliseconds as seconds with one decimal (`4.2 s`), minutes past a minute (`2 min 05 s`). */
export function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/** Where the scan's time went: the wait for a runner, each phase done, the final step. */
export function TimingsCard({ scan }: { scan: Schemas['ScanDetail'] }) {
  const t = scan.phase_timings;
  const rows: Array<[string, number]> = [];
  if (t.queue_wait !== undefined) rows.push(['Waiting for a runner', t.queue_wait]);
  for (const phase of [...scan.phases_completed, ...scan.phases_remaining]) {
    const ms = phase === 'complete' ? undefined : t.phases[phase];
    if (ms !== undefined) rows.push([SCAN_PHASES.label(phase), ms]);
  }
  if (t.completion !== undefined) rows.push(['Completing', t.completion]);
  if (rows.length === 0) return null;
  return (
    <>
      <h2 id="timings">Phase timings</h2>
      <div className="table-wrap" tabIndex={0}>
        <table aria-labelledby="timings" data-testid="phase-timings">
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col">Took</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([name, ms]) => (
              <tr key={name}>
                <td>{name}</td>
                <td>{duration(ms)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
