import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../http/contract.ts';
import { validationError } from '../errors.ts';
import { startedStream } from '../http/stream.ts';
import type { Principal } from '../policies/principal.ts';
import type { ExportMetadata } from '../findings/export/index.ts';
import { csvNeedsOnlyListFields, exportFindings, exportResponse } from '../findings/export-source.ts';
import { getFindingDetail, listFindings } from '../findings/listing.ts';
import { findingTickets } from '../notifications/tickets.ts';
import { groupFindings } from '../findings/groups.ts';
import { findingStats, findingTotals } from '../findings/stats.ts';
import { addComment, bulkUpdateStatus, updateFinding, type Actor } from '../findings/triage.ts';
import { assigneeSuggestionsOf } from '../people/people.ts';
import {
  AssigneeSuggestions,
  BulkUpdateBody,
  BulkUpdateResult,
  CreateCommentBody,
  CreatedComment,
  ExportFindingsQuery,
  FindingDetail,
  FindingIdParams,
  FindingList,
  FindingStats,
  FindingStatsQuery,
  FindingGroupList,
  GroupFindingsQuery,
  ListFindingsQuery,
  UpdateFindingBody,
  UpdatedFinding,
} from '../schemas/findings.ts';

const tags = ['Findings'];

const actorOf = (principal: Principal): Actor => ({
  orgId: principal.org.id,
  userId: principal.user.id,
  email: principal.user.email,
});

function checkDateRange(
  from: Date | undefined,
  to: Date | undefined,
  [fromName, toName]: readonly [string, string] = ['from_date', 'to_date'],
) {
  if (from && to && to.getTime() <= from.getTime())
    throw validationError(toName, `${toName} must be after ${fromName}`);
}

/** The wire's search parameters as the findings filter takes them (`overdue=true`: overdue now). */
function searchFilter(q: { overdue?: string; kev?: string; from_date?: Date; to_date?: Date }) {
  return {
    ...(q.overdue === 'true' ? { overdue_at: new Date() } : {}),
    ...(q.kev === undefined ? {} : { kev: q.kev === 'true' }),
    ...(q.from_date ? { from: q.from_date } : {}),
    ...(q.to_date ? { to: q.to_date } : {}),
  };
}

export const assigneeSuggestionsRoute = defineRoute({
  method: 'get',
  path: '/api/v1/findings/assignees',
  operationId: 'listAssigneeSuggestions',
  summary: 'People to suggest as an assignee',
  description:
    'The e-mail of every enabled user of the caller’s organization (oldest first, at most 500), for the console to suggest as a finding’s `assignee`. Only suggestions: `PATCH` takes any address.',
  tags,
  access: { permission: 'read:findings' },
  responses: { 200: { description: 'The suggestions', schema: AssigneeSuggestions } },
  handler: async ({ principal, services }) => ({
    body: { items: await assigneeSuggestionsOf(services.db, principal.org.id) },
  }),
});

export const listFindingsRoute = defineRoute({
  method: 'get',
  path: '/api/v1/findings',
  operationId: 'listFindings',
  summary: 'List findings',
  description:
    'Findings of the caller’s organization. Default order: severity (critical first), then most recently detected; ties are broken by id, so pages never repeat or skip a finding. `scan_id` lists the findings that scan observed.',
  tags,
  access: { permission: 'read:findings' },
  query: ListFindingsQuery,
  responses: { 200: { description: 'One page of findings', schema: FindingList } },
  handler: async ({ query, principal, services }) => {
    const { page, per_page, ...filters } = query;
    return {
      body: await listFindings(services.db, principal.org.id, {
        ...listFilterOf(filters),
        page,
        perPage: per_page,
      }),
    };
  },
});

/** The list's filters (shared by the groups) as the repository takes them. */
function listFilterOf(query: Omit<ListFindingsQuery, 'page' | 'per_page'>) {
  const { overdue, kev, from_date, to_date, ...filter } = query;
  checkDateRange(from_date, to_date);
  checkDateRange(filter.resolved_from, filter.resolved_to, ['resolved_from', 'resolved_to']);
  return { ...filter, ...searchFilter({ overdue, kev, from_date, to_date }) };
}

