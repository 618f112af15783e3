import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/**
 * The import domain's reads of findings (server/imports/): what earlier imports of the same
 * tool and target left open, so a later import can resolve what it no longer reports.
 * Every query takes the organization id.
 */

/**
 * The organization's open and in-progress findings on this target (ignoring case) that only
 * imports of `tool` have reported: at least one sighting by an import of the tool, and none by
 * Scanward's own scans or by another tool's imports. A finding folded with a native check (or
 * another tool's result) is therefore never one of them.
 */
export async function openFindingsOnlyOfTool(
  db: Db,
  orgId: string,
  target: string,
  tool: string,
): Promise<{ id: string; template_id: string }[]> {
  const sightings = (q: Knex.QueryBuilder) =>
    q
      .select(db.raw('1'))
      .from('finding_observations as o')
      .join('scans as s', function onScan() {
        this.on('s.id', '=', 'o.scan_id').andOn('s.org_id', '=', 'o.org_id');
      })
      .where('o.org_id', orgId)
      .whereRaw('o.finding_id = f.id');
  return db('findings as f')
    .where('f.org_id', orgId)
    .whereIn('f.status', ['open', 'in_progress'])
    .whereRaw('lower(f.target) = lower(?)', [target])
    .whereExists(function byTool() {
      sightings(this).where({ 's.source': 'import', 's.tool': tool });
    })
    .whereNotExists(function byOthers() {
      sightings(this).where((w) =>
        w.whereNot('s.source', 'import').orWhereNull('s.tool').orWhereNot('s.tool', tool),
      );
    })
    .orderBy('f.id')
    .select<{ id: string; template_id: string }[]>('f.id', 'f.template_id');
}
