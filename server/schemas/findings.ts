import { z } from 'zod';
import {
  AccountEmail,
  DateParam,
  IdParam,
  Page,
  PerPage,
  Timestamp,
  paginated,
  parseCidr,
} from './common.ts';

export { DateParam } from './common.ts';

/**
 * Wire shapes of the findings API (interface-spec.md "Finding", "Comment",
 * "History entry", "Findings statistics"; decisions.md "Findings"). Pure zod.
 */

export const FINDING_SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export const FINDING_STATUSES = ['open', 'in_progress', 'resolved', 'false_positive', 'accepted'] as const;
export const FINDING_PRIORITIES = ['p1', 'p2', 'p3', 'p4'] as const;
export const FINDING_SORTS = ['severity', 'created_at', 'cvss_score'] as const;
export const EXPORT_FORMATS = ['csv', 'json', 'pdf'] as const;

export const FindingSeverity = z.enum(FINDING_SEVERITIES).meta({ id: 'FindingSeverity' });
export type FindingSeverity = z.infer<typeof FindingSeverity>;
export const FindingStatus = z.enum(FINDING_STATUSES).meta({ id: 'FindingStatus' });
export type FindingStatus = z.infer<typeof FindingStatus>;
export const FindingPriority = z.enum(FINDING_PRIORITIES).meta({ id: 'FindingPriority' });
export type FindingPriority = z.infer<typeof FindingPriority>;

const FindingId = z.string().meta({ example: 'finding_3k9x0c2m4q8w1e5r7t6y2u0i' });

/** Fields every finding view carries, list and detail. */
const findingCore = {
  id: FindingId,
  title: z.string(),
  severity: FindingSeverity,
  status: FindingStatus,
  cvss_score: z.number().meta({
    description:
      'CVSS base score computed from cvss_vector; without one, the score an imported report stated, else 0.0',
  }),
  epss_score: z.number().nullable().meta({ description: 'EPSS probability (0–1); null when unknown' }),
  target: z.string().meta({ description: 'The concrete host scanned' }),
  affected_component: z.string().meta({ example: 'https://app.example.com:443/login' }),
  tool: z.string(),
  template_id: z.string().meta({ description: 'Canonical detection check id' }),
  cve_ids: z.array(z.string()),
  cwe_ids: z.array(z.string()),
  scan_id: z.string().meta({ description: 'The owning scan: the first scan that detected the finding' }),
  detected_at: Timestamp,
  first_seen_at: Timestamp,
  last_seen_at: Timestamp,
  times_seen: z.number().int().meta({ description: 'How many scans have detected the finding' }),
  last_scan_id: z.string().meta({ description: 'The latest scan that detected the finding' }),
};

/** The deadline of a finding (docs/finding-lifecycle.md, "Due dates and SLAs"), on every view of it. */
const deadlineFields = {
  due_date: Timestamp.nullable().meta({
    description:
      'When the finding should be dealt with: set at detection from the SLA policy, or by a person',
  }),
  overdue: z.boolean().meta({
    description: 'Past its `due_date` and still `open` or `in_progress` at the time of the answer',
  }),
};

export const FindingListItem = z
  .object({
    ...findingCore,
    frameworks: z.array(z.string()).meta({ description: 'Framework slugs the finding maps to' }),
    ...deadlineFields,
  })
  .meta({ id: 'FindingListItem' });
export type FindingListItem = z.infer<typeof FindingListItem>;

export const FindingList = paginated(FindingListItem, 'FindingList');

export const Remediation = z
  .object({
    summary: z.string(),
    steps: z.array(z.string()),
    code_example: z.string(),
    references: z.array(z.string()),
  })
  .meta({ id: 'Remediation' });

export const Evidence = z
  .object({
    request: z.string(),
    response: z.string(),
    screenshot_url: z.string().nullable(),
    established: z
      .enum(['confirmed', 'inferred from version'])
      .optional()
      .meta({
        description:
          'How the weakness is known: `confirmed` (a probe proved it: request and response) or ' +
          '`inferred from version` (the announced version lies in the vendor range); absent on findings ' +
          'recorded before it was kept',
      }),
  })
  .meta({ id: 'Evidence' });

export const FrameworkMapping = z
  .object({ name: z.string().meta({ example: 'pci-dss' }), controls: z.array(z.string()) })
  .meta({ id: 'FrameworkMapping' });

