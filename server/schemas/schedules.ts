import { z } from 'zod';
import { IdParam, PaginationQuery, Timestamp, paginated } from './common.ts';
import { WebTestingOptions } from './web-testing.ts';
import { WebTestingView } from './web-testing-view.ts';
import { Authorized, CredentialChecks, Framework, Frameworks, PortSpec, ScanType, Target } from './scans.ts';

/**
 * Recurring scan schedules (decisions.md, "Schedules"). Pure zod; the time
 * zone name is checked against the IANA database by the server.
 */

export const Frequency = z
  .enum(['daily', 'weekly', 'monthly'], { error: 'must be daily, weekly or monthly' })
  .meta({ id: 'ScheduleFrequency' });
export type Frequency = z.infer<typeof Frequency>;

/** A whole number in a range; `required` names the schedules that must send it. */
const day = (min: number, max: number, required: string) =>
  z
    .number({
      error: (issue) =>
        issue.input === undefined
          ? `is required for ${required} schedules`
          : `must be a whole number from ${min} to ${max}`,
    })
    .int({ error: `must be a whole number from ${min} to ${max}` })
    .min(min, { error: `must be a whole number from ${min} to ${max}` })
    .max(max, { error: `must be a whole number from ${min} to ${max}` });

const DayOfWeek = () => day(0, 6, 'weekly').meta({ description: '0 = Sunday … 6 = Saturday' });
const DayOfMonth = () => day(1, 28, 'monthly');

/**
 * A field another frequency owns: it must be absent. JSON Schema says so with `not: {}`
 * (no value is valid); zod-to-openapi has no form of its own for `z.never()`, so the
 * document's type is given here.
 */
const absent = (field: 'day_of_week' | 'day_of_month', owner: 'weekly' | 'monthly') =>
  z
    .never({ error: `applies to ${owner} schedules only` })
    .meta({
      type: 'integer',
      not: {},
      description: `Not allowed: \`${field}\` belongs to ${owner} schedules`,
    } as never)
    .optional();

const hour = () =>
  z
    .number({ error: 'must be a whole number from 0 to 23' })
    .int({ error: 'must be a whole number from 0 to 23' })
    .min(0, { error: 'must be a whole number from 0 to 23' })
    .max(23, { error: 'must be a whole number from 0 to 23' })
    .default(0)
    .meta({ description: 'Local hour in `timezone`' });

/** What every schedule request carries beside its frequency and day. */
const requestFields = () => ({
  hour: hour(),
  timezone: z
    .string({ error: 'must be an IANA time zone name such as Europe/Berlin' })
    .min(1)
    .max(64)
    .default('UTC')
    .meta({ description: 'IANA time zone name', example: 'Europe/Berlin' }),
  frameworks: Frameworks.optional(),
  ports: PortSpec.optional(),
  credential_checks: CredentialChecks.optional(),
  web: WebTestingOptions.optional(),
  authorized: Authorized,
});

export const DailyScheduleRequest = z
  .object({
    target: Target,
    scan_type: ScanType.default('full'),
    frequency: z.literal('daily'),
    day_of_week: absent('day_of_week', 'weekly'),
    day_of_month: absent('day_of_month', 'monthly'),
    ...requestFields(),
  })
  .meta({ id: 'DailyScheduleRequest', description: 'Runs every day at `hour`.' });

export const WeeklyScheduleRequest = z
  .object({
    target: Target,
    scan_type: ScanType.default('full'),
    frequency: z.literal('weekly'),
    day_of_week: DayOfWeek(),
    day_of_month: absent('day_of_month', 'monthly'),
    ...requestFields(),
  })
  .meta({ id: 'WeeklyScheduleRequest', description: 'Runs once a week, on `day_of_week` at `hour`.' });

export const MonthlyScheduleRequest = z
  .object({
    target: Target,
    scan_type: ScanType.default('full'),
    frequency: z.literal('monthly'),
    day_of_week: absent('day_of_week', 'weekly'),
    day_of_month: DayOfMonth(),
    ...requestFields(),
  })
  .meta({
    id: 'MonthlyScheduleRequest',
    description: 'Runs once a month, on `day_of_month` (1–28, so every month has it) at `hour`.',
  });

/**
 * A schedule to create, one shape per `frequency` (the discriminator): `day_of_week` belongs
 * to weekly schedules and `day_of_month` to monthly ones, required there and refused
 * elsewhere, so a body the OpenAPI document accepts is a body the server accepts.
 */
export const CreateScheduleRequest = z
  .discriminatedUnion('frequency', [DailyScheduleRequest, WeeklyScheduleRequest, MonthlyScheduleRequest], {
    error: (issue) => (issue.code === 'invalid_union' ? 'must be daily, weekly or monthly' : undefined),
  })
  .meta({ id: 'CreateScheduleRequest' });
export type CreateScheduleRequest = z.infer<typeof CreateScheduleRequest>;

/** A stored schedule: the request's fields, with the day another frequency owns as `null`. */
export const Schedule = z
  .object({
    id: z.string().meta({ example: 'sched_3k2j4h5g6f7d8s9a0q1w2e3r' }),
    target: z.string(),
    scan_type: ScanType,
    frequency: Frequency,
    day_of_week: z.number().int().nullable().meta({ description: 'Weekly schedules; null otherwise' }),
    day_of_month: z.number().int().nullable().meta({ description: 'Monthly schedules; null otherwise' }),
    hour: z.number().int(),
    timezone: z.string(),
    frameworks: z.array(Framework),
    ports: z.string().nullable(),
    credential_checks: CredentialChecks,
    web: WebTestingView.optional(),
    authorized: z.literal(true),
    enabled: z.boolean(),
    next_run_at: Timestamp,
    last_run_at: Timestamp.nullable(),
    last_scan_id: z.string().nullable(),
    last_error: z.string().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'Schedule' });
export type Schedule = z.infer<typeof Schedule>;

export const ScheduleList = paginated(Schedule, 'ScheduleList');

export const ListSchedulesQuery = PaginationQuery;

export const ScheduleIdParams = z.object({
  schedule_id: IdParam('schedule', 'sched_3k2j4h5g6f7d8s9a0q1w2e3r'),
});

/**
 * What PATCH changes on a schedule: its `web` options (a new password, other exclusions), or
 * `null` to drop them. The rest of a schedule is changed by deleting it and creating another.
 */
export const UpdateScheduleRequest = z
  .object({
    web: WebTestingOptions.nullable().meta({
      description: 'The web options of the scans the schedule starts from now on; null: none.',
    }),
  })
  .strict()
  .meta({ id: 'UpdateScheduleRequest' });
export type UpdateScheduleRequest = z.infer<typeof UpdateScheduleRequest>;

export const ScheduleDeleted = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .meta({ id: 'ScheduleDeleted' });
