import type { Knex } from 'knex';
import type { ControlStatus } from '../schemas/controls.ts';

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

interface EvidenceTally {
  control_id: string;
  evidence_count: number;
  scan_evidence: number;
}

interface FailingTally {
  control_id: string;
  open_findings: number;
}

/**
 * The state of every control the organization has evidence or open findings for,
 * in two queries (evidence per control, open findings per mapped control). A
 * control missing from the map is `not_assessed` with no evidence: see
 * {@link stateOf}. `controlId` narrows both queries to one control.
 */
export async function controlStates(
  db: Knex,
  orgId: string,
  controlId?: string,
): Promise<Map<string, ControlState>> {
  // In sequence: PGlite has one connection.
  const tallies = (await db('control_evidence')
    .where({ org_id: orgId })
    .modify((q) => {
      if (controlId) void q.andWhere({ control_id: controlId });
    })
    .groupBy('control_id')
    .select(
      'control_id',
      db.raw('count(*)::int as evidence_count'),
      db.raw("count(*) filter (where kind = 'scan')::int as scan_evidence"),
    )) as EvidenceTally[];

  // Unnest each unresolved finding's mapping ([{name, controls: [...]}]) into control ids.
  const failing = (await db
    .from(
      db.raw(
        "findings f cross join lateral jsonb_array_elements(f.frameworks) fw cross join lateral jsonb_array_elements_text(fw->'controls') c(control_id)",
      ),
    )
    .where('f.org_id', orgId)
    .whereIn('f.status', UNRESOLVED_FINDING_STATUSES)
    .modify((q) => {
      if (controlId) void q.andWhere('c.control_id', controlId);
    })
    .groupBy('c.control_id')
    .select('c.control_id', db.raw('count(distinct f.id)::int as open_findings'))) as FailingTally[];

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
