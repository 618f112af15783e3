import type { Db } from '../db/index.ts';
import { LIST_COLUMNS, type ListRow } from './rows.ts';

/**
 * A control's findings as list rows (findings/control-findings.ts), through each finding's
 * `frameworks[].controls` mapping. The tally per control that decides a control's status is
 * the controls' own read (controls/findings-control-status.repository.ts). Every query takes the
 * organization id.
 */

/** The organization's findings in `statuses` mapped to the control, most severe first, as list rows. */
export async function findingsOfControl(
  db: Db,
  orgId: string,
  controlId: string,
  statuses: readonly string[],
  limit: number,
): Promise<ListRow[]> {
  return db('findings')
    .where({ org_id: orgId })
    .whereIn('status', statuses)
    .whereRaw('frameworks @> ?::jsonb', [JSON.stringify([{ controls: [controlId] }])])
    .orderBy([
      { column: 'severity_rank', order: 'desc' },
      { column: 'detected_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)
    .select<ListRow[]>(LIST_COLUMNS);
}
