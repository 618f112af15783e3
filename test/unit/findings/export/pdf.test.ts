import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type {
  ExportFinding,
  ExportMetadata,
  ExportTotals,
  FindingStatus,
  Severity,
} from '../../../../server/findings/export/export-finding.ts';
import { countTotals, renderPdf } from '../../../../server/findings/export/pdf.ts';
import { niceScale } from '../../../../server/findings/export/pdf-report.ts';
import { gate, makeFinding, readAll, streamOf } from '../../../fixtures/sample-findings.ts';

const hasPdftotext = spawnSync('pdftotext', ['-v']).status === 0;
const NO_POPPLER = 'pdftotext is not installed (Debian package poppler-utils): text assertions skipped';

const workDir = mkdtempSync(path.join(tmpdir(), 'scanward-pdf-test-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** The text of each page, in reading order (`layout` keeps columns on one line). */
function pdfPages(pdf: Buffer, layout = false): string[] {
  const file = path.join(workDir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  const result = spawnSync('pdftotext', [...(layout ? ['-layout'] : []), file, '-'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`pdftotext failed: ${result.stderr}`);
  return result.stdout.split('\f').slice(0, -1);
}

const metadata: ExportMetadata = {
  organization: 'Globex Corporation',
  generatedAt: new Date('2026-03-01T12:30:00Z'),
  from: new Date('2026-01-01T00:00:00Z'),
  to: new Date('2026-02-28T00:00:00Z'),
  filters: { target: 'shop.globex.example', tool: 'nuclei' },
};

/** Ten findings: severities 4/3/2/1/0 from critical down, statuses 5/2/1/1/1. */
const SEVERITY_PLAN: Severity[] = [
  'critical',
  'critical',
  'critical',
  'critical',
  'high',
  'high',
  'high',
  'medium',
  'medium',
  'low',
];
const STATUS_PLAN: FindingStatus[] = [
  'open',
  'open',
  'open',
  'open',
  'open',
  'in_progress',
  'in_progress',
  'resolved',
  'false_positive',
  'accepted',
];

function planned(i: number): ExportFinding {
  return makeFinding({
    id: `finding_${i}`,
    title: `Planned finding number ${i}`,
    severity: SEVERITY_PLAN[i] ?? 'info',
    status: STATUS_PLAN[i] ?? 'open',
    description: `Description text of finding ${i}.`,
    impact: `Impact text of finding ${i}.`,
    remediation: {
      summary: `Remediation summary of finding ${i}.`,
      steps: [`First remediation step of finding ${i}.`, `Second remediation step of finding ${i}.`],
      code_example: `fix(${i});`,
      references: [`https://docs.example.org/fix-${i}`],
    },
  });
}
const tenFindings = Array.from({ length: 10 }, (_, i) => planned(i));
const tenTotals: ExportTotals = {
  total: 10,
  by_severity: { critical: 4, high: 3, medium: 2, low: 1, info: 0 },
  by_status: { open: 5, in_progress: 2, resolved: 1, false_positive: 1, accepted: 1 },
};

/** A re-iterable source over `findings` that counts how often it is read. */
function sourceOf(findings: ExportFinding[]) {
  const source = () => {
    source.calls += 1;
    return streamOf(findings);
  };
  source.calls = 0;
  return source;
}

async function renderToBuffer(findings: ExportFinding[], meta: ExportMetadata = metadata): Promise<Buffer> {
  return readAll(renderPdf(sourceOf(findings), meta).body);
}

describe('PDF export', () => {
  it('is a complete PDF file named after the generation date', async () => {
    const rendered = renderPdf(sourceOf(tenFindings), { ...metadata, totals: tenTotals });
    const pdf = await readAll(rendered.body);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.subarray(-6).toString('latin1')).toMatch(/%%EOF\s*$/);
    expect(rendered.contentType).toBe('application/pdf');
    expect(rendered.fileName).toBe('scanward-findings-2026-03-01.pdf');
  });

  it('shows the organization, generation date, period and filters on the cover', async (context) => {
    if (!hasPdftotext) context.skip(NO_POPPLER);
    const [cover] = pdfPages(await renderToBuffer(tenFindings, { ...metadata, totals: tenTotals }));
    expect(cover).toContain('Vulnerability Findings Report');
    expect(cover).toContain('Globex Corporation');
    expect(cover).toContain('2026-03-01 12:30 UTC');
    expect(cover).toContain('2026-01-01 to 2026-02-28');
    expect(cover).toContain('target = shop.globex.example; tool = nuclei');
  });

  it('summarizes the given totals by severity and status', async (context) => {
    if (!hasPdftotext) context.skip(NO_POPPLER);
    const [cover] = pdfPages(await renderToBuffer(tenFindings, { ...metadata, totals: tenTotals }), true);
    expect(cover).toMatch(/Findings in report\s+10\n/);
    // The bar chart labels each bar with its count.
    expect(cover).toMatch(/^Critical\s+4$/m);
    expect(cover).toMatch(/^High\s+3$/m);
    expect(cover).toMatch(/^Medium\s+2$/m);
    expect(cover).toMatch(/^Low\s+1$/m);
    expect(cover).toMatch(/^Info\s+0$/m);
    expect(cover).toMatch(/Open\s+5\s+50\.0%/);
    expect(cover).toMatch(/In progress\s+2\s+20\.0%/);
    expect(cover).toMatch(/False positive\s+1\s+10\.0%/);
  });

  it('counts the findings itself, in an extra pass, when no totals are given', async (context) => {
    const source = sourceOf(tenFindings);
    const pdf = await readAll(renderPdf(source, metadata).body);
    expect(source.calls).toBe(3);
    if (!hasPdftotext) context.skip(NO_POPPLER);
    const [cover] = pdfPages(pdf, true);
    expect(cover).toMatch(/^Critical\s+4$/m);
    expect(cover).toMatch(/Open\s+5\s+50\.0%/);
  });

  it('reads the source twice, for the table and the details, when totals are given', async () => {
    const source = sourceOf(tenFindings);
    await readAll(renderPdf(source, { ...metadata, totals: tenTotals }).body);
    expect(source.calls).toBe(2);
  });

  it('lists every finding in the table and describes each with its remediation', async (context) => {
    if (!hasPdftotext) context.skip(NO_POPPLER);
    const pages = pdfPages(await renderToBuffer(tenFindings, { ...metadata, totals: tenTotals }));
    const tablePage = pages[1] ?? '';
    const details = pages.slice(2).join('\n');
    for (const finding of tenFindings) {
      expect(tablePage).toContain(finding.title);
      expect(details).toContain(finding.title);
      expect(details).toContain(finding.description);
      expect(details).toContain(finding.impact);
      expect(details).toContain(finding.remediation.summary);
      for (const step of finding.remediation.steps) expect(details).toContain(step);
      expect(details).toContain(finding.remediation.references[0]);
    }
    expect(tablePage).toContain('Affected component');
    expect(pages[2]).toContain('Finding details');
  });

  it('shows the risk decision of an accepted finding: why, who, when and until when', async (context) => {
    if (!hasPdftotext) context.skip(NO_POPPLER);
    const accepted = makeFinding({
      id: 'finding_accepted',
      title: 'Accepted with a reason',
      status: 'accepted',
      justification: 'Compensating WAF rule in place',
      justified_by: 'risk.owner@globex.example',
      justified_at: '2026-02-10T09:00:00.000Z',
      acceptance_expires_at: '2026-05-01T00:00:00.000Z',
    });
    const open = makeFinding({ id: 'finding_open', title: 'Open without a decision' });
    const details = pdfPages(await renderToBuffer([accepted, open]))
      .slice(2)
      .join('\n')
      .replace(/\s+/g, ' ');
    expect(details).toContain('Risk decision');
    expect(details).toContain(
      'Accepted by risk.owner@globex.example on 2026-02-10: Compensating WAF rule in place. ' +
        'Accepted until 2026-05-01, then reopened.',
    );
    expect(details.match(/Risk decision/g)).toHaveLength(1);
  });

  it('repeats the table header on every page the table continues on, and numbers every page', async (context) => {
    if (!hasPdftotext) context.skip(NO_POPPLER);
    const findings = Array.from({ length: 90 }, (_, i) =>
      makeFinding({ id: `finding_${i}`, title: `Row ${i}` }),
    );
    const pages = pdfPages(await renderToBuffer(findings));
    const detailsStart = pages.findIndex((page) => /^Finding details$/m.test(page));
    const tablePages = pages.slice(1, detailsStart);
    expect(tablePages.length).toBeGreaterThan(2);
    for (const page of tablePages) {
      for (const header of ['Severity', 'Title', 'Affected component', 'Status', 'CVSS', 'First seen']) {
        expect(page).toContain(header);
      }
    }
    expect(tablePages.join('\n')).toContain('Row 89');
    pages.forEach((page, i) => expect(page).toContain(`Page ${i + 1}`));
  });

  it('replaces characters the standard fonts cannot show instead of failing', async (context) => {
    const finding = makeFinding({
      title: 'Ünïcödé “quoted” 漏洞 🚀 Łódź ő',
      description: 'Zero\u200Bwidth, fullwidth ＡＢＣ, ligature ﬁle, arrows → ≤',
    });
    const pdf = await renderToBuffer([finding], { ...metadata, organization: 'Société Générale 株式会社' });
    if (!hasPdftotext) context.skip(NO_POPPLER);
    const text = pdfPages(pdf).join('\n');
    expect(text).toContain('Ünïcödé “quoted” ?? ? Lódz o');
    expect(text).toContain('Zerowidth, fullwidth ABC, ligature file, arrows -> <=');
    expect(text).toContain('Société Générale ????');
  });

  it('says so when no findings match, and still ends with a valid file', async (context) => {
    const pdf = await renderToBuffer([]);
    expect(pdf.subarray(-6).toString('latin1')).toMatch(/%%EOF\s*$/);
    if (!hasPdftotext) context.skip(NO_POPPLER);
    const pages = pdfPages(pdf);
    expect(pages).toHaveLength(2);
    expect(pages[1]).toContain('No findings match the selected period and filters.');
  });

  it('continues a long description across pages, with headers and footers around it', async (context) => {
    if (!hasPdftotext) context.skip(NO_POPPLER);
    const sentences = Array.from({ length: 300 }, (_, i) => `Sentence ${i} of a very long description.`);
    const finding = makeFinding({ description: sentences.join(' ') });
    const pages = pdfPages(await renderToBuffer([finding]));
    const detailPages = pages.slice(2);
    expect(detailPages.length).toBeGreaterThan(1);
    const text = detailPages.join(' ').replace(/\s+/g, ' ');
    expect(text).toContain('Sentence 0 of');
    expect(text).toContain('Sentence 299 of a very long description.');
    for (const page of detailPages)
      expect(page).toContain('Vulnerability Findings Report · Globex Corporation');
  });

  it('sends the cover page before the findings have all arrived', async () => {
    const held = gate();
    let finished = false;
    const source = () =>
      (async function* () {
        yield makeFinding();
        await held.opened;
        yield makeFinding({ id: 'finding_2' });
        finished = true;
      })();
    const { body } = renderPdf(source, { ...metadata, totals: { total: 2, by_severity: {}, by_status: {} } });
    const chunks: Buffer[] = [];
    body.on('data', (chunk: Buffer) => chunks.push(chunk));
    await once(body, 'data');
    expect(finished).toBe(false);
    expect(Buffer.concat(chunks).toString('latin1')).toMatch(/^%PDF-[\s\S]*\/Type \/Page\b/);
    held.open();
    await once(body, 'end');
    expect(Buffer.concat(chunks).subarray(-6).toString('latin1')).toMatch(/%%EOF\s*$/);
  });

  it('closes the source when the reader goes away', async () => {
    const busy = gate();
    const closed = gate();
    const source = () =>
      (async function* () {
        try {
          for (let i = 0; ; i += 1) {
            if (i === 100) busy.open();
            yield makeFinding({ id: `finding_${i}` });
          }
        } finally {
          closed.open();
        }
      })();
    const { body } = renderPdf(source, { ...metadata, totals: { total: 1, by_severity: {}, by_status: {} } });
    body.resume();
    await busy.opened;
    body.destroy();
    await closed.opened;
  });
});

describe('countTotals', () => {
  it('counts findings by severity and status', async () => {
    expect(await countTotals(streamOf(tenFindings))).toEqual({
      total: 10,
      by_severity: { critical: 4, high: 3, medium: 2, low: 1 },
      by_status: { open: 5, in_progress: 2, resolved: 1, false_positive: 1, accepted: 1 },
    });
  });
});

describe('severity chart scale', () => {
  it('ends on a round number at or above the largest count', () => {
    expect(niceScale(12)).toEqual({ top: 15, step: 5 });
    expect(niceScale(400)).toEqual({ top: 400, step: 100 });
    expect(niceScale(1234)).toEqual({ top: 1500, step: 500 });
    expect(niceScale(3)).toEqual({ top: 3, step: 1 });
  });

  it('still has an axis when there is nothing to count', () => {
    expect(niceScale(0)).toEqual({ top: 1, step: 1 });
  });
});
