import type { components, operations } from './schema';

/**
 * The API contract as the console sees it: the named schemas and operations that
 * openapi-typescript generates from /openapi.json (schema.d.ts), and the message of the
 * error envelope. Types only, but for `problem`; the client itself is in client.ts.
 */
export type Schemas = components['schemas'];
export type Operations = operations;

/** The query parameters of an operation. */
export type QueryOf<Operation extends keyof operations> = NonNullable<
  operations[Operation]['parameters']['query']
>;

/** The message of an API error body, for showing to the user. */
export function problem(error: unknown): string {
  if (error && typeof error === 'object' && 'detail' in error) return String(error.detail);
  return 'Something went wrong; try again.';
}
