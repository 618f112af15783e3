import { ConfigurationError } from './errors.ts';
import { gateFindings, type GatePolicy, type GateResult } from './gate.ts';
import type { FinishedScan } from './scan-source.ts';
import {
  TRIAGED_AWAY,
  atOrAbove,
  bySeverity,
  isNew,
  type Finding,
  type ScanLinks,
  type ScanRecord,
  type ToolInfo,
} from './scan.ts';

/**
 * The verdict: a finished scan evaluated against the gate. It is the one input of every
 * report (reports/): the SARIF file, the JUnit and JSON files, the job summary, the pull
 * request comment, the annotations, the step outputs and the command's result lines. Built
 * once, by a pure function, from whatever source ran the scan.
 */

export type Verdict = CompletedVerdict | UnsuccessfulVerdict;

export interface CompletedVerdict {
  kind: 'completed';
  scan: ScanRecord;
  links: ScanLinks;
  tool: ToolInfo;
  policy: GatePolicy;
  gate: GateResult;
  /** The findings at or above report-severity (triaged ones included; SARIF leaves those out), most severe first. */
  reported: Finding[];
  /** The open findings this scan found first or reopened, at or above report-severity, most severe first. */
  newFindings: Finding[];
  passed: boolean;
}

/** The scan failed, was cancelled, or did not finish in time (and was cancelled): no findings, no gate. */
export interface UnsuccessfulVerdict {
  kind: 'unsuccessful';
  scan: ScanRecord;
  links: ScanLinks;
  timedOut: boolean;
  /** The time the scan was given, for the message. */
  timeoutMs: number;
  passed: false;
}

/** Evaluates a finished scan against the gate policy. */
export function judge(finished: FinishedScan, policy: GatePolicy): Verdict {
  if (finished.kind === 'unsuccessful') {
    const { scan, links, timedOut, timeoutMs } = finished;
    return { kind: 'unsuccessful', scan, links, timedOut, timeoutMs, passed: false };
  }
  const { scan, links, tool, findings } = finished;
  if (policy.mode === 'new' && findings.some((f) => f.change === undefined)) {
    throw new ConfigurationError(
      'gate is new, but this Scanward service does not say which findings are new (no `change` in GET /api/v1/scans/{id}/findings). Upgrade the service, or use gate: all.',
    );
  }
  const reported = findings.filter((f) => atOrAbove(f, policy.reportSeverity)).sort(bySeverity);
  const gate = gateFindings(findings, policy.failOn, policy.mode);
  return {
    kind: 'completed',
    scan,
    links,
    tool,
    policy,
    gate,
    reported,
    newFindings: reported.filter((f) => isNew(f) && !TRIAGED_AWAY.has(f.status)),
    passed: !gate.failed,
  };
}
