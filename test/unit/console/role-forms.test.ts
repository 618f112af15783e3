import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../helpers/browser.ts';
import {
  listOf,
  sessionOf,
  useHarness,
  type ApiSchemas,
  type StubRoutes,
} from '../../helpers/console-components.ts';

/**
 * The forms a role may use, and only those (docs/roles.md): the finding page, the findings
 * list, the scan page and a control's page, whole, in Chromium with a stub API
 * (console/test/components.tsx), signed in as a viewer, a member and an admin. A viewer reads
 * everything and is offered no form the API would refuse; a member triages, comments, cancels
 * scans and adds evidence; only an admin lists the trackers to open a ticket in. Every change
 * goes through useAction: the API's refusal shows as the form's alert.
 */

if (!hasChromium) console.warn('role forms: skipped; /usr/bin/chromium is absent');

type Role = ApiSchemas['ConsoleSession']['user']['role'];
const ROLES: readonly Role[] = ['viewer', 'member', 'admin'];
const AT = '2026-11-20T09:00:00.000Z';

/** The ids console/test/components.tsx mounts its pages with (HARNESS_IDS). */
const FINDING_ID = 'finding_harnesspage0000000000';
const SCAN_ID = 'scan_harnesspage000000000000';
const CONTROL_ID = 'ctrl_harness_page';

const FINDING: ApiSchemas['FindingDetail'] = {
  id: FINDING_ID,
  title: 'Exposed .git directory',
  severity: 'high',
  status: 'open',
  cvss_score: 7.5,
  epss_score: null,
  target: '127.0.0.1',
  affected_component: 'http://127.0.0.1:8080/.git/',
  tool: 'scanward-probe',
  template_id: 'exposed-git',
  cve_ids: [],
  cwe_ids: ['CWE-538'],
  scan_id: SCAN_ID,
  detected_at: AT,
  first_seen_at: AT,
  last_seen_at: AT,
  times_seen: 1,
  last_scan_id: SCAN_ID,
  cvss_vector: null,
  epss_snapshot_date: null,
  description: 'The repository is served.',
  impact: 'Source code leaks.',
  remediation: { summary: 'Deny /.git.', steps: [], code_example: '', references: [] },
  evidence: { request: 'GET /.git/HEAD', response: 'ref: refs/heads/main', screenshot_url: null },
  frameworks: [],
  comments: [{ id: 'cmt_1', user: 'grace@example.test', text: 'Looking into it.', created_at: AT }],
  history: [
    {
      action: 'detected',
      from: null,
      to: 'open',
      user: 'scanner',
      justification: null,
      note: null,
      timestamp: AT,
    },
  ],
  sources: [],
  asset_id: null,
  assignee: null,
  priority: null,
  due_date: null,
  overdue: false,
  notes: null,
  justification: null,
  justified_by: null,
  justified_at: null,
  acceptance_expires_at: null,
  updated_at: AT,
  tickets: [],
};

const JIRA: ApiSchemas['Integration'] = {
  id: 'int_jira0000000000000000000',
  type: 'jira',
  name: 'security board',
  config: {},
  secrets_set: [],
  receiver_url: null,
  created_at: AT,
  updated_at: AT,
};

const FINDING_ROUTES: StubRoutes = {
  'GET /api/v1/findings/:finding_id': () => ({ status: 200, body: FINDING }),
  'GET /api/v1/findings/assignees': () => ({ status: 200, body: { items: [] } }),
  'GET /api/v1/integrations': () => ({ status: 200, body: listOf([JIRA]) }),
};

const LISTED: ApiSchemas['FindingListItem'] = {
  id: FINDING_ID,
  title: FINDING.title,
  severity: 'high',
  status: 'open',
  cvss_score: 7.5,
  epss_score: null,
  target: '127.0.0.1',
  affected_component: FINDING.affected_component,
  tool: 'scanward-probe',
  template_id: 'exposed-git',
  cve_ids: [],
  cwe_ids: [],
  scan_id: SCAN_ID,
  detected_at: AT,
  first_seen_at: AT,
  last_seen_at: AT,
  times_seen: 1,
  last_scan_id: SCAN_ID,
  frameworks: [],
  due_date: null,
  overdue: false,
};

