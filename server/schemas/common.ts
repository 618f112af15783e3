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

/**
 * An account's e-mail address, as accounts are created and log in: `local@domain`
 * with no space, control character or second `@`, and no dot required in the domain,
 * so the bootstrap default `admin@localhost` is one. The same rule everywhere an
 * address names a user (`SCANWARD_ADMIN_EMAIL`, `scanward admin user create`, a
 * finding's `assignee`), so every address that logs in can be named.
 */
// Control characters spelled out (no `u` flag), so the pattern reads the same in JSON Schema.
// eslint-disable-next-line no-control-regex
export const ACCOUNT_EMAIL_PATTERN = /^[^\s@\u0000-\u001f\u007f-\u009f]+@[^\s@\u0000-\u001f\u007f-\u009f]+$/;
/** Longest address (the log-in's `username` allows as much). */
export const ACCOUNT_EMAIL_MAX = 320;

export const AccountEmail = z
  .string()
  .max(ACCOUNT_EMAIL_MAX, { error: `must be at most ${ACCOUNT_EMAIL_MAX} characters` })
  .regex(ACCOUNT_EMAIL_PATTERN, { error: 'must be an e-mail address (local@domain)' })
  .meta({ example: 'alice@example.com' });

/** ISO 8601 UTC with millisecond precision and a `Z`. */
export const Timestamp = z.iso.datetime().meta({ example: '2026-01-31T12:00:00.000Z' });

/**
 * A whole-number query parameter: decimal digits only. `0x10`, `1e1`, ` 5`, `+5`
 * and `5.0` are not numbers here (they stay strings and fail as such), so the
 * only spelling of sixteen is `16`.
 */
function strictWholeNumber(schema: z.ZodNumber) {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value),
    schema,
  );
}

/** Highest page number: (page - 1) × per_page stays a safe row offset on both engines. */
export const MAX_PAGE = 1_000_000;

export const Page = strictWholeNumber(
  z
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(MAX_PAGE, { error: `must be at most ${MAX_PAGE}` }),
)
  .default(1)
  .meta({ description: 'Page number, from 1; a page past the end answers empty `items`' });
export const PerPage = strictWholeNumber(
  z
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(100, { error: 'must be at most 100' }),
)
  .default(20)
  .meta({ description: 'Items per page, 1-100' });

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

/**
 * A user's role in their organization (server/policies/roles.ts says what each may do):
 * `admin` everything, `member` reads everything and changes scans, findings and
 * evidence, `viewer` reads. Ordered from most to least.
 */
export const Role = z.enum(['admin', 'member', 'viewer']);
export type Role = z.infer<typeof Role>;

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

/** The shape {@link parseDateParam} accepts, for the OpenAPI document (calendar checks aside). */
export const DATE_PARAM_PATTERN =
  '^\\d{4}-\\d{2}-\\d{2}([Tt]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}:\\d{2})?)?$';

/** A date query parameter, parsed to the instant it names. */
export const DateParam = z
  .string()
  .max(40, { error: 'must be an ISO 8601 date or date-time, e.g. 2026-01-31' })
  .transform((value, ctx) => {
    const date = parseDateParam(value);
    if (!date) {
      ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 date or date-time, e.g. 2026-01-31' });
      return z.NEVER;
    }
    return date;
  })
  .meta({
    description: 'ISO 8601 date (00:00Z) or date-time',
    example: '2026-01-31',
    pattern: DATE_PARAM_PATTERN,
  });

/**
 * Ids in paths: lowercase letters, digits and `_` (the kind prefix included,
 * e.g. `scan_3k2j…`, `ctrl_soc2_cc7_1`). Anything else names nothing, and the
 * contract answers it as it answers an unknown id: 404.
 */
export const ID_PATTERN = /^[a-z0-9_]{1,100}$/;

/** What each id path parameter names, for the 404 of an id that cannot exist (`scan not found`). */
export const idParamNouns = z.registry<{ noun: string }>();

/** A path parameter holding the id of a `noun` (`scan`, `API key`). */
export function IdParam(noun: string, example: string) {
  const schema = z
    .string()
    .regex(ID_PATTERN)
    .meta({ description: `The ${noun} id`, example });
  idParamNouns.add(schema, { noun });
  return schema;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

function isIpv6(text: string): boolean {
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groupsOf = (half: string) => (half === '' ? [] : half.split(':'));
  const groups = halves.flatMap(groupsOf);
  const last = groups.at(-1);
  // An IPv4 tail (::ffff:127.0.0.1) counts as two groups.
  const tail = last !== undefined && last.includes('.') ? (IPV4.test(last) ? 2 : -99) : 0;
  if (tail < 0) return false;
  const hex = tail ? groups.slice(0, -1) : groups;
  if (!hex.every((g) => HEX_GROUP.test(g))) return false;
  const count = hex.length + tail;
  return halves.length === 2 ? count <= 7 : count === 8;
}

/**
 * An address range in CIDR notation (`127.0.0.0/24`, `::1/128`; host bits may be set), or
 * undefined: the findings `target` filter's ranges. Checked here, without node built-ins, so
 * a malformed range is a 422 naming the field rather than a database error.
 */
export function parseCidr(value: string): { address: string; prefix: number; version: 4 | 6 } | undefined {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(value);
  if (!m) return undefined;
  const address = m[1]!;
  const prefix = Number(m[2]);
  if (IPV4.test(address)) return prefix <= 32 ? { address, prefix, version: 4 } : undefined;
  if (isIpv6(address)) return prefix <= 128 ? { address, prefix, version: 6 } : undefined;
  return undefined;
}
