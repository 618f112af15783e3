import { describe, expect, it } from 'vitest';
import type { Permission } from '../../../server/schemas/common.ts';
import type { FindingStatus } from '../../../server/schemas/findings.ts';
import { CONTROLS, controlsOfFramework } from '../../../server/controls/catalogue.ts';
import { evidenceTallies, insertScanEvidence } from '../../../server/controls/control-evidence.repository.ts';
import { newId } from '../../../server/identity/ids.ts';
import {
  addControlEvidenceRoute,
  getControlRoute,
  listControlsRoute,
} from '../../../server/routes/controls.ts';
import { listFindingsRoute, updateFindingRoute } from '../../../server/routes/findings.ts';
import { apiClient, expectError, ISO_MS, okBody, type ApiClient } from '../../helpers/api-client.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, detection, insertScan, runScan } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

const CC7_1 = 'ctrl_soc2_cc7_1';
const CC6_7 = 'ctrl_soc2_cc6_7';
const PCI_4_2_1 = 'ctrl_pcidss_4_2_1';

const evidenceBody = (title: string) => ({ title, description: 'Evidence for the test.' });

describe(`compliance controls API (${testEngine})`, () => {
  const suite = useTestApp();

  /** A tenant of its own (professional plan): each test reads and changes only its own controls. */
  const tenant = () => factory.tenant(suite.app, { plan: 'professional' });

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

  const allControls = async (api: ApiClient) => {
    const page = okBody(await api.call(listControlsRoute, { query: { per_page: 100 } }), 200);
    return new Map(page.items.map((c) => [c.id, c]));
  };

  /** Sets a finding's status through the API, with the justification a settled status needs. */
  const setStatus = async (api: ApiClient, findingId: string, status: FindingStatus) => {
    const justified = status === 'accepted' || status === 'false_positive';
    okBody(
      await api.call(updateFindingRoute, {
        params: { finding_id: findingId },
        body: { status, ...(justified ? { justification: 'settled in review' } : {}) },
      }),
      200,
    );
  };

  /** The id of the tenant's one finding of a check. */
  const findingOf = async (api: ApiClient, templateId: string) => {
    const { items } = okBody(await api.call(listFindingsRoute, { query: { template_id: templateId } }));
    expect(items).toHaveLength(1);
    return items[0]!.id;
  };

  describe('listing', () => {
    it('lists the whole catalogue in catalogue order with the full pagination envelope', async () => {
      const { api } = await tenant();
      const res = await api.call(listControlsRoute);
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
      const { api } = await tenant();
      const seen: string[] = [];
      for (let page = 1; page <= Math.ceil(CONTROLS.length / 7); page++) {
        const res = await api.call(listControlsRoute, { query: { per_page: 7, page } });
        expect(res.body.pages).toBe(Math.ceil(CONTROLS.length / 7));
        seen.push(...res.body.items.map((c) => c.id));
      }
      expect(seen).toEqual(CONTROLS.map((c) => c.id));
      const past = await api.call(listControlsRoute, { query: { per_page: 7, page: 99 } });
      expect(past.body).toMatchObject({ items: [], total: CONTROLS.length, page: 99 });
    });

    it('filters by framework', async () => {
      const { api } = await tenant();
      for (const framework of ['soc2', 'pci-dss', 'iso27001'] as const) {
        const res = await api.call(listControlsRoute, { query: { framework, per_page: 100 } });
        expect(res.body.total).toBe(controlsOfFramework(framework).length);
        expect(res.body.items.map((c) => c.id)).toEqual(controlsOfFramework(framework).map((c) => c.id));
        expect(res.body.items.every((c) => c.frameworks.join() === framework)).toBe(true);
      }
    });

    it('refuses unknown filter values and out-of-range pagination, naming the parameter', async () => {
      const { api } = await tenant();
      for (const [query, field] of [
        [{ framework: 'hipaa' }, 'framework'],
        [{ status: 'green' }, 'status'],
        [{ per_page: 101 }, 'per_page'],
        [{ page: 0 }, 'page'],
      ] as const) {
        await expectError(await api.call(listControlsRoute, { query }), 422, 'VALIDATION_ERROR', field);
      }
    });

    it('answers 404 NOT_FOUND for an unknown control', async () => {
      const { api } = await tenant();
      const res = await api.call(getControlRoute, { params: { control_id: 'ctrl_soc2_cc99_9' } });
      await expectError(res, 404, 'NOT_FOUND');
    });
  });

  describe('status', () => {
    const statusOf = async (api: ApiClient, id: string) => (await allControls(api)).get(id)!;

    it('moves not_assessed → passing after a completed scan → failing with an open finding → passing when resolved', async () => {
      const { api, orgId } = await tenant();
      expect(await statusOf(api, CC7_1)).toMatchObject({ status: 'not_assessed', evidence_count: 0 });

      await recordScanEvidence(orgId, [CC7_1, PCI_4_2_1]);
      expect(await statusOf(api, CC7_1)).toMatchObject({ status: 'passing', evidence_count: 1 });
      expect(await statusOf(api, PCI_4_2_1)).toMatchObject({ status: 'passing', evidence_count: 1 });

      const { summary } = await runScan(suite.db, orgId, [
        detection({ check_id: 'status-check', frameworks: [{ name: 'soc2', controls: [CC7_1] }] }),
      ]);
      expect(summary.new_finding_ids).toHaveLength(1);
      const findingId = summary.new_finding_ids[0]!;
      expect(await statusOf(api, CC7_1)).toMatchObject({ status: 'failing', evidence_count: 1 });
      expect((await statusOf(api, PCI_4_2_1)).status).toBe('passing');

      await setStatus(api, findingId, 'in_progress');
      expect((await statusOf(api, CC7_1)).status).toBe('failing');

      await setStatus(api, findingId, 'resolved');
      expect(await statusOf(api, CC7_1)).toMatchObject({ status: 'passing', evidence_count: 1 });

      await setStatus(api, findingId, 'open');
      expect((await statusOf(api, CC7_1)).status).toBe('failing');
      for (const settled of ['false_positive', 'accepted'] as const) {
        await setStatus(api, findingId, settled);
        expect((await statusOf(api, CC7_1)).status, settled).toBe('passing');
      }
    });

    it('fails a control that no scan assessed when an open finding maps to it', async () => {
      const { api, orgId } = await tenant();
      expect((await statusOf(api, CC6_7)).status).toBe('not_assessed');
      await runScan(suite.db, orgId, [
        detection({ check_id: 'tls-check', frameworks: [{ name: 'soc2', controls: [CC6_7] }] }),
      ]);
      expect(await statusOf(api, CC6_7)).toMatchObject({ status: 'failing', evidence_count: 0 });
    });

    it('filters by status with the same rule', async () => {
      // Assessed: CC7_1 (its one finding accepted) and PCI_4_2_1; CC6_7 has an open finding.
      const { api, orgId } = await tenant();
      await recordScanEvidence(orgId, [CC7_1, PCI_4_2_1]);
      await runScan(suite.db, orgId, [
        detection({ check_id: 'settled-check', frameworks: [{ name: 'soc2', controls: [CC7_1] }] }),
        detection({ check_id: 'tls-check', frameworks: [{ name: 'soc2', controls: [CC6_7] }] }),
      ]);
      await setStatus(api, await findingOf(api, 'settled-check'), 'accepted');

      const listed = async (query: { status: string; framework?: string; per_page?: number }) =>
        okBody(await api.call(listControlsRoute, { query }), 200);
      const failing = await listed({ status: 'failing', per_page: 100 });
      const passing = await listed({ status: 'passing', per_page: 100 });
      const notAssessed = await listed({ status: 'not_assessed', per_page: 100 });
      expect(failing.items.map((c) => c.id)).toEqual([CC6_7]);
      expect(passing.items.map((c) => c.id)).toEqual([CC7_1, PCI_4_2_1]);
      expect(notAssessed.total).toBe(CONTROLS.length - 3);
      expect(notAssessed.items.every((c) => c.status === 'not_assessed')).toBe(true);

      const both = await listed({ status: 'passing', framework: 'pci-dss' });
      expect(both.items.map((c) => c.id)).toEqual([PCI_4_2_1]);
      expect(both.total).toBe(1);
    });

    it('counts every scan that assessed a control and every user evidence, without changing the status', async () => {
      const { api, orgId } = await tenant();
      await recordScanEvidence(orgId, [PCI_4_2_1]);
      await recordScanEvidence(orgId, [PCI_4_2_1]);
      const res = await api.call(addControlEvidenceRoute, {
        params: { control_id: PCI_4_2_1 },
        body: evidenceBody('TLS configuration review'),
      });
      expect(res.status).toBe(201);
      expect(await statusOf(api, PCI_4_2_1)).toMatchObject({ status: 'passing', evidence_count: 3 });

      const ctrl = 'ctrl_pcidss_11_4_1';
      okBody(
        await api.call(addControlEvidenceRoute, {
          params: { control_id: ctrl },
          body: evidenceBody('Pentest report'),
        }),
        201,
      );
      expect(await statusOf(api, ctrl)).toMatchObject({ status: 'not_assessed', evidence_count: 1 });
    });
  });

  describe('detail and evidence', () => {
    /**
     * A tenant of its own whose CC7_1 has one scan's evidence and three findings (high and low
     * open, critical resolved), with a fourth finding on CC6_7.
     */
    async function seeded() {
      const built = await tenant();
      const scanId = await recordScanEvidence(built.orgId, [CC7_1]);
      await runScan(suite.db, built.orgId, [
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
      await setStatus(built.api, await findingOf(built.api, 'detail-resolved'), 'resolved');
      return { ...built, scanId };
    }

    it('returns the control with its open findings (most severe first) and its evidence', async () => {
      const { api, scanId } = await seeded();
      const res = await api.call(getControlRoute, { params: { control_id: CC7_1 } });
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
      const { api, admin } = await seeded();
      const params = { control_id: CC7_1 };
      const res = await api.call(addControlEvidenceRoute, {
        params,
        body: {
          title: '  Quarterly vulnerability management review  ',
          description: 'Signed off by the CISO.',
          url: 'https://wiki.example.test/vm-review',
        },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        control_id: CC7_1,
        kind: 'user',
        title: 'Quarterly vulnerability management review',
        description: 'Signed off by the CISO.',
        url: 'https://wiki.example.test/vm-review',
        scan_id: null,
        created_by: admin.email,
      });
      expect(res.body.id).toMatch(/^evid_[0-9a-z]{24}$/);
      expect(res.body.created_at).toMatch(ISO_MS);

      const minimal = await api.call(addControlEvidenceRoute, { params, body: evidenceBody('Patch policy') });
      expect(minimal.status).toBe(201);
      expect(minimal.body).toMatchObject({
        title: 'Patch policy',
        description: 'Evidence for the test.',
        url: null,
      });

      const detail = okBody(await api.call(getControlRoute, { params }), 200);
      expect(detail.evidence_count).toBe(3);
      expect(detail.evidence.map((e) => e.id)).toEqual([
        minimal.body.id,
        res.body.id,
        detail.evidence[2]!.id,
      ]);
      expect(detail.evidence[2]!.kind).toBe('scan');
    });

    it('validates the evidence body, naming the field', async () => {
      const { api } = await seeded();
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
        // Each body breaks the contract on purpose.
        const res = await api.call(addControlEvidenceRoute, {
          params: { control_id: CC7_1 },
          body: json as never,
        });
        expect(res.status, JSON.stringify(json)).toBe(422);
        expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field });
      }
      const ok = await api.call(addControlEvidenceRoute, {
        params: { control_id: CC7_1 },
        body: { title: 'x'.repeat(200), description: 'y'.repeat(5000) },
      });
      expect(ok.status).toBe(201);
    });

    it('answers 404 NOT_FOUND when attaching evidence to an unknown control and stores nothing', async () => {
      const { api, orgId } = await tenant();
      const res = await api.call(addControlEvidenceRoute, {
        params: { control_id: 'ctrl_nope' },
        body: evidenceBody('x'),
      });
      await expectError(res, 404, 'NOT_FOUND');
      expect(await evidenceTallies(suite.db, orgId)).toEqual([]);
    });
  });

  describe('organization isolation', () => {
    it("never counts another organization's evidence or findings", async () => {
      const them = await tenant();
      const us = await tenant();

      await recordScanEvidence(them.orgId, [CC7_1]);
      okBody(
        await them.api.call(addControlEvidenceRoute, {
          params: { control_id: CC7_1 },
          body: evidenceBody('Theirs'),
        }),
        201,
      );
      await runScan(suite.db, them.orgId, [detection({ frameworks: [{ name: 'soc2', controls: [CC6_7] }] })]);

      const theirs = await allControls(them.api);
      expect(theirs.get(CC7_1)).toMatchObject({ status: 'passing', evidence_count: 2 });
      expect(theirs.get(CC6_7)?.status).toBe('failing');

      const ours = await allControls(us.api);
      expect(ours.get(CC7_1)).toMatchObject({ status: 'not_assessed', evidence_count: 0 });
      expect(ours.get(CC6_7)).toMatchObject({ status: 'not_assessed', evidence_count: 0 });
      expect([...ours.values()].every((c) => c.status === 'not_assessed' && c.evidence_count === 0)).toBe(
        true,
      );

      const detail = await us.api.call(getControlRoute, { params: { control_id: CC6_7 } });
      expect(detail.body).toMatchObject({ findings: [], findings_total: 0, evidence: [], evidence_count: 0 });
      const detailOfTheirs = await us.api.call(getControlRoute, { params: { control_id: CC7_1 } });
      expect(detailOfTheirs.body.evidence).toEqual([]);
    });
  });

  describe('permissions', () => {
    const params = { control_id: CC7_1 };

    it('lets a read:grc key read controls but not attach evidence', async () => {
      const api = await (await tenant()).keyClient(['read:grc']);
      expect((await api.call(listControlsRoute)).status).toBe(200);
      expect((await api.call(getControlRoute, { params })).status).toBe(200);
      const res = await api.call(addControlEvidenceRoute, { params, body: evidenceBody('x') });
      await expectError(res, 403, 'INSUFFICIENT_PERMISSION');
    });

    it('lets a write:grc key attach evidence, authored by the key’s creator, but not read', async () => {
      const { admin, keyClient } = await tenant();
      const api = await keyClient(['write:grc']);
      const res = await api.call(addControlEvidenceRoute, { params, body: evidenceBody('From CI') });
      expect(res.status).toBe(201);
      expect(res.body.created_by).toBe(admin.email);
      await expectError(await api.call(listControlsRoute), 403, 'INSUFFICIENT_PERMISSION');
    });

    it('refuses keys with only findings or scans permissions, and callers without credentials', async () => {
      const permissions: Permission[] = ['read:findings', 'write:findings', 'read:scans', 'write:scans'];
      const api = await (await tenant()).keyClient(permissions);
      expect((await api.call(listControlsRoute)).status).toBe(403);
      expect((await api.call(addControlEvidenceRoute, { params, body: evidenceBody('x') })).status).toBe(403);
      const anonymous = await apiClient(suite.app).call(listControlsRoute);
      await expectError(anonymous, 401, 'AUTHENTICATION_REQUIRED');
    });

    it('lets a member with a bearer token attach evidence', async () => {
      const built = await tenant();
      const member = await built.addUser('member');
      const api = await built.client(member);
      const res = await api.call(addControlEvidenceRoute, { params, body: evidenceBody('Member evidence') });
      expect(res.status).toBe(201);
      expect(res.body.created_by).toBe(member.email);
    });
  });
});
