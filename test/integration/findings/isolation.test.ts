import { beforeAll, describe, expect, it } from 'vitest';
import { getFindingRoute, listFindingsRoute } from '../../../server/routes/findings.ts';
import { okBody, type ApiClient } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, detection, runScan } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';
import type { FindingStats } from '../../../server/schemas/findings.ts';

/**
 * Another organization's findings do not exist for the caller: every id of
 * theirs answers exactly like a missing one, and nothing of theirs changes.
 */
describe(`findings across organizations (${testEngine})`, () => {
  let app: TestApp;
  let theirApi: ApiClient;
  let ourId: string;
  let theirIds: string[];
  let theirScan: string;
  let ourToken: string;
  let ourKey: string;

  /** Their findings as they see them: the list, and each one's detail with its comments and history. */
  const snapshot = async () => {
    const list = okBody(await theirApi.call(listFindingsRoute, { query: { per_page: 100 } }), 200);
    const details = [];
    for (const { id } of list.items) {
      details.push(okBody(await theirApi.call(getFindingRoute, { params: { finding_id: id } }), 200));
    }
    return { list, details };
  };

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    const db = app.services.db;
    const them = await factory.tenant(app, { plan: 'enterprise' });
    const us = await factory.tenant(app, { plan: 'professional' });
    theirApi = them.api;
    const { scan, summary } = await runScan(db, them.orgId, [
      detection({ severity: 'critical', target: 'shared.example.test', cve_ids: ['CVE-2024-0001'] }),
      detection({ severity: 'high', target: 'shared.example.test' }),
    ]);
    theirScan = scan.id;
    theirIds = summary.new_finding_ids;
    const ours = await runScan(db, us.orgId, [detection({ severity: 'low', target: 'ours.example.test' })]);
    ourId = ours.summary.new_finding_ids[0]!;
    ourToken = await us.login();
    ourKey = await us.apiKey(['read:findings', 'write:findings']);
  });

  const credentials = (): Record<string, string>[] => [
    { authorization: `Bearer ${ourToken}` },
    { 'x-api-key': ourKey },
  ];

  const send = async <T = Record<string, unknown>>(
    headers: Record<string, string>,
    method: string,
    path: string,
    json?: unknown,
  ) => {
    const res = await app.request(path, {
      method,
      headers: { ...headers, ...(json ? { 'content-type': 'application/json' } : {}) },
      ...(json ? { body: JSON.stringify(json) } : {}),
    });
    return { status: res.status, body: (await res.json()) as T };
  };

  it('answers 404 NOT_FOUND, like a missing id, to every operation on their findings, changing nothing', async () => {
    const before = await snapshot();
    for (const headers of credentials()) {
      for (const id of [...theirIds, 'finding_000000000000000000000000']) {
        const operations: [string, string, unknown?][] = [
          ['GET', `/api/v1/findings/${id}`],
          [
            'PATCH',
            `/api/v1/findings/${id}`,
            { status: 'false_positive', notes: 'mine now', justification: 'not ours' },
          ],
          ['POST', `/api/v1/findings/${id}/comments`, { text: 'hello' }],
        ];
        for (const [method, path, json] of operations) {
          const res = await send(headers, method, path, json);
          expect(res.status, `${method} ${path}`).toBe(404);
          expect(res.body).toEqual({ detail: 'finding not found', error_code: 'NOT_FOUND' });
        }
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('reports their ids as NOT_FOUND failures in a bulk update and changes none of them', async () => {
    const before = await snapshot();
    for (const headers of credentials()) {
      const res = await send(headers, 'POST', '/api/v1/findings/bulk', {
        finding_ids: [...theirIds, ourId],
        update: { status: 'accepted', notes: 'bulk', justification: 'bulk' },
      });
      expect(res.status).toBe(200);
      expect(res.body.updated).toBe(1);
      expect(res.body.failed).toEqual(
        theirIds.map((id) => ({ id, error_code: 'NOT_FOUND', detail: 'finding not found' })),
      );
    }
    expect(await snapshot()).toEqual(before);
  });

  it('never lists, counts or exports their findings, whatever the filter', async () => {
    for (const headers of credentials()) {
      for (const query of [
        '',
        `?scan_id=${theirScan}`,
        '?target=shared.example.test',
        '?cve=CVE-2024-0001',
      ]) {
        const res = await send<{ items: { target: string }[] }>(headers, 'GET', `/api/v1/findings${query}`);
        expect(res.status).toBe(200);
        expect(res.body.items.map((i) => i.target)).toEqual(query === '' ? ['ours.example.test'] : []);
      }
      const stats = await send<FindingStats>(headers, 'GET', '/api/v1/findings/stats');
      expect(stats.body.total).toBe(1);
      expect(stats.body.by_severity.critical).toBe(0);

      const exported = await app.request('/api/v1/findings/export?format=json', { headers });
      const items = (await exported.json()) as { target: string }[];
      expect(items.map((i) => i.target)).toEqual(['ours.example.test']);
    }
  });
});
