import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../server/routes/docs.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { createScheduleRoute } from '../../../server/routes/schedules.ts';

/**
 * Schedule bodies are a discriminated union by `frequency` (issue 19, item 10): the OpenAPI
 * document says that `day_of_week` belongs to weekly schedules and `day_of_month` to monthly
 * ones, so a body is valid against the document exactly when the server accepts it. The
 * document is read by ajv as JSON Schema 2020-12, as a generated client would: its `oneOf`
 * decides (ajv does not read a `discriminator` with a `mapping`, and needs not: each variant
 * fixes `frequency` to one value). The server is asked over HTTP.
 */

const doc = openApiDocument('test') as unknown as { components: Record<string, unknown> };
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ $id: 'scanward', components: doc.components });
const validAgainstDocument = ajv.compile({ $ref: 'scanward#/components/schemas/CreateScheduleRequest' });

type Body = Record<string, unknown>;

/** A body the server can only refuse for its schedule fields: a loopback target, a real zone. */
const body = (fields: Body): Body => ({ target: '127.0.0.1', authorized: true, timezone: 'UTC', ...fields });

describe(`schedule bodies: the document and the server agree (${testEngine})`, () => {
  const suite = useTestApp();

  async function serverAnswer(fields: Body) {
    const tenant = await factory.tenant(suite.app, { plan: 'professional' });
    // The table holds bodies the contract refuses, on purpose.
    return tenant.api.call(createScheduleRoute, { body: body(fields) as never });
  }

  it.each<[string, Body]>([
    ['daily', { frequency: 'daily' }],
    ['daily at 23:00 in Berlin', { frequency: 'daily', hour: 23, timezone: 'Europe/Berlin' }],
    ['weekly on Sunday', { frequency: 'weekly', day_of_week: 0 }],
    ['weekly on Saturday', { frequency: 'weekly', day_of_week: 6, hour: 5 }],
    ['monthly on the 1st', { frequency: 'monthly', day_of_month: 1 }],
    ['monthly on the 28th', { frequency: 'monthly', day_of_month: 28, scan_type: 'quick' }],
  ])('accepts %s, valid against the document', async (_name, fields) => {
    expect(
      validAgainstDocument(body(fields)),
      JSON.stringify(ajv.errorsText(validAgainstDocument.errors)),
    ).toBe(true);
    const res = await serverAnswer(fields);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      frequency: fields.frequency,
      day_of_week: fields.day_of_week ?? null,
      day_of_month: fields.day_of_month ?? null,
    });
  });

  it.each<[string, Body, string]>([
    [
      'day_of_month on a daily schedule (the report)',
      { frequency: 'daily', day_of_month: 3 },
      'day_of_month',
    ],
    ['day_of_week on a daily schedule', { frequency: 'daily', day_of_week: 1 }, 'day_of_week'],
    ['a null day_of_week on a daily schedule', { frequency: 'daily', day_of_week: null }, 'day_of_week'],
    ['a weekly schedule without day_of_week', { frequency: 'weekly' }, 'day_of_week'],
    [
      'day_of_month on a weekly schedule',
      { frequency: 'weekly', day_of_week: 2, day_of_month: 2 },
      'day_of_month',
    ],
    ['a monthly schedule without day_of_month', { frequency: 'monthly' }, 'day_of_month'],
    [
      'day_of_week on a monthly schedule',
      { frequency: 'monthly', day_of_month: 2, day_of_week: 2 },
      'day_of_week',
    ],
    ['day_of_month 29', { frequency: 'monthly', day_of_month: 29 }, 'day_of_month'],
    ['day_of_week 7', { frequency: 'weekly', day_of_week: 7 }, 'day_of_week'],
    ['an unknown frequency', { frequency: 'hourly' }, 'frequency'],
    ['no frequency', {}, 'frequency'],
  ])('refuses %s, invalid against the document too', async (_name, fields, field) => {
    expect(validAgainstDocument(body(fields))).toBe(false);
    const res = await serverAnswer(fields);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field });
  });

  it('answers every generated body as the document judges it', async () => {
    const tenant = await factory.tenant(suite.app, { plan: 'professional' });
    const day = (max: number) => fc.option(fc.integer({ min: -1, max: max + 1 }), { nil: undefined });
    const bodies = fc.record(
      {
        frequency: fc.constantFrom('daily', 'weekly', 'monthly', 'yearly'),
        day_of_week: day(6),
        day_of_month: day(28),
        hour: fc.option(fc.integer({ min: -1, max: 24 }), { nil: undefined }),
      },
      { requiredKeys: ['frequency'] },
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (fields) => {
        const sent = body(Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));
        // The property sends bodies the contract may refuse, on purpose.
        const res = await tenant.api.call(createScheduleRoute, { body: sent as never });
        expect([201, 422], JSON.stringify(res.body)).toContain(res.status);
        expect(res.status === 201, JSON.stringify(sent)).toBe(validAgainstDocument(sent));
      }),
      { numRuns: 40 },
    );
  });
});
