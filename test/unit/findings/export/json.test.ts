import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ExportFinding, ExportMetadata } from '../../../../server/findings/export/export-finding.ts';
import { renderJson } from '../../../../server/findings/export/json.ts';
import { gate, makeFinding, readAll, streamOf } from '../../../fixtures/sample-findings.ts';

const metadata: ExportMetadata = {
  organization: 'Acme',
  generatedAt: new Date('2026-02-03T04:05:06Z'),
  filters: {},
};

async function exported(findings: ExportFinding[]): Promise<unknown> {
  const text = (await readAll(renderJson(streamOf(findings), metadata).body)).toString('utf8');
  return JSON.parse(text);
}

describe('JSON export', () => {
  it('is an empty array for no findings', async () => {
    expect(await exported([])).toEqual([]);
  });

  it('is a one-element array for one finding, equal to it', async () => {
    const finding = makeFinding();
    expect(await exported([finding])).toEqual([finding]);
  });

  it('holds many findings in order, unicode and line breaks intact', async () => {
    const findings = Array.from({ length: 250 }, (_, i) =>
      makeFinding({
        id: `finding_${i}`,
        title: `Finding ${i}: "quoted", Ünïcödé 漏洞 🚀\nsecond line`,
        epss_score: i % 2 === 0 ? null : i / 1000,
      }),
    );
    expect(await exported(findings)).toEqual(findings);
  });

  it('gives every finding the same keys, with a null cvss_vector when unknown', async () => {
    const withoutVector = makeFinding();
    delete withoutVector.cvss_vector;
    const [item, full] = (await exported([withoutVector, makeFinding()])) as Record<string, unknown>[];
    expect(item).toEqual({ ...withoutVector, cvss_vector: null });
    expect(Object.keys(item ?? {})).toEqual(Object.keys(full ?? {}));
  });

  it("writes the detail view's keys in its order, empty when the source did not read them", async () => {
    const {
      comments,
      history,
      asset_id,
      assignee,
      priority,
      due_date,
      overdue,
      notes,
      justification,
      justified_by,
      justified_at,
      acceptance_expires_at,
      updated_at,
      ...plain
    } = makeFinding();
    const [full, bare] = (await exported([makeFinding(), plain])) as Record<string, unknown>[];
    expect(Object.keys(full ?? {})).toEqual([
      'id',
      'title',
      'severity',
      'status',
      'cvss_score',
      'cvss_vector',
      'epss_score',
      'epss_snapshot_date',
      'target',
      'affected_component',
      'tool',
      'template_id',
      'cve_ids',
      'cwe_ids',
      'scan_id',
      'detected_at',
      'description',
      'impact',
      'remediation',
      'evidence',
      'frameworks',
      'comments',
      'history',
      'first_seen_at',
      'last_seen_at',
      'times_seen',
      'last_scan_id',
      'asset_id',
      'assignee',
      'priority',
      'due_date',
      'overdue',
      'notes',
      'justification',
      'justified_by',
      'justified_at',
      'acceptance_expires_at',
      'updated_at',
    ]);
    expect(full).toMatchObject({
      comments,
      history,
      asset_id,
      assignee,
      priority,
      due_date,
      overdue,
      notes,
      justification,
      justified_by,
      justified_at,
      acceptance_expires_at,
      updated_at,
    });
    expect(Object.keys(bare ?? {})).toEqual(Object.keys(full ?? {}));
    expect(bare).toMatchObject({
      comments: [],
      history: [],
      asset_id: null,
      assignee: null,
      priority: null,
      due_date: null,
      overdue: false,
      notes: null,
      justification: null,
      acceptance_expires_at: null,
      updated_at: null,
    });
  });

  it('leaves out columns that are not part of the detail view', async () => {
    const base = makeFinding();
    const row = {
      ...base,
      organization_id: 'org_secret',
      fingerprint: 'abc',
      comments: base.comments!.map((c) => ({ ...c, org_id: 'org_secret', seq: 1 })),
      history: base.history!.map((h) => ({ ...h, org_id: 'org_secret' })),
    };
    const [item] = (await exported([row])) as Record<string, unknown>[];
    expect(item).not.toHaveProperty('organization_id');
    expect(item).not.toHaveProperty('fingerprint');
    expect(JSON.stringify(item)).not.toContain('org_secret');
    expect(item).toEqual(makeFinding());
  });

  it('names the file after the generation date and declares UTF-8 JSON', () => {
    const rendered = renderJson(streamOf([]), metadata);
    expect(rendered.fileName).toBe('scanward-findings-2026-02-03.json');
    expect(rendered.contentType).toBe('application/json; charset=utf-8');
  });

  it('sends each finding before the next has arrived', async () => {
    const held = gate();
    async function* slowSource() {
      yield makeFinding({ id: 'finding_first' });
      await held.opened;
      yield makeFinding({ id: 'finding_second' });
    }
    const { body } = renderJson(slowSource(), metadata);
    let received = '';
    body.on('data', (chunk: Buffer) => (received += chunk.toString()));
    while (!received.includes('finding_first')) await once(body, 'data');
    expect(received).not.toContain('finding_second');
    held.open();
    await once(body, 'end');
    expect(JSON.parse(received)).toHaveLength(2);
  });
});