export const groupFindingsRoute = defineRoute({
  method: 'get',
  path: '/api/v1/findings/groups',
  operationId: 'groupFindings',
  summary: 'Findings grouped by asset, CVE or check',
  description:
    'The findings the list’s filters keep (the same query parameters as `GET /api/v1/findings`), grouped by `by`, with counts by severity; groups with the worst severity first, then the largest, then by key. A group’s `key` is the list filter that shows its findings (`asset_id`, `cve`, `template_id`). See docs/assets.md.',
  tags,
  access: { permission: 'read:findings' },
  query: GroupFindingsQuery,
  responses: { 200: { description: 'One page of groups', schema: FindingGroupList } },
  handler: async ({ query, principal, services }) => {
    const { page, per_page, by, ...filters } = query;
    return {
      body: await groupFindings(services.db, principal.org.id, by, listFilterOf(filters), page, per_page),
    };
  },
});

export const findingStatsRoute = defineRoute({
  method: 'get',
  path: '/api/v1/findings/stats',
  operationId: 'getFindingStats',
  summary: 'Finding statistics',
  description:
    'Counts by severity, status and tool over the findings detected in [from_date, to_date) (all when omitted), optionally for one target; trends over the last 7 days.',
  tags,
  access: { permission: 'read:findings' },
  query: FindingStatsQuery,
  responses: { 200: { description: 'Statistics', schema: FindingStats } },
  handler: async ({ query, principal, services }) => {
    checkDateRange(query.from_date, query.to_date);
    const body = await findingStats(services.db, principal.org.id, {
      target: query.target,
      from: query.from_date,
      to: query.to_date,
    });
    return { body };
  },
});

