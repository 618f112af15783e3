import type { Db } from '../db/index.ts';
import type { ControlStatus } from '../schemas/controls.ts';
import { evidenceTallies } from './control-evidence.repository.ts';
import { findingsPerControl } from './findings-control-status.repository.ts';

/**
 * A control's status in one organization (decisions.md, "Controls (GRC)"):
 * - `failing` while an `open` or `in_progress` finding maps to it (the finding's
 *   `frameworks[].controls` names the control id);
 * - `passing` when a completed scan assessed it (scan evidence) and nothing open
 *   maps to it;
 * - `not_assessed` otherwise. Evidence attached by users is counted, but does not
 *   by itself make a control pass: the service cannot judge a document.
 */

/** Finding statuses that keep a control failing. */
export const UNRESOLVED_FINDING_STATUSES = ['open', 'in_progress'] as const;

export interface ControlFacts {
  /** Whether a completed scan recorded evidence for it. */
  assessed: boolean;
  /** How many open or in_progress findings map to it. */
  openFindings: number;
}

export interface ControlState {
  status: ControlStatus;
  evidenceCount: number;
  openFindings: number;
}

export function controlStatus(facts: ControlFacts): ControlStatus {
  if (facts.openFindings > 0) return 'failing';
  return facts.assessed ? 'passing' : 'not_assessed';
}

const NOT_ASSESSED: ControlState = { status: 'not_assessed', evidenceCount: 0, openFindings: 0 };

/**
 * The state of every control the organization has evidence or open findings for,
 * in two queries (evidence per control, open findings per mapped control). A
 * control missing from the map is `not_assessed` with no evidence: see
 * {@link stateOf}. `controlId` narrows both queries to one control.
 */
export async function controlStates(
  db: Db,
  orgId: string,
  controlId?: string,
): Promise<Map<string, ControlState>> {
  // In sequence: PGlite has one connection.
  const tallies = await evidenceTallies(db, orgId, controlId);
  const failing = await findingsPerControl(db, orgId, UNRESOLVED_FINDING_STATUSES, controlId);

  const open = new Map(failing.map((r) => [r.control_id, r.open_findings]));
  const states = new Map<string, ControlState>();
  for (const t of tallies) {
    const openFindings = open.get(t.control_id) ?? 0;
    states.set(t.control_id, {
      status: controlStatus({ assessed: t.scan_evidence > 0, openFindings }),
      evidenceCount: t.evidence_count,
      openFindings,
    });
  }
  for (const [id, openFindings] of open) {
    if (states.has(id)) continue;
    states.set(id, {
      status: controlStatus({ assessed: false, openFindings }),
      evidenceCount: 0,
      openFindings,
    });
  }
  return states;
}

export function stateOf(states: ReadonlyMap<string, ControlState>, controlId: string): ControlState {
  return states.get(controlId) ?? NOT_ASSESSED;
}
