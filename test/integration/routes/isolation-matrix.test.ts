import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { successStatus, type AnyRoute } from '../../../server/http/contract.ts';
import { getFindingAiAnalysisRoute } from '../../../server/routes/ai-analysis.ts';
import { postApiKey } from '../../../server/routes/api-keys.ts';
import { listAssetsRoute } from '../../../server/routes/assets.ts';
import { listMySessions } from '../../../server/routes/auth.ts';
import { postCiTrust } from '../../../server/routes/ci-trust.ts';
import {
  addFindingCommentRoute,
  listFindingsRoute,
  updateFindingRoute,
} from '../../../server/routes/findings.ts';
import { allRoutes } from '../../../server/routes/index.ts';
import { createScheduleRoute } from '../../../server/routes/schedules.ts';
import { inviteUserRoute } from '../../../server/routes/users.ts';
import { createWebhookRoute } from '../../../server/routes/webhooks.ts';
import { createIntegrationRoute } from '../../../server/routes/integrations.ts';
import { createNotificationRuleRoute } from '../../../server/routes/notifications.ts';
import { recordMessageAttempt } from '../../../server/notifications/notification-messages.repository.ts';
import { queueMessage } from '../../../server/notifications/outbox.ts';
import { Permission } from '../../../server/schemas/common.ts';
import { enqueueWebhookEvent } from '../../../server/webhooks/outbox.ts';
import { apiClient, okBody, type ApiClient, type Credential } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, detection, runScan, type Tenant } from '../../helpers/factory.ts';
import { organizationRows, testEngine } from '../../helpers/database.ts';
import { importReportRoute } from '../../../server/routes/imports.ts';

/**
 * Every route whose path names an organization-owned id, called by another
 * organization with real ids of the owner, answers exactly what a missing id
 * answers (404 NOT_FOUND) and changes nothing of the owner's. The routes come
 * from `allRoutes`, so a new route joins the matrix by itself, and a new kind
 * of path parameter fails the test until it is classified below.
 */

/** Organization-owned path parameters: the table that holds the id, for the seed checks. */
const OWNED_PARAMS = {
  scan_id: 'scans',
  finding_id: 'findings',
  schedule_id: 'scan_schedules',
  webhook_id: 'webhooks',
  delivery_id: 'webhook_deliveries',
  session_id: 'sessions',
  key_id: 'api_keys',
  user_id: 'users',
  asset_id: 'assets',
  policy_id: 'ci_trust_policies',
  integration_id: 'integrations',
  rule_id: 'notification_rules',
  message_id: 'notification_messages',
} as const;
type OwnedParam = keyof typeof OWNED_PARAMS;

/**
 * Path parameters that are not organization-owned: ids of the global
 * catalogues every organization reads alike (compliance controls and
 * remediation playbooks ship with the server), so there is nothing to isolate.
 */
const CATALOGUE_PARAMS = new Set(['control_id', 'playbook_id']);

/**
 * Valid bodies, so that validation never answers before the lookup of the id: a value, or one
 * made of the caller's own ids (a ticket names the caller's own tracker).
 */
const BODIES: Record<string, unknown> = {
  'PATCH /api/v1/findings/{finding_id}': { status: 'resolved', notes: 'taken over' },
  'POST /api/v1/findings/{finding_id}/comments': { text: 'x' },
  'PATCH /api/v1/users/{user_id}': { role: 'viewer' },
  'PATCH /api/v1/scans/schedules/{schedule_id}': { web: null },
  'PATCH /api/v1/integrations/{integration_id}': { name: 'renamed' },
  'POST /api/v1/findings/{finding_id}/tickets': (own: Record<string, string>) => ({
    integration_id: own['integration_id'],
  }),
};
const bodyOf = (route: AnyRoute, own: Record<string, string>): unknown => {
  const body = BODIES[routeName(route)];
  return typeof body === 'function' ? (body as (own: Record<string, string>) => unknown)(own) : body;
};

/** What the owner gets for its own ids when that is not the route's success: A's scan is finished, its tracker silent. */
const OWN_ID_ANSWERS: Record<string, number> = {
  'DELETE /api/v1/scans/{scan_id}': 409,
  // The owner's tracker (a closed port here) does not answer: the ticket is queued, 202.
  'POST /api/v1/findings/{finding_id}/tickets': 202,
};

const isOwned = (name: string): name is OwnedParam => Object.hasOwn(OWNED_PARAMS, name);
const paramsOf = (route: AnyRoute) => [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
const routeName = (route: AnyRoute) => `${route.method.toUpperCase()} ${route.path}`;

/** An id of the same shape (kind prefix, length, alphabet) that names nothing. */
function missingLike(id: string): string {
  const cut = id.lastIndexOf('_') + 1;
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
  const tail = [...randomBytes(id.length - cut)].map((b) => alphabet[b % 36]).join('');
  return id.slice(0, cut) + tail;
}

function fillPath(path: string, ids: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name]!));
}

