import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../server/routes/docs.ts';
import {
  DATE_PARAM_PATTERN,
  ID_PATTERN,
  Page,
  PerPage,
  parseDateParam,
} from '../../../server/schemas/common.ts';
import { WEBHOOK_SECRET_PATTERN } from '../../../server/schemas/webhooks.ts';
import { generateWebhookSecret, isValidWebhookSecret } from '../../../server/webhooks/secrets.ts';

/**
 * The OpenAPI document declares every limit the server enforces, so a client
 * generated from it refuses what the server would refuse and types every body.
 */

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  schema: Schema;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

const doc = openApiDocument('test') as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
);

const resolve = (schema: Schema): Schema =>
  typeof schema.$ref === 'string'
    ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')]!
    : schema;

/** Whether a string schema states what it accepts: a set of values, a shape or a length. */
const boundedString = (s: Schema) =>
  'enum' in s || 'const' in s || 'pattern' in s || 'maxLength' in s || 'format' in s;

/** Every string and array in a request schema that states no bound, by dotted path. */
function unbounded(schema: Schema, path: string, out: string[]): string[] {
  const s = resolve(schema);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const part of (s[key] as Schema[] | undefined) ?? []) unbounded(part, path, out);
  }
  const types = ([] as unknown[]).concat(s.type ?? []);
  if (types.includes('string') && !boundedString(s)) out.push(path);
  if (types.includes('array')) {
    if (!('maxItems' in s)) out.push(`${path} (maxItems)`);
    if (s.items) unbounded(s.items as Schema, `${path}[]`, out);
  }
  for (const [name, property] of Object.entries((s.properties as Record<string, Schema>) ?? {})) {
    unbounded(property, path ? `${path}.${name}` : name, out);
  }
  return out;
}

describe('the OpenAPI document declares the limits the server enforces', () => {
  it('gives every id in a path the id pattern', () => {
    for (const { name, op } of operations) {
      for (const p of op.parameters ?? []) {
        if (p.in === 'path') expect(p.schema.pattern, `${name} ${p.name}`).toBe(ID_PATTERN.source);
      }
    }
  });

  it('bounds every query parameter, header and request body field', () => {
    const problems: string[] = [];
    for (const { name, op } of operations) {
      for (const p of op.parameters ?? []) {
        const s = resolve(p.schema);
        if (s.type === 'integer' && !('maximum' in s && 'minimum' in s)) problems.push(`${name} ${p.name}`);
        if (s.type === 'string' && !boundedString(s)) problems.push(`${name} ${p.name}`);
      }
      for (const media of Object.values(op.requestBody?.content ?? {})) {
        for (const field of unbounded(media.schema, '', [])) problems.push(`${name} body ${field}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('declares the JSON export as an array of finding details, and no pagination on it', () => {
    const op = doc.paths['/api/v1/findings/export']!.get!;
    expect(op.responses['200']!.content!['application/json']!.schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/FindingDetail' },
    });
    const names = (op.parameters ?? []).map((p) => p.name);
    expect(names).not.toContain('page');
    expect(names).not.toContain('per_page');
  });

  it('accepts every scan status, cancelled included, as the list filter', () => {
    const status = doc.paths['/api/v1/scans']!.get!.parameters!.find((p) => p.name === 'status')!;
    expect(resolve(status.schema).enum).toEqual(['pending', 'running', 'completed', 'failed', 'cancelled']);
  });

  it('states the Idempotency-Key, date, permission, event and webhook secret rules', () => {
    const createScan = doc.paths['/api/v1/scans']!.post!;
    const key = createScan.parameters!.find((p) => p.name === 'idempotency-key')!;
    expect(key.schema).toMatchObject({ pattern: '^[\\x21-\\x7e]{1,255}$' });

    const from = doc.paths['/api/v1/scans']!.get!.parameters!.find((p) => p.name === 'from_date')!;
    expect(from.schema.pattern).toBe(DATE_PARAM_PATTERN);

    const apiKey = resolve(
      doc.paths['/api/v1/api-keys']!.post!.requestBody!.content['application/json']!.schema,
    );
    expect((apiKey.properties as Record<string, Schema>).permissions).toMatchObject({
      maxItems: 6,
      uniqueItems: true,
    });
    const webhook = resolve(
      doc.paths['/api/v1/webhooks']!.post!.requestBody!.content['application/json']!.schema,
    );
    const props = webhook.properties as Record<string, Schema>;
    expect(props.events).toMatchObject({ maxItems: 5, uniqueItems: true });
    expect(props.secret!.pattern).toBe(WEBHOOK_SECRET_PATTERN.source);
  });
});

describe('the declared patterns say what the server accepts', () => {
  it('matches the webhook secret pattern exactly where the server accepts a secret', () => {
    expect(WEBHOOK_SECRET_PATTERN.test(generateWebhookSecret())).toBe(true);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.boolean(), (bytes, stripPadding) => {
        let secret = `whsec_${Buffer.from(bytes).toString('base64')}`;
        if (stripPadding) secret = secret.replace(/=+$/, '');
        expect(WEBHOOK_SECRET_PATTERN.test(secret)).toBe(isValidWebhookSecret(secret));
      }),
      { numRuns: 300 },
    );
  });

  it('matches the date pattern on every date the server accepts', () => {
    const pattern = new RegExp(DATE_PARAM_PATTERN);
    fc.assert(
      fc.property(
        fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(253402300799000) }),
        (date) => {
          const iso = date.toISOString();
          for (const text of [iso, iso.slice(0, 10), iso.slice(0, 19), iso.replace('Z', '+02:00')]) {
            expect(parseDateParam(text)).toBeDefined();
            expect(pattern.test(text)).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
    for (const text of ['2026-1-31', '31.01.2026', '2026-01-31T25:00', '2026-02-30']) {
      expect(parseDateParam(text)).toBeUndefined();
    }
  });

  it('reads page numbers as decimal digits only', () => {
    expect(Page.parse('16')).toBe(16);
    expect(PerPage.parse(undefined)).toBe(20);
    for (const text of ['0x10', '1e1', '+2', ' 2', '2.0', '', '0', '1000001']) {
      expect(Page.safeParse(text).success, text).toBe(false);
    }
  });
});