/** A control a finding maps to, named: its id, the framework's reference and its name. */
export const MappedControl = z
  .object({
    id: z.string().meta({ example: 'ctrl_pcidss_1_3_1' }),
    reference: z.string().meta({ description: "The framework's own identifier", example: '1.3.1' }),
    name: z.string().meta({ example: 'Inbound traffic to the cardholder data environment is restricted' }),
  })
  .meta({ id: 'MappedControl' });

/** A framework mapping on the finding page: the controls with their references and names. */
export const FrameworkMappingDetail = FrameworkMapping.extend({
  control_details: z
    .array(MappedControl)
    .meta({ description: 'The controls of `controls`, in that order, named' }),
}).meta({ id: 'FrameworkMappingDetail' });

export const Comment = z
  .object({
    id: z.string().meta({ example: 'comment_0a1b2c3d4e5f6g7h8i9j0k1l' }),
    finding_id: z.string().optional().meta({ description: 'Present in the create response' }),
    user: z.string().meta({ description: "The author's e-mail address" }),
    text: z.string(),
    created_at: Timestamp,
  })
  .meta({ id: 'Comment' });
export type Comment = z.infer<typeof Comment>;

export const CreatedComment = Comment.required({ finding_id: true }).meta({ id: 'CreatedComment' });
export type CreatedComment = z.infer<typeof CreatedComment>;

export const HistoryEntry = z
  .object({
    action: z.string().meta({ example: 'status_changed' }),
    from: z.string().nullable(),
    to: z.string(),
    user: z.string().meta({ description: 'An e-mail address, or `system` for automatic changes' }),
    justification: z
      .string()
      .nullable()
      .meta({ description: 'The reason given with a move to `accepted` or `false_positive`' }),
    note: z.string().nullable().meta({
      description:
        'The note sent with this change (`notes` of the update); null when it came without one. `note_added` entries record a note given without a change of status',
    }),
    timestamp: Timestamp,
  })
  .meta({ id: 'HistoryEntry' });
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** The risk decision on a finding (`accepted`, `false_positive`): why, who, when, until when. */
const acceptanceFields = {
  justification: z.string().nullable().meta({
    description: 'Why the finding is `accepted` or `false_positive`; null in the other statuses',
  }),
  justified_by: z.string().nullable().meta({ description: 'Who gave the justification (an e-mail address)' }),
  justified_at: Timestamp.nullable(),
  acceptance_expires_at: Timestamp.nullable().meta({
    description: 'When the acceptance lapses and the finding reopens by itself; null: it does not',
  }),
};

/** The statuses that record a risk decision: their justification, who gave it, when. */
export const JUSTIFIED_STATUSES = ['accepted', 'false_positive'] as const;

const Justification = z
  .string()
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(2000, { error: 'must be at most 2000 characters' })
  .meta({
    description:
      'Why, with `status` `accepted` or `false_positive`: optional (absent: `notes` stands for it), unless the ' +
      "organization's triage policy requires one (`require_justification`, `GET /api/v1/settings/sla`)",
  });

const AcceptanceExpiry = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).meta({
  description: 'With `status: accepted` only: when the acceptance lapses and the finding reopens by itself',
  example: '2027-03-01T00:00:00.000Z',
});

/**
 * A justification with the statuses that record one, an expiry with `accepted` only: 422 naming
 * the field. Whether one is required is the organization's policy, checked by the triage module.
 */
function checkJustified(
  change: {
    status?: string | undefined;
    justification?: string | undefined;
    expires_at?: string | undefined;
  },
  ctx: z.core.$RefinementCtx,
): void {
  const records = (JUSTIFIED_STATUSES as readonly string[]).includes(change.status ?? '');
  if (!records && change.justification !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['justification'],
      message: 'is given only with status accepted or false_positive',
    });
  }
  if (change.expires_at !== undefined && change.status !== 'accepted') {
    ctx.addIssue({ code: 'custom', path: ['expires_at'], message: 'is given only with status accepted' });
  }
}

/** A tracker issue opened for a finding (docs/integrations.md, "Tickets"). */
export const Ticket = z
  .object({
    integration_id: z.string(),
    key: z.string().meta({ example: 'SEC-12' }),
    url: z.string(),
    state: z.enum(['open', 'closed']),
  })
  .meta({ id: 'Ticket' });