// A and B are seeded once and only read (B's calls with A's ids change nothing); the test of the
// owner's own answers, which changes and deletes what it names, seeds an organization of its own.
describe(`organization isolation of every route with an id in its path (${testEngine})`, () => {
  let app: TestApp;
  let db: Knex;
  let a: Tenant;
  let b: Tenant;
  let aToken: string;
  let bToken: string;
  let bKey: string;
  let aIds: Record<OwnedParam, string>;
  let bIds: Record<OwnedParam, string>;

  /** A matrix request: the route with these ids, its body if it takes one (of the caller's `own` ids), as the caller. */
  const call = (
    caller: Credential,
    route: AnyRoute,
    ids: Record<string, string>,
    own: Record<string, string>,
  ) => apiClient(app, caller).send(route.method, fillPath(route.path, ids), bodyOf(route, own));

  /**
   * One of each owned resource for the tenant, created the way a user would
   * (over HTTP where the API can create it), plus some triage history, an AI
   * analysis and a delivery so those tables have rows to protect.
   */
  const seed = async (tenant: Tenant, api: ApiClient, tag: string): Promise<Record<OwnedParam, string>> => {
    const { scan, summary } = await runScan(
      db,
      tenant.orgId,
      [
        detection({ severity: 'critical', target: `${tag}.example.test`, cve_ids: ['CVE-2024-0001'] }),
        detection({ severity: 'high', target: `${tag}.example.test` }),
      ],
      { target: `${tag}.example.test` },
    );
    const findingId = summary.new_finding_ids[0]!;
    const finding = { params: { finding_id: findingId } };
    okBody(await api.call(updateFindingRoute, { ...finding, body: { status: 'in_progress', notes: tag } }));
    okBody(await api.call(addFindingCommentRoute, { ...finding, body: { text: `comment of ${tag}` } }));
    okBody(await api.call(getFindingAiAnalysisRoute, finding));

    const schedule = okBody(
      await api.call(createScheduleRoute, {
        body: { target: '127.0.0.1', frequency: 'daily', authorized: true },
      }),
    );
    const webhook = okBody(
      await api.call(createWebhookRoute, {
        body: { url: `http://127.0.0.1:9/hook/${tag}`, events: ['scan.completed'] },
      }),
    );
    const [deliveryId] = await enqueueWebhookEvent(db, tenant.orgId, 'scan.completed', { id: scan.id });
    const key = okBody(
      await api.call(postApiKey, { body: { name: `key of ${tag}`, permissions: ['read:scans'] } }),
    );
    const policy = okBody(
      await api.call(postCiTrust, {
        body: {
          name: `trust of ${tag}`,
          conditions: { repository: `acme/${tag}` },
          permissions: ['read:scans'],
        },
      }),
    );
    const colleague = okBody(
      await api.call(inviteUserRoute, { body: { email: `colleague@${tag}.example.test`, role: 'member' } }),
    );
    // An asset, from an nmap report of the tenant's host.
    const nmap =
      '<?xml version="1.0"?><nmaprun args="nmap -sV 127.0.0.1"><host><address addr="127.0.0.1" addrtype="ipv4"/>' +
      `<hostnames><hostname name="${tag}.example.test"/></hostnames><ports><port protocol="tcp" portid="6379">` +
      '<state state="open"/><service name="redis" product="Redis" version="7.0.15"/></port></ports></host></nmaprun>';
    const imported = await api.call(importReportRoute, {
      query: { format: 'nmap', target: `${tag}.example.test` },
      // The route reads the report as bytes; its declared input has no JSON body.
      body: Buffer.from(nmap) as never,
    });
    if (imported.status !== 201) throw new Error(`the nmap import failed: ${JSON.stringify(imported.body)}`);
    const assets = okBody(await api.call(listAssetsRoute));
    if (!assets.items[0]) throw new Error('the import recorded no asset');

    // A tracker, a rule over it, and a dead notification delivery (what the retry route re-sends).
    const integration = okBody(
      await api.call(createIntegrationRoute, {
        body: {
          type: 'github',
          name: `tracker of ${tag}`,
          config: { repository: `acme/${tag}`, token: `ghp_${tag}`, api_url: 'http://127.0.0.1:9' },
        },
      }),
    );
    const rule = okBody(
      await api.call(createNotificationRuleRoute, {
        body: {
          integration_id: integration.id,
          events: ['vulnerability.found'],
          min_severity: 'high',
          action: 'ticket',
        },
      }),
    );
    const messageId = await queueMessage(db, app.services.keys.encryptionKey, tenant.orgId, {
      kind: 'integration.test',
      integrationId: integration.id,
      dedupeKey: `matrix:${tag}`,
      summary: `a message of ${tag}`,
      payload: {},
    });
    await recordMessageAttempt(db, tenant.orgId, messageId!, {
      status: 'dead',
      next_attempt_at: null,
      last_status_code: 500,
      last_error: 'retries exhausted',
      updated_at: new Date(),
    });

    // A second session of the admin: revoking it (the positive control) leaves the client's session working.
    await tenant.bearer();
    const sessions = okBody(await api.call(listMySessions));
    const other = sessions.items.find((s) => !s.current);
    if (!other) throw new Error('the admin has no second session');

    return {
      scan_id: scan.id,
      finding_id: findingId,
      schedule_id: schedule.id,
      webhook_id: webhook.id,
      delivery_id: deliveryId!,
      session_id: other.id,
      key_id: key.id,
      user_id: colleague.user.id,
      asset_id: assets.items[0].id,
      policy_id: policy.id,
      integration_id: integration.id,
      rule_id: rule.id,
      message_id: messageId!,
    };
  };

  /**
   * Every row of the organization, its rate counters included. Storage itself: "changes
   * nothing" covers rows no API shows (deliveries' payloads, counters, sessions of others).
   */
  const snapshot = async (orgId: string): Promise<Record<string, string[]>> => ({
    ...(await organizationRows(db, orgId, ['rate_counters'])),
    // eslint-disable-next-line no-restricted-syntax -- storage itself: the counters have no answer or repository read by organization
    rate_counters: (await db('rate_counters').whereLike('bucket', `org:${orgId}:%`))
      .map((r) => JSON.stringify(r))
      .sort(),
  });

  /**
   * The routes of the matrix: every route with an owned parameter in its path and a caller to
   * isolate (a public route, the trackers' signed event receiver, has none: its signature
   * names the organization, docs/integrations.md).
   */
  const matrixRoutes = () =>
    allRoutes.filter((route) => !route.access.public && paramsOf(route).some(isOwned));

  /**
   * How a route is called by B: all of A's ids, and, when the path has several
   * owned ids, one of A's at a time beside B's own (so no single check can
   * rely on another). Its twin replaces A's ids by missing ones.
   */
  const variants = (route: AnyRoute) => {
    const params = paramsOf(route) as OwnedParam[];
    const make = (foreign: OwnedParam[]) => {
      const foreignIds = Object.fromEntries(params.map((p) => [p, foreign.includes(p) ? aIds[p] : bIds[p]]));
      const missingIds = Object.fromEntries(
        params.map((p) => [p, foreign.includes(p) ? missingLike(aIds[p]) : bIds[p]]),
      );
      return { label: foreign.join('+'), foreignIds, missingIds };
    };
    return [make(params), ...(params.length > 1 ? params.map((p) => make([p])) : [])];
  };

  const suite = useTestApp({ env: { SCANWARD_WEBHOOK_ALLOW_PRIVATE: 'true' } });
  beforeAll(async () => {
    app = suite.app;
    db = app.services.db;
    a = await factory.tenant(app, { plan: 'enterprise' });
    b = await factory.tenant(app, { plan: 'enterprise' });
    aToken = await a.bearer();
    bToken = await b.bearer();
    bKey = await b.apiKey([...Permission.options]);
    aIds = await seed(a, apiClient(app, { token: aToken }), 'org-a');
    bIds = await seed(b, apiClient(app, { token: bToken }), 'org-b');
  });

  it('classifies every path parameter of every route as organization-owned or catalogue', () => {
    const unclassified = allRoutes.flatMap((route) =>
      paramsOf(route)
        .filter((p) => !isOwned(p) && !CATALOGUE_PARAMS.has(p))
        .map((p) => `${routeName(route)}: {${p}}`),
    );
    expect(unclassified, 'add these parameters to OWNED_PARAMS or CATALOGUE_PARAMS').toEqual([]);

    const mixed = matrixRoutes()
      .filter((route) => paramsOf(route).some((p) => CATALOGUE_PARAMS.has(p)))
      .map(routeName);
    expect(mixed, 'routes mixing owned and catalogue ids need a catalogue id in this test').toEqual([]);

    for (const route of matrixRoutes()) {
      expect(paramsOf(route).sort(), `${routeName(route)} declares its path parameters`).toEqual(
        Object.keys(route.params?.shape ?? {}).sort(),
      );
      if (route.body) {
        expect(BODIES[routeName(route)], `${routeName(route)} needs a body in BODIES`).toBeDefined();
        const parsed = (route.body as { safeParse(v: unknown): { success: boolean } }).safeParse(
          bodyOf(route, aIds),
        );
        expect(parsed.success, `the body of ${routeName(route)} is valid`).toBe(true);
      }
    }
    expect(matrixRoutes().length).toBeGreaterThanOrEqual(14);
  });

  it('seeds real ids of each organization', async () => {
    for (const [orgId, ids] of [
      [a.orgId, aIds],
      [b.orgId, bIds],
    ] as const) {
      for (const [param, table] of Object.entries(OWNED_PARAMS)) {
        // Storage itself: each id is a row of its organization in the table the matrix names
        // (sessions, keys, deliveries and policies have no GET by id to ask).
        const row = await db(table)
          .where({ org_id: orgId, id: ids[param as OwnedParam] })
          .first();
        expect(row, `${param} ${ids[param as OwnedParam]} in ${table}`).toBeDefined();
      }
    }
  });

  it("answers another organization's ids exactly like missing ones (404 NOT_FOUND) and changes nothing", async () => {
    const before = await snapshot(a.orgId);
    // The seeded scan and the nmap import that made the asset, a comment and a delivery at least.
    expect(before.scans?.length).toBeGreaterThanOrEqual(2);
    expect(before.assets?.length).toBeGreaterThanOrEqual(1);
    expect(before.finding_comments?.length).toBeGreaterThanOrEqual(1);
    expect(before.webhook_deliveries?.length).toBeGreaterThanOrEqual(1);

    const failures: string[] = [];
    let calls = 0;
    for (const route of matrixRoutes()) {
      const callers: [string, Credential][] = [['bearer', { token: bToken }]];
      if (!route.access.bearerOnly) callers.push(['api key', { apiKey: bKey }]);
      for (const [caller, credentials] of callers) {
        for (const { label, foreignIds, missingIds } of variants(route)) {
          const where = `${routeName(route)} as B (${caller}) with A's ${label}`;
          const foreign = await call(credentials, route, foreignIds, bIds);
          const missing = await call(credentials, route, missingIds, bIds);
          calls += 2;
          if (
            foreign.status !== 404 ||
            (foreign.body as { error_code?: unknown }).error_code !== 'NOT_FOUND'
          ) {
            failures.push(`${where}: ${foreign.status} ${JSON.stringify(foreign.body)}`);
          }
          if (
            foreign.status !== missing.status ||
            JSON.stringify(foreign.body) !== JSON.stringify(missing.body)
          ) {
            failures.push(
              `${where}: differs from a missing id: ${foreign.status} ${JSON.stringify(foreign.body)} ` +
                `vs ${missing.status} ${JSON.stringify(missing.body)}`,
            );
          }
        }
      }
    }
    expect.soft(failures).toEqual([]);
    expect(calls).toBeGreaterThanOrEqual(2 * matrixRoutes().length);
    expect(await snapshot(a.orgId)).toEqual(before);
  });

  it("answers the owner's own ids, so the 404s above come from the organization check", async () => {
    // An owner seeded like A, of this test only: its calls change and delete what they name.
    const owner = await factory.tenant(app, { plan: 'enterprise' });
    const ownerToken = await owner.bearer();
    const ownerIds = await seed(owner, apiClient(app, { token: ownerToken }), 'org-owner');
    // Deletions last, so that every route still finds what it names; an integration's last of
    // all, as deleting it deletes its rules.
    const rank = (route: AnyRoute) =>
      route.method !== 'delete' ? 0 : route.path === '/api/v1/integrations/{integration_id}' ? 2 : 1;
    const ordered = [...matrixRoutes()].sort((x, y) => rank(x) - rank(y));
    for (const route of ordered) {
      const own = await call({ token: ownerToken }, route, ownerIds, ownerIds);
      const expected = OWN_ID_ANSWERS[routeName(route)] ?? successStatus(route);
      expect(own.status, `${routeName(route)} as its owner: ${JSON.stringify(own.body)}`).toBe(expected);
    }
  });

  it("an import by another organization, of the owner's target and checks, changes nothing of the owner's", async () => {
    const aApi = apiClient(app, { token: aToken });
    const ownerFindings = okBody(await aApi.call(listFindingsRoute, { query: { per_page: 100 } })).items;
    const before = await snapshot(a.orgId);
    const target = ownerFindings[0]!.target;
    // B reports one of A's checks at A's place, and then an empty report of the same tool and target.
    const report = ownerFindings.slice(0, 1).map((f) => ({
      template_id: f.template_id,
      affected_component: f.affected_component,
      severity: 'low',
      title: 'imported by B',
    }));
    // An intruder of its own, so that B's rows, which the matrix reads, stay as seeded.
    const intruder = await factory.tenant(app, { plan: 'enterprise' });
    const api = intruder.api;
    for (const findings of [report, []]) {
      const res = await api.call(importReportRoute, {
        query: { format: 'scanward', target },
        body: Buffer.from(JSON.stringify({ findings })) as never,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    expect(await snapshot(a.orgId)).toEqual(before);
  });
});
