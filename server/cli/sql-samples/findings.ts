import * as slaBreaches from '../../findings/finding-sla-breaches.repository.ts';
import * as comments from '../../findings/finding-comments.repository.ts';
import * as history from '../../findings/finding-history.repository.ts';
import * as ticketLinks from '../../findings/finding-tickets-export.repository.ts';
import * as observations from '../../findings/finding-observations.repository.ts';
import * as versions from '../../findings/finding-versions.repository.ts';
import * as controls from '../../findings/findings-controls.repository.ts';
import * as groups from '../../findings/findings-groups.repository.ts';
import * as sources from '../../findings/finding-sources.repository.ts';
import * as lifecycle from '../../findings/findings-lifecycle.repository.ts';
import * as listing from '../../findings/findings-listing.repository.ts';
import * as remediation from '../../findings/findings-remediation.repository.ts';
import * as stats from '../../findings/findings-stats.repository.ts';
import * as timers from '../../findings/findings-timers.repository.ts';
import * as sla from '../../findings/sla-policies.repository.ts';
import * as status from '../../findings/findings-status.repository.ts';
import * as triage from '../../findings/findings-triage.repository.ts';
import * as findings from '../../findings/findings.repository.ts';
import { LIST_COLUMNS } from '../../findings/rows.ts';
import { QUERY_PIECE, repositorySamples } from '../sql-generator.ts';
import { FINDING, NOW, ORG, PAGE, SCAN, TARGET, USER, WEEK_AGO, EMAIL } from './fixture.ts';

/** Samples of server/findings/: every filter of the list at least once, each ordering, the cursor. */

const EVERY_FILTER = {
  severity: 'high',
  status: 'open',
  scan_id: SCAN,
  target: TARGET,
  tool: 'scanward',
  cve: 'CVE-2024-0001',
  template_id: 'redis-unauthenticated',
  asset_id: 'asset_sample',
  from: WEEK_AGO,
  to: NOW,
} as const;

const HISTORY_ROW = {
  id: 'hist_sample',
  org_id: ORG,
  finding_id: FINDING,
  action: 'status_changed',
  from_status: 'open',
  to_status: 'resolved',
  actor: EMAIL,
  created_at: NOW,
};

const SIGHTING: lifecycle.Sighting = {
  id: FINDING,
  title: 'Sample finding',
  severity: 'critical',
  severity_rank: 4,
  cvss_score: 9.8,
  cvss_vector: null,
  epss_score: null,
  port: 443,
  tool: 'scanward',
  category: null,
  cve_ids: [],
  cwe_ids: [],
  description: '',
  impact: '',
  remediation: null,
  evidence: { request: '', response: '', screenshot_url: null },
  frameworks: null,
  kev: null,
  planned_priority: 'p1',
};

