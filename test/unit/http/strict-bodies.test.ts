import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { strictBody } from '../../../server/http/contract.ts';
import { openApiDocument } from '../../../server/routes/docs.ts';

/**
 * Unknown fields in a JSON body are refused (issue 31, item 7): the route contract makes every
 * request body strict at one depth (`strictBody`), and the document says so with
 * `additionalProperties: false` on every object a JSON body holds, nested ones included.
 */

type Node = Record<string, unknown>;
const doc = openApiDocument('test') as unknown as {
  paths: Record<string, Record<string, Node>>;
  components: { schemas: Record<string, Node> };
};

/** The names of the components a part of the document refers to, however deep. */
function componentsOf(node: unknown, seen = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) componentsOf(item, seen);
  else if (node && typeof node === 'object') {
    const ref = (node as Node).$ref;
    if (typeof ref === 'string') {
      const name = ref.replace('#/components/schemas/', '');
      if (!seen.has(name)) {
        seen.add(name);
        componentsOf(doc.components.schemas[name], seen);
      }
    }
    for (const value of Object.values(node)) componentsOf(value, seen);
  }
  return seen;
}

/** Where an object schema with properties says nothing of other keys. */
function openObjects(node: unknown, where: string, out: string[]): string[] {
  if (Array.isArray(node)) node.forEach((item, i) => openObjects(item, `${where}/${i}`, out));
  else if (node && typeof node === 'object') {
    const n = node as Node;
    if (n.type === 'object' && n.properties && n.additionalProperties === undefined) out.push(where);
    for (const [key, value] of Object.entries(n)) openObjects(value, `${where}/${key}`, out);
  }
  return out;
}

const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
);
const jsonBodies = operations.flatMap(({ name, op }) => {
  const body = (op.requestBody as { content: Record<string, unknown> } | undefined)?.content[
    'application/json'
  ];
  return body ? [{ name, body }] : [];
});

describe('strict request bodies', () => {
  it('says additionalProperties: false on every object of every JSON request body', () => {
    expect(jsonBodies.length).toBeGreaterThan(15);
    const open: string[] = [];
    for (const { name, body } of jsonBodies) openObjects(body, name, open);
    const components = new Set(jsonBodies.flatMap(({ body }) => [...componentsOf(body)]));
    for (const name of components) openObjects(doc.components.schemas[name], `#${name}`, open);
    expect(open).toEqual([]);
  });

  it('shares no object component between a request body and a response (one would be strict in both)', () => {
    const requests = new Set(jsonBodies.flatMap(({ body }) => [...componentsOf(body)]));
    const responses = new Set(operations.flatMap(({ op }) => [...componentsOf(op.responses)]));
    const shared = [...requests].filter(
      (name) => responses.has(name) && doc.components.schemas[name]?.type === 'object',
    );
    expect(shared).toEqual([]);
  });

  it('leaves the form-encoded log-in open to the OAuth2 fields it ignores', () => {
    const login = doc.paths['/api/v1/auth/token']!.post!.requestBody as { content: Record<string, unknown> };
    const form = componentsOf(login.content['application/x-www-form-urlencoded']);
    expect([...form].map((name) => doc.components.schemas[name]?.additionalProperties)).toEqual([undefined]);
  });

  it('refuses unknown keys at every depth and keeps checks, defaults and loose objects as they were', () => {
    const Inner = z.object({ a: z.string() });
    const schema = strictBody(
      z
        .object({
          inner: Inner.optional(),
          list: z.array(Inner).default([]),
          either: z.union([
            z.object({ kind: z.literal('x') }),
            z.object({ kind: z.literal('y'), y: z.number() }),
          ]),
          open: z.looseObject({ b: z.string() }).optional(),
        })
        .refine((v) => v.either.kind !== 'y' || v.list.length > 0, {
          error: 'y needs a list',
          path: ['list'],
        }),
    );
    const ok = schema.parse({ either: { kind: 'x' }, open: { b: 'b', extra: 1 } });
    expect(ok).toEqual({ list: [], either: { kind: 'x' }, open: { b: 'b', extra: 1 } });
    const issue = (value: unknown) => schema.safeParse(value).error?.issues[0];
    expect(issue({ either: { kind: 'x' }, web: {} })).toMatchObject({
      code: 'unrecognized_keys',
      keys: ['web'],
    });
    expect(issue({ either: { kind: 'x' }, inner: { a: 'a', b: 1 } })).toMatchObject({
      code: 'unrecognized_keys',
      path: ['inner'],
      keys: ['b'],
    });
    expect(issue({ either: { kind: 'x' }, list: [{ a: 'a', c: 1 }] })).toMatchObject({ path: ['list', 0] });
    expect(issue({ either: { kind: 'y', y: 1 } })).toMatchObject({
      path: ['list'],
      message: 'y needs a list',
    });
    // The original schema is untouched: it still strips what it does not know.
    expect(Inner.parse({ a: 'a', b: 1 })).toEqual({ a: 'a' });
  });
});
