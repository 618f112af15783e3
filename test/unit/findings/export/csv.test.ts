import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { FINDING_SPEC_LIST_FIELDS } from '../../../fixtures/finding-fields.ts';
import { CSV_HEADERS, csvField, renderCsv } from '../../../../server/findings/export/csv.ts';
import type { ExportFinding, ExportMetadata } from '../../../../server/findings/export/export-finding.ts';
import { gate, makeFinding, readAll, streamOf } from '../../../fixtures/sample-findings.ts';

const metadata: ExportMetadata = {
  organization: 'Acme',
  generatedAt: new Date('2026-02-03T04:05:06Z'),
  filters: {},
};

async function csvText(findings: ExportFinding[]): Promise<string> {
  return (await readAll(renderCsv(streamOf(findings), metadata).body)).toString('utf8');
}

/**
 * A strict RFC 4180 reader: records end in CRLF, a quote may appear only around a
 * field or doubled inside one. Anything else throws, so a sloppy writer fails here.
 */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  const endField = () => {
    record.push(field);
    field = '';
  };
  while (i < text.length) {
    const char = text[i];
    if (char === '"' && field === '' && (i === 0 || ',\n'.includes(text[i - 1] ?? ''))) {
      const close = () => text[i] === '"' && text[i + 1] !== '"';
      i += 1;
      while (i < text.length && !close()) {
        field += text[i] === '"' ? '"' : text[i];
        i += text[i] === '"' ? 2 : 1;
      }
      if (i >= text.length) throw new Error('unterminated quoted field');
      i += 1;
      const next = text[i];
      if (next !== ',' && next !== '\r') throw new Error(`text after closing quote at ${i}`);
      continue;
    }
    if (char === ',') {
      endField();
      i += 1;
    } else if (char === '\r' && text[i + 1] === '\n') {
      endField();
      records.push(record);
      record = [];
      i += 2;
    } else if (char === '\r' || char === '\n' || char === '"') {
      throw new Error(`unquoted ${JSON.stringify(char)} at ${i}`);
    } else {
      field += char;
      i += 1;
    }
  }
  if (field !== '' || record.length > 0) throw new Error('last record does not end in CRLF');
  return records;
}

function python3Available(): boolean {
  return spawnSync('python3', ['--version']).status === 0;
}

const awkward = makeFinding({
  id: 'finding_2',
  title: 'Comma, "quotes" and\r\nline\nbreaks',
  affected_component: 'https://example.com/a,b?q="x"',
  description: 'Unicode: Ünïcödé, 漏洞, emoji 🚀, RTL שלום; and a trailing CR\r',
  cve_ids: ['CVE-2024-1', 'CVE-2024-2'],
  cwe_ids: [],
  epss_score: null,
  frameworks: [{ name: 'ISO 27001', controls: ['A.8.8'] }],
});

