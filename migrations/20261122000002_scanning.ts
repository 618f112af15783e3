import type { Knex } from 'knex';

/**
 * Scans and their queue, findings with their observations, comments and
 * history, schedules, idempotency records, compliance evidence, webhooks with
 * their delivery outbox, and AI analysis cache and credit usage.
 */

const check = (table: string, column: string, values: string[]) =>
  `alter table ${table} add constraint ${table}_${column}_check check (${column} in (${values.map((v) => `'${v}'`).join(', ')}))`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scans', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('created_by').references('users.id').onDelete('SET NULL');
    t.text('schedule_id');
    t.text('target').notNullable();
    t.text('scan_type').notNullable();
    t.specificType('frameworks', 'text[]').notNullable().defaultTo('{}');
    t.text('ports'); // the request's port spec; null = the default list
    t.text('status').notNullable().defaultTo('pending');
    t.integer('progress').notNullable().defaultTo(0);
    t.text('phase').notNullable();
    t.text('current_tool');
    t.specificType('phases_completed', 'text[]').notNullable().defaultTo('{}');
    t.integer('estimated_duration').notNullable();
    t.integer('vulnerabilities_found').notNullable().defaultTo(0);
    t.integer('critical_count').notNullable().defaultTo(0);
    t.integer('high_count').notNullable().defaultTo(0);
    t.integer('medium_count').notNullable().defaultTo(0);
    t.integer('low_count').notNullable().defaultTo(0);
    t.integer('info_count').notNullable().defaultTo(0);
    t.jsonb('changes'); // {new, reopened, resolved, unchanged} once completed
    t.text('error'); // why a failed scan failed
    t.text('message'); // the cancel confirmation
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('started_at', { useTz: true });
    t.timestamp('completed_at', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Runner bookkeeping: who holds the scan, until when, how often it was tried,
    // the last time it made progress (watchdog) and what earlier phases learned.
    t.text('runner_id');
    t.timestamp('lease_expires_at', { useTz: true });
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('last_progress_at', { useTz: true });
    t.jsonb('state');
    t.index(['org_id', 'created_at', 'id']);
    t.index(['org_id', 'status']);
    t.index(['status', 'created_at']);
  });
  await knex.raw(check('scans', 'scan_type', ['quick', 'full', 'compliance']));
  await knex.raw(check('scans', 'status', ['pending', 'running', 'completed', 'failed', 'cancelled']));
  await knex.raw('create index scans_org_target_idx on scans (org_id, lower(target))');

  await knex.schema.createTable('findings', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('fingerprint').notNullable();
    t.text('scan_id').notNullable().references('scans.id').onDelete('CASCADE'); // owning (first) scan
    t.text('last_scan_id').notNullable();
    t.text('title').notNullable();
    t.text('severity').notNullable();
    t.smallint('severity_rank').notNullable(); // critical 4 … info 0, for sorting
    t.text('status').notNullable().defaultTo('open');
    t.double('cvss_score').notNullable().defaultTo(0);
    t.text('cvss_vector');
    t.double('epss_score');
    t.text('target').notNullable();
    t.text('affected_component').notNullable();
    t.integer('port');
    t.text('tool').notNullable();
    t.text('template_id').notNullable(); // canonical check id
    t.text('category');
    t.specificType('cve_ids', 'text[]').notNullable().defaultTo('{}');
    t.specificType('cwe_ids', 'text[]').notNullable().defaultTo('{}');
    t.text('description').notNullable().defaultTo('');
    t.text('impact').notNullable().defaultTo('');
    t.jsonb('remediation').notNullable();
    t.jsonb('evidence').notNullable();
    t.jsonb('frameworks').notNullable().defaultTo('[]'); // [{name, controls}]
    t.boolean('kev').notNullable().defaultTo(false);
    t.text('assignee');
    t.text('priority');
    t.timestamp('due_date', { useTz: true });
    t.text('notes');
    t.timestamp('detected_at', { useTz: true }).notNullable(); // first detection
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    t.integer('times_seen').notNullable().defaultTo(1);
    t.timestamp('resolved_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['org_id', 'fingerprint']);
    t.index(['org_id', 'severity_rank', 'detected_at', 'id']);
    t.index(['org_id', 'cvss_score', 'id']);
    t.index(['org_id', 'detected_at', 'id']);
    t.index(['org_id', 'status']);
    t.index(['org_id', 'tool']);
    t.index(['org_id', 'scan_id']);
  });
  await knex.raw(check('findings', 'severity', ['critical', 'high', 'medium', 'low', 'info']));
  await knex.raw(
    check('findings', 'status', ['open', 'in_progress', 'resolved', 'false_positive', 'accepted']),
  );
  await knex.raw(
    "alter table findings add constraint findings_priority_check check (priority in ('p1', 'p2', 'p3', 'p4'))",
  );
  await knex.raw('create index findings_org_target_idx on findings (org_id, lower(target))');
  await knex.raw('create index findings_cve_ids_idx on findings using gin (cve_ids)');

  // Which scans observed which findings, with the severity seen then: per-scan
  // views and counts come from here, so they never change after the scan.
  await knex.schema.createTable('finding_observations', (t) => {
    t.text('scan_id').notNullable().references('scans.id').onDelete('CASCADE');
    t.text('finding_id').notNullable().references('findings.id').onDelete('CASCADE');
    t.text('org_id').notNullable();
    t.text('severity').notNullable();
    t.text('change').notNullable(); // new, reopened, unchanged
    t.timestamp('observed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['scan_id', 'finding_id']);
    t.index(['finding_id']);
  });

  await knex.schema.createTable('finding_comments', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable();
    t.text('finding_id').notNullable().references('findings.id').onDelete('CASCADE');
    t.text('user_id');
    t.text('user_email').notNullable();
    t.text('text').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['finding_id', 'created_at']);
  });

  await knex.schema.createTable('finding_history', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable();
    t.text('finding_id').notNullable().references('findings.id').onDelete('CASCADE');
    t.text('action').notNullable();
    t.text('from_status');
    t.text('to_status').notNullable();
    t.text('actor').notNullable(); // an e-mail, or `system`
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['finding_id', 'created_at']);
    t.index(['org_id', 'to_status', 'created_at']);
  });

  await knex.schema.createTable('scan_schedules', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('created_by').references('users.id').onDelete('SET NULL');
    t.text('target').notNullable();
    t.text('scan_type').notNullable();
    t.text('frequency').notNullable();
    t.integer('day_of_week');
    t.integer('day_of_month');
    t.integer('hour').notNullable();
    t.text('timezone').notNullable();
    t.specificType('frameworks', 'text[]').notNullable().defaultTo('{}');
    t.text('ports');
    t.boolean('enabled').notNullable().defaultTo(true);
    t.timestamp('next_run_at', { useTz: true }).notNullable();
    t.timestamp('last_run_at', { useTz: true });
    t.text('last_scan_id');
    t.text('last_error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['enabled', 'next_run_at']);
    t.index(['org_id', 'created_at', 'id']);
  });
  await knex.raw(check('scan_schedules', 'frequency', ['daily', 'weekly', 'monthly']));

  await knex.schema.createTable('idempotency_keys', (t) => {
    t.text('org_id').notNullable();
    t.text('key').notNullable();
    t.text('request_hash').notNullable();
    t.integer('response_status').notNullable();
    t.jsonb('response_body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['org_id', 'key']);
    t.index(['created_at']);
  });

  await knex.schema.createTable('control_evidence', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('control_id').notNullable();
    t.text('kind').notNullable(); // scan | user
    t.text('scan_id');
    t.text('title').notNullable();
    t.text('description');
    t.text('url');
    t.text('created_by');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['org_id', 'control_id']);
    t.unique(['org_id', 'control_id', 'scan_id']);
  });
  await knex.raw(check('control_evidence', 'kind', ['scan', 'user']));

  await knex.schema.createTable('webhooks', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('created_by').references('users.id').onDelete('SET NULL');
    t.text('url').notNullable();
    t.specificType('events', 'text[]').notNullable();
    t.text('secret').notNullable(); // sealed (AES-256-GCM)
    t.boolean('active').notNullable().defaultTo(true);
    t.text('disabled_reason');
    t.timestamp('failing_since', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['org_id', 'url']);
  });

  // The outbox: written in the same transaction as the event that causes it.
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable();
    t.text('webhook_id').notNullable().references('webhooks.id').onDelete('CASCADE');
    t.text('event').notNullable();
    t.text('payload').notNullable(); // the exact body sent on every attempt
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true });
    t.timestamp('locked_until', { useTz: true });
    t.integer('last_status_code');
    t.integer('last_response_ms');
    t.text('last_error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['status', 'next_attempt_at']);
    t.index(['webhook_id', 'created_at', 'id']);
  });
  await knex.raw(check('webhook_deliveries', 'status', ['pending', 'succeeded', 'failed']));

  await knex.schema.createTable('ai_analyses', (t) => {
    t.text('org_id').notNullable();
    t.text('finding_id').notNullable().references('findings.id').onDelete('CASCADE');
    t.text('source').notNullable();
    t.jsonb('analysis').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['org_id', 'finding_id']);
  });

  await knex.schema.createTable('ai_credit_usage', (t) => {
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.date('month').notNullable(); // first day of the UTC month
    t.integer('credits').notNullable().defaultTo(0);
    t.primary(['org_id', 'month']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'ai_credit_usage',
    'ai_analyses',
    'webhook_deliveries',
    'webhooks',
    'control_evidence',
    'idempotency_keys',
    'scan_schedules',
    'finding_history',
    'finding_comments',
    'finding_observations',
    'findings',
    'scans',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
