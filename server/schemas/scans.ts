import { z } from 'zod';
import { DateParam, IdParam, PaginationQuery, Plan, Timestamp, paginated } from './common.ts';
import { WebTestingOptions } from './web-testing.ts';
import { WebTestingView } from './web-testing-view.ts';

export { parseDateParam } from './common.ts';

/**
 * Wire shapes of scans, the scan quota and the per-scan findings list
 * (interface-spec.md "Scan", "Scans"; decisions.md "Scans"). Pure zod.
 */

export const ScanType = z
  .enum(['quick', 'full', 'compliance'], { error: 'must be quick, full or compliance' })
  .meta({ id: 'ScanType' });
export type ScanType = z.infer<typeof ScanType>;

export const ScanStatus = z
  .enum(['pending', 'running', 'completed', 'failed', 'cancelled'])
  .meta({ id: 'ScanStatus' });
export type ScanStatus = z.infer<typeof ScanStatus>;

export const Framework = z
  .enum(['soc2', 'pci-dss', 'iso27001'], { error: 'must be soc2, pci-dss or iso27001' })
  .meta({ id: 'Framework' });
export type Framework = z.infer<typeof Framework>;

export const Phase = z
  .enum([
    'discovery',
    'enumeration',
    'vulnerability_scanning',
    'web_analysis',
    'cloud_analysis',
    'threat_intelligence',
    'correlation',
    'compliance_mapping',
    'ai_analysis',
    'remediation_planning',
    'reporting',
    'complete',
  ])
  .meta({ id: 'ScanPhase' });
export type Phase = z.infer<typeof Phase>;

const MAX_PORT = 65535;

/**
 * Why a `ports` value is not a port list, or undefined when it is one: comma-
 * separated single ports and inclusive ranges (`80`, `1-1024`, `22,80,443`,
 * `22,8000-8100`), each port 1–65535, no reversed range.
 */
export function portSpecProblem(spec: string): string | undefined {
  if (spec.trim() === '') return 'must list at least one port, e.g. "80", "1-1024" or "22,80,443"';
  for (const raw of spec.split(',')) {
    const entry = raw.trim();
    const match = /^(\d{1,5})(?:\s*-\s*(\d{1,5}))?$/.exec(entry);
    if (!match) return `"${entry}" is not a port or a range like "1-1024"`;
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    if (first < 1 || last < 1 || first > MAX_PORT || last > MAX_PORT) {
      return `"${entry}" is outside 1-${MAX_PORT}`;
    }
    if (first > last) return `range "${entry}" is reversed; write it as "${last}-${first}"`;
  }
  return undefined;
}

export const PortSpec = z
  .string({ error: 'must be a string such as "1-1024" or "22,80,443"' })
  .max(2000, { error: 'must be at most 2000 characters' })
  .superRefine((value, ctx) => {
    const problem = portSpecProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    description:
      'Ports to scan: single ports and inclusive ranges, comma-separated, 1-65535. Default: the 1,000 most common TCP ports.',
    example: '22,80,443,8000-8100',
  });

export const Target = z
  .string({ error: 'must be a domain name, an IP address or a CIDR range' })
  .trim()
  .min(1, { error: 'must be a domain name, an IP address or a CIDR range' })
  .max(253, { error: 'must be at most 253 characters' })
  .meta({ description: 'A DNS name, an IPv4 or IPv6 address, or a CIDR range', example: 'app.example.com' });

/** `authorized` must be the literal `true`: the caller attests they may scan the target. */
export const Authorized = z.literal(true, {
  error: 'must be true: confirm that you are authorized to scan the target',
});

export const Frameworks = z
  .array(Framework, { error: 'must be an array of soc2, pci-dss, iso27001' })
  .max(3)
  .transform((list) => [...new Set(list)]);

/**
 * Whether a scan tries the short fixed list of vendor-default and empty credentials
 * (docs/checks.md, "Credential policy"): `defaults`, or `none` for no login attempt at all.
 */
export const CredentialChecks = z.enum(['defaults', 'none'], { error: 'must be defaults or none' }).meta({
  id: 'CredentialChecks',
  description:
    'Try a short fixed list of vendor-default and empty credentials (at most a few attempts per service, never a ' +
    'password list): `defaults`, or `none`. Default: `defaults` for full and compliance scans, `none` for quick scans.',
});
export type CredentialChecks = z.infer<typeof CredentialChecks>;

