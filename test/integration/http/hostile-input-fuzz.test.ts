import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AnyRoute } from '../../../server/http/contract.ts';
import { allRoutes } from '../../../server/routes/index.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, detection, runScan, type Tenant } from '../../helpers/factory.ts';
import { organizationRows, testEngine } from '../../helpers/database.ts';

/**
 * Hostile requests, generated with fast-check, against every route the contract
 * declares (`allRoutes`, so a new route is fuzzed without editing this test):
 * unicode with NUL and lone surrogates, broken percent-encoding, huge, negative
 * and non-decimal numbers, wrong JSON types, repeated query parameters, wrong
 * content types and mangled credentials, with the declared parameter and field
 * names so that the values reach the validators and handlers.
 *
 * Every answer must be below 500, every error must be in the shape
 * `{detail, error_code, field?}` with a JSON content type, and no connection
 * may drop. Afterwards the server is healthy and another organization's seeded
 * data is unchanged. Bounded: a few runs per route and a time limit each.
 */

const RUNS_PER_ROUTE = 30;
const TIME_PER_ROUTE_MS = 1200;

// ---- values -----------------------------------------------------------------------------------

const NASTY_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '',
  ' ',
  '../../etc/passwd',
  "' or 1=1 --",
  '%00',
  '\u202e\u200b',
  '😀',
  'null',
  '0x10',
  '1e1',
  '-1',
  '99999999999999999999',
  'cancelled',
  'scan_',
  'a'.repeat(3000),
];

/** Text PostgreSQL cannot store: a NUL or a lone surrogate somewhere in ordinary text. */
const unstorable = fc
  .tuple(
    fc.string({ maxLength: 6 }),
    fc.constantFrom('\u0000', '\ud800', '\udfff'),
    fc.string({ maxLength: 6 }),
  )
  .map(([a, bad, b]) => a + bad + b);

const text = fc.oneof(
  { weight: 3, arbitrary: unstorable },
  { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

const number = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 53, 2 ** 63, -(2 ** 63), 0.5),
);

const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  text,
  number,
  fc.boolean(),
  fc.constant(null),
  fc.array(text, { maxLength: 4 }),
  fc.array(number, { maxLength: 4 }),
  fc.dictionary(text, text, { maxKeys: 3 }),
);

/** Query and path values, as the text before percent-encoding or as raw (possibly broken) escapes. */
const rawEscape = fc.constantFrom('%', '%zz', '%00', '%ED%A0%80', '%FF%FE', '%C0%80', '%2F..%2F', '%25');

