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

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/i;

/**
 * Parses `2026-01-31` (00:00Z that day) or an ISO 8601 date-time (UTC when it
 * names no offset); undefined for anything else, impossible dates included.
 */
export function parseDateParam(value: string): Date | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((v) => Number(v ?? 0));
  const calendar = new Date(Date.UTC(year!, month! - 1, day!));
  const realDay =
    calendar.getUTCFullYear() === year &&
    calendar.getUTCMonth() === month! - 1 &&
    calendar.getUTCDate() === day;
  if (!realDay || hour > 23 || minute > 59 || second > 59) return undefined;
  const text = m[4] === undefined ? `${value}T00:00:00Z` : m[8] ? value : `${value}Z`;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A date query parameter, parsed to the instant it names. */
export const DateParam = z
  .string()
  .transform((value, ctx) => {
    const date = parseDateParam(value);
    if (!date) {
      ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 date or date-time, e.g. 2026-01-31' });
      return z.NEVER;
    }
    return date;
  })
  .meta({ description: 'ISO 8601 date (00:00Z) or date-time', example: '2026-01-31' });
