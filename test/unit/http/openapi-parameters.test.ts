import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../server/routes/docs.ts';

interface Parameter {
  $ref?: string;
  name: string;
  in: string;
  description?: string;
}
interface Document {
  paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
  components: { parameters?: Record<string, Parameter> };
}

/**
 * Issue 31 item 8: 43 parameters of the OpenAPI document had no description. Every parameter
 * (path, query, header) of every operation has one now, and this test names any that lacks it.
 */
describe('the OpenAPI document', () => {
  it('describes every parameter of every operation', () => {
    const doc = openApiDocument('test') as unknown as Document;
    const undescribed: string[] = [];
    let parameters = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const raw of operation.parameters ?? []) {
          const parameter = raw.$ref ? doc.components.parameters?.[raw.$ref.split('/').pop()!] : raw;
          parameters++;
          if (!parameter?.description?.trim())
            undescribed.push(
              `${method.toUpperCase()} ${path} ${parameter?.in ?? '?'}:${parameter?.name ?? raw.$ref}`,
            );
        }
      }
    }
    expect(parameters).toBeGreaterThan(100);
    expect(undescribed).toEqual([]);
  });

  it('says that CI trust policy issuers are https URLs, as the API checks', () => {
    const doc = openApiDocument('test') as unknown as {
      components: {
        schemas: Record<string, { properties: Record<string, { pattern?: string; description?: string }> }>;
      };
    };
    const issuer = doc.components.schemas['CiTrustPolicyCreate']!.properties['issuer']!;
    expect(new RegExp(issuer.pattern!).test('https://token.actions.githubusercontent.com')).toBe(true);
    expect(new RegExp(issuer.pattern!).test('http://token.actions.githubusercontent.com')).toBe(false);
    expect(issuer.description).toMatch(/https/);
  });
});