/** Percent-encodes the UTF-8 of `value` (lone surrogates become U+FFFD, as a client would send). */
function pct(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const encoded = fc.oneof({ weight: 4, arbitrary: text.map(pct) }, { weight: 1, arbitrary: rawEscape });

const printable = fc
  .string({ unit: 'binary-ascii', maxLength: 40 })
  .map((s) => s.replace(/[^\x21-\x7e]/g, 'x'));

// ---- requests ---------------------------------------------------------------------------------

interface Hostile {
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: string;
}

function shapeKeys(schema: unknown): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

interface Credentials {
  ids: string[];
  bearer: () => Promise<string>;
  apiKey: string;
}

type Auth = 'bearer' | 'api-key' | 'none' | 'bearer-extra' | 'basic' | 'garbage';

function requestFor(route: AnyRoute, ids: string[]) {
  const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const idValue = fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...ids) },
    { weight: 3, arbitrary: encoded },
  );
  const queryKeys = [...shapeKeys(route.query), 'page', 'per_page', 'status'];
  const queryPair = fc.tuple(
    fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...queryKeys) }, { weight: 1, arbitrary: encoded }),
    fc.oneof(
      { weight: 3, arbitrary: unstorable.map(pct) },
      { weight: 3, arbitrary: encoded },
      { weight: 1, arbitrary: number.map((n) => pct(String(n))) },
    ),
  );
  const bodyKeys = shapeKeys(route.body);
  const jsonBody = fc.oneof(
    {
      weight: 4,
      arbitrary: (bodyKeys.length
        ? fc.dictionary(fc.constantFrom(...bodyKeys), jsonValue, { minKeys: 1, maxKeys: bodyKeys.length })
        : fc.dictionary(text, jsonValue, { maxKeys: 3 })
      ).map((v) => JSON.stringify(v)),
    },
    { weight: 1, arbitrary: jsonValue.map((v) => JSON.stringify(v)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{',
        '[]',
        '"x"',
        '{"a":1,"a":2}',
        '[['.repeat(5000),
        '{"__proto__":{"x":1}}',
      ),
    },
  );
  const formBody = fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...bodyKeys, 'username'), encoded), encoded), { maxLength: 5 })
    .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
  const contentType = fc.constantFrom(
    route.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
    route.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json; charset=utf-8',
    'text/plain',
    'application/json; charset=bogus',
    'application/x-www-form-urlencoded',
  );
  return fc.record({
    params: fc.tuple(...params.map(() => idValue)),
    // Few parameters at a time, so that one hostile value often meets no other refusal first.
    query: fc.array(queryPair, { maxLength: 2 }),
    repeat: fc.oneof(
      { weight: 1, arbitrary: fc.constant(true) },
      { weight: 3, arbitrary: fc.constant(false) },
    ),
    body: route.body ? (route.bodyType === 'form' ? formBody : jsonBody) : fc.constant(undefined),
    contentType,
    auth: fc.oneof(
      { weight: 12, arbitrary: fc.constant<Auth>('bearer') },
      { weight: 3, arbitrary: fc.constant<Auth>('api-key') },
      { weight: 1, arbitrary: fc.constantFrom<Auth>('none', 'bearer-extra', 'basic', 'garbage') },
    ),
    garbage: printable,
    idempotencyKey: fc.option(printable, { nil: undefined }),
  });
}

async function build(
  route: AnyRoute,
  drawn: {
    params: string[];
    query: [string, string][];
    repeat: boolean;
    body: string | undefined;
    contentType: string;
    auth: Auth;
    garbage: string;
    idempotencyKey: string | undefined;
  },
  credentials: Credentials,
): Promise<Hostile> {
  let i = 0;
  const path = route.path.replace(/\{\w+\}/g, () => drawn.params[i++]!);
  const pairs = drawn.query.map(([k, v]) => `${k}=${v}`);
  if (drawn.repeat && pairs.length > 0) pairs.push(pairs[0]!);
  const headers: Record<string, string> = {};
  switch (drawn.auth) {
    case 'bearer':
      headers.authorization = `Bearer ${await credentials.bearer()}`;
      break;
    case 'api-key':
      headers['x-api-key'] = credentials.apiKey;
      break;
    case 'bearer-extra':
      headers.authorization = `Bearer ${await credentials.bearer()} ${drawn.garbage}`;
      break;
    case 'basic':
      headers.authorization = `Basic ${Buffer.from(`${drawn.garbage}\u0000:${drawn.garbage}`).toString('base64')}`;
      break;
    case 'garbage':
      headers.authorization = drawn.garbage;
      break;
    case 'none':
      break;
  }
  if (drawn.idempotencyKey !== undefined) headers['idempotency-key'] = drawn.idempotencyKey;
  if (drawn.body !== undefined) headers['content-type'] = drawn.contentType;
  return {
    path,
    query: pairs.join('&'),
    headers,
    ...(drawn.body === undefined ? {} : { body: drawn.body }),
  };
}

/**
 * Fails unless the answer is below 500, in the error shape when an error (or, for a browser
 * route that declares its error answers as an HTML page, such as single sign-on, that page),
 * and fully delivered.
 */
