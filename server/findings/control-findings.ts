import type { Db } from '../db/index.ts';
import type { ControlFindingsReader } from '../controls/controls.ts';
import { findingsOfControl } from './findings-controls.repository.ts';
import { findingListItem } from './views.ts';

/**
 * The findings a control's detail lists (GET /controls/{id}): the organization's findings in
 * the given statuses mapped to the control, most severe first, as list items. Controls sit
 * below findings, so the caller hands this reader to `getControlDetail`.
 */
export function controlFindingsReader(db: Db, orgId: string): ControlFindingsReader {
  return async (controlId, statuses, limit) =>
    (await findingsOfControl(db, orgId, controlId, statuses, limit)).map(findingListItem);
}
