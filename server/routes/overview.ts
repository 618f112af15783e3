import { findingsOverview } from '../findings/overview.ts';
import { defineRoute, type AnyRoute } from '../http/contract.ts';
import { maySeeScans } from '../policies/scans.ts';
import { listScans } from '../scans/listing.ts';
import { Overview } from '../schemas/overview.ts';

const tags = ['Findings'];
const RUNNING_SHOWN = 10;

export const getOverviewRoute = defineRoute({
  method: 'get',
  path: '/api/v1/overview',
  operationId: 'getOverview',
  summary: 'The risk overview',
  description:
    'What a team looks at first (docs/overview.md): open findings by severity and by age, the overdue and known-exploited counts, new and resolved findings per week over 12 weeks, the targets and CVEs with the most open findings, and the scans running now. Each figure carries `filter`, the `GET /api/v1/findings` query that lists the findings it counts.',
  tags,
  access: { permission: 'read:findings' },
  responses: { 200: { description: 'The overview', schema: Overview } },
  handler: async ({ principal, services }) => {
    const orgId = principal.org.id;
    const findings = await findingsOverview(services.db, orgId);
    // An API key sees running scans only with read:scans; a person's session sees them always.
    const running = maySeeScans(principal)
      ? await listScans(services.db, orgId, { status: 'running' }, 1, RUNNING_SHOWN)
      : null;
    return { body: { ...findings, running_scans: running } };
  },
});

export const overviewRoutes: AnyRoute[] = [getOverviewRoute];
