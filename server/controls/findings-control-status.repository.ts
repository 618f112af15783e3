import type { Db } from '../db/index.ts';

/**
 * The compliance view's tally of findings per control (controls/status.ts), through each
 * finding's `frameworks[].controls` mapping. It reads the `findings` table directly: controls
 * sit below findings and never import them. Every query takes the organization id.
 */

export interface OpenFindingsTally {
  control_id: string;
  open_findings: number;
}

/**
 * Counts the organization's findings in `statuses` per mapped control;
 * `controlId` narrows it to one control.
 */
export async function findingsPerControl(
  db: Db,
  orgId: string,
  statuses: readonly string[],
  controlId?: string,
): Promise<OpenFindingsTally[]> {
  // Unnest each finding's mapping ([{name, controls: [...]}]) into control ids.
  return db
    .from(
      db.raw(
        "findings f cross join lateral jsonb_array_elements(f.frameworks) fw cross join lateral jsonb_array_elements_text(fw->'controls') c(control_id)",
      ),
    )
    .where('f.org_id', orgId)
    .whereIn('f.status', statuses)
    .modify((q) => {
      if (controlId) void q.andWhere('c.control_id', controlId);
    })
    .groupBy('c.control_id')
    .select<OpenFindingsTally[]>('c.control_id', db.raw('count(distinct f.id)::int as open_findings'));
}