export type Ticket = z.infer<typeof Ticket>;
/** One source's view of a finding (docs/finding-lifecycle.md, "Sources"). */
export const FindingSourceView = z
  .object({
    source: z.enum(['scan', 'import']).meta({
      description:
        "`scan`: Scanward's own scans; `import`: one tool's imported reports (POST /api/v1/imports)",
    }),
    tool: z.string().meta({ description: 'The check tool or the report tool', example: 'nuclei' }),
    headline: z.boolean().meta({
      description: "Whether the finding's severity, score and evidence are this source's (the strongest)",
    }),
    status: z.enum(['active', 'resolved']).meta({
      description:
        '`resolved`: the source no longer reports it (its own view only; the finding resolves when no source reports it)',
    }),
    established: z.enum(['confirmed', 'inferred from version']).meta({
      description: 'A proof (`confirmed`) or a version match (`inferred from version`)',
    }),
    severity: FindingSeverity,
    cvss_score: z.number().meta({ description: '0.0 when the source states no score' }),
    cvss_vector: z.string().nullable(),
    first_scan_id: z.string().nullable(),
    last_scan_id: z.string().nullable().meta({ description: 'The scan (or import) that last saw it' }),
    first_seen_at: Timestamp,
    last_seen_at: Timestamp,
    evidence: Evidence,
  })
  .meta({ id: 'FindingSource' });
export type FindingSourceView = z.infer<typeof FindingSourceView>;

export const FindingDetail = z
  .object({
    ...findingCore,
    cvss_vector: z.string().nullable(),
    epss_snapshot_date: z.iso.date().nullable().meta({
      description:
        'The date of the EPSS snapshot behind epss_score (docs/checks.md, "EPSS"); null when epss_score is null',
      example: '2025-12-26',
    }),
    description: z.string(),
    impact: z.string(),
    remediation: Remediation,
    evidence: Evidence,
    frameworks: z.array(FrameworkMappingDetail),
    comments: z.array(Comment),
    history: z.array(HistoryEntry),
    sources: z.array(FindingSourceView).meta({
      description:
        'Every source that saw the finding, strongest first: Scanward\'s scans and each imported tool, with what each saw (docs/finding-lifecycle.md, "Sources")',
    }),
    asset_id: z
      .string()
      .nullable()
      .meta({
        description:
          'The asset the finding is on (`GET /api/v1/assets/{asset_id}`, docs/assets.md): the host of its ' +
          'affected component or target in the inventory of its organization; null while no scan or import ' +
          'has recorded that host',
        example: 'asset_3k9x0c2m4q8w1e5r7t6y2u0i',
      }),
    assignee: z.string().nullable(),
    priority: FindingPriority.nullable(),
    ...deadlineFields,
    notes: z.string().nullable(),
    ...acceptanceFields,
    updated_at: Timestamp,
    tickets: z.array(Ticket).optional().meta({
      description: 'The tracker issues opened for the finding (GitHub, Jira), kept in step with its status',
    }),
  })
  .meta({ id: 'FindingDetail' });
export type FindingDetail = z.infer<typeof FindingDetail>;

export const FindingIdParams = z.object({
  finding_id: IdParam('finding', 'finding_3k9x0c2m4q8w1e5r7t6y2u0i'),
});

const Trimmed = (max: number) => z.string().trim().min(1, { error: 'must not be empty' }).max(max);

/** Targets as users type them (docs/findings-search.md): an address range, or a host and its leading labels. */
export const TargetFilter = Trimmed(253)
  .refine((value) => !value.includes('/') || parseCidr(value) !== undefined, {
    error: 'must be a host name, an address, a leading part of one, or an address range (127.0.0.0/24)',
  })
  .meta({
    description:
      'A range in CIDR notation (`127.0.0.0/24`, `::1/128`): targets that are addresses inside it. Anything ' +
      'else, ignoring case: the target itself, and targets it begins up to a dot (`redis` finds `redis` and ' +
      '`redis.internal`, `127.0.0` finds `127.0.0.1` but not `127.0.01.1`); a value ending in a dot matches ' +
      'every target that begins with it',
    example: '127.0.0.0/24',
  });

