import type { Db } from '../db/index.ts';
import { notFound } from '../errors.ts';
import { pageOf, type PageOf } from '../schemas/common.ts';
import {
  CONTROL_DETAIL_LIMIT,
  type Control,
  type ControlDetail,
  type ControlEvidence,
  type ControlStatus,
  type CreateEvidenceBody,
} from '../schemas/controls.ts';
import type { FindingListItem } from '../schemas/findings.ts';
import { CONTROLS, getControl, type ControlDefinition, type FrameworkSlug } from './catalogue.ts';
import { attachEvidence, listEvidence } from './evidence.ts';
import { controlStates, stateOf, UNRESOLVED_FINDING_STATUSES, type ControlState } from './status.ts';

/**
 * The compliance controls API over the catalogue: each control with its status and
 * evidence count in one organization.
 */

export function controlView(control: ControlDefinition, state: ControlState): Control {
  return {
    id: control.id,
    name: control.name,
    status: state.status,
    frameworks: [control.framework],
    evidence_count: state.evidenceCount,
    reference: control.reference,
    description: control.description,
  };
}

export interface ControlFilter {
  framework?: FrameworkSlug | undefined;
  status?: ControlStatus | undefined;
  page: number;
  perPage: number;
}

/** One page of the catalogue in catalogue order (framework, then reference), filtered. */
export async function listControls(db: Db, orgId: string, filter: ControlFilter): Promise<PageOf<Control>> {
  const states = await controlStates(db, orgId);
  const matching = CONTROLS.filter((c) => !filter.framework || c.framework === filter.framework)
    .map((c) => controlView(c, stateOf(states, c.id)))
    .filter((c) => !filter.status || c.status === filter.status);
  const start = (filter.page - 1) * filter.perPage;
  return pageOf(matching.slice(start, start + filter.perPage), matching.length, filter.page, filter.perPage);
}

function knownControl(controlId: string): ControlDefinition {
  const control = getControl(controlId);
  if (!control) throw notFound('control');
  return control;
}

/**
 * The organization's findings in `statuses` mapped to a control, most severe first, at most
 * `limit`, as list items. Findings sit above controls: the caller passes the reader
 * (findings/control-findings.ts).
 */
export type ControlFindingsReader = (
  controlId: string,
  statuses: readonly string[],
  limit: number,
) => Promise<FindingListItem[]>;

/** The control with its open findings and evidence; an unknown id is NOT_FOUND. */
export async function getControlDetail(
  db: Db,
  orgId: string,
  controlId: string,
  findingsOf: ControlFindingsReader,
): Promise<ControlDetail> {
  const control = knownControl(controlId);
  const state = stateOf(await controlStates(db, orgId, control.id), control.id);
  const findings = await findingsOf(control.id, UNRESOLVED_FINDING_STATUSES, CONTROL_DETAIL_LIMIT);
  const evidence = await listEvidence(db, orgId, control.id, CONTROL_DETAIL_LIMIT);
  return { ...controlView(control, state), findings, findings_total: state.openFindings, evidence };
}

/** Attaches user evidence to a catalogue control; an unknown id is NOT_FOUND. */
export async function addControlEvidence(
  db: Db,
  orgId: string,
  controlId: string,
  author: string,
  input: CreateEvidenceBody,
): Promise<ControlEvidence> {
  const control = knownControl(controlId);
  return attachEvidence(db, orgId, control.id, author, input);
}
