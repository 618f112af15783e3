import { beforeAll, describe, expect, it } from 'vitest';
import { listScansRoute } from '../../../server/routes/scans.ts';
import { expectError, okBody } from '../../helpers/api-client.ts';
import { postReport } from './upload.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, type BuiltTenant } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * Issue 31 item 2: a hostile report once held the event loop (a 245 KB ZAP report of 20,480
 * `<!DOCTYPE` openings: 12 s; 120,000 unclosed `<a`: 300 s) and every tenant's requests with
 * it. Each is now refused while a health probe sent after it answers first; and parse workers
 * are bounded per process, with 503 and Retry-After beyond the workers and their queue.
 */

const zap = (prologue: string, body = '') =>
  Buffer.from(
    `<?xml version="1.0"?>${prologue}<OWASPZAPReport version="2.9.0"><site name="http://127.0.0.1" host="127.0.0.1" port="80" ssl="false"><alerts>${body}</alerts></site></OWASPZAPReport>`,
  );

/** Which of two requests answered first. */
async function firstToAnswer<A, B>(a: Promise<A>, b: Promise<B>): Promise<{ order: string[]; a: A; b: B }> {
  const order: string[] = [];
  const [ra, rb] = await Promise.all([
    a.then((r) => (order.push('import'), r)),
    b.then((r) => (order.push('health'), r)),
  ]);
  return { order, a: ra, b: rb };
}

describe(`hostile reports beside a health probe (${testEngine})`, () => {
  const suite = useTestApp();
  let t: BuiltTenant;
  beforeAll(async () => {
    t = await factory.tenant(suite.app, { plan: 'enterprise' });
  });

  it.each([
    ['20,480 <!DOCTYPE openings', () => zap('<!DOCTYPE '.repeat(20_480)), /document type declaration/],
    [
      '200,000 unclosed <a',
      () => Buffer.from(`<OWASPZAPReport>${'<a'.repeat(200_000)}`),
      /not closed before the next '<'/,
    ],
    [
      '70,000 nested elements',
      () => zap('', `${'<a>'.repeat(70_000)}${'</a>'.repeat(70_000)}`),
      /nest deeper than 64 levels/,
    ],
  ])('refuses %s while a health probe sent after it answers first', async (_name, report, detail) => {
    const { order, a, b } = await firstToAnswer(
      postReport(t.api, report(), { target: 'hostile' }),
      suite.app.request('/api/health'),
    );
    expect(b.status).toBe(200);
    expect((await expectError(a, 422, 'VALIDATION_ERROR', 'file')).detail).toMatch(detail);
    expect(order).toEqual(['health', 'import']);
  });

  it('refuses a never-closed document type declaration and one naming an external DTD, naming the line', async () => {
    const open = await postReport(t.api, zap('\n<!DOCTYPE r'.padEnd(100, ' ')), { target: 'dtd' });
    expect((await expectError(open, 422, 'VALIDATION_ERROR', 'file')).detail).toMatch(/^file: line 2: /);
    const external = await postReport(t.api, zap('<!DOCTYPE r SYSTEM "x.dtd">'), { target: 'dtd' });
    expect((await expectError(external, 422, 'VALIDATION_ERROR', 'file')).detail).toMatch(
      /document type declaration with entities or an external DTD/,
    );
  });
});

describe(`parse workers, all busy (${testEngine})`, () => {
  const suite = useTestApp({ env: { SCANWARD_IMPORT_WORKERS: '1', SCANWARD_IMPORT_QUEUE: '1' } });
  let t: BuiltTenant;
  beforeAll(async () => {
    t = await factory.tenant(suite.app, { plan: 'enterprise' });
  });

  /** A valid nuclei report large enough to be parsed by a worker. */
  const large = (target: string) => {
    const line = JSON.stringify({
      'template-id': 'pool-check',
      info: { name: 'Pool check', severity: 'low', description: 'x'.repeat(1000) },
      host: 'http://127.0.0.1/',
      'matched-at': 'http://127.0.0.1/',
    });
    return {
      query: { target, format: 'nuclei' },
      body: Buffer.from(`[${Array(300).fill(line).join(',')}]`),
    };
  };

  it('queues a report while the worker is busy, answers 503 with Retry-After beyond the queue, and imports both once it frees', async () => {
    const pool = suite.app.services.importParsers;
    const release = await pool.acquire(); // the one worker, busy
    const scansBefore = okBody(await t.api.call(listScansRoute)).total;

    const queuedReport = large('queued');
    const queued = postReport(t.api, queuedReport.body, queuedReport.query);
    await expect.poll(() => pool.load.waiting).toBe(1);

    const refusedReport = large('refused');
    const refused = await postReport(t.api, refusedReport.body, refusedReport.query);
    await expectError(refused, 503, 'SERVICE_UNAVAILABLE');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(okBody(await t.api.call(listScansRoute)).total).toBe(scansBefore);

    release();
    expect(okBody(await queued, 201)).toMatchObject({ vulnerabilities_found: 1 });
    okBody(await postReport(t.api, refusedReport.body, refusedReport.query), 201);
    expect(pool.load).toEqual({ running: 0, waiting: 0 });
  });
});