const RUNNING_SCAN: ApiSchemas['ScanDetail'] = {
  id: SCAN_ID,
  target: '127.0.0.1',
  scan_type: 'quick',
  status: 'running',
  progress: 40,
  phase: 'enumeration',
  created_at: AT,
  vulnerabilities_found: 0,
  critical_count: 0,
  high_count: 0,
  medium_count: 0,
  low_count: 0,
  info_count: 0,
  source: 'scan',
  tool: null,
  report_name: null,
  ci_run: null,
  results_read: null,
  label: 'Quick scan by Scanward',
  started_at: AT,
  phases_completed: ['discovery'],
  phases_remaining: ['enumeration', 'complete'],
  frameworks: [],
  ports: null,
  credential_checks: 'none',
  estimated_duration: 450,
  phase_timings: { phases: {} },
};

const SCAN_ROUTES: StubRoutes = {
  'GET /api/v1/scans/:scan_id': () => ({ status: 200, body: RUNNING_SCAN }),
  'GET /api/v1/scans/:scan_id/findings': () => ({ status: 200, body: listOf([]) }),
};

const CONTROL: ApiSchemas['ControlDetail'] = {
  id: CONTROL_ID,
  name: 'System monitoring',
  status: 'failing',
  frameworks: ['soc2'],
  evidence_count: 0,
  reference: 'CC7.1',
  description: 'The entity monitors its systems.',
  findings: [LISTED],
  findings_total: 1,
  evidence: [],
};

/**
 * What each role is offered: a form (or button) the API would take from it, and nothing else
 * (`triage`: findings, scans, evidence; `settings`: the organization's, incl. its trackers and people).
 */
const OFFERED: Record<Role, { triage: boolean; settings: boolean }> = {
  viewer: { triage: false, settings: false },
  member: { triage: true, settings: false },
  admin: { triage: true, settings: true },
};

