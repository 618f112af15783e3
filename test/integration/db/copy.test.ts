import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { TOTP, URI } from 'otpauth';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/index.ts';
import { MIGRATION_TABLES } from '../../../server/db/migrate.ts';
import { bootstrapIfEmpty } from '../../../server/identity/bootstrap.ts';
import {
  addFindingCommentRoute,
  listFindingsRoute,
  updateFindingRoute,
} from '../../../server/routes/findings.ts';
import { createScheduleRoute, listSchedulesRoute } from '../../../server/routes/schedules.ts';
import { runDueSchedules } from '../../../server/scans/scheduler.ts';
import { deliverDue } from '../../../server/webhooks/delivery.ts';
import { dispatchWebhookEvents } from '../../../server/webhooks/outbox.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { runCliCaptured } from '../../helpers/cli.ts';
import { apiClient, expectError, okBody } from '../../helpers/api-client.ts';
import {
  factory,
  detection,
  logIn,
  runScan,
  type Tenant,
  type TestUser,
  stepWithRoom,
} from '../../helpers/factory.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';
import { createPostgresDatabase, LOCAL_POSTGRES_URL, type TestDatabase } from '../../helpers/database.ts';
import { listMySessions, setupMfa, verifyMfa } from '../../../server/routes/auth.ts';
import { postApiKey } from '../../../server/routes/api-keys.ts';
import { postCiTrust } from '../../../server/routes/ci-trust.ts';
import { createWebhookRoute } from '../../../server/routes/webhooks.ts';
import { inviteUserRoute } from '../../../server/routes/users.ts';
import { getFindingAiAnalysisRoute } from '../../../server/routes/ai-analysis.ts';
import { createIntegrationRoute, testIntegrationRoute } from '../../../server/routes/integrations.ts';
import { createNotificationRuleRoute } from '../../../server/routes/notifications.ts';
import { addControlEvidenceRoute } from '../../../server/routes/controls.ts';
import { putSlaRoute } from '../../../server/routes/settings.ts';
import { createScanRoute } from '../../../server/routes/scans.ts';

/**
 * `scanward db copy`: a team that started on the embedded database moves to
 * PostgreSQL and loses nothing. An embedded database in a real data directory is
 * seeded through the API (findings are recorded the way the finding tests do,
 * without running the scan engine), copied with the command line, and served
 * from PostgreSQL, where every table must hold exactly the rows of the embedded
 * one and credentials, secrets and schedules keep working.
 *
 * The copy always goes from PGlite to PostgreSQL, whatever engine the suite runs
 * on, so this file needs a PostgreSQL server in both runs: DATABASE_URL's, or
 * else the local one CI always runs (LOCAL_POSTGRES_URL). The copy it tests is
 * the same in both runs.
 */

const ADMIN = { email: 'admin@localhost', password: 'embedded-admin-password' };
/** Generous for hooks and tests that start PGlite from files on a loaded two-core machine. */
const SLOW = 120_000;

/** The real app (without background work, so pending deliveries and schedules wait) over the database `env` names. */
const serve = (env: Record<string, string>) =>
  startTestApp({
    database: 'configured',
    env: { SCANWARD_ADMIN_PASSWORD: ADMIN.password, SCANWARD_WEBHOOK_ALLOW_PRIVATE: 'true', ...env },
  });

/**
 * Every table of the schema, straight from the catalog (not from the code under
 * test), with every row as JSON, sorted: two databases with equal snapshots hold
 * the same rows, to the microsecond.
 */
async function snapshot(db: Knex): Promise<Map<string, string[]>> {
  return db.transaction(async (trx) => {
    await trx.raw("set local timezone = 'UTC'");
    const tables = (
      (await trx.raw(
        "select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name",
      )) as { rows: Array<{ table_name: string }> }
    ).rows
      .map((r) => r.table_name)
      .filter((t) => !(MIGRATION_TABLES as readonly string[]).includes(t));
    const result = new Map<string, string[]>();
    for (const table of tables) {
      const { rows } = (await trx.raw(`select row_to_json(t)::text as r from "${table}" t`)) as {
        rows: Array<{ r: string }>;
      };
      result.set(table, rows.map((r) => r.r).sort());
    }
    return result;
  });
}

