import type { Schemas } from '../../api/contract';
import { SCAN_PHASES } from '../../api/vocabulary';
import { isActive } from '../scans';

type Scan = Schemas['ScanDetail'];

/** The scan's phases, each done, running, skipped (and why) or to do; an import ran none. */
export function PhasesCard({ scan: s }: { scan: Scan }) {
  if (s.source === 'import') {
    return (
      <p data-testid="scan-imported">
        Nothing ran here: {s.tool ?? 'another tool'} produced the report, and Scanward recorded its results.
      </p>
    );
  }
  return (
    <>
      <h2>Phases</h2>
      <ol className="phases">
        {[...s.phases_completed, ...s.phases_remaining].map((phase) => {
          const skipped = phase === 'complete' ? undefined : s.phase_timings.skipped?.[phase];
          const done = s.status === 'completed' || s.phases_completed.includes(phase);
          const current = !done && phase === s.phase && isActive(s.status);
          return (
            <li key={phase} className={skipped ? 'skipped' : done ? 'done' : current ? 'current' : ''}>
              {SCAN_PHASES.label(phase)} —{' '}
              {skipped ? `skipped: ${skipped}` : done ? 'done' : current ? 'running' : 'to do'}
            </li>
          );
        })}
      </ol>
    </>
  );
}