describe('CSV export', () => {
  it('writes a header row with the list-view fields in the spec order plus description, the risk decision and triage', async () => {
    const [header] = parseCsv(await csvText([]));
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
  });

  it('writes only the header for no findings, ending in CRLF', async () => {
    expect(await csvText([])).toBe(CSV_HEADERS.join(',') + '\r\n');
  });

  it('round-trips commas, quotes, line breaks and unicode through a strict RFC 4180 reader', async () => {
    const records = parseCsv(await csvText([makeFinding(), awkward]));
    expect(records).toHaveLength(3);
    const row = Object.fromEntries(CSV_HEADERS.map((name, i) => [name, records[2]?.[i]]));
    expect(row).toMatchObject({
      id: 'finding_2',
      title: awkward.title,
      affected_component: awkward.affected_component,
      description: awkward.description,
      cve_ids: 'CVE-2024-1;CVE-2024-2',
      cwe_ids: '',
      epss_score: '',
      cvss_score: '8.6',
      frameworks: 'ISO 27001',
    });
  });

  it('separates records with CRLF only, whatever line breaks the values hold', async () => {
    const text = await csvText([awkward, makeFinding()]);
    const outsideQuotes = text.replace(/"(?:[^"]|"")*"/g, '');
    expect(outsideQuotes.match(/\r\n/g)).toHaveLength(3);
    expect(outsideQuotes.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it('is read back identically by Python’s csv module', async (context) => {
    if (!python3Available()) context.skip('python3 is not installed');
    const text = await csvText([makeFinding(), awkward]);
    const reader =
      'import csv, io, json, sys; print(json.dumps(list(csv.reader(io.StringIO(sys.stdin.read(), newline="")))))';
    const result = spawnSync('python3', ['-c', reader], { input: text, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(parseCsv(text));
  });

  it('writes UTF-8', async () => {
    const bytes = await readAll(renderCsv(streamOf([awkward]), metadata).body);
    expect(bytes.includes(Buffer.from('漏洞', 'utf8'))).toBe(true);
    expect(bytes.includes(Buffer.from('🚀', 'utf8'))).toBe(true);
  });

  it('prefixes cells that a spreadsheet would evaluate as a formula with an apostrophe', async () => {
    const finding = makeFinding({
      title: '=HYPERLINK("https://evil.example","click")',
      target: '+1+1',
      affected_component: '-2+3',
      tool: '@SUM(A1:A2)',
      template_id: '\tcmd',
      scan_id: '\rcmd',
      description: 'safe = text in the middle',
      cve_ids: ['=1+1', 'CVE-2024-3'],
    });
    const [, row] = parseCsv(await csvText([finding]));
    const cell = (name: string) => row?.[CSV_HEADERS.indexOf(name)];
    expect(cell('title')).toBe(`'${finding.title}`);
    expect(cell('target')).toBe("'+1+1");
    expect(cell('affected_component')).toBe("'-2+3");
    expect(cell('tool')).toBe("'@SUM(A1:A2)");
    expect(cell('template_id')).toBe("'\tcmd");
    expect(cell('scan_id')).toBe("'\rcmd");
    expect(cell('cve_ids')).toBe("'=1+1;CVE-2024-3");
    expect(cell('description')).toBe('safe = text in the middle');
  });

  it('writes numbers as numbers, never prefixed, and text that looks negative as text', () => {
    expect(csvField(-1.5)).toBe('-1.5');
    expect(csvField(0.00042)).toBe('0.00042');
    expect(csvField('-1.5')).toBe("'-1.5");
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(null)).toBe('');
  });

  it('names the file after the generation date and declares UTF-8 CSV', () => {
    const rendered = renderCsv(streamOf([]), metadata);
    expect(rendered.fileName).toBe('scanward-findings-2026-02-03.csv');
    expect(rendered.contentType).toBe('text/csv; charset=utf-8');
  });

  it('starts with a byte order mark only when asked', async () => {
    const plain = await readAll(renderCsv(streamOf([]), metadata).body);
    const marked = await readAll(renderCsv(streamOf([]), metadata, { bom: true }).body);
    expect(plain.subarray(0, 2).toString()).toBe('id');
    expect([...marked.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('sends each record before the next finding has arrived', async () => {
    const held = gate();
    async function* slowSource() {
      yield makeFinding({ id: 'finding_first' });
      await held.opened;
      yield makeFinding({ id: 'finding_second' });
    }
    const { body } = renderCsv(slowSource(), metadata);
    let received = '';
    body.on('data', (chunk: Buffer) => (received += chunk.toString()));
    while (!received.includes('finding_first')) await once(body, 'data');
    expect(received).not.toContain('finding_second');
    held.open();
    await once(body, 'end');
    expect(received).toContain('finding_second');
  });

  it('stops pulling rows while the client is not reading', async () => {
    let pulled = 0;
    async function* endless() {
      for (;;) {
        pulled += 1;
        yield makeFinding({ id: `finding_${pulled}` });
      }
    }
    const { body } = renderCsv(endless(), metadata);
    // A client that accepts the first write and never finishes it.
    const stuck = new Writable({ write: () => {} });
    body.pipe(stuck);
    const deadline = Date.now() + 5_000;
    while (!stuck.writableNeedDrain && Date.now() < deadline) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(stuck.writableNeedDrain).toBe(true);
    const turns = async (n: number) => {
      for (let turn = 0; turn < n; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    };
    // Let the stream fill what it buffers ahead, then give it as many turns again to over-read.
    await turns(300);
    const settled = pulled;
    await turns(300);
    expect(pulled).toBe(settled);
    // What it read ahead fits the streams' buffers (at most 64 KiB each on Node 22+, a few of
    // them between the source and the client) at ~600 bytes a record.
    expect(settled).toBeLessThan(1000);
    body.destroy();
  });

  it('closes the source when the reader goes away', async () => {
    const busy = gate();
    const closed = gate();
    async function* endless() {
      try {
        for (let i = 0; ; i += 1) {
          if (i === 100) busy.open();
          yield makeFinding({ id: `finding_${i}` });
        }
      } finally {
        closed.open();
      }
    }
    const { body } = renderCsv(endless(), metadata);
    body.resume();
    await busy.opened;
    body.destroy();
    await closed.opened;
  });

  it('streams 100,000 findings without holding them or the file in memory', async () => {
    const count = 100_000;
    // A forced collection before each sample measures live memory, not garbage
    // waiting to be collected. vitest's workers lack --expose-gc; V8 can grant it at
    // run time. Without it the bound still holds in practice (V8 collects young
    // garbage long before 100 MB), just with less margin.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as (() => void) | undefined;
    const liveBytes = () => {
      gc?.();
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.external;
    };

    // Each finding carries ~2 KB of distinct text, so the file is ~285 MB: an
    // implementation that kept the rows, or built the file before sending it,
    // would hold more than twice the allowed growth.
    async function* synthetic() {
      for (let i = 0; i < count; i += 1) {
        const description = Array.from(
          { length: 45 },
          (_, line) => `line ${line} of finding ${i}, with text, commas and "quotes"`,
        ).join('\n');
        yield makeFinding({ id: `finding_${i}`, title: `Synthetic finding ${i}`, description });
      }
    }

    const before = liveBytes();
    let peak = before;
    let written = 0;
    let chunks = 0;
    const discard = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.length;
        chunks += 1;
        if (chunks % 10_000 === 0) peak = Math.max(peak, liveBytes());
        done();
      },
    });
    await pipeline(renderCsv(synthetic(), metadata).body, discard);

    expect(written).toBeGreaterThan(200 * 1024 * 1024);
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
  }, 120_000);
});