describe.skipIf(!hasChromium)('the forms each role is shown', () => {
  const suite = useHarness();

  for (const role of ROLES) {
    const { triage, settings } = OFFERED[role];
    const count = (yes: boolean) => (yes ? 1 : 0);

    it(`shows ${role === 'admin' ? 'an' : 'a'} ${role} the finding page ${triage ? 'with' : 'without'} the status, assignment and comment forms, ${settings ? 'with' : 'without'} opening a ticket`, async () => {
      const { page, calls, problems } = await suite.mountComponent('finding-page', {
        session: sessionOf(role),
        api: FINDING_ROUTES,
      });
      // What every role reads: the facts, the comments, the history, the AI analysis.
      await page.getByRole('heading', { name: FINDING.title }).waitFor();
      await page.getByText('Looking into it.').waitFor();
      expect(await page.getByRole('region', { name: 'History' }).getByRole('listitem').count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Analyse (1 credit)' }).count()).toBe(1);

      expect(await page.getByRole('form', { name: 'Change status' }).count()).toBe(count(triage));
      expect(await page.getByRole('form', { name: 'Assignment' }).count()).toBe(count(triage));
      expect(await page.getByRole('button', { name: 'Save assignment' }).count()).toBe(count(triage));
      expect(await page.getByLabel('Add a comment').count()).toBe(count(triage));
      expect(await page.getByRole('button', { name: 'Add comment' }).count()).toBe(count(triage));
      const ticketBox = page.getByRole('region', { name: 'Tickets' }).getByLabel('Open a ticket in');
      if (settings) await ticketBox.waitFor();
      expect(await ticketBox.count()).toBe(count(settings));
      // A form not shown asks for nothing: no suggestions for a viewer, no trackers but for an admin.
      const asked = calls.map((c) => c.path);
      expect(asked.includes('/api/v1/findings/assignees')).toBe(triage);
      expect(asked.includes('/api/v1/integrations')).toBe(settings);
      expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
      expect(problems).toEqual([]);
    });

    it(`shows ${role === 'admin' ? 'an' : 'a'} ${role} the findings list ${triage ? 'with' : 'without'} the bulk change and its boxes`, async () => {
      const { page, problems } = await suite.mountComponent('findings-page', {
        session: sessionOf(role),
        api: { 'GET /api/v1/findings': () => ({ status: 200, body: listOf([LISTED]) }) },
      });
      await page.getByRole('link', { name: FINDING.title }).waitFor();
      expect(await page.getByRole('form', { name: 'Filters' }).count()).toBe(1);
      expect(await page.getByRole('form', { name: 'Change selected findings' }).count()).toBe(count(triage));
      expect(await page.getByLabel('Select all on this page').count()).toBe(count(triage));
      expect(await page.getByRole('checkbox', { name: `Select ${FINDING.title} on` }).count()).toBe(
        count(triage),
      );
      expect(await page.getByRole('columnheader').count()).toBe(triage ? 8 : 7);
      expect(problems).toEqual([]);
    });

    it(`shows ${role === 'admin' ? 'an' : 'a'} ${role} a running scan ${triage ? 'with' : 'without'} "Cancel scan"`, async () => {
      const { page, problems } = await suite.mountComponent('scan-page', {
        session: sessionOf(role),
        api: SCAN_ROUTES,
      });
      await page.getByRole('heading', { name: 'Scan of 127.0.0.1' }).waitFor();
      await page.getByText('No findings (yet).').waitFor();
      expect(await page.getByRole('button', { name: 'Cancel scan' }).count()).toBe(count(triage));
      expect(problems).toEqual([]);
    });

    it(`shows ${role === 'admin' ? 'an' : 'a'} ${role} a control ${triage ? 'with' : 'without'} the evidence form`, async () => {
      const { page, problems } = await suite.mountComponent('control-page', {
        session: sessionOf(role),
        api: { 'GET /api/v1/controls/:control_id': () => ({ status: 200, body: CONTROL }) },
      });
      await page.getByRole('heading', { name: 'CC7.1 System monitoring' }).waitFor();
      expect(await page.getByRole('form', { name: 'Add evidence' }).count()).toBe(count(triage));
      expect(problems).toEqual([]);
    });

    it(`shows ${role === 'admin' ? 'an' : 'a'} ${role} ${settings ? 'the people and the invitation form' : 'that managing people needs the admin role, asking for no list'}`, async () => {
      const { page, calls, problems } = await suite.mountComponent('people-page', {
        session: sessionOf(role),
        api: {
          'GET /api/v1/users': () => ({ status: 200, body: listOf([]) }),
          'GET /api/v1/audit-events': () => ({ status: 200, body: listOf([]) }),
        },
      });
      await page.getByRole('heading', { name: 'People', level: 1 }).waitFor();
      if (settings) await page.getByRole('region', { name: 'Invite a person' }).waitFor();
      else await page.getByText('Managing people needs the admin role.').waitFor();
      expect(await page.getByRole('region', { name: 'Invite a person' }).count()).toBe(count(settings));
      expect(calls.some((c) => c.path === '/api/v1/users')).toBe(settings);
      expect(problems).toEqual([]);
    });
  }

  it("changes a member's finding status through useAction: the notice on success, the API's refusal as the form's alert", async () => {
    const sent: unknown[] = [];
    let refuse = false;
    const { page } = await suite.mountComponent('finding-page', {
      session: sessionOf('member'),
      api: {
        ...FINDING_ROUTES,
        'PATCH /api/v1/findings/:finding_id': ({ body }) => {
          sent.push(body);
          if (refuse)
            return {
              status: 403,
              body: { detail: 'Your role may not change findings.', error_code: 'FORBIDDEN' },
            };
          return { status: 200, body: { ...FINDING, status: 'in_progress' } };
        },
      },
    });
    const form = page.getByRole('form', { name: 'Change status' });
    await form.getByLabel('Status').selectOption('in_progress');
    await form.getByRole('button', { name: 'Save status' }).click();
    await expect.poll(() => form.getByRole('status').textContent()).toBe('Status is now In progress.');
    expect(await form.getByRole('alert').count()).toBe(0);
    refuse = true;
    await form.getByRole('button', { name: 'Save status' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('Your role may not change findings.');
    // A new change clears what the last one said (the notice's box stays, empty: hidden to getByRole).
    expect(await form.locator('[role="status"]').textContent()).toBe('');
    expect(sent).toEqual([{ status: 'in_progress' }, { status: 'in_progress' }]);
  });

  it('changes the status of the findings a member ticks, and clears the ticks', async () => {
    const sent: unknown[] = [];
    const { page } = await suite.mountComponent('findings-page', {
      session: sessionOf('member'),
      api: {
        'GET /api/v1/findings': () => ({ status: 200, body: listOf([LISTED]) }),
        'POST /api/v1/findings/bulk': ({ body }) => {
          sent.push(body);
          return { status: 200, body: { updated: 1, failed: [] } };
        },
      },
    });
    const box = page.getByRole('checkbox', {
      name: `Select ${FINDING.title} on ${FINDING.affected_component}`,
    });
    await box.check();
    const bulk = page.getByRole('form', { name: 'Change selected findings' });
    await bulk.getByRole('button', { name: 'Change status of selected' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('1 finding set to In progress.');
    expect(sent).toEqual([{ finding_ids: [FINDING_ID], update: { status: 'in_progress' } }]);
    await expect.poll(() => box.isChecked()).toBe(false);
  });
});
