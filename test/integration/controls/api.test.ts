import { beforeAll, describe, expect, it } from 'vitest';
import type { Permission } from '../../../server/schemas/common.ts';
import { CONTROLS, controlsOfFramework } from '../../../server/controls/catalogue.ts';
import { insertScanEvidence } from '../../../server/controls/control-evidence.repository.ts';
import { newId } from '../../../server/identity/ids.ts';
import type { PageOf } from '../../../server/schemas/common.ts';
import type { Control, ControlDetail, ControlEvidence } from '../../../server/schemas/controls.ts';
import { apiClient, ISO_MS, type ApiClient } from '../../helpers/api-client.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, detection, insertScan, runScan, type Tenant } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

const CC7_1 = 'ctrl_soc2_cc7_1';
const CC6_7 = 'ctrl_soc2_cc6_7';
const PCI_4_2_1 = 'ctrl_pcidss_4_2_1';

// Its tests still lean on each other's order (seed 13 fails on both engines): in file order
// until they each own their data (issue 20, item 3).
describe(`compliance controls API (${testEngine})`, { shuffle: false }, () => {
  const suite = useTestApp();

  /** What the scan runner writes when a completed scan assessed the controls. */
  const recordScanEvidence = async (orgId: string, controlIds: string[]) => {
    const scan = await insertScan(suite.db, orgId);
    await insertScanEvidence(
      suite.db,
      orgId,
      controlIds.map((controlId) => ({
        id: newId('evid'),
        control_id: controlId,
        scan_id: scan.id,
        title: `quick scan of ${scan.target}`,
        description: `Assessed by scan ${scan.id}.`,
      })),
    );
    return scan.id;
  };

  const allControls = async (auth: ApiClient) => {
    const res = await auth.get<PageOf<Control>>('/api/v1/controls?per_page=100');
    expect(res.status).toBe(200);
    return new Map(res.body.items.map((c) => [c.id, c]));
  };

  describe('listing', () => {
    let auth: ApiClient;
    beforeAll(async () => {
      auth = await (await factory.tenant(suite.app, { plan: 'professional' })).client();
    });

    it('lists the whole catalogue in catalogue order with the full pagination envelope', async () => {
      const res = await auth.get<PageOf<Control>>('/api/v1/controls');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: CONTROLS.length, page: 1, per_page: 20 });
      expect(res.body.pages).toBe(Math.ceil(CONTROLS.length / 20));
      expect(res.body.items.map((c) => c.id)).toEqual(CONTROLS.slice(0, 20).map((c) => c.id));
      const first = res.body.items[0]!;
      expect(Object.keys(first)).toEqual([
        'id',
        'name',
        'status',
        'frameworks',
        'evidence_count',
        'reference',
        'description',
      ]);
      expect(first).toMatchObject({
        id: CONTROLS[0]!.id,
        name: CONTROLS[0]!.name,
        status: 'not_assessed',
        frameworks: [CONTROLS[0]!.framework],
        evidence_count: 0,
        reference: CONTROLS[0]!.reference,
      });
    });

    it('pages through the catalogue without repeats or gaps, and past the end returns no items', async () => {
      const seen: string[] = [];
      for (let page = 1; page <= Math.ceil(CONTROLS.length / 7); page++) {
        const res = await auth.get<PageOf<Control>>(`/api/v1/controls?per_page=7&page=${page}`);
        expect(res.body.pages).toBe(Math.ceil(CONTROLS.length / 7));
        seen.push(...res.body.items.map((c) => c.id));
      }
      expect(seen).toEqual(CONTROLS.map((c) => c.id));
      const past = await auth.get<PageOf<Control>>('/api/v1/controls?per_page=7&page=99');
      expect(past.body).toMatchObject({ items: [], total: CONTROLS.length, page: 99 });
    });

    it('filters by framework', async () => {
      for (const framework of ['soc2', 'pci-dss', 'iso27001'] as const) {
        const res = await auth.get<PageOf<Control>>(`/api/v1/controls?framework=${framework}&per_page=100`);
        expect(res.body.total).toBe(controlsOfFramework(framework).length);
        expect(res.body.items.map((c) => c.id)).toEqual(controlsOfFramework(framework).map((c) => c.id));
        expect(res.body.items.every((c) => c.frameworks.join() === framework)).toBe(true);
      }
    });

    it('refuses unknown filter values and out-of-range pagination, naming the parameter', async () => {
      for (const [query, field] of [
        ['framework=hipaa', 'framework'],
        ['status=green', 'status'],
        ['per_page=101', 'per_page'],
        ['page=0', 'page'],
      ] as const) {
        const res = await auth.get(`/api/v1/controls?${query}`);
        expect(res.status, query).toBe(422);
        expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field });
      }
    });

    it('answers 404 NOT_FOUND for an unknown control', async () => {
      const res = await auth.get('/api/v1/controls/ctrl_soc2_cc99_9');
      expect(res.status).toBe(404);
      expect(res.body.error_code).toBe('NOT_FOUND');
    });
  });

  describe('status', () => {
    let tenant: Tenant;
    let auth: ApiClient;
    beforeAll(async () => {
      tenant = await factory.tenant(suite.app, { plan: 'professional' });
      auth = await tenant.client();
    });

    const statusOf = async (id: string) => (await allControls(auth)).get(id)!;
    const setStatus = async (findingId: string, status: string) => {
      const justified = status === 'accepted' || status === 'false_positive';
      const res = await auth.patch(`/api/v1/findings/${findingId}`, {
        status,
        ...(justified ? { justification: 'settled in review' } : {}),
      });
      expect(res.status).toBe(200);
    };

    it('moves not_assessed → passing after a completed scan → failing with an open finding → passing when resolved', async () => {
      expect(await statusOf(CC7_1)).toMatchObject({ status: 'not_assessed', evidence_count: 0 });

      await recordScanEvidence(tenant.orgId, [CC7_1, PCI_4_2_1]);
      expect(await statusOf(CC7_1)).toMatchObject({ status: 'passing', evidence_count: 1 });
      expect(await statusOf(PCI_4_2_1)).toMatchObject({ status: 'passing', evidence_count: 1 });

      await runScan(suite.db, tenant.orgId, [
        detection({ check_id: 'status-check', frameworks: [{ name: 'soc2', controls: [CC7_1] }] }),
      ]);
      const finding = (await suite
        .db('findings')
        .where({ org_id: tenant.orgId, template_id: 'status-check' })
        .first('id')) as { id: string };
      expect(await statusOf(CC7_1)).toMatchObject({ status: 'failing', evidence_count: 1 });
      expect((await statusOf(PCI_4_2_1)).status).toBe('passing');

      await setStatus(finding.id, 'in_progress');
      expect((await statusOf(CC7_1)).status).toBe('failing');

      await setStatus(finding.id, 'resolved');
      expect(await statusOf(CC7_1)).toMatchObject({ status: 'passing', evidence_count: 1 });

      await setStatus(finding.id, 'open');
      expect((await statusOf(CC7_1)).status).toBe('failing');
      for (const settled of ['false_positive', 'accepted']) {
        await setStatus(finding.id, settled);
        expect((await statusOf(CC7_1)).status, settled).toBe('passing');
      }
    });

    it('fails a control that no scan assessed when an open finding maps to it', async () => {
      expect((await statusOf(CC6_7)).status).toBe('not_assessed');
      await runScan(suite.db, tenant.orgId, [
        detection({ check_id: 'tls-check', frameworks: [{ name: 'soc2', controls: [CC6_7] }] }),
      ]);
      expect(await statusOf(CC6_7)).toMatchObject({ status: 'failing', evidence_count: 0 });
    });

    it('filters by status with the same rule', async () => {
      const failing = await auth.get<PageOf<Control>>('/api/v1/controls?status=failing&per_page=100');
      const passing = await auth.get<PageOf<Control>>('/api/v1/controls?status=passing&per_page=100');
      const notAssessed = await auth.get<PageOf<Control>>(
        '/api/v1/controls?status=not_assessed&per_page=100',
      );
      expect(failing.body.items.map((c) => c.id)).toEqual([CC6_7]);
      expect(passing.body.items.map((c) => c.id)).toEqual([CC7_1, PCI_4_2_1]);
      expect(notAssessed.body.total).toBe(CONTROLS.length - 3);
      expect(notAssessed.body.items.every((c) => c.status === 'not_assessed')).toBe(true);

      const both = await auth.get<PageOf<Control>>('/api/v1/controls?status=passing&framework=pci-dss');
      expect(both.body.items.map((c) => c.id)).toEqual([PCI_4_2_1]);
      expect(both.body.total).toBe(1);
    });

    it('counts every scan that assessed a control and every user evidence, without changing the status', async () => {
      await recordScanEvidence(tenant.orgId, [PCI_4_2_1]);
      const res = await auth.post<ControlEvidence>(`/api/v1/controls/${PCI_4_2_1}/evidence`, {
        title: 'TLS configuration review',
        description: 'Evidence for the test.',
      });
      expect(res.status).toBe(201);
      expect(await statusOf(PCI_4_2_1)).toMatchObject({ status: 'passing', evidence_count: 3 });

      const ctrl = 'ctrl_pcidss_11_4_1';
      await auth.post(`/api/v1/controls/${ctrl}/evidence`, {
        title: 'Pentest report',
        description: 'Evidence for the test.',
      });
      expect(await statusOf(ctrl)).toMatchObject({ status: 'not_assessed', evidence_count: 1 });
    });
  });

  describe('detail and evidence', () => {
    let tenant: Tenant;
    let auth: ApiClient;
    let scanId: string;
    beforeAll(async () => {
      tenant = await factory.tenant(suite.app, { plan: 'professional' });
      auth = await tenant.client();
      scanId = await recordScanEvidence(tenant.orgId, [CC7_1]);
      await runScan(suite.db, tenant.orgId, [
        detection({
          check_id: 'detail-high',
          severity: 'high',
          frameworks: [{ name: 'soc2', controls: [CC7_1] }],
        }),
        detection({
          check_id: 'detail-low',
          severity: 'low',
          frameworks: [{ name: 'soc2', controls: [CC7_1] }],
        }),
        detection({
          check_id: 'detail-resolved',
          severity: 'critical',
          frameworks: [{ name: 'soc2', controls: [CC7_1] }],
        }),
        detection({ check_id: 'detail-other', frameworks: [{ name: 'soc2', controls: [CC6_7] }] }),
      ]);
      await suite
        .db('findings')
        .where({ org_id: tenant.orgId, template_id: 'detail-resolved' })
        .update({ status: 'resolved' });
    });

    it('returns the control with its open findings (most severe first) and its evidence', async () => {
      const res = await auth.get<ControlDetail>(`/api/v1/controls/${CC7_1}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: CC7_1,
        status: 'failing',
        frameworks: ['soc2'],
        reference: 'CC7.1',
        evidence_count: 1,
        findings_total: 2,
      });
      expect(res.body.findings.map((f) => [f.template_id, f.severity, f.status])).toEqual([
        ['detail-high', 'high', 'open'],
        ['detail-low', 'low', 'open'],
      ]);
      expect(res.body.findings[0]!.frameworks).toEqual(['soc2']);
      expect(res.body.evidence).toHaveLength(1);
      expect(res.body.evidence[0]).toMatchObject({
        kind: 'scan',
        scan_id: scanId,
        control_id: CC7_1,
        url: null,
      });
      expect(res.body.evidence[0]).not.toHaveProperty('created_by');
      expect(res.body.evidence[0]!.created_at).toMatch(ISO_MS);
    });

    it('attaches user evidence: 201 with the record, listed first in the detail and counted', async () => {
      const res = await auth.post<ControlEvidence>(`/api/v1/controls/${CC7_1}/evidence`, {
        title: '  Quarterly vulnerability management review  ',
        description: 'Signed off by the CISO.',
        url: 'https://wiki.example.test/vm-review',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        control_id: CC7_1,
        kind: 'user',
        title: 'Quarterly vulnerability management review',
        description: 'Signed off by the CISO.',
        url: 'https://wiki.example.test/vm-review',
        scan_id: null,
        created_by: tenant.admin.email,
      });
      expect(res.body.id).toMatch(/^evid_[0-9a-z]{24}$/);
      expect(res.body.created_at).toMatch(ISO_MS);

      const minimal = await auth.post<ControlEvidence>(`/api/v1/controls/${CC7_1}/evidence`, {
        title: 'Patch policy',
        description: 'Evidence for the test.',
      });
      expect(minimal.status).toBe(201);
      expect(minimal.body).toMatchObject({
        title: 'Patch policy',
        description: 'Evidence for the test.',
        url: null,
      });

      const detail = await auth.get<ControlDetail>(`/api/v1/controls/${CC7_1}`);
      expect(detail.body.evidence_count).toBe(3);
      expect(detail.body.evidence.map((e) => e.id)).toEqual([
        minimal.body.id,
        res.body.id,
        detail.body.evidence[2]!.id,
      ]);
      expect(detail.body.evidence[2]!.kind).toBe('scan');
    });

    it('validates the evidence body, naming the field', async () => {
      const url = `/api/v1/controls/${CC7_1}/evidence`;
      for (const [json, field] of [
        [{}, 'title'],
        [{ title: '   ' }, 'title'],
        [{ title: 'x'.repeat(201) }, 'title'],
        [{ title: 'ok', description: 'x'.repeat(5001) }, 'description'],
        [{ title: 'ok' }, 'description'],
        [{ title: 'ok', description: '  ' }, 'description'],
        [{ title: 'ok', description: 'd', url: 'ftp://files.example.test/report.pdf' }, 'url'],
        [{ title: 'ok', description: 'd', url: 'javascript:alert(1)' }, 'url'],
        [{ title: 'ok', description: 'd', url: 'not a url' }, 'url'],
      ] as const) {
        const res = await auth.post(url, json);
        expect(res.status, JSON.stringify(json)).toBe(422);
        expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field });
      }
      const ok = await auth.post(url, { title: 'x'.repeat(200), description: 'y'.repeat(5000) });
      expect(ok.status).toBe(201);
    });

    it('answers 404 NOT_FOUND when attaching evidence to an unknown control and stores nothing', async () => {
      const res = await auth.post('/api/v1/controls/ctrl_nope/evidence', {
        title: 'x',
        description: 'Evidence for the test.',
      });
      expect(res.status).toBe(404);
      expect(res.body.error_code).toBe('NOT_FOUND');
      expect(await suite.db('control_evidence').where({ control_id: 'ctrl_nope' })).toHaveLength(0);
    });
  });

  describe('organization isolation', () => {
    it("never counts another organization's evidence or findings", async () => {
      const them = await factory.tenant(suite.app, { plan: 'professional' });
      const us = await factory.tenant(suite.app, { plan: 'professional' });
      const theirAuth = await them.client();
      const ourAuth = await us.client();

      await recordScanEvidence(them.orgId, [CC7_1]);
      await theirAuth.post(`/api/v1/controls/${CC7_1}/evidence`, {
        title: 'Theirs',
        description: 'Evidence for the test.',
      });
      await runScan(suite.db, them.orgId, [detection({ frameworks: [{ name: 'soc2', controls: [CC6_7] }] })]);

      const theirs = await allControls(theirAuth);
      expect(theirs.get(CC7_1)).toMatchObject({ status: 'passing', evidence_count: 2 });
      expect(theirs.get(CC6_7)?.status).toBe('failing');

      const ours = await allControls(ourAuth);
      expect(ours.get(CC7_1)).toMatchObject({ status: 'not_assessed', evidence_count: 0 });
      expect(ours.get(CC6_7)).toMatchObject({ status: 'not_assessed', evidence_count: 0 });
      expect([...ours.values()].every((c) => c.status === 'not_assessed' && c.evidence_count === 0)).toBe(
        true,
      );

      const detail = await ourAuth.get<ControlDetail>(`/api/v1/controls/${CC6_7}`);
      expect(detail.body).toMatchObject({ findings: [], findings_total: 0, evidence: [], evidence_count: 0 });
      const detailOfTheirs = await ourAuth.get<ControlDetail>(`/api/v1/controls/${CC7_1}`);
      expect(detailOfTheirs.body.evidence).toEqual([]);
    });
  });

  describe('permissions', () => {
    let tenant: Tenant;
    beforeAll(async () => {
      tenant = await factory.tenant(suite.app, { plan: 'professional' });
    });
    const keyWith = (...permissions: Permission[]) => tenant.keyClient(permissions);

    it('lets a read:grc key read controls but not attach evidence', async () => {
      const auth = await keyWith('read:grc');
      expect((await auth.get('/api/v1/controls')).status).toBe(200);
      expect((await auth.get(`/api/v1/controls/${CC7_1}`)).status).toBe(200);
      const res = await auth.post(`/api/v1/controls/${CC7_1}/evidence`, {
        title: 'x',
        description: 'Evidence for the test.',
      });
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe('INSUFFICIENT_PERMISSION');
    });

    it('lets a write:grc key attach evidence, authored by the key’s creator, but not read', async () => {
      const auth = await keyWith('write:grc');
      const res = await auth.post<ControlEvidence>(`/api/v1/controls/${CC7_1}/evidence`, {
        title: 'From CI',
        description: 'Evidence for the test.',
      });
      expect(res.status).toBe(201);
      expect(res.body.created_by).toBe(tenant.admin.email);
      const read = await auth.get('/api/v1/controls');
      expect(read.status).toBe(403);
      expect(read.body.error_code).toBe('INSUFFICIENT_PERMISSION');
    });

    it('refuses keys with only findings or scans permissions, and callers without credentials', async () => {
      const auth = await keyWith('read:findings', 'write:findings', 'read:scans', 'write:scans');
      expect((await auth.get('/api/v1/controls')).status).toBe(403);
      expect(
        (
          await auth.post(`/api/v1/controls/${CC7_1}/evidence`, {
            title: 'x',
            description: 'Evidence for the test.',
          })
        ).status,
      ).toBe(403);
      const anonymous = await apiClient(suite.app).get('/api/v1/controls');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error_code).toBe('AUTHENTICATION_REQUIRED');
    });

    it('lets a member with a bearer token attach evidence', async () => {
      const member = await tenant.addUser('member');
      const auth = await tenant.client(member);
      const res = await auth.post<ControlEvidence>(`/api/v1/controls/${CC7_1}/evidence`, {
        title: 'Member evidence',
        description: 'Evidence for the test.',
      });
      expect(res.status).toBe(201);
      expect(res.body.created_by).toBe(member.email);
    });
  });
});
