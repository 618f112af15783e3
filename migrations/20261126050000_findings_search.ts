import type { Knex } from 'knex';

/**
 * Indexes of the findings search (docs/findings-search.md):
 *
 * - `scanward_finding_text(…)`: the text `q` searches (title, component, target, CVE ids,
 *   description), lower-cased, one expression both the filter and the index use; with
 *   `pg_trgm` a trigram GIN index over it serves `like '%…%'`. Without the extension (a
 *   PostgreSQL without contrib) the search still works, by reading the organization's rows.
 * - `scanward_inet(target)`: the target as an address, null when it is a name; a b-tree over
 *   (org_id, it) serves the CIDR filter (`<<=` is a range over a b-tree). PARALLEL UNSAFE: its
 *   exception handler opens a subtransaction, which PostgreSQL refuses anywhere in a parallel
 *   query ("cannot start subtransactions during a parallel operation", seen at 100k findings).
 * - (org_id, lower(target) text_pattern_ops): the prefix filter (`like 'redis.%'`), whatever
 *   the database's collation.
 */
export async function up(knex: Knex): Promise<void> {
  const available = await knex.raw<{ rows: unknown[] }>(
    "select 1 from pg_available_extensions where name = 'pg_trgm'",
  );
  const trigrams = available.rows.length > 0;
  if (trigrams) await knex.raw('create extension if not exists pg_trgm');
  await knex.raw(`
    create or replace function scanward_finding_text(
      title text, component text, target text, cve_ids text[], description text
    ) returns text language sql immutable parallel safe as $$
      select lower(coalesce(title, '') || E'\\n' || coalesce(component, '') || E'\\n' ||
        coalesce(target, '') || E'\\n' || coalesce(array_to_string(cve_ids, ' '), '') || E'\\n' ||
        coalesce(description, ''))
    $$`);
  await knex.raw(`
    create or replace function scanward_inet(value text) returns inet
    language plpgsql immutable strict parallel unsafe as $$
    begin
      if value !~ '^[0-9A-Fa-f:.]+$' or value !~ '[.:]' then
        return null;
      end if;
      return value::inet;
    exception when others then
      return null;
    end
    $$`);
  if (trigrams) {
    await knex.raw(`
      create index findings_search_trgm_idx on findings using gin (
        scanward_finding_text(title, affected_component, target, cve_ids, description) gin_trgm_ops
      )`);
  }
  await knex.raw('create index findings_org_target_inet_idx on findings (org_id, scanward_inet(target))');
  await knex.raw(
    'create index findings_org_target_prefix_idx on findings (org_id, lower(target) text_pattern_ops)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists findings_org_target_prefix_idx');
  await knex.raw('drop index if exists findings_org_target_inet_idx');
  await knex.raw('drop index if exists findings_search_trgm_idx');
  await knex.raw('drop function if exists scanward_inet(text)');
  await knex.raw('drop function if exists scanward_finding_text(text, text, text, text[], text)');
}