export const exportFindingsRoute = defineRoute({
  method: 'get',
  path: '/api/v1/findings/export',
  operationId: 'exportFindings',
  summary: 'Export findings',
  description:
    'Every finding matching the list filters (and detected in [from_date, to_date)), as CSV (RFC 4180, spreadsheet-formula safe), a JSON array of finding details, or a PDF report. Not paginated. Streamed: the file is never built whole in memory. Every input is checked before the first byte; a failure after it cuts the response (the chunked body never ends), so a client can tell a cut file from a complete one.',
  tags,
  access: { permission: 'read:findings' },
  query: ExportFindingsQuery,
  responses: {
    200: {
      description: 'The export file, as an attachment: CSV, a JSON array of finding details, or PDF',
      schema: z.array(FindingDetail),
      contentTypes: ['text/csv', 'application/pdf'],
    },
  },
  handler: async ({ query, principal, services, ctx }) => {
    checkDateRange(query.from_date, query.to_date);
    checkDateRange(query.resolved_from, query.resolved_to, ['resolved_from', 'resolved_to']);
    const { format, from_date, to_date, overdue, kev, ...listFilters } = query;
    const { sort, order, ...rest } = listFilters;
    const filter = { ...rest, ...searchFilter({ overdue, kev, from_date, to_date }) };
    const applied = Object.fromEntries(
      Object.entries(listFilters).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
    const metadata: ExportMetadata = {
      organization: principal.org.name,
      generatedAt: new Date(),
      ...(from_date ? { from: from_date } : {}),
      ...(to_date ? { to: to_date } : {}),
      filters: { ...applied, ...(overdue ? { overdue } : {}), ...(kev ? { kev } : {}) },
      ...(format === 'pdf' ? { totals: await findingTotals(services.db, principal.org.id, filter) } : {}),
    };
    const fields = format === 'csv' && csvNeedsOnlyListFields ? 'list' : 'detail';
    const rendered = exportResponse(
      format,
      () =>
        exportFindings(
          services.db,
          principal.org.id,
          { ...filter, sort, order },
          { fields, prefetch: services.engine !== 'pglite' },
        ),
      metadata,
    );
    const body = await startedStream(rendered.body);
    ctx.status = 200;
    ctx.type = rendered.contentType;
    ctx.set('Content-Disposition', `attachment; filename="${rendered.fileName}"`);
    ctx.body = body;
  },
});

export const bulkUpdateFindingsRoute = defineRoute({
  method: 'post',
  path: '/api/v1/findings/bulk',
  operationId: 'bulkUpdateFindings',
  summary: 'Change the status of many findings',
  description:
    'Sets `update.status` (and `update.notes` when given) on up to 1000 findings in one transaction. Ids that are unknown, or belong to another organization, are reported in `failed` with `NOT_FOUND` and change nothing. With `accepted` or `false_positive`, `update.justification` (or else `update.notes`) is the reason kept on each finding: optional unless the organization requires one (`require_justification`, `PUT /api/v1/settings/sla`). Each acceptance given or revoked is an audit event.',
  tags,
  access: { permission: 'write:findings' },
  body: BulkUpdateBody,
  responses: {
    200: { description: 'How many were updated, and which ids failed', schema: BulkUpdateResult },
  },
  handler: async ({ body, principal, services }) => ({
    body: await bulkUpdateStatus(services.db, actorOf(principal), body),
  }),
});

export const getFindingRoute = defineRoute({
  method: 'get',
  path: '/api/v1/findings/{finding_id}',
  operationId: 'getFinding',
  summary: 'Finding details',
  tags,
  access: { permission: 'read:findings' },
  params: FindingIdParams,
  responses: { 200: { description: 'The finding with its comments and history', schema: FindingDetail } },
  errors: ['NOT_FOUND'],
  handler: async ({ params, principal, services }) => ({
    body: {
      ...(await getFindingDetail(services.db, principal.org.id, params.finding_id)),
      tickets: await findingTickets(services.db, principal.org.id, params.finding_id),
    },
  }),
});

export const updateFindingRoute = defineRoute({
  method: 'patch',
  path: '/api/v1/findings/{finding_id}',
  operationId: 'updateFinding',
  summary: 'Update a finding',
  description:
    'Changes status and triage fields; every field is optional. Any status may follow any other; a change of status is recorded in the history with the caller’s e-mail. `null` clears assignee, priority, due_date or notes. With `accepted` or `false_positive`, `justification` (or else `notes`) is the reason kept on the finding: optional unless the organization requires one (`require_justification`, `PUT /api/v1/settings/sla`). Each acceptance given or revoked is an audit event.',
  tags,
  access: { permission: 'write:findings' },
  params: FindingIdParams,
  body: UpdateFindingBody,
  responses: { 200: { description: 'The updated fields', schema: UpdatedFinding } },
  errors: ['NOT_FOUND'],
  handler: async ({ params, body, principal, services }) => ({
    body: await updateFinding(services.db, actorOf(principal), params.finding_id, body),
  }),
});

export const addFindingCommentRoute = defineRoute({
  method: 'post',
  path: '/api/v1/findings/{finding_id}/comments',
  operationId: 'addFindingComment',
  summary: 'Comment on a finding',
  description: 'The author is the caller (for an API key, the user who created it).',
  tags,
  access: { permission: 'write:findings' },
  params: FindingIdParams,
  body: CreateCommentBody,
  responses: { 201: { description: 'The comment', schema: CreatedComment } },
  errors: ['NOT_FOUND'],
  handler: async ({ params, body, principal, services }) => ({
    body: await addComment(services.db, actorOf(principal), params.finding_id, body.text),
  }),
});

/** Literal paths (stats, groups, export, bulk) come before `{finding_id}` so it never captures them. */
export const findingRoutes: AnyRoute[] = [
  listFindingsRoute,
  findingStatsRoute,
  groupFindingsRoute,
  assigneeSuggestionsRoute,
  exportFindingsRoute,
  bulkUpdateFindingsRoute,
  getFindingRoute,
  updateFindingRoute,
  addFindingCommentRoute,
];
