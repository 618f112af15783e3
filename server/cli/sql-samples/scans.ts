import * as idempotencyKeys from '../../scans/idempotency-keys.repository.ts';
import * as scanSchedules from '../../scans/scan-schedules.repository.ts';
import * as scans from '../../scans/scans.repository.ts';
import { repositorySamples } from '../sql-generator.ts';
import { NOW, ORG, PAGE, SCAN, SCHEDULE, TARGET, USER, WEEK_AGO } from './fixture.ts';

/** Samples of server/scans/. */

const RUNNER = 'runner-sample';

export const scansSamples = [
  repositorySamples('server/scans/scans.repository.ts', scans, {
    insertScanRow: [
      [
        {
          id: 'scan_new',
          org_id: ORG,
          created_by: USER,
          target: TARGET,
          scan_type: 'full',
          frameworks: ['soc2'],
          phase: 'discovery',
          estimated_duration: 600,
          created_at: NOW,
          updated_at: NOW,
        },
      ],
    ],
    findScan: [[ORG, SCAN]],
    selectScansPage: [
      { name: 'no filter', args: [ORG, {}, 1, 20] },
      {
        name: 'every filter',
        args: [ORG, { status: 'completed', target: TARGET, from: WEEK_AGO, to: NOW }, 2, 20],
      },
    ],
    countScansCreatedSince: [[ORG, WEEK_AGO]],
    activeScans: [[ORG]],
    updateActiveScan: [
      [ORG, SCAN, { status: 'cancelled', message: 'Cancelled', current_tool: null, updated_at: NOW }],
    ],
    updateScanCounts: [
      [
        ORG,
        SCAN,
        {
          vulnerabilities_found: 1,
          critical_count: 0,
          high_count: 1,
          medium_count: 0,
          low_count: 0,
          info_count: 0,
          changes: JSON.stringify({ new: 1, reopened: 0, resolved: 0, unchanged: 0 }),
          updated_at: NOW,
        },
      ],
    ],
    scanChanges: [[ORG, SCAN]],
    lockNextClaimCandidate: [[NOW, ['scan_passed_over']]],
    countLiveRunningScans: [[ORG, NOW]],
    updateClaimedScan: [
      [SCAN, { status: 'running', runner_id: RUNNER, lease_expires_at: NOW, updated_at: NOW }, NOW],
    ],
    updateHeldScan: [[SCAN, RUNNER, { progress: 50, lease_expires_at: NOW, updated_at: NOW }]],
    updateHeldScanReturning: [[SCAN, RUNNER, { status: 'completed', completed_at: NOW, updated_at: NOW }]],
    lockHeldScan: [[SCAN, RUNNER]],
    scanStatusById: [[SCAN]],
    savedProgress: [[SCAN]],
    updateActiveScanById: [[SCAN, { status: 'failed', error: 'stalled', updated_at: NOW }]],
    lockStalledScans: [[WEEK_AGO]],
    countScansByStatusOfAllOrganizations: [[]],
  }),
  repositorySamples('server/scans/scan-schedules.repository.ts', scanSchedules, {
    insertSchedule: [
      [
        ORG,
        {
          id: SCHEDULE,
          created_by: USER,
          target: TARGET,
          scan_type: 'quick',
          frequency: 'weekly',
          day_of_week: 1,
          day_of_month: null,
          hour: 3,
          timezone: 'Europe/Paris',
          frameworks: [],
          ports: null,
          credential_checks: 'none',
          next_run_at: NOW,
        },
      ],
    ],
    countSchedules: [[ORG]],
    selectSchedulesPage: [[ORG, PAGE]],
    deleteScheduleOfOrganization: [[ORG, SCHEDULE]],
    lockScheduleOfOrganization: [[ORG, SCHEDULE]],
    updateScheduleWeb: [[ORG, SCHEDULE, null, NOW]],
    lockNextDueSchedule: [[NOW]],
    updateScheduleRun: [
      [ORG, SCHEDULE, { last_run_at: NOW, last_scan_id: SCAN, next_run_at: NOW, updated_at: NOW }],
    ],
  }),
  repositorySamples('server/scans/idempotency-keys.repository.ts', idempotencyKeys, {
    selectIdempotencyKey: [[ORG, 'sample-key', WEEK_AGO]],
    deleteExpiredIdempotencyKeysOfOrganization: [[ORG, WEEK_AGO]],
    insertIdempotencyKey: [
      [
        ORG,
        {
          key: 'sample-key',
          request_hash: 'hash',
          response_status: 201,
          response_body: '{}',
          created_at: NOW,
        },
      ],
    ],
    deleteExpiredIdempotencyKeysOfAllOrganizations: [[WEEK_AGO]],
  }),
];
