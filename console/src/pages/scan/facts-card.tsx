import type { Schemas } from '../../api/contract';
import { FRAMEWORKS, SCAN_PHASES, SCAN_TYPES } from '../../api/vocabulary';
import { Problem, Status, when } from '../../ui';
import { Counts, findingsOf, Progress } from '../scans';
import { WebOptionsFacts } from '../web-application-fields';

/** The scan's facts: status, progress, phase and tool, what it scans, when, how many findings; its message. */
export function FactsCard({ scan: s }: { scan: Schemas['ScanDetail'] }) {
  return (
    <>
      <dl className="facts">
        <dt>Status</dt>
        <dd data-testid="scan-status">
          <Status value={s.status} />
        </dd>
        <dt>Progress</dt>
        <dd>
          <Progress value={s.progress} label="Scan progress" />
        </dd>
        <dt>Phase</dt>
        <dd>{SCAN_PHASES.label(s.phase)}</dd>
        <dt>Current tool</dt>
        <dd>{s.current_tool ?? '—'}</dd>
        <dt>Type</dt>
        <dd data-testid="scan-label">{s.source === 'import' ? s.label : SCAN_TYPES.label(s.scan_type)}</dd>
        <dt>Ports</dt>
        <dd>{s.ports ?? 'default'}</dd>
        <dt>Frameworks</dt>
        <dd>{s.frameworks.length ? s.frameworks.map((f) => FRAMEWORKS.label(f)).join(', ') : '—'}</dd>
        <WebOptionsFacts web={s.web} />
        <dt>Started</dt>
        <dd>{when(s.started_at ?? s.created_at)}</dd>
        <dt>Completed</dt>
        <dd>{when(s.completed_at)}</dd>
        <dt>Findings</dt>
        <dd data-testid="scan-findings">
          {findingsOf(s)} (<Counts scan={s} />)
        </dd>
      </dl>
      {s.message && <p data-testid="scan-message">{s.message}</p>}
      {s.error && <Problem message={s.error} />}
    </>
  );
}
