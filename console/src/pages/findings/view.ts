import type { QueryOf } from '../../api/contract';
import { queryString } from '../../ui';

export type Query = QueryOf<'listFindings'>;
export type Sort = NonNullable<Query['sort']>;

/** The filters, sorting and page of the findings table: all of them live in the URL. */
const KEYS = [
  'q',
  'severity',
  'status',
  'target',
  'scan_id',
  'asset_id',
  'template_id',
  'tool',
  'cve',
  'kev',
  'overdue',
  'assignee',
  'from_date',
  'to_date',
  'resolved_from',
  'resolved_to',
  'group',
  'sort',
  'order',
  'page',
] as const;

export type View = Record<(typeof KEYS)[number], string>;

export function viewOf(query: URLSearchParams): View {
  const view = {} as View;
  for (const key of KEYS) view[key] = query.get(key) ?? '';
  return view;
}

/** The view's filters, sorting and page as the list route's query. */
export function apiQuery(view: View): Query {
  const q: Query = { per_page: 25, page: Number(view.page) || 1 };
  if (view.q) q.q = view.q;
  if (view.severity) q.severity = view.severity as Query['severity'];
  if (view.status) q.status = view.status as Query['status'];
  if (view.target) q.target = view.target;
  if (view.scan_id) q.scan_id = view.scan_id;
  if (view.asset_id) q.asset_id = view.asset_id;
  if (view.template_id) q.template_id = view.template_id;
  if (view.tool) q.tool = view.tool;
  if (view.cve) q.cve = view.cve;
  if (view.kev === 'true' || view.kev === 'false') q.kev = view.kev;
  if (view.overdue === 'true') q.overdue = 'true';
  if (view.assignee) q.assignee = view.assignee;
  if (view.from_date) q.from_date = view.from_date;
  if (view.to_date) q.to_date = view.to_date;
  if (view.resolved_from) q.resolved_from = view.resolved_from;
  if (view.resolved_to) q.resolved_to = view.resolved_to;
  if (view.sort) q.sort = view.sort as Sort;
  if (view.order) q.order = view.order as Query['order'];
  return q;
}

/** The list's link to another page of the same view. */
export const pageHref = (view: View) => (page: number) => `/findings${queryString({ ...view, page })}`;

/** The export of the view (every page of it) in a format. */
export function exportHref(view: View, format: string): string {
  const { page: _page, ...filters } = view;
  return `/api/v1/findings/export${queryString({ ...filters, format })}`;
}
