import { describe, expect, it } from 'vitest';
import { csvRecords } from '../../../server/imports/formats/openvas.ts';
import { parseReport } from '../../../server/imports/parse.ts';
import { componentUrl, ReportError, text } from '../../../server/imports/report.ts';

const bytes = (s: string) => Buffer.from(s, 'utf8');

function refusal(source: string, format?: Parameters<typeof parseReport>[1]): string {
  try {
    parseReport(bytes(source), format);
  } catch (error) {
    expect(error).toBeInstanceOf(ReportError);
    return (error as Error).message;
  }
  throw new Error('expected a ReportError');
}

describe('report parsing', () => {
  it("reads ZAP's JSON report: sites and alerts as arrays, attributes with @", () => {
    const report = {
      '@version': '2.14.0',
      site: [
        {
          '@name': 'http://127.0.0.1:8080',
          '@host': '127.0.0.1',
          '@port': '8080',
          alerts: [
            {
              pluginid: '10038',
              alertRef: '10038-1',
              alert: 'Content Security Policy (CSP) Header Not Set',
              name: 'Content Security Policy (CSP) Header Not Set',
              riskcode: '2',
              confidence: '3',
              desc: '<p>CSP is an added layer of security.</p><p>Second.</p>',
              instances: [{ uri: 'http://127.0.0.1:8080/a?x=1', method: 'GET', evidence: '' }],
              solution: '<p>Set the header.</p>',
              reference: '<p>https://developer.mozilla.org/csp</p>',
              cweid: '693',
            },
            { pluginid: '1', riskcode: '3', confidence: '0', name: 'a false positive', instances: [] },
          ],
        },
      ],
    };
    const parsed = parseReport(bytes(JSON.stringify(report)), undefined);
    expect(parsed).toMatchObject({ format: 'zap', tool: 'zap' });
    expect(parsed.results).toEqual([
      expect.objectContaining({
        check_id: 'zap-10038-1',
        severity: 'medium',
        cwe_ids: ['CWE-693'],
        affected_component: 'http://127.0.0.1:8080/a',
        port: 8080,
        description: 'CSP is an added layer of security.\nSecond.',
        remediation: { summary: 'Set the header.', references: ['https://developer.mozilla.org/csp'] },
      }),
    ]);
  });

  it('reads nuclei JSON Lines and names the line that is not JSON', () => {
    const line = JSON.stringify({
      'template-id': 't',
      info: { severity: 'low' },
      'matched-at': 'http://h/x',
    });
    expect(parseReport(bytes(`${line}\n\n${line}\n`), undefined).results).toHaveLength(2);
    expect(refusal(`${line}\n${line}\n{"template-id":`)).toMatch(/^line 3: not valid JSON/);
    expect(refusal(`[${line},\n${line}`)).toMatch(/^line 2: not valid JSON/);
  });

  it('refuses what is not a report, and an empty one without its format', () => {
    expect(refusal('# README\nhello')).toMatch(/not a report this server reads/);
    expect(refusal('{"a": 1}')).toMatch(/not a report this server reads/);
    expect(refusal('<html><body/></html>')).toMatch(/root element <html>/);
    expect(refusal('  \n')).toMatch(/empty: name its format/);
    expect(parseReport(bytes(''), 'openvas')).toEqual({ format: 'openvas', tool: 'openvas', results: [] });
  });

  it('refuses DTDs that declare or fetch entities, naming the line', () => {
    expect(refusal('<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x "y">]>\n<nmaprun/>')).toMatch(
      /^line 2: a document type declaration/,
    );
    expect(refusal('<!DOCTYPE nmaprun PUBLIC "-//x" "http://127.0.0.1/x.dtd"><nmaprun/>')).toMatch(/^line 1/);
    expect(parseReport(bytes('<!DOCTYPE nmaprun>\n<nmaprun></nmaprun>'), undefined).results).toEqual([]);
  });

  it('refuses, in one pass before any parser, the XML shapes a parser could spend long on, naming the line', () => {
    expect(refusal(`<?xml version="1.0"?>${'<!DOCTYPE '.repeat(20_480)}<nmaprun/>`)).toMatch(
      /^line 1: a document type declaration is not closed before the next '<'/,
    );
    expect(refusal('<nmaprun>\n<!DOCTYPE x>')).toMatch(
      /^line 2: a second or misplaced document type declaration/,
    );
    expect(refusal(`<nmaprun>\n${'<a'.repeat(200_000)}`)).toMatch(
      /^line 2: a tag is not closed before the next '<'/,
    );
    expect(refusal('<nmaprun a="x<y"/>')).toMatch(/^line 1: a '<' inside an attribute value/);
    expect(refusal('<nmaprun>\n\n< b</nmaprun>')).toMatch(/^line 3: a '<' that starts no tag/);
    expect(refusal(`<nmaprun>${'<a>'.repeat(70_000)}`)).toMatch(
      /^line 1: elements nest deeper than 64 levels at <a>/,
    );
    expect(refusal('<nmaprun><!-- never closed')).toMatch(/^line 1: a comment is never closed/);
    expect(refusal('<nmaprun><!ELEMENT x ANY></nmaprun>')).toMatch(
      /^line 1: markup declarations are not accepted/,
    );
    expect(refusal('<nmaprun><![CDATA[ never closed')).toMatch(/a CDATA section is never closed/);
    expect(refusal('<?xml version="1.0"')).toMatch(/a processing instruction is never closed/);
    // Comments, CDATA, processing instructions and quoted '>' are read past whole.
    expect(
      parseReport(
        bytes('<?xml version="1.0"?><!-- <x --><nmaprun a="1>2"><![CDATA[<<]]></nmaprun>'),
        undefined,
      ).results,
    ).toEqual([]);
  });

  it('reads CSV with quoted fields across lines and doubled quotes, each record with its first line', () => {
    expect(csvRecords('a,b\n"x\ny","say ""hi"""\r\nlast,\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x\ny', 'say "hi"'] },
      { line: 4, fields: ['last', ''] },
    ]);
    expect(() => csvRecords('a,"b\n')).toThrow(/line 1: a quoted field is never closed/);
  });

  it('writes out the port of a component URL, and keeps stored text storable', () => {
    expect(componentUrl('https://App.example/x?q=1#f')).toBe('https://app.example:443/x');
    expect(componentUrl('http://[::1]:8080/')).toBe('http://[::1]:8080/');
    expect(componentUrl('not a url')).toBe('not a url');
    expect(text('a\u0000b\uD800c')).toBe('a\uFFFDb\uFFFDc');
    expect(text({ toString: () => 'x' })).toBe('');
    expect(text('x'.repeat(70_000))).toMatch(/… \(cut at 65536 characters\)$/);
  });
});
