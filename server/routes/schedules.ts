import { defineRoute } from '../http/contract.ts';
import { pageOf } from '../schemas/common.ts';
import {
  CreateScheduleRequest,
  ListSchedulesQuery,
  Schedule,
  ScheduleDeleted,
  ScheduleIdParams,
  ScheduleList,
  UpdateScheduleRequest,
} from '../schemas/schedules.ts';
import {
  assertSchedulesOnPlan,
  createSchedule,
  deleteSchedule,
  listSchedules,
  presentSchedule,
  updateSchedule,
} from '../scans/schedules.ts';

const tags = ['Schedules'];
const PLAN_NOTE = 'Professional and enterprise plans only (`PLAN_UPGRADE_REQUIRED` on startup).';

export const createScheduleRoute = defineRoute({
  method: 'post',
  path: '/api/v1/scans/schedules',
  operationId: 'createSchedule',
  summary: 'Create a scan schedule',
  description: [
    PLAN_NOTE,
    '`day_of_week` (0 = Sunday … 6 = Saturday) is required for weekly schedules, `day_of_month` (1–28) for monthly ones. `hour` is the local hour in `timezone` (IANA name). On a day when that hour does not exist (daylight saving starts) the scan runs when the clock jumps past it; an hour that happens twice runs once, at its first occurrence.',
    'The target is validated and checked against the scan scope like a scan’s. Each run counts against the monthly scan quota.',
  ].join('\n\n'),
  tags,
  access: { permission: 'write:scans', admin: true },
  body: CreateScheduleRequest,
  responses: { 201: { description: 'The schedule', schema: Schedule } },
  errors: ['PLAN_UPGRADE_REQUIRED', 'TARGET_NOT_ALLOWED'],
  handler: async ({ body, principal, services }) => ({
    body: presentSchedule(await createSchedule(services, principal, body)),
  }),
});

export const listSchedulesRoute = defineRoute({
  method: 'get',
  path: '/api/v1/scans/schedules',
  operationId: 'listSchedules',
  summary: 'List scan schedules',
  description: `${PLAN_NOTE} Oldest first.`,
  tags,
  access: { permission: 'read:scans' },
  query: ListSchedulesQuery,
  responses: { 200: { description: 'One page of schedules', schema: ScheduleList } },
  errors: ['PLAN_UPGRADE_REQUIRED'],
  handler: async ({ query, principal, services }) => {
    assertSchedulesOnPlan(principal.org);
    const { rows, total } = await listSchedules(services.db, principal.org.id, query.page, query.per_page);
    return { body: pageOf(rows.map(presentSchedule), total, query.page, query.per_page) };
  },
});

export const updateScheduleRoute = defineRoute({
  method: 'patch',
  path: '/api/v1/scans/schedules/{schedule_id}',
  operationId: 'updateSchedule',
  summary: 'Change the web options of a scan schedule',
  description: [
    PLAN_NOTE,
    'Replaces `web` (docs/web-testing.md) for the scans the schedule starts from now on, for instance a rotated password; `null` drops it. Scans it already started keep theirs. Secrets are sealed at rest and never answered. Other fields are changed by deleting the schedule and creating another.',
  ].join('\n\n'),
  tags,
  access: { permission: 'write:scans', admin: true },
  params: ScheduleIdParams,
  body: UpdateScheduleRequest,
  responses: { 200: { description: 'The schedule as changed', schema: Schedule } },
  errors: ['PLAN_UPGRADE_REQUIRED', 'NOT_FOUND'],
  handler: async ({ params, body, principal, services }) => {
    assertSchedulesOnPlan(principal.org);
    return {
      body: presentSchedule(await updateSchedule(services, principal.org.id, params.schedule_id, body)),
    };
  },
});

export const deleteScheduleRoute = defineRoute({
  method: 'delete',
  path: '/api/v1/scans/schedules/{schedule_id}',
  operationId: 'deleteSchedule',
  summary: 'Delete a scan schedule',
  description: `${PLAN_NOTE} Scans the schedule already created are kept.`,
  tags,
  access: { permission: 'write:scans', admin: true },
  params: ScheduleIdParams,
  responses: { 200: { description: 'The schedule was deleted', schema: ScheduleDeleted } },
  errors: ['PLAN_UPGRADE_REQUIRED', 'NOT_FOUND'],
  handler: async ({ params, principal, services }) => {
    assertSchedulesOnPlan(principal.org);
    await deleteSchedule(services.db, principal.org.id, params.schedule_id);
    return { body: { id: params.schedule_id, deleted: true as const } };
  },
});

export const scheduleRoutes = [
  listSchedulesRoute,
  createScheduleRoute,
  updateScheduleRoute,
  deleteScheduleRoute,
];
