import { insertAsset } from '../../assets/assets.repository.ts';
import type { Db } from '../../db/index.ts';
import { insertObservations } from '../../findings/finding-observations.repository.ts';
import { insertFindingsIfNew } from '../../findings/findings-lifecycle.repository.ts';
import { insertOrganization } from '../../identity/organizations.repository.ts';
import { insertUser } from '../../identity/users.repository.ts';
import { insertIntegrationUnlessNameTaken } from '../../notifications/integrations.repository.ts';
import { insertScanRow } from '../../scans/scans.repository.ts';
import { insertDeliveries } from '../../webhooks/webhook-deliveries.repository.ts';
import { insertWebhookUnlessUrlTaken } from '../../webhooks/webhooks.repository.ts';

/**
 * The one tenant the SQL samples run against (`npm run sql`): an organization, a user, a
 * completed scan, one finding it observed, the asset it saw, a webhook and a delivery due, with fixed ids and times, so a
 * query that reads before it writes takes the same path on every generation. Written
 * through the repositories themselves, into the fresh database, before any sample runs.
 */

export const ORG = 'org_sample';
export const USER = 'user_sample';
export const SCAN = 'scan_sample';
export const FINDING = 'finding_sample';
export const ASSET = 'asset_sample';
export const WEBHOOK = 'wh_sample';
export const DELIVERY = 'whd_sample';
export const SCHEDULE = 'sched_sample';
export const SESSION = 'sess_sample';
export const API_KEY = 'key_sample';
export const INTEGRATION = 'intg_sample';
export const EMAIL = 'owner@example.com';
export const TARGET = 'https://app.example.com';
export const NOW = new Date('2026-11-25T12:00:00.000Z');
export const WEEK_AGO = new Date('2026-11-18T12:00:00.000Z');
export const PAGE = { limit: 20, offset: 0 };

export async function seedSampleTenant(db: Db): Promise<void> {
  await insertOrganization(db, { id: ORG, name: 'Sample', plan: 'enterprise' });
  await insertUser(db, { id: USER, org_id: ORG, email: EMAIL, password_hash: 'sample', role: 'admin' });
  await insertIntegrationUnlessNameTaken(db, ORG, {
    id: INTEGRATION,
    org_id: ORG,
    type: 'github',
    name: 'sample',
    config: '{"repository":"acme/web"}',
    secrets: 'sealed',
    receiver_secret: 'sealed',
    created_by: USER,
    created_at: WEEK_AGO,
    updated_at: WEEK_AGO,
  });
  await insertScanRow(db, {
    id: SCAN,
    org_id: ORG,
    created_by: USER,
    target: TARGET,
    scan_type: 'quick',
    phase: 'discovery',
    estimated_duration: 60,
    status: 'completed',
    created_at: WEEK_AGO,
    updated_at: WEEK_AGO,
  });
  await insertFindingsIfNew(db, ORG, [
    {
      id: FINDING,
      org_id: ORG,
      fingerprint: 'sample-fingerprint',
      scan_id: SCAN,
      last_scan_id: SCAN,
      title: 'Sample finding',
      severity: 'high',
      severity_rank: 3,
      target: TARGET,
      affected_component: TARGET,
      tool: 'scanward',
      template_id: 'sample-check',
      remediation: JSON.stringify({ summary: 'Fix it', steps: [], code_example: '', references: [] }),
      evidence: JSON.stringify({ request: '', response: '', screenshot_url: null }),
      frameworks: JSON.stringify([{ name: 'soc2', controls: ['ctrl_soc2_cc6_1'] }]),
      detected_at: WEEK_AGO,
      last_seen_at: WEEK_AGO,
    },
  ]);
  await insertObservations(
    db,
    ORG,
    SCAN,
    [{ finding_id: FINDING, severity: 'high', change: 'new' }],
    WEEK_AGO,
  );
  await insertAsset(db, {
    id: ASSET,
    org_id: ORG,
    address: '127.0.0.1',
    names: ['localhost'],
    first_seen_at: WEEK_AGO,
    last_seen_at: WEEK_AGO,
    last_scan_id: SCAN,
  });
  await insertWebhookUnlessUrlTaken(db, ORG, {
    id: WEBHOOK,
    url: 'https://hooks.example.com/scanward',
    events: ['scan.completed', 'vulnerability.found'],
    secret: 'sealed',
    created_by: USER,
  });
  await insertDeliveries(db, [
    {
      id: DELIVERY,
      org_id: ORG,
      webhook_id: WEBHOOK,
      event: 'scan.completed',
      payload: '{}',
      next_attempt_at: WEEK_AGO,
    },
  ]);
}
