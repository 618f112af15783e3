import { describe, expect, it } from 'vitest';
import { renderFindingsExport, type ExportFormat } from '../../../../server/findings/export/index.ts';
import { makeFinding, readAll, streamOf } from '../../../fixtures/sample-findings.ts';

const metadata = { organization: 'Acme', generatedAt: new Date('2026-05-06T07:08:09Z'), filters: {} };

describe('renderFindingsExport', () => {
  it.each([
    ['csv', 'text/csv; charset=utf-8', 'id,title,'],
    ['json', 'application/json; charset=utf-8', '[\n{"id":"finding_1"'],
    ['pdf', 'application/pdf', '%PDF-'],
  ] as const)('renders %s with its content type and file name', async (format: ExportFormat, type, start) => {
    let calls = 0;
    const source = () => {
      calls += 1;
      return streamOf([makeFinding()]);
    };
    const rendered = renderFindingsExport(format, source, metadata);
    expect(rendered.contentType).toBe(type);
    expect(rendered.fileName).toBe(`scanward-findings-2026-05-06.${format}`);
    const body = await readAll(rendered.body);
    expect(body.subarray(0, start.length).toString('latin1')).toBe(start);
    // The PDF reads the findings once to count them, once for its table, once for its details.
    expect(calls).toBe(format === 'pdf' ? 3 : 1);
  });
});
