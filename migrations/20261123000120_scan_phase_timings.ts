import type { Knex } from 'knex';

/**
 * Scans: `phase_timings`, the milliseconds each completed phase took and the
 * time the scan waited between its creation and a runner's claim. Written by the
 * runner with the phase's own completion write, so it costs no extra query.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.jsonb('phase_timings');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.dropColumn('phase_timings');
  });
}