describe('scanward db copy: the embedded database into PostgreSQL', () => {
  let root: string;
  let dataDir: string;
  let target: TestDatabase & { url: string };
  let embedded: TestApp;
  let onPostgres: TestApp | undefined;
  let receiver: WebhookReceiver;

  /** What the seeding left behind, to prove on PostgreSQL. */
  const seeded = {
    adminToken: '',
    apiKey: '',
    mfaUser: undefined as TestUser | undefined,
    totp: undefined as TOTP | undefined,
    webhookSecret: '',
    pendingDeliveries: [] as string[],
    schedules: [] as Array<Record<string, unknown>>,
    before: new Map<string, string[]>(),
  };

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'scanward-db-copy-'));
    dataDir = path.join(root, 'data');
    try {
      target = await createPostgresDatabase();
    } catch (err) {
      throw new Error(
        `this test copies into PostgreSQL even when the suite runs on PGlite: set DATABASE_URL or run one at ${LOCAL_POSTGRES_URL} (${String(err)})`,
        { cause: err },
      );
    }
    receiver = await startWebhookReceiver();
    embedded = await serve({ SCANWARD_DATA_DIR: dataDir });
    const db = embedded.services.db;
    expect(await bootstrapIfEmpty(db, embedded.config)).toBeDefined();

    // Organization 1, the bootstrap one (enterprise): its admin signs in over HTTP.
    const adminLogin = okBody(await logIn(embedded, ADMIN), 200);
    seeded.adminToken = String(adminLogin.access_token);
    const [bootstrapOrg] = (await db('organizations').select('id')) as Array<{ id: string }>;
    // Two more organizations, one on each of the other plans; a failed login leaves a throttle counter.
    const tenants: Tenant[] = [
      await factory.tenant(embedded, { plan: 'professional' }),
      await factory.tenant(embedded, { plan: 'startup' }),
    ];
    expect((await logIn(embedded, { email: ADMIN.email, password: 'not the password' })).status).toBe(401);

    const orgs = [
      { orgId: bootstrapOrg!.id, token: seeded.adminToken, paid: true },
      { orgId: tenants[0]!.orgId, token: await tenants[0]!.login(), paid: true },
      { orgId: tenants[1]!.orgId, token: await tenants[1]!.login(), paid: false },
    ];

    // A member with MFA on (verified with the previous step's code, so the current one is still unused).
    seeded.mfaUser = await tenants[0]!.addUser('member');
    await tenants[1]!.addUser('member');
    const mfaToken = await tenants[0]!.login(seeded.mfaUser);
    const setup = okBody(await apiClient(embedded, { token: mfaToken }).call(setupMfa), 200);
    seeded.totp = URI.parse(String(setup.otpauth_uri)) as TOTP;
    const step = await stepWithRoom(seeded.totp, 3_000);
    okBody(
      await apiClient(embedded, { token: mfaToken }).call(verifyMfa, {
        body: {
          code: seeded.totp.generate({ timestamp: (step - 1) * 30_000 }),
        },
      }),
      200,
    );

    for (const [i, org] of orgs.entries()) {
      if (org.paid) {
        const key = okBody(
          await apiClient(embedded, { token: org.token }).call(postApiKey, {
            body: {
              name: `ci ${i}`,
              permissions: ['read:scans', 'read:findings'],
            },
          }),
          201,
        );
        if (i === 0) seeded.apiKey = String(key.key);
        // A trust policy for keyless CI sign-in.
        okBody(
          await apiClient(embedded, { token: org.token }).call(postCiTrust, {
            body: {
              name: `main of acme-${i}/*`,
              conditions: { repository: `acme-${i}/*`, ref: 'refs/heads/main' },
              permissions: ['read:scans', 'write:scans'],
            },
          }),
          201,
        );
        const hook = okBody(
          await apiClient(embedded, { token: org.token }).call(createWebhookRoute, {
            body: {
              url: `${receiver.url}/${i}`,
              events: ['vulnerability.found', 'vulnerability.critical'],
            },
          }),
          201,
        );
        if (i === 0) seeded.webhookSecret = String(hook.secret);
        // A pending invitation (and the audit event saying who made it).
        okBody(
          await apiClient(embedded, { token: org.token }).call(inviteUserRoute, {
            body: {
              email: `invitee-${i}@example.test`,
              role: 'viewer',
            },
          }),
          201,
        );
        const schedule = okBody(
          await apiClient(embedded, { token: org.token }).call(createScheduleRoute, {
            body: {
              target: '127.0.0.1',
              scan_type: 'quick',
              ...(i === 0
                ? { frequency: 'daily' as const }
                : { frequency: 'weekly' as const, day_of_week: 2 }),
              hour: 4 + i,
              timezone: 'Europe/Berlin',
              authorized: true,
            },
          }),
          201,
        );
        seeded.schedules.push(schedule);
      }
      // Findings with observations (and queued webhook deliveries), a comment and a status change.
      // The scan's hosts go into the asset inventory (assets, asset_services).
      const { summary } = await runScan(
        db,
        org.orgId,
        [
          detection({ severity: 'critical' }),
          detection({ severity: 'high', cve_ids: ['CVE-2024-0001'] }),
          detection({ severity: 'low' }),
        ],
        {
          hosts: [
            {
              address: '127.0.0.1',
              names: ['localhost'],
              services: [
                {
                  port: 6379,
                  protocol: 'tcp',
                  service: 'redis',
                  product: 'Redis',
                  version: '7.0.15',
                  tls: false,
                },
              ],
            },
          ],
        },
      );
      expect(summary).toBeDefined();
      const findings = okBody(await apiClient(embedded, { token: org.token }).call(listFindingsRoute), 200);
      const critical = findings.items.find((f) => f.severity === 'critical')!;
      okBody(
        await apiClient(embedded, { token: org.token }).call(addFindingCommentRoute, {
          params: { finding_id: critical.id },
          body: {
            text: `looking into it (org ${i})`,
          },
        }),
        201,
      );
      okBody(
        await apiClient(embedded, { token: org.token }).call(updateFindingRoute, {
          params: { finding_id: critical.id },
          body: {
            status: 'in_progress',
          },
        }),
        200,
      );
      okBody(
        await apiClient(embedded, { token: org.token }).call(getFindingAiAnalysisRoute, {
          params: { finding_id: critical.id },
        }),
        200,
      );
      // An integration with a rule and a test message; a ticket, a missed due date and a password
      // reset of its own (rows the trackers, the SLA timer and the mail would make).
      const integration = okBody(
        await apiClient(embedded, { token: org.token }).call(createIntegrationRoute, {
          body: {
            type: 'slack',
            name: `chat of org ${i}`,
            config: { webhook_url: `${receiver.url}/slack/${i}` },
          },
        }),
        201,
      );
      okBody(
        await apiClient(embedded, { token: org.token }).call(createNotificationRuleRoute, {
          body: {
            integration_id: integration.id,
            events: ['vulnerability.found'],
            min_severity: 'high',
          },
        }),
        201,
      );
      await apiClient(embedded, { token: org.token }).call(testIntegrationRoute, {
        params: { integration_id: integration.id },
      });
      await db('finding_tickets').insert({
        org_id: org.orgId,
        finding_id: critical.id,
        integration_id: integration.id,
        key: `#${i + 1}`,
        url: `https://github.com/acme/web/issues/${i + 1}`,
        external_id: String(i + 1),
      });
      await db('finding_sla_breaches').insert({
        org_id: org.orgId,
        finding_id: critical.id,
        due_date: new Date('2026-01-01T00:00:00Z'),
        created_at: new Date('2026-01-02T00:00:00Z'),
      });
      const [member] = (await db('users').where({ org_id: org.orgId }).select('id')) as Array<{ id: string }>;
      await db('password_resets').insert({
        id: `pwr_seed${i}`,
        org_id: org.orgId,
        user_id: member!.id,
        token_hash: `seed-hash-${i}`,
        created_at: new Date('2026-01-02T00:00:00Z'),
        expires_at: new Date('2030-01-01T00:00:00Z'),
      });
      okBody(
        await apiClient(embedded, { token: org.token }).call(addControlEvidenceRoute, {
          params: { control_id: 'ctrl_soc2_cc7_1' },
          body: {
            title: 'Penetration test report',
            description: `Annual test, org ${i}`,
            url: 'https://wiki.example.com/pentest',
          },
        }),
        201,
      );
      // An SLA policy of its own.
      okBody(
        await apiClient(embedded, { token: org.token }).call(putSlaRoute, {
          body: {
            critical: 3 + i,
            high: 14,
            medium: 60,
            low: 120,
          },
        }),
      );
      // A queued scan created with an idempotency key (no runner here, so it stays pending).
      okBody(
        await apiClient(embedded, { token: org.token }).call(
          createScanRoute,
          { body: { target: '127.0.0.1', scan_type: 'quick', authorized: true } },
          { headers: { 'idempotency-key': `seed-${i}` } },
        ),
        201,
      );
    }

    // The deliveries queued so far are sent (and verified by their receiver's secret)…
    while ((await deliverDue(embedded.services)) > 0) {
      /* until the outbox is empty */
    }
    const sent = receiver.received.length;
    expect(sent).toBeGreaterThan(0);
    const first = receiver.received.find((r) => r.url === '/hook/0')!;
    expect(() =>
      new Webhook(seeded.webhookSecret).verify(first.body, first.headers as Record<string, string>),
    ).not.toThrow();
    // …and a later scan's stay pending, to be sent from PostgreSQL.
    await runScan(db, orgs[0]!.orgId, [detection({ severity: 'critical' })]);
    await dispatchWebhookEvents(db);
    seeded.pendingDeliveries = (
      (await db('webhook_deliveries').where({ status: 'pending' }).select('id')) as Array<{ id: string }>
    ).map((r) => r.id);
    expect(seeded.pendingDeliveries.length).toBeGreaterThan(0);

    const schedules = okBody(
      await apiClient(embedded, { token: seeded.adminToken }).call(listSchedulesRoute),
      200,
    );
    seeded.schedules = schedules.items;
    seeded.before = await snapshot(db);
  }, SLOW);

  afterAll(async () => {
    await onPostgres?.close();
    await embedded?.close();
    await receiver?.close();
    await target?.drop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('leaves no table of the migrated schema empty in the seed, so a table the copy skipped could not go unnoticed', () => {
    const empty = [...seeded.before].filter(([, rows]) => rows.length === 0).map(([table]) => table);
    // A new table? Seed rows into it above, so the comparison below proves it is copied.
    expect(empty).toEqual([]);
    expect(seeded.before.size).toBeGreaterThanOrEqual(19);
  });

  // One story, in steps: each reads what the step before it left (the server it closes, the copy it
  // made, the data the service added on PostgreSQL). Apart, each would need its own seeded embedded
  // database and copy, the most expensive set-up of the suite.
  it(
    'copies the embedded database into PostgreSQL once, serves the same data from it, and copies again only with --force',
    async () => {
      // 1. Refused while a server holds the embedded database, touching neither side.
      {
        const refused = await runCliCaptured(['db', 'copy', '--to', target.url], {
          SCANWARD_DATA_DIR: dataDir,
        });
        expect(refused.code).toBe(3);
        expect(refused.stdout).toBe('');
        expect(refused.stderr).toContain(
          `the embedded database in ${dataDir} is in use by another Scanward process`,
        );
        // The target was not even migrated.
        const pg = await openDatabase({ databaseUrl: target.url, poolMax: 1 });
        try {
          const { rows } = (await pg.db.raw(
            "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
          )) as { rows: Array<{ n: number }> };
          expect(rows[0]!.n).toBe(0);
        } finally {
          await pg.close();
        }
        await embedded.close();
      }

      // 2. Copied: every table row for row, in dependency order, with a line per table and the counts of both sides.
      {
        // Small batches, so the bigger tables take several round trips.
        const copy = await runCliCaptured(['db', 'copy', '--to', target.url, '--batch-size', '2', '--json'], {
          SCANWARD_DATA_DIR: dataDir,
        });
        expect(copy.code, copy.stderr).toBe(0);
        const report = JSON.parse(copy.stdout) as {
          source: string;
          target: string;
          tables: Array<{ name: string; source_rows: number; target_rows: number }>;
        };
        expect(report.source).toBe(dataDir);
        expect(report.target).not.toContain('@');
        expect(report.tables.map((t) => t.name).sort()).toEqual([...seeded.before.keys()].sort());
        for (const t of report.tables) {
          expect(t.target_rows, t.name).toBe(seeded.before.get(t.name)!.length);
          expect(t.source_rows, t.name).toBe(t.target_rows);
          expect(copy.stderr).toContain(`copied ${t.name}: ${t.source_rows} row`);
        }
        // Parents before children.
        const position = (name: string) => report.tables.findIndex((t) => t.name === name);
        expect(position('organizations')).toBeLessThan(position('users'));
        expect(position('scans')).toBeLessThan(position('findings'));
        expect(position('findings')).toBeLessThan(position('finding_comments'));
        expect(position('webhooks')).toBeLessThan(position('webhook_deliveries'));

        const pg = await openDatabase({ databaseUrl: target.url, poolMax: 1 });
        try {
          const copied = await snapshot(pg.db);
          expect([...copied.keys()]).toEqual([...seeded.before.keys()]);
          for (const [table, rows] of seeded.before) expect(copied.get(table), table).toEqual(rows);
        } finally {
          await pg.close();
        }
      }

      // 3. Served from PostgreSQL: sign-in, existing tokens and API keys, MFA codes, webhook signatures, schedules.
      {
        onPostgres = await serve({
          DATABASE_URL: target.url,
          SCANWARD_ADMIN_PASSWORD: 'a-different-bootstrap-password',
        });
        const app = onPostgres;
        // No second bootstrap: the copied admin is the admin.
        expect(await bootstrapIfEmpty(app.services.db, app.config)).toBeUndefined();

        // The same admin signs in with the same password, and a token issued by the embedded server still works.
        const adminToken = String(okBody(await logIn(app, ADMIN), 200).access_token);
        okBody(await apiClient(app, { token: adminToken }).call(listMySessions), 200);
        okBody(await apiClient(app, { token: seeded.adminToken }).call(listMySessions), 200);

        // The API key created on the embedded database.
        const byKey = await apiClient(app, { apiKey: seeded.apiKey }).call(listFindingsRoute);
        expect(okBody(byKey, 200).total).toBe(4);

        // MFA: a code from the same authenticator is accepted, no code is not.
        const mfaUser = seeded.mfaUser!;
        await expectError(await logIn(app, mfaUser), 401, 'MFA_REQUIRED');
        okBody(await logIn(app, mfaUser, { mfa_code: seeded.totp!.generate() }), 200);

        // Deliveries queued on the embedded database are sent with the same secret.
        const before = receiver.received.length;
        while ((await deliverDue(app.services)) > 0) {
          /* until the outbox is empty */
        }
        const sent = receiver.received.slice(before);
        expect(sent.map((r) => r.headers['webhook-id']).sort()).toEqual([...seeded.pendingDeliveries].sort());
        const signer = new Webhook(seeded.webhookSecret);
        expect(sent.every((r) => r.url === '/hook/0')).toBe(true);
        for (const r of sent) {
          expect(() => signer.verify(r.body, r.headers as Record<string, string>)).not.toThrow();
        }

        // Schedules keep their next run, and the scheduler runs them then.
        const schedules = okBody(await apiClient(app, { token: adminToken }).call(listSchedulesRoute), 200);
        expect(schedules.items).toEqual(seeded.schedules);
        const next = seeded.schedules[0]!;
        const due = new Date(String(next.next_run_at));
        expect(await runDueSchedules(app.services, new Date(due.getTime() - 1000))).toEqual([]);
        const ran = await runDueSchedules(app.services, due);
        expect(ran).toEqual([expect.objectContaining({ scheduleId: next.id, scanId: expect.any(String) })]);

        // Identity sequences continue after the copied rows.
        const { max } = (await app.services.db('finding_comments').max({ max: 'seq' }).first()) as {
          max: number;
        };
        const own = okBody(await apiClient(app, { token: adminToken }).call(listFindingsRoute), 200);
        okBody(
          await apiClient(app, { token: adminToken }).call(addFindingCommentRoute, {
            params: { finding_id: own.items[0]!.id },
            body: {
              text: 'after the move',
            },
          }),
          201,
        );
        const added = (await app.services
          .db('finding_comments')
          .where({ text: 'after the move' })
          .first('seq')) as {
          seq: number;
        };
        expect(Number(added.seq)).toBeGreaterThan(Number(max));
      }

      // 4. A second copy into the same target is refused; --force replaces what it holds after a warning; the embedded data never changes.
      {
        await onPostgres?.close();
        const again = await runCliCaptured(['db', 'copy', '--to', target.url], {
          SCANWARD_DATA_DIR: dataDir,
        });
        expect(again.code).toBe(1);
        expect(again.stdout).toBe('');
        expect(again.stderr).toMatch(
          /already holds Scanward data \(.*users: \d+ rows.*\); nothing was copied/,
        );
        expect(again.stderr).toContain('--force');

        const forced = await runCliCaptured(['db', 'copy', '--to', target.url, '--force'], {
          SCANWARD_DATA_DIR: dataDir,
        });
        expect(forced.code, forced.stderr).toBe(0);
        expect(forced.stderr).toMatch(
          /warning: --force: deleting everything .* holds \(.*\) and replacing it/,
        );
        expect(forced.stdout).toMatch(/^TABLE +EMBEDDED +POSTGRESQL$/m);
        expect(forced.stdout).toMatch(/^findings +10 +10$/m);

        // What PostgreSQL gained since (the scheduled scan, the comment) is gone: it holds the embedded data
        // again; and the embedded database itself was never changed by the copies.
        const pg = await openDatabase({ databaseUrl: target.url, poolMax: 1 });
        const source = await openDatabase({ dataDir });
        try {
          const copied = await snapshot(pg.db);
          const embeddedNow = await snapshot(source.db);
          for (const [table, rows] of seeded.before) {
            expect(copied.get(table), table).toEqual(rows);
            expect(embeddedNow.get(table), table).toEqual(rows);
          }
        } finally {
          await source.close();
          await pg.close();
        }
      }
    },
    4 * SLOW,
  );
});