/** The credential policy a scan of `scanType` gets when the request names none. */
export function credentialChecksFor(
  scanType: ScanType,
  chosen: CredentialChecks | undefined,
): CredentialChecks {
  return chosen ?? (scanType === 'quick' ? 'none' : 'defaults');
}

export const CreateScanRequest = z
  .object({
    target: Target,
    scan_type: ScanType.default('full'),
    frameworks: Frameworks.optional(),
    ports: PortSpec.optional(),
    credential_checks: CredentialChecks.optional(),
    web: WebTestingOptions.optional(),
    authorized: Authorized,
  })
  .meta({ id: 'CreateScanRequest' });
export type CreateScanRequest = z.infer<typeof CreateScanRequest>;

export const ScanCreated = z
  .object({
    id: z.string().meta({ example: 'scan_3k2j4h5g6f7d8s9a0q1w2e3r' }),
    target: z.string(),
    scan_type: ScanType,
    status: z.literal('pending'),
    created_at: Timestamp,
    estimated_duration: z.number().int().meta({ description: 'Seconds' }),
  })
  .meta({ id: 'ScanCreated' });

const count = z.number().int().min(0);

/** The list view: what GET /api/v1/scans and the scan.* webhook events carry. */
export const ScanListItem = z
  .object({
    id: z.string(),
    target: z.string(),
    scan_type: ScanType,
    status: ScanStatus,
    progress: z.number().int().min(0).max(100),
    phase: Phase,
    created_at: Timestamp,
    completed_at: Timestamp.optional().meta({ description: 'Present once completed' }),
    vulnerabilities_found: count.meta({ description: 'critical + high + medium + low' }),
    critical_count: count,
    high_count: count,
    medium_count: count,
    low_count: count,
    info_count: count,
    error: z.string().optional().meta({ description: 'Why the scan failed; present on failed scans' }),
    message: z.string().optional().meta({ description: 'Present on cancelled scans' }),
    source: z.enum(['scan', 'import']).meta({
      description:
        "`scan`: Scanward's engine ran it; `import`: another tool's report, brought in by POST /api/v1/imports",
    }),
    tool: z.string().nullable().meta({
      description:
        "The tool that produced an imported report (`nuclei`, `zap`, …); null for Scanward's own scans",
    }),
    report_name: z.string().nullable().meta({
      description: "An import's report file name (as uploaded, or its `report_name` field); null otherwise",
      example: 'nuclei-2026-11-28.jsonl',
    }),
    ci_run: z.string().nullable().meta({
      description:
        'The CI run a local engine run came from (its `ci_run` field, a URL or a name); null otherwise',
    }),
    results_read: z.number().int().nullable().meta({
      description: "How many results an import read from its report; null for Scanward's own scans",
    }),
    label: z.string().meta({
      description:
        'What the scan was, for a person: `Imported from a nuclei report (nuclei.jsonl), 18 results, 9 findings`, `Full scan by Scanward`',
      example: 'Imported from a nuclei report, 18 results, 9 findings',
    }),
  })
  .meta({ id: 'ScanListItem' });
export type ScanListItem = z.infer<typeof ScanListItem>;

export const ScanChanges = z
  .object({ new: count, reopened: count, resolved: count, unchanged: count })
  .meta({ id: 'ScanChanges', description: 'Findings compared with the previous scans' });

export const PhaseTimings = z
  .object({
    queue_wait: count.optional().meta({
      description:
        'Milliseconds between the creation of the scan and its first claim by a runner; present once started',
    }),
    phases: z.partialRecord(Phase.exclude(['complete']), count).meta({
      description:
        'Milliseconds each completed phase took, by phase (a phase resumed by another runner counts its last run)',
    }),
    completion: count.optional().meta({
      description:
        'Milliseconds of the final step (findings resolved, evidence recorded, scan completed); present once completed',
    }),
    skipped: z
      .partialRecord(Phase.exclude(['complete']), z.string())
      .optional()
      .meta({
        description:
          'The phases that had nothing to do on the target, with why (`no cloud endpoints on a loopback target`); a skipped phase is not in `phases`',
      }),
  })
  .meta({ id: 'PhaseTimings', description: 'Where the time of a scan went' });
export type PhaseTimings = z.infer<typeof PhaseTimings>;

export const ScanSource = z.enum(['scan', 'import']).meta({
  id: 'ScanSource',
  description:
    "`scan`: Scanward's engine ran it; `import`: another tool's report, brought in by POST /api/v1/imports",
});
export type ScanSource = z.infer<typeof ScanSource>;