async function expectSafeAnswer(app: TestApp, route: AnyRoute, request: Hostile): Promise<void> {
  const method = route.method.toUpperCase();
  const where = `${method} ${request.path}${request.query ? `?${request.query}` : ''}`;
  let res: Response;
  let body: string;
  try {
    res = await app.request(request.path + (request.query ? `?${request.query}` : ''), {
      method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
    });
    // An event stream that opened stays open: its headers are the whole answer to judge.
    if (res.status === 200 && /^text\/event-stream/.test(res.headers.get('content-type') ?? '')) {
      await res.body?.cancel();
      return;
    }
    body = await res.text();
  } catch (err) {
    throw new Error(`${where}: the connection dropped (${String((err as Error).cause ?? err)})`, {
      cause: err,
    });
  }
  if (res.status >= 500) throw new Error(`${where} answered ${res.status}: ${body.slice(0, 300)}`);
  if (res.status < 400) return;
  if (route.responses[res.status]?.contentTypes?.includes('text/html')) {
    if (!/^text\/html/.test(res.headers.get('content-type') ?? '')) {
      throw new Error(`${where} answered ${res.status} as ${res.headers.get('content-type')}, not its page`);
    }
    return;
  }
  if (!/^application\/json/.test(res.headers.get('content-type') ?? '')) {
    throw new Error(
      `${where} answered ${res.status} as ${res.headers.get('content-type')}: ${body.slice(0, 200)}`,
    );
  }
  const parsed = z
    .object({ detail: z.string(), error_code: z.string().regex(/^[A-Z_]+$/), field: z.string().optional() })
    .strict()
    .safeParse(JSON.parse(body));
  if (!parsed.success) throw new Error(`${where} answered ${res.status} outside the error shape: ${body}`);
}

// ---- the test ---------------------------------------------------------------------------------

describe(`hostile input on every route of the contract (${testEngine})`, () => {
  let app: TestApp;
  let owner: Tenant;
  let caller: Tenant;
  let credentials: Credentials;
  let before: Record<string, string[]>;

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    owner = await factory.tenant(app, { plan: 'enterprise' });
    caller = await factory.tenant(app, { plan: 'enterprise' });
    const ownIds: string[] = [];
    for (const tenant of [owner, caller]) {
      const { scan, summary } = await runScan(app.services.db, tenant.orgId, [
        detection({ severity: 'critical', cve_ids: ['CVE-2024-0001'] }),
        detection({ severity: 'low' }),
      ]);
      ownIds.push(scan.id, ...summary.new_finding_ids);
    }
    credentials = {
      ids: [...ownIds, 'ctrl_soc2_cc7_1', 'pb_redis_requirepass', 'quota', 'schedules'],
      bearer: () => caller.bearer(),
      apiKey: await caller.apiKey([
        'read:scans',
        'write:scans',
        'read:findings',
        'write:findings',
        'read:grc',
        'write:grc',
      ]),
    };
    before = await organizationRows(app.services.db, owner.orgId, ['rate_counters']);
  });

  const name = (route: AnyRoute) => `${route.method.toUpperCase()} ${route.path}`;

  it.each(allRoutes.map((route) => [name(route), route] as const))(
    'answers hostile requests to %s below 500, in the error shape, without dropping the connection',
    async (_name, route) => {
      // Each route gets its runs or its time, whichever ends first, and always its first run
      // (a slow route, such as the log-in with its deliberate password hash, is not skipped).
      const deadline = Date.now() + TIME_PER_ROUTE_MS;
      await fc.assert(
        fc.asyncProperty(requestFor(route, credentials.ids), async (drawn) => {
          if (Date.now() > deadline) return;
          const request = await build(route, drawn, credentials);
          await expectSafeAnswer(app, route, request);
        }),
        { numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
    },
  );

  it('is healthy afterwards, and the other organization’s data is unchanged', async () => {
    const health = await app.request('/api/health');
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'healthy' });
    expect(await organizationRows(app.services.db, owner.orgId, ['rate_counters'])).toEqual(before);
  });
});
