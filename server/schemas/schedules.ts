import { z } from 'zod';
import { IdParam, PaginationQuery, Timestamp, paginated } from './common.ts';
import { Authorized, CredentialChecks, Framework, Frameworks, PortSpec, ScanType, Target } from './scans.ts';

/**
 * Recurring scan schedules (decisions.md, "Schedules"). Pure zod; the time
 * zone name is checked against the IANA database by the server.
 */

export const Frequency = z
  .enum(['daily', 'weekly', 'monthly'], { error: 'must be daily, weekly or monthly' })
  .meta({ id: 'ScheduleFrequency' });
export type Frequency = z.infer<typeof Frequency>;

const wholeNumber = (min: number, max: number) =>
  z
    .number({ error: `must be a whole number from ${min} to ${max}` })
    .int({ error: `must be a whole number from ${min} to ${max}` })
    .min(min, { error: `must be a whole number from ${min} to ${max}` })
    .max(max, { error: `must be a whole number from ${min} to ${max}` });

export const CreateScheduleRequest = z
  .object({
    target: Target,
    scan_type: ScanType.default('full'),
    frequency: Frequency,
    day_of_week: wholeNumber(0, 6)
      .optional()
      .meta({ description: '0 = Sunday … 6 = Saturday; required for weekly schedules' }),
    day_of_month: wholeNumber(1, 28).optional().meta({ description: 'Required for monthly schedules' }),
    hour: wholeNumber(0, 23).default(0).meta({ description: 'Local hour in `timezone`' }),
    timezone: z
      .string({ error: 'must be an IANA time zone name such as Europe/Berlin' })
      .min(1)
      .max(64)
      .default('UTC')
      .meta({ description: 'IANA time zone name', example: 'Europe/Berlin' }),
    frameworks: Frameworks.optional(),
    ports: PortSpec.optional(),
    credential_checks: CredentialChecks.optional(),
    authorized: Authorized,
  })
  .superRefine((s, ctx) => {
    const need = (field: 'day_of_week' | 'day_of_month', when: 'weekly' | 'monthly') => {
      if (s.frequency === when && s[field] === undefined) {
        ctx.addIssue({ code: 'custom', path: [field], message: `is required for ${when} schedules` });
      }
      if (s.frequency !== when && s[field] !== undefined) {
        ctx.addIssue({ code: 'custom', path: [field], message: `applies to ${when} schedules only` });
      }
    };
    need('day_of_week', 'weekly');
    need('day_of_month', 'monthly');
  })
  .meta({ id: 'CreateScheduleRequest' });
export type CreateScheduleRequest = z.infer<typeof CreateScheduleRequest>;

export const Schedule = z
  .object({
    id: z.string().meta({ example: 'sched_3k2j4h5g6f7d8s9a0q1w2e3r' }),
    target: z.string(),
    scan_type: ScanType,
    frequency: Frequency,
    day_of_week: z.number().int().nullable(),
    day_of_month: z.number().int().nullable(),
    hour: z.number().int(),
    timezone: z.string(),
    frameworks: z.array(Framework),
    ports: z.string().nullable(),
    credential_checks: CredentialChecks,
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

export const ScheduleDeleted = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .meta({ id: 'ScheduleDeleted' });
