import type { Knex } from 'knex';
import { TOTP, URI } from 'otpauth';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import { MIGRATION_TABLES } from '../../../server/db/migrate.ts';
import { bootstrapIfEmpty } from '../../../server/people/bootstrap.ts';
import {
  addFindingCommentRoute,
  listFindingsRoute,
  updateFindingRoute,
} from '../../../server/routes/findings.ts';
import { createScheduleRoute, listSchedulesRoute } from '../../../server/routes/schedules.ts';
import { deliverDue } from '../../../server/webhooks/delivery.ts';
import { dispatchWebhookEvents } from '../../../server/webhooks/outbox.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { apiClient, okBody } from '../../helpers/api-client.ts';
import {
  factory,
  detection,
  logIn,
  runScan,
  type Tenant,
  type TestUser,
  stepWithRoom,
} from '../../helpers/factory.ts';
import type { WebhookReceiver } from '../../fixtures/webhook-receiver.ts';
import { setupMfa, verifyMfa } from '../../../server/routes/auth.ts';
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
 * What `scanward db copy` must carry (copy.test.ts): an embedded database seeded through the
 * API the way a team fills it (organizations on every plan, users with MFA and sessions, API
 * keys, CI trust, webhooks with sent and pending deliveries, schedules, findings with
 * comments and status changes, evidence, trackers and notifications), and what the seeding
 * left behind to prove on PostgreSQL.
 */

export const ADMIN = { email: 'admin@localhost', password: 'embedded-admin-password' };
/** Generous for hooks and tests that start PGlite from files on a loaded two-core machine. */
export const SLOW = 120_000;

/** The real app (without background work, so pending deliveries and schedules wait) over the database `env` names. */
export const serve = (env: Record<string, string>) =>
  startTestApp({
    database: 'configured',
    env: { SCANWARD_ADMIN_PASSWORD: ADMIN.password, SCANWARD_WEBHOOK_ALLOW_PRIVATE: 'true', ...env },
  });

/**
 * Every table of the schema, straight from the catalog (not from the code under
 * test), with every row as JSON, sorted: two databases with equal snapshots hold
 * the same rows, to the microsecond.
 */
export async function snapshot(db: Knex): Promise<Map<string, string[]>> {
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

/** What the seeding left behind, to prove on PostgreSQL. */
export interface Seeded {
  adminToken: string;
  apiKey: string;
  mfaUser: TestUser | undefined;
  totp: TOTP | undefined;
  webhookSecret: string;
  pendingDeliveries: string[];
  schedules: Array<Record<string, unknown>>;
  before: Map<string, string[]>;
}

/** Seeds the embedded database of `embedded` (webhooks to `receiver`) and answers what it left behind. */
export async function seedEmbedded(embedded: TestApp, receiver: WebhookReceiver): Promise<Seeded> {
  const seeded: Seeded = {
    adminToken: '',
    apiKey: '',
    mfaUser: undefined,
    totp: undefined,
    webhookSecret: '',
    pendingDeliveries: [],
    schedules: [],
    before: new Map(),
  };
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
            ...(i === 0 ? { frequency: 'daily' as const } : { frequency: 'weekly' as const, day_of_week: 2 }),
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
  return seeded;
}