/** The filters shared by the list, the export and (in part) the statistics. */
export const findingFilters = {
  severity: FindingSeverity.optional().meta({ description: 'Only findings of this severity' }),
  status: z
    .string()
    .regex(new RegExp(`^(${FINDING_STATUSES.join('|')})(,(${FINDING_STATUSES.join('|')}))*$`), {
      error: `must be a status (${FINDING_STATUSES.join(', ')}) or several, separated by commas`,
    })
    .optional()
    .meta({
      description:
        'A status, or several separated by commas: `open,in_progress` lists the unresolved findings an asset’s `open_findings` counts',
      example: 'open',
    }),
  scan_id: Trimmed(100).optional().meta({ description: 'Findings observed by this scan' }),
  target: TargetFilter.optional(),
  asset_id: Trimmed(100).optional().meta({
    description: 'Findings on this asset (`GET /api/v1/assets`); another organization’s id finds nothing',
  }),
  template_id: Trimmed(200).optional().meta({
    description: 'Findings of this check (exact `template_id`), as `GET /findings/groups?by=check` keys them',
  }),
  tool: Trimmed(100).optional().meta({
    description: 'Findings reported by this tool (`scanward`, or the tool of an import: `nuclei`, `zap`, …)',
  }),
  cve: Trimmed(50)
    .regex(/^[Cc][Vv][Ee]-\d{4}-\d{4,}$/, { error: 'must be a CVE id (CVE-YYYY-NNNN…)' })
    .optional()
    .meta({
      description: 'Findings whose cve_ids contain this id (any case); anything else is a 422',
      example: 'CVE-2021-44228',
    }),
  sort: z.enum(FINDING_SORTS).optional().meta({
    description: '`severity` (critical > … > info), `created_at` (first detection) or `cvss_score`',
  }),
  order: z.enum(['asc', 'desc']).optional().meta({ description: 'Default `desc`' }),
};

/** The search filters of the list, also taken by the export (docs/findings-search.md). */
const searchFilters = {
  overdue: z.enum(['true', 'false'], { error: 'must be true or false' }).optional().meta({
    description:
      '`true`: only findings past their `due_date` that are still `open` or `in_progress`; `false` (the default): no such filter',
  }),
  q: Trimmed(200).optional().meta({
    description:
      'Free text: findings whose title, affected component, target, CVE ids or description contain it, ignoring case',
    example: 'redis',
  }),
  kev: z.enum(['true', 'false'], { error: 'must be true or false' }).optional().meta({
    description: '`true`: only findings of a CVE on the CISA KEV list; `false`: only the others',
  }),
  assignee: Trimmed(254).optional().meta({ description: 'Assigned to this address, ignoring case' }),
};

/** When a finding was resolved (`resolved_at`): the overview's weekly "resolved" bars link with them. */
const resolvedDates = {
  resolved_from: DateParam.optional().meta({ description: 'Resolved at or after (inclusive)' }),
  resolved_to: DateParam.optional().meta({ description: 'Resolved before (exclusive)' }),
};

export const ListFindingsQuery = z.object({
  page: Page,
  per_page: PerPage,
  ...findingFilters,
  ...searchFilters,
  from_date: DateParam.optional().meta({ description: 'Detected at or after (inclusive)' }),
  to_date: DateParam.optional().meta({ description: 'Detected before (exclusive)' }),
  ...resolvedDates,
});
export type ListFindingsQuery = z.infer<typeof ListFindingsQuery>;

export const ExportFindingsQuery = z.object({
  format: z.enum(EXPORT_FORMATS).default('csv').meta({ description: 'The file format; default `csv`' }),
  ...findingFilters,
  ...searchFilters,
  from_date: DateParam.optional().meta({ description: 'Detected at or after (inclusive)' }),
  to_date: DateParam.optional().meta({ description: 'Detected before (exclusive)' }),
  ...resolvedDates,
});
export type ExportFindingsQuery = z.infer<typeof ExportFindingsQuery>;

export const FindingStatsQuery = z.object({
  from_date: DateParam.optional().meta({ description: 'Detected at or after (inclusive)' }),
  to_date: DateParam.optional().meta({ description: 'Detected before (exclusive)' }),
  target: TargetFilter.optional(),
});
export type FindingStatsQuery = z.infer<typeof FindingStatsQuery>;

const counts = <K extends string>(keys: readonly K[]) =>
  z.object(Object.fromEntries(keys.map((k) => [k, z.number().int()])) as Record<K, z.ZodNumber>);

export const FindingStats = z
  .object({
    total: z.number().int(),
    by_severity: counts(FINDING_SEVERITIES),
    by_status: counts(FINDING_STATUSES),
    by_tool: z.record(z.string(), z.number().int()),
    trends: z.object({
      new_this_week: z.number().int().meta({ description: 'Detected in the last 7 days' }),
      resolved_this_week: z.number().int().meta({ description: 'Resolved in the last 7 days' }),
      average_resolution_days: z
        .number()
        .meta({ description: 'Mean days from detection to resolution over resolved findings; 0 when none' }),
    }),
  })
  .meta({ id: 'FindingStats' });
export type FindingStats = z.infer<typeof FindingStats>;

