import { z } from 'zod';

/**
 * Wire shapes shared by every resource. Pure zod: imported by the server and by
 * the GitHub Action, so nothing here may import koa, knex or node built-ins.
 */

export const ErrorResponse = z
  .object({
    detail: z.string().meta({ description: 'Human-readable message' }),
    error_code: z.string().meta({ description: 'Machine-readable code', example: 'VALIDATION_ERROR' }),
    field: z.string().optional().meta({ description: 'The offending input field (validation errors)' }),
  })
  .meta({ id: 'Error' });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** ISO 8601 UTC with millisecond precision and a `Z`. */
export const Timestamp = z.iso.datetime().meta({ example: '2026-01-31T12:00:00.000Z' });

export const Page = z.coerce
  .number({ error: 'must be a whole number' })
  .int({ error: 'must be a whole number' })
  .min(1, { error: 'must be at least 1' })
  .default(1);
export const PerPage = z.coerce
  .number({ error: 'must be a whole number' })
  .int({ error: 'must be a whole number' })
  .min(1, { error: 'must be at least 1' })
  .max(100, { error: 'must be at most 100' })
  .default(20);

export const PaginationQuery = z.object({ page: Page, per_page: PerPage });

export function paginated<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      items: z.array(item),
      total: z.number().int(),
      page: z.number().int(),
      per_page: z.number().int(),
      pages: z.number().int(),
    })
    .meta({ id });
}

export interface PageOf<T> {
  items: T[];
  total: number;
  page: number;
  per_page: number;
  pages: number;
}

export function pageOf<T>(items: T[], total: number, page: number, perPage: number): PageOf<T> {
  return { items, total, page, per_page: perPage, pages: Math.ceil(total / perPage) };
}

export const Plan = z.enum(['startup', 'professional', 'enterprise']);
export type Plan = z.infer<typeof Plan>;

export const Permission = z.enum([
  'read:scans',
  'write:scans',
  'read:findings',
  'write:findings',
  'read:grc',
  'write:grc',
]);
export type Permission = z.infer<typeof Permission>;
