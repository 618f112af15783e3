import { z } from 'zod';
import { Timestamp } from './common.ts';
import { FINDING_SEVERITIES, FindingSeverity } from './findings.ts';
import { ScanListItem } from './scans.ts';

/**
 * GET /api/v1/overview: the console's home in one answer (docs/overview.md). Each figure says
 * which findings list shows the findings behind it (`filter`: the query of GET
 * /api/v1/findings), so a chart links to exactly what it counted.
 */

const count = z.number().int().min(0);

const Filter = z.record(z.string(), z.string()).meta({
  description:
    'The query of `GET /api/v1/findings` (and of the console’s findings page) that lists the findings counted here',
  example: { status: 'open', severity: 'critical' },
});

const bySeverity = z.object(
  Object.fromEntries(FINDING_SEVERITIES.map((s) => [s, count])) as Record<
    (typeof FINDING_SEVERITIES)[number],
    typeof count
  >,
);

export const Overview = z
  .object({
    generated_at: Timestamp.meta({
      description: 'The instant the figures were computed at (ages and overdue)',
    }),
    open: z
      .object({
        total: count,
        by_severity: bySeverity,
        filter: Filter,
      })
      .meta({ description: 'Findings with status `open`' }),
    overdue: z
      .object({ total: count, filter: Filter })
      .meta({ description: 'Past their due date and still `open` or `in_progress`' }),
    kev: z
      .object({ total: count, filter: Filter })
      .meta({ description: 'Open findings of a CVE on the CISA Known Exploited Vulnerabilities list' }),
    trend: z
      .array(
        z.object({
          week_start: Timestamp.meta({ description: 'Monday 00:00 UTC' }),
          week_end: Timestamp.meta({ description: 'The next Monday 00:00 UTC (exclusive)' }),
          new: count.meta({ description: 'Findings first detected in the week' }),
          resolved: count.meta({ description: 'Findings resolved in the week that are still resolved' }),
          filter: Filter.meta({ description: 'The findings detected in the week' }),
          resolved_filter: Filter.meta({
            description: 'The findings resolved in the week that are still resolved (what `resolved` counts)',
          }),
        }),
      )
      .meta({ description: 'The last 12 weeks, oldest first, the current week last' }),
    open_by_age: z
      .array(
        z.object({
          label: z.string().meta({ example: '8–30 days' }),
          min_days: count,
          max_days: count.nullable().meta({ description: 'Exclusive; null for the oldest bucket' }),
          count,
          filter: Filter,
        }),
      )
      .meta({ description: 'Open findings by days since first detection' }),
    top_targets: z
      .array(z.object({ target: z.string(), open: count, by_severity: bySeverity, filter: Filter }))
      .meta({ description: 'The 5 targets with the most open findings' }),
    top_cves: z
      .array(
        z.object({
          cve: z.string().meta({ example: 'CVE-2021-44228' }),
          kev: z.boolean().meta({ description: 'On the CISA KEV list' }),
          open: count,
          severity: FindingSeverity.meta({ description: 'The worst severity among its open findings' }),
          filter: Filter,
        }),
      )
      .meta({ description: 'The 10 CVEs with the most open findings, those on the KEV list first' }),
    running_scans: z
      .object({ total: count, items: z.array(ScanListItem) })
      .nullable()
      .meta({
        description:
          'Scans with status `running` (the 10 newest); null for an API key without the `read:scans` permission',
      }),
  })
  .meta({ id: 'Overview' });
export type Overview = z.infer<typeof Overview>;