export const UpdateFindingBody = z
  .object({
    status: FindingStatus.optional(),
    assignee: AccountEmail.nullable().optional().meta({
      description: 'E-mail address (any address an account can have, e.g. admin@localhost); null clears it',
    }),
    priority: FindingPriority.nullable().optional(),
    due_date: z.iso
      .datetime({ offset: true, error: 'must be an ISO 8601 date-time' })
      .nullable()
      .optional()
      .meta({ example: '2026-02-15T00:00:00.000Z' }),
    notes: z.string().max(10_000).nullable().optional(),
    justification: Justification.optional(),
    expires_at: AcceptanceExpiry.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    error: 'send at least one of status, assignee, priority, due_date, notes',
  })
  .superRefine(checkJustified)
  .meta({ id: 'UpdateFinding' });
export type UpdateFindingBody = z.infer<typeof UpdateFindingBody>;

export const UpdatedFinding = z
  .object({
    id: z.string(),
    status: FindingStatus,
    assignee: z.string().nullable(),
    priority: FindingPriority.nullable(),
    due_date: Timestamp.nullable(),
    notes: z.string().nullable(),
    ...acceptanceFields,
    updated_at: Timestamp,
  })
  .meta({ id: 'UpdatedFinding' });
export type UpdatedFinding = z.infer<typeof UpdatedFinding>;

export const CreateCommentBody = z
  .object({
    text: z
      .string({ error: 'is required' })
      .max(10_000, { error: 'must be at most 10000 characters' })
      .refine((t) => t.trim().length > 0, { error: 'must not be empty' }),
  })
  .meta({ id: 'CreateComment' });

export const BULK_MAX_IDS = 1000;

export const BulkUpdateBody = z
  .object({
    finding_ids: z
      .array(z.string().max(100))
      .min(1, { error: 'must list at least one id' })
      .max(BULK_MAX_IDS, { error: `must list at most ${BULK_MAX_IDS} ids` }),
    update: z
      .object({
        status: FindingStatus,
        notes: z.string().max(10_000).optional(),
        justification: Justification.optional(),
        expires_at: AcceptanceExpiry.optional(),
      })
      .superRefine(checkJustified),
  })
  .meta({ id: 'BulkUpdateFindings' });
export type BulkUpdateBody = z.infer<typeof BulkUpdateBody>;

export const BulkUpdateResult = z
  .object({
    updated: z.number().int(),
    failed: z.array(z.object({ id: z.string(), error_code: z.string(), detail: z.string() })),
  })
  .meta({ id: 'BulkUpdateResult' });
export type BulkUpdateResult = z.infer<typeof BulkUpdateResult>;

export const FINDING_GROUP_BYS = ['asset', 'cve', 'check'] as const;

export const FindingGroupBy = z
  .enum(FINDING_GROUP_BYS, { error: 'must be asset, cve or check' })
  .meta({ id: 'FindingGroupBy' });

export const GroupFindingsQuery = ListFindingsQuery.omit({ sort: true, order: true }).extend({
  by: FindingGroupBy.meta({
    description:
      '`asset`: by the host the finding is on (key null: no asset yet); `cve`: by each CVE id (a finding with two is in both groups, one with none in no group); `check`: by check (`template_id`)',
  }),
});
export type GroupFindingsQuery = z.infer<typeof GroupFindingsQuery>;

export const FindingGroup = z
  .object({
    key: z.string().nullable().meta({
      description:
        'The list filter that shows the group’s findings: `asset_id`, `cve` or `template_id`; null: the findings with no asset yet',
    }),
    label: z.string().meta({ description: 'The asset’s address, the CVE id or the check id' }),
    detail: z.string().nullable().meta({ description: 'The asset’s names, or the check’s title' }),
    total: z.number().int(),
    by_severity: counts(FINDING_SEVERITIES),
  })
  .meta({ id: 'FindingGroup' });

export const FindingGroupList = z
  .object({
    by: FindingGroupBy,
    items: z.array(FindingGroup),
    total: z.number().int().meta({ description: 'How many groups' }),
    page: z.number().int(),
    per_page: z.number().int(),
    pages: z.number().int(),
  })
  .meta({ id: 'FindingGroupList' });
export type FindingGroupList = z.infer<typeof FindingGroupList>;

/** GET /findings/assignees: the organization's people, to suggest as a finding's assignee. */
export const AssigneeSuggestions = z
  .object({
    items: z.array(
      z.object({ email: z.string().meta({ example: 'ada@example.com' }) }).meta({ id: 'AssigneeSuggestion' }),
    ),
  })
  .meta({ id: 'AssigneeSuggestions' });
