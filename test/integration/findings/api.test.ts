import { describe, expect, it } from 'vitest';
import { apiClient, expectError, okBody } from '../../helpers/api-client.ts';
import { detection, factory } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { FINDING_DETAIL_FIELDS, FINDING_LIST_FIELDS } from '../../fixtures/finding-fields.ts';
import {
  addFindingCommentRoute,
  bulkUpdateFindingsRoute,
  exportFindingsRoute,
  findingStatsRoute,
  getFindingRoute,
  listFindingsRoute,
  updateFindingRoute,
} from '../../../server/routes/findings.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe(`findings API (${testEngine})`, () => {
  const suite = useTestApp();

  /** A tenant of its own with three findings (critical, high, info) of one scan: each test changes only its own. */
  async function seeded() {
    const tenant = await factory.tenant(suite.app, {
      findings: [
        detection({
          check_id: 'log4shell',
          severity: 'critical',
          cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H',
          epss_score: 0.975,
          cve_ids: ['CVE-2021-44228'],
          cwe_ids: ['CWE-502'],
          frameworks: [
            { name: 'soc2', controls: ['ctrl_soc2_cc7_1'] },
            { name: 'pci-dss', controls: ['ctrl_pci_dss_6_3_3'] },
          ],
        }),
        detection({ check_id: 'weak-tls', severity: 'high', tool: 'scanward-tls' }),
        detection({ check_id: 'open-port', severity: 'info', cvss_vector: null, frameworks: [] }),
      ],
    });
    expect(tenant.summary!.new_finding_ids).toHaveLength(3);
    const { items } = okBody(await tenant.api.call(listFindingsRoute));
    const ids = Object.fromEntries(items.map((f) => [f.severity, f.id])) as Record<
      'critical' | 'high' | 'info',
      string
    >;
    return { ...tenant, ids, scanId: tenant.scan!.id };
  }

  describe('GET /api/v1/findings', () => {
    it('lists exactly the list-view fields in the full pagination envelope', async () => {
      const { api, ids, scanId } = await seeded();
      const res = await api.call(listFindingsRoute);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: 3, page: 1, per_page: 20, pages: 1 });
      const critical = res.body.items[0]!;
      expect(Object.keys(critical).sort()).toEqual([...FINDING_LIST_FIELDS].sort());
      expect(critical).toMatchObject({
        id: ids.critical,
        severity: 'critical',
        status: 'open',
        cvss_score: 10,
        epss_score: 0.975,
        template_id: 'log4shell',
        cve_ids: ['CVE-2021-44228'],
        scan_id: scanId,
        last_scan_id: scanId,
        times_seen: 1,
        frameworks: ['soc2', 'pci-dss'],
        affected_component: 'https://127.0.0.1:443/',
      });
      expect(critical.detected_at).toMatch(ISO);
      expect(critical.first_seen_at).toBe(critical.detected_at);
      expect(res.body.items.find((i) => i.id === ids.high)?.epss_score).toBeNull();
    });

    it('answers 422 naming the parameter for a bad filter, sort, order or page size', async () => {
      const { api } = await seeded();
      for (const [query, field] of [
        [{ severity: 'urgent' }, 'severity'],
        [{ status: 'closed' }, 'status'],
        [{ sort: 'title' }, 'sort'],
        [{ order: 'up' }, 'order'],
        [{ per_page: 101 }, 'per_page'],
        [{ page: 0 }, 'page'],
      ] as const) {
        const res = await api.call(listFindingsRoute, { query });
        expect(res.status, JSON.stringify(query)).toBe(422);
        expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field });
      }
    });

    it('asks for credentials', async () => {
      const res = await apiClient(suite.app).call(listFindingsRoute);
      await expectError(res, 401, 'AUTHENTICATION_REQUIRED');
    });
  });

  describe('GET /api/v1/findings/{finding_id}', () => {
    it('returns the detail view with remediation, evidence, framework controls, comments and history', async () => {
      const { api, ids } = await seeded();
      const res = await api.call(getFindingRoute, { params: { finding_id: ids.critical } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual([...FINDING_DETAIL_FIELDS].sort());
      expect(res.body).toMatchObject({
        cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H',
        description: 'A test weakness.',
        remediation: { summary: 'Fix it.', steps: ['Change the setting'], code_example: '', references: [] },
        evidence: { request: 'GET / HTTP/1.1', screenshot_url: null },
        frameworks: [
          { name: 'soc2', controls: ['ctrl_soc2_cc7_1'] },
          { name: 'pci-dss', controls: ['ctrl_pci_dss_6_3_3'] },
        ],
        assignee: null,
        priority: null,
        // The default SLA: a critical finding is due 7 days after its detection.
        due_date: new Date(Date.parse(res.body.detected_at) + 7 * 86_400_000).toISOString(),
        notes: null,
      });
      expect(res.body.history).toEqual([
        {
          action: 'status_changed',
          from: null,
          to: 'open',
          user: 'system',
          justification: null,
          note: null,
          timestamp: res.body.detected_at,
        },
      ]);
    });

    it('answers 404 NOT_FOUND for an unknown id', async () => {
      const { api } = await seeded();
      const res = await api.call(getFindingRoute, { params: { finding_id: 'finding_doesnotexist' } });
      await expectError(res, 404, 'NOT_FOUND');
    });
  });

  describe('literal paths under /findings', () => {
    it('are not taken for finding ids', async () => {
      const { api } = await seeded();
      expect((await api.call(findingStatsRoute)).body).toHaveProperty('by_severity');
      const exported = await api.call(exportFindingsRoute, { query: { format: 'json' } });
      expect(exported.status).toBe(200);
      expect(exported.headers.get('content-type')).toMatch(/application\/json/);
      const bulk = await api.call(bulkUpdateFindingsRoute, {
        body: {
          finding_ids: ['finding_nope'],
          update: { status: 'accepted', justification: 'risk owner signed off' },
        },
      });
      expect(bulk.body).toEqual({
        updated: 0,
        failed: [{ id: 'finding_nope', error_code: 'NOT_FOUND', detail: 'finding not found' }],
      });
    });
  });

  describe('PATCH /api/v1/findings/{finding_id}', () => {
    it('changes status and triage fields, and records the change with the caller e-mail', async () => {
      const { api, ids, admin } = await seeded();
      const params = { finding_id: ids.high };
      const before = await api.call(getFindingRoute, { params });
      const res = await api.call(updateFindingRoute, {
        params,
        body: {
          status: 'in_progress',
          assignee: 'alice@example.test',
          priority: 'p2',
          due_date: '2026-03-01T12:00:00Z',
          notes: 'Rotating certificates this sprint',
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: ids.high,
        status: 'in_progress',
        assignee: 'alice@example.test',
        priority: 'p2',
        due_date: '2026-03-01T12:00:00.000Z',
        notes: 'Rotating certificates this sprint',
        justification: null,
        justified_by: null,
        justified_at: null,
        acceptance_expires_at: null,
        updated_at: expect.stringMatching(ISO),
      });
      expect(res.body.updated_at >= before.body.updated_at).toBe(true);

      const detail = await api.call(getFindingRoute, { params });
      expect(detail.body).toMatchObject({
        status: 'in_progress',
        assignee: 'alice@example.test',
        priority: 'p2',
      });
      expect(detail.body.history.at(-1)).toMatchObject({
        action: 'status_changed',
        from: 'open',
        to: 'in_progress',
        user: admin.email,
      });
    });

    it('lets any status follow any status, and writes no history when the status stays', async () => {
      const { api, ids } = await seeded();
      const params = { finding_id: ids.info };
      const statuses = [
        'resolved',
        'open',
        'accepted',
        'false_positive',
        'in_progress',
        'in_progress',
      ] as const;
      for (const status of statuses) {
        const justified = status === 'accepted' || status === 'false_positive';
        const res = await api.call(updateFindingRoute, {
          params,
          body: { status, ...(justified ? { justification: `why ${status}` } : {}) },
        });
        expect(res.status).toBe(200);
        expect(res.body.status).toBe(status);
      }
      const { body } = await api.call(getFindingRoute, { params });
      expect(body.history.map((h) => [h.from, h.to])).toEqual([
        [null, 'open'],
        ['open', 'resolved'],
        ['resolved', 'open'],
        ['open', 'accepted'],
        ['accepted', 'false_positive'],
        ['false_positive', 'in_progress'],
      ]);
    });

    it('keeps each note with its change in the history, and a later change without one carries none', async () => {
      const { api, summary } = await factory.tenant(suite.app, {
        findings: [detection({ severity: 'low' })],
      });
      const params = { finding_id: summary!.new_finding_ids[0]! };
      const patch = async (body: Record<string, unknown>) =>
        okBody(await api.call(updateFindingRoute, { params, body }));
      expect((await patch({ status: 'in_progress', notes: 'Waiting for the vendor' })).notes).toBe(
        'Waiting for the vendor',
      );
      // A note alone is a history entry of its own, in the status the finding stays in.
      expect((await patch({ notes: 'Vendor answered' })).notes).toBe('Vendor answered');
      expect((await patch({ status: 'resolved' })).notes).toBeNull();
      const body = okBody(await api.call(getFindingRoute, { params }));
      expect(body.notes).toBeNull();
      expect(body.history.map((h) => [h.action, h.from, h.to, h.note])).toEqual([
        ['status_changed', null, 'open', null],
        ['status_changed', 'open', 'in_progress', 'Waiting for the vendor'],
        ['note_added', 'in_progress', 'in_progress', 'Vendor answered'],
        ['status_changed', 'in_progress', 'resolved', null],
      ]);

      const bulk = (update: { status: 'open' | 'in_progress'; notes?: string }) =>
        api.call(bulkUpdateFindingsRoute, { body: { finding_ids: [params.finding_id], update } });
      expect((await bulk({ status: 'open', notes: 'Seen again by hand' })).status).toBe(200);
      expect((await bulk({ status: 'in_progress' })).status).toBe(200);
      const after = okBody(await api.call(getFindingRoute, { params }));
      expect(after.notes).toBeNull();
      expect(after.history.slice(-2).map((h) => [h.to, h.note])).toEqual([
        ['open', 'Seen again by hand'],
        ['in_progress', null],
      ]);
    });

    it('names the controls a finding maps to', async () => {
      const { api, summary } = await factory.tenant(suite.app, {
        findings: [detection({ frameworks: [{ name: 'pci-dss', controls: ['ctrl_pcidss_11_3_1'] }] })],
      });
      const body = okBody(
        await api.call(getFindingRoute, { params: { finding_id: summary!.new_finding_ids[0]! } }),
      );
      expect(body.frameworks).toEqual([
        {
          name: 'pci-dss',
          controls: ['ctrl_pcidss_11_3_1'],
          control_details: [
            { id: 'ctrl_pcidss_11_3_1', reference: '11.3.1', name: 'Internal vulnerability scanning' },
          ],
        },
      ]);
    });

    it('clears fields set to null and leaves fields it is not sent', async () => {
      const { api, ids } = await seeded();
      const params = { finding_id: ids.info };
      await api.call(updateFindingRoute, { params, body: { assignee: 'bob@example.test', notes: 'x' } });
      const res = await api.call(updateFindingRoute, { params, body: { assignee: null } });
      expect(res.body).toMatchObject({ assignee: null, notes: 'x' });
    });

    it('accepts as assignee any address an account logs in with, such as the default admin@localhost', async () => {
      const { api, ids, admin } = await seeded();
      for (const assignee of ['admin@localhost', admin.email]) {
        const res = await api.call(updateFindingRoute, {
          params: { finding_id: ids.info },
          body: { assignee },
        });
        expect(res.status, assignee).toBe(200);
        expect(res.body.assignee).toBe(assignee);
      }
    });

    it('answers 422 naming the field for invalid values or an empty body', async () => {
      const { api, ids } = await seeded();
      for (const [json, field] of [
        [{ status: 'closed' }, 'status'],
        [{ priority: 'p5' }, 'priority'],
        [{ assignee: 'not an e-mail' }, 'assignee'],
        [{ due_date: 'tomorrow' }, 'due_date'],
      ] as const) {
        // Each body breaks the contract on purpose.
        const res = await api.call(updateFindingRoute, {
          params: { finding_id: ids.info },
          body: json as never,
        });
        expect(res.status, JSON.stringify(json)).toBe(422);
        expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field });
      }
      const empty = await api.call(updateFindingRoute, { params: { finding_id: ids.info }, body: {} });
      await expectError(empty, 422, 'VALIDATION_ERROR');
    });

    it('answers 400 for malformed JSON and 404 for an unknown finding', async () => {
      const { api, ids, bearer } = await seeded();
      const bad = await suite.app.request(`/api/v1/findings/${ids.info}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${await bearer()}`, 'content-type': 'application/json' },
        body: '{"status":',
      });
      await expectError(bad, 400, 'BAD_REQUEST');
      const missing = await api.call(updateFindingRoute, {
        params: { finding_id: 'finding_missing' },
        body: { status: 'open' },
      });
      await expectError(missing, 404, 'NOT_FOUND');
    });
  });

  describe('POST /api/v1/findings/{finding_id}/comments', () => {
    it('answers 201 with the comment, authored by the caller, and lists it on the finding', async () => {
      const { api, ids, admin } = await seeded();
      const params = { finding_id: ids.critical };
      const res = await api.call(addFindingCommentRoute, {
        params,
        body: { text: 'Patched in staging, rolling out.' },
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^comment_[0-9a-z]{24}$/),
        finding_id: ids.critical,
        user: admin.email,
        text: 'Patched in staging, rolling out.',
        created_at: expect.stringMatching(ISO),
      });
      const detail = await api.call(getFindingRoute, { params });
      expect(detail.body.comments.at(-1)).toEqual({
        id: res.body.id,
        user: admin.email,
        text: 'Patched in staging, rolling out.',
        created_at: res.body.created_at,
      });
    });

    it('names the creator of an API key as the author of its comments and status changes', async () => {
      const tenant = await seeded();
      const params = { finding_id: tenant.ids.critical };
      const member = await tenant.addUser('member');
      const key = await tenant.apiKey(['read:findings', 'write:findings'], member);
      const auth = apiClient(suite.app, { apiKey: key });
      const comment = await auth.call(addFindingCommentRoute, { params, body: { text: 'via key' } });
      expect(comment.status).toBe(201);
      expect(comment.body.user).toBe(member.email);
      await auth.call(updateFindingRoute, {
        params,
        body: { status: 'accepted', justification: 'compensating control' },
      });
      const detail = await auth.call(getFindingRoute, { params });
      expect(detail.body.history.at(-1)).toMatchObject({ to: 'accepted', user: member.email });
    });

    it('answers 422 for empty, blank or too long text, and 404 for an unknown finding', async () => {
      const { api, ids } = await seeded();
      for (const json of [{}, { text: '' }, { text: '   ' }, { text: 'x'.repeat(10_001) }]) {
        // Each body breaks the contract on purpose.
        const res = await api.call(addFindingCommentRoute, {
          params: { finding_id: ids.critical },
          body: json as never,
        });
        expect(res.status).toBe(422);
        expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'text' });
      }
      const longest = await api.call(addFindingCommentRoute, {
        params: { finding_id: ids.critical },
        body: { text: 'y'.repeat(10_000) },
      });
      expect(longest.status).toBe(201);
      const missing = await api.call(addFindingCommentRoute, {
        params: { finding_id: 'finding_missing' },
        body: { text: 'hi' },
      });
      expect(missing.status).toBe(404);
    });
  });

  describe('POST /api/v1/findings/bulk', () => {
    it('updates the listed findings in one go, with history, and reports unknown ids', async () => {
      const { api, ids, admin } = await seeded();
      const res = await api.call(bulkUpdateFindingsRoute, {
        body: {
          finding_ids: [ids.high, ids.info, ids.info, 'finding_unknown'],
          update: { status: 'resolved', notes: 'Fixed in release 4.2' },
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        updated: 2,
        failed: [{ id: 'finding_unknown', error_code: 'NOT_FOUND', detail: 'finding not found' }],
      });
      for (const id of [ids.high, ids.info]) {
        const { body } = await api.call(getFindingRoute, { params: { finding_id: id } });
        expect(body).toMatchObject({ status: 'resolved', notes: 'Fixed in release 4.2' });
        expect(body.history.at(-1)).toMatchObject({ to: 'resolved', user: admin.email });
      }
    });

    it('answers 422 for no ids, more than 1000 ids, or a bad status', async () => {
      const { api, ids } = await seeded();
      const cases = [
        [{ finding_ids: [], update: { status: 'open' } }, 'finding_ids'],
        [
          { finding_ids: Array.from({ length: 1001 }, (_, i) => `finding_${i}`), update: { status: 'open' } },
          'finding_ids',
        ],
        [{ finding_ids: [ids.high], update: { status: 'done' } }, 'update.status'],
        [{ finding_ids: [ids.high] }, 'update'],
      ] as const;
      for (const [json, field] of cases) {
        // Each body breaks the contract on purpose.
        const res = await api.call(bulkUpdateFindingsRoute, { body: json as never });
        expect(res.status).toBe(422);
        expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field });
      }
    });

    it('accepts exactly 1000 ids', async () => {
      const { api, ids } = await seeded();
      const res = await api.call(bulkUpdateFindingsRoute, {
        body: {
          finding_ids: [ids.high, ...Array.from({ length: 999 }, (_, i) => `finding_x${i}`)],
          update: { status: 'open' },
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.updated).toBe(1);
      expect(res.body.failed).toHaveLength(999);
    });
  });

  describe('API key permissions', () => {
    it('lets read:findings read and refuses it writes; lets write:findings write', async () => {
      const tenant = await seeded();
      const { ids } = tenant;
      const readKey = await tenant.apiKey(['read:findings']);
      const writeKey = await tenant.apiKey(['write:findings']);
      const scansKey = await tenant.apiKey(['read:scans']);
      const reads = [
        '/api/v1/findings',
        `/api/v1/findings/${ids.critical}`,
        '/api/v1/findings/stats',
        '/api/v1/findings/export?format=csv',
      ];
      for (const path of reads) {
        expect((await apiClient(suite.app, { apiKey: readKey }).get(path)).status, path).toBe(200);
        for (const key of [writeKey, scansKey]) {
          const refused = await apiClient(suite.app, { apiKey: key }).get(path);
          expect(refused.status, path).toBe(403);
          expect(refused.body.error_code).toBe('INSUFFICIENT_PERMISSION');
        }
      }
      const writes: [string, string, unknown][] = [
        ['PATCH', `/api/v1/findings/${ids.critical}`, { notes: 'n' }],
        ['POST', `/api/v1/findings/${ids.critical}/comments`, { text: 't' }],
        ['POST', '/api/v1/findings/bulk', { finding_ids: [ids.critical], update: { status: 'open' } }],
      ];
      for (const [method, path, json] of writes) {
        const refused = await apiClient(suite.app, { apiKey: readKey }).send(method, path, json);
        expect(refused.status, path).toBe(403);
        expect(refused.body.error_code).toBe('INSUFFICIENT_PERMISSION');
        const ok = await apiClient(suite.app, { apiKey: writeKey }).send(method, path, json);
        expect(ok.status, path).toBeLessThan(300);
      }
    });
  });
});
