import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { RouteBody } from '../helpers/api-client.ts';
import { defineRoute } from '../../server/http/contract.ts';
import type { getScanRoute, listScansRoute } from '../../server/routes/scans.ts';
import type { ScanDetail } from '../../server/schemas/scans.ts';

// Type-level tests of the typed client (test/helpers/api-client.ts `call`): tsc checks them.
export const twoBodies = defineRoute({
  method: 'post',
  path: '/t',
  operationId: 't',
  summary: 't',
  tags: [],
  access: { public: true },
  responses: {
    200: { description: 'kept', schema: z.object({ kept: z.literal(true) }) },
    201: { description: 'made', schema: z.object({ id: z.string() }) },
    404: { description: 'absent', schema: z.object({ detail: z.string() }) },
  },
  handler: async () => ({ body: {} }),
});
export const noJson = defineRoute({
  method: 'get',
  path: '/f',
  operationId: 'f',
  summary: 'f',
  tags: [],
  access: { public: true },
  responses: { 200: { description: 'a file', contentTypes: ['text/csv'] } },
  handler: async () => ({ body: '' }),
});

describe('the typed client', () => {
  it("answers a route's declared success body", () => {
    expectTypeOf<RouteBody<typeof getScanRoute>>().toEqualTypeOf<ScanDetail>();
    expectTypeOf<RouteBody<typeof listScansRoute>['items'][number]['id']>().toEqualTypeOf<string>();
  });

  it('answers the union of every declared 2xx body, and no error body', () => {
    expectTypeOf<RouteBody<typeof twoBodies>>().toEqualTypeOf<{ kept: true } | { id: string }>();
  });

  it('answers a plain record for a route without a JSON success body', () => {
    expectTypeOf<RouteBody<typeof noJson>>().toEqualTypeOf<Record<string, unknown>>();
  });
});