export const ScanDetail = ScanListItem.extend({
  current_tool: z.string().optional().meta({ description: 'Present on a running scan' }),
  started_at: Timestamp.optional().meta({ description: 'Present once started' }),
  phases_completed: z.array(Phase),
  phases_remaining: z.array(Phase),
  frameworks: z.array(Framework),
  ports: z.string().nullable().meta({ description: 'The requested ports; null for the default list' }),
  credential_checks: CredentialChecks,
  estimated_duration: z.number().int().meta({ description: 'Seconds' }),
  changes: ScanChanges.optional().meta({ description: 'Present once completed' }),
  phase_timings: PhaseTimings,
  source: ScanSource,
  web: WebTestingView.optional(),
}).meta({ id: 'ScanDetail' });
export type ScanDetail = z.infer<typeof ScanDetail>;

export const ScanList = paginated(ScanListItem, 'ScanList');

export const ScanCancelled = z
  .object({ id: z.string(), status: z.literal('cancelled'), message: z.string() })
  .meta({ id: 'ScanCancelled' });

export const ScanQuota = z
  .object({
    plan: Plan,
    monthly_limit: z.number().int().meta({ description: '-1 = unlimited' }),
    used_this_month: count,
    remaining: z.number().int().meta({ description: '-1 = unlimited' }),
    resets_at: Timestamp,
  })
  .meta({ id: 'ScanQuota' });

export const ScanStatusFilter = z.enum(['pending', 'running', 'completed', 'failed', 'cancelled'], {
  error: 'must be pending, running, completed, failed or cancelled',
});

export const ListScansQuery = PaginationQuery.extend({
  status: ScanStatusFilter.optional().meta({ description: 'Only scans in this state' }),
  target: z.string().trim().min(1).max(253).optional().meta({ description: 'Exact target, ignoring case' }),
  from_date: DateParam.optional().meta({ description: 'Scans created at or after this instant' }),
  to_date: DateParam.optional().meta({ description: 'Scans created before this instant' }),
});

export const ScanIdParams = z.object({ scan_id: IdParam('scan', 'scan_3k2j4h5g6f7d8s9a0q1w2e3r') });

const FindingSeverity = z.enum(['critical', 'high', 'medium', 'low', 'info'], {
  error: 'must be critical, high, medium, low or info',
});
const FindingStatus = z.enum(['open', 'in_progress', 'resolved', 'false_positive', 'accepted'], {
  error: 'must be open, in_progress, resolved, false_positive or accepted',
});

/** What a scan's sighting of a finding was, relative to the earlier scans of the organization. */
export const FINDING_CHANGES = ['new', 'reopened', 'unchanged'] as const;
const FindingChange = z.enum(FINDING_CHANGES, { error: 'must be new, reopened or unchanged' }).meta({
  description:
    '`new`: this scan detected the finding for the first time; `reopened`: it detected again a finding that was resolved; `unchanged`: the finding was already known and not resolved',
});

export const ScanFindingsQuery = PaginationQuery.extend({
  severity: FindingSeverity.optional().meta({ description: 'Only findings of this severity' }),
  status: FindingStatus.optional().meta({ description: 'Only findings in this state' }),
  change: FindingChange.optional(),
});

/** A finding as one scan observed it: severity as seen then, remediation as its summary string. */
export const ScanFinding = z
  .object({
    id: z.string(),
    title: z.string(),
    severity: FindingSeverity,
    cvss_score: z.number(),
    status: FindingStatus,
    tool: z.string(),
    affected_component: z.string(),
    description: z.string(),
    remediation: z.string().meta({ description: 'The remediation summary' }),
    cve_ids: z.array(z.string()),
    detected_at: Timestamp,
    first_seen_at: Timestamp,
    last_seen_at: Timestamp,
    times_seen: z.number().int().meta({ description: 'How many scans have detected the finding' }),
    last_scan_id: z.string().meta({ description: 'The latest scan that detected the finding' }),
    due_date: Timestamp.nullable().meta({ description: 'The finding’s due date (SLA policy or a person)' }),
    overdue: z.boolean().meta({
      description: 'Past its `due_date` and still `open` or `in_progress` at the time of the answer',
    }),
    change: FindingChange,
  })
  .meta({ id: 'ScanFinding' });
export type ScanFinding = z.infer<typeof ScanFinding>;

export const ScanFindingList = paginated(ScanFinding, 'ScanFindingList');