export const findingsSamples = [
  repositorySamples('server/findings/findings.repository.ts', findings, {
    applyFilter: QUERY_PIECE,
    sortColumns: QUERY_PIECE,
    applyOrder: QUERY_PIECE,
    applyAfter: QUERY_PIECE,
    selectColumns: QUERY_PIECE,
  }),
  repositorySamples('server/findings/findings-listing.repository.ts', listing, {
    selectFindingsPage: [
      { name: 'no filter, default order', args: [ORG, {}, { limit: 50, offset: 0 }] },
      {
        name: 'every filter, by cvss_score ascending',
        args: [ORG, EVERY_FILTER, { sort: 'cvss_score', order: 'asc', limit: 50, offset: 50 }],
      },
      { name: 'by created_at', args: [ORG, {}, { sort: 'created_at', order: 'desc', limit: 50, offset: 0 }] },
      {
        name: 'search: free text, a target prefix, overdue',
        args: [ORG, { q: 'redis', target: '127.0.0', overdue_at: NOW }, { limit: 50, offset: 0 }],
      },
      { name: 'a target range (CIDR)', args: [ORG, { target: '127.0.0.0/24' }, { limit: 50, offset: 0 }] },
    ],
    countFindings: [
      { name: 'no filter', args: [ORG, {}] },
      { name: 'every filter', args: [ORG, EVERY_FILTER] },
    ],
    selectFindingDetail: [[ORG, FINDING]],
    selectExportBatch: [
      {
        name: 'first batch, list columns',
        args: [ORG, {}, { order: 'desc', columns: LIST_COLUMNS, limit: 1000 }],
      },
      {
        name: 'after a cursor, by severity ascending',
        args: [
          ORG,
          { severity: 'high' },
          {
            sort: 'severity',
            order: 'asc',
            columns: [...LIST_COLUMNS, 'description'],
            limit: 1000,
            after: FINDING,
          },
        ],
      },
    ],
  }),
  repositorySamples('server/findings/findings-stats.repository.ts', stats, {
    // A whole query (the benchmark runs it through its own driver): run like the others.
    statsGroupsQuery: [[ORG, {}, NOW]],
    selectStatsGroups: [
      { name: 'all findings', args: [ORG, {}, NOW] },
      { name: 'one target, a date range', args: [ORG, { target: TARGET, from: WEEK_AGO, to: NOW }, NOW] },
    ],
    selectFindingTotals: [[ORG, { status: 'open' }]],
    selectOverviewCounts: [
      [
        ORG,
        [
          { from: WEEK_AGO, to: null },
          { from: null, to: WEEK_AGO },
        ],
        NOW,
      ],
    ],
    selectWeeklyTrend: [[ORG, WEEK_AGO]],
    selectTopTargets: [[ORG, 5]],
    selectTopCves: [[ORG, 10]],
  }),
  repositorySamples('server/findings/sla-policies.repository.ts', sla, {
    findSlaPolicy: [[ORG]],
    saveSlaPolicy: [
      [
        ORG,
        {
          critical_days: 3,
          high_days: 14,
          medium_days: 60,
          low_days: 120,
          require_justification: true,
          updated_by: EMAIL,
          updated_at: NOW,
        },
      ],
    ],
    recomputeOpenDueDates: [[ORG, { critical_days: 3, high_days: 14, medium_days: 60, low_days: 120 }, NOW]],
  }),
  repositorySamples('server/findings/finding-sla-breaches.repository.ts', slaBreaches, {
    lockNewlyBreachedFindingsOfAnyOrganization: [[NOW, 500]],
    insertSlaBreaches: [[ORG, [{ org_id: ORG, finding_id: FINDING, due_date: NOW, created_at: NOW }]]],
  }),
  repositorySamples('server/findings/findings-timers.repository.ts', timers, {
    lockExpiredAcceptancesOfAnyOrganization: [[NOW, 500]],
  }),
  repositorySamples('server/findings/findings-status.repository.ts', status, {
    writeFindingStatus: [
      {
        name: 'to resolved, with notes',
        args: [
          ORG,
          [FINDING],
          {
            status: 'resolved',
            notes: 'fixed',
            acceptance: {
              justification: null,
              justified_by: null,
              justified_at: null,
              acceptance_expires_at: null,
            },
            now: NOW,
          },
        ],
      },
      { name: 'to open', args: [ORG, [FINDING], { status: 'open', acceptance: {}, now: NOW }] },
      {
        name: 'to accepted, with a justification and an expiry',
        args: [
          ORG,
          [FINDING],
          {
            status: 'accepted',
            acceptance: {
              justification: 'compensating control: not reachable from outside',
              justified_by: 'owner@example.com',
              justified_at: NOW,
              acceptance_expires_at: NOW,
            },
            now: NOW,
          },
        ],
      },
      {
        name: 'a risk decision given again (status kept)',
        args: [ORG, [FINDING], { acceptance: { justification: 'still behind the VPN' }, now: NOW }],
      },
    ],
  }),
  repositorySamples('server/findings/findings-triage.repository.ts', triage, {
    lockFindingForTriage: [[ORG, FINDING]],
    lockFindingsForTriage: [[ORG, [FINDING, 'finding_other']]],
    findingExists: [[ORG, FINDING]],
    updateFindingTriage: [[ORG, FINDING, { assignee: EMAIL, notes: 'fixed', updated_at: NOW }]],
  }),
  repositorySamples('server/findings/findings-lifecycle.repository.ts', lifecycle, {
    lockFindingsByFingerprint: [[ORG, ['sample-fingerprint', 'other-fingerprint']]],
    insertFindingsIfNew: [
      [
        ORG,
        [
          {
            id: 'finding_new',
            org_id: ORG,
            fingerprint: 'new-fingerprint',
            scan_id: SCAN,
            last_scan_id: SCAN,
            title: 'New finding',
            severity: 'low',
            severity_rank: 1,
            target: TARGET,
            affected_component: TARGET,
            tool: 'scanward',
            template_id: 'sample-check',
            remediation: JSON.stringify({ summary: '', steps: [], code_example: '', references: [] }),
            evidence: JSON.stringify({ request: '', response: '', screenshot_url: null }),
            detected_at: NOW,
            last_seen_at: NOW,
          },
        ],
      ],
    ],
    applySightings: [[ORG, SCAN, [SIGHTING], NOW]],
    lockCoveredUnobserved: [
      [
        ORG,
        'scan_later',
        [
          { targets: [TARGET], check_id: 'sample-check', port: 443, port_ranges: null },
          { targets: ['127.0.0.1'], check_id: 'open-port', port: null, port_ranges: [[1, 1024]] },
        ],
      ],
    ],
    findingListRows: [[ORG, [FINDING]]],
  }),
  repositorySamples('server/findings/findings-controls.repository.ts', controls, {
    findingsOfControl: [[ORG, 'ctrl_soc2_cc6_1', ['open', 'in_progress'], 20]],
  }),
  repositorySamples('server/findings/finding-sources.repository.ts', sources, {
    selectSourcesOf: [[ORG, [FINDING]]],
    upsertSources: [
      [
        [
          {
            finding_id: FINDING,
            org_id: ORG,
            source_key: 'import:nuclei',
            kind: 'import',
            tool: 'nuclei',
            first_scan_id: SCAN,
            last_scan_id: SCAN,
            first_seen_at: NOW,
            last_seen_at: NOW,
            severity: 'high',
            cvss_score: 7.5,
            cvss_vector: null,
            title: 'Redis Server - Unauthenticated',
            description: '',
            evidence: { request: '', response: '', screenshot_url: null },
            established: 'confirmed',
            status: 'active',
            resolved_at: null,
          },
        ],
      ],
    ],
    markSourcesResolved: [[ORG, 'import:nuclei', [FINDING], NOW]],
    findingsWithActiveSources: [[ORG, [FINDING]]],
    activeUnobservedOfSource: [[ORG, SCAN, TARGET, 'import:nuclei']],
  }),
  repositorySamples('server/findings/findings-remediation.repository.ts', remediation, {
    findFindingFacts: [[ORG, FINDING]],
  }),
  repositorySamples('server/findings/finding-observations.repository.ts', observations, {
    countScanFindings: [[ORG, SCAN, { severity: 'high', status: 'open', change: 'new' }]],
    selectScanFindingsPage: [[ORG, SCAN, { severity: 'high', status: 'open', change: 'new' }, PAGE]],
    insertObservations: [
      [ORG, 'scan_sample', [{ finding_id: FINDING, severity: 'high', change: 'unchanged' }], NOW],
    ],
    observedFindingIds: [[ORG, SCAN, [FINDING]]],
    observationTally: [[ORG, SCAN]],
    severityCounts: [[ORG, [SCAN, 'scan_other']]],
    newOrReopenedFindings: [[ORG, SCAN]],
    observedByScan: QUERY_PIECE,
  }),
  repositorySamples('server/findings/finding-comments.repository.ts', comments, {
    selectCommentsOfFinding: [[ORG, FINDING]],
    selectCommentsOfFindings: [[ORG, [FINDING, 'finding_other']]],
    insertComment: [
      [
        ORG,
        {
          id: 'comment_sample',
          org_id: ORG,
          finding_id: FINDING,
          user_id: USER,
          user_email: EMAIL,
          text: 'Looking into it',
          created_at: NOW,
        },
      ],
    ],
  }),
  repositorySamples('server/findings/finding-history.repository.ts', history, {
    selectHistoryOfFinding: [[ORG, FINDING]],
    selectHistoryOfFindings: [[ORG, [FINDING, 'finding_other']]],
    insertHistoryRows: [[ORG, [HISTORY_ROW]]],
  }),
  repositorySamples('server/findings/finding-tickets-export.repository.ts', ticketLinks, {
    ticketLinksOfFindings: [[ORG, [FINDING]]],
  }),
  repositorySamples('server/findings/finding-versions.repository.ts', versions, {
    bumpFindingsVersion: [[ORG]],
    findingsVersion: [[ORG]],
  }),
  repositorySamples('server/findings/findings-groups.repository.ts', groups, {
    selectFindingGroups: [
      { name: 'by asset, no filter', args: [ORG, {}, 'asset', PAGE] },
      { name: 'by cve, every filter', args: [ORG, EVERY_FILTER, 'cve', PAGE] },
      { name: 'by check', args: [ORG, {}, 'check', PAGE] },
    ],
    countFindingGroups: [
      { name: 'by asset', args: [ORG, {}, 'asset'] },
      { name: 'by cve', args: [ORG, {}, 'cve'] },
    ],
  }),
];
