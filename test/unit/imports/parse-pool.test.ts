import { describe, expect, it } from 'vitest';
import { AppError } from '../../../server/errors.ts';
import { ParsePool } from '../../../server/imports/parse-off-loop.ts';
import { ReportError } from '../../../server/imports/report.ts';

describe('the report parse pool', () => {
  it('runs at most `workers` at once, queues `queue` more in order, and refuses beyond with 503 and Retry-After', async () => {
    const pool = new ParsePool({ workers: 2, queue: 1, heapMb: 64 });
    const first = await pool.acquire();
    const second = await pool.acquire();
    const order: string[] = [];
    const third = pool.acquire().then((release) => (order.push('third'), release));
    expect(pool.load).toEqual({ running: 2, waiting: 1 });

    const refused = await pool.acquire().catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      headers: { 'Retry-After': '5' },
    });

    first();
    first(); // a slot is given back once, however often its release is called
    const releaseThird = await third;
    expect(order).toEqual(['third']);
    expect(pool.load).toEqual({ running: 2, waiting: 0 });
    second();
    releaseThird();
    expect(pool.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a report that needs more than the worker heap, and frees the slot', async () => {
    const pool = new ParsePool({ workers: 1, queue: 0, heapMb: 32 });
    const item = JSON.stringify({
      'template-id': 'heap',
      info: { severity: 'low' },
      host: 'http://127.0.0.1/',
    });
    const huge = Buffer.from(`[${Array(250_000).fill(item).join(',')}]`);
    const error = await pool.parse(huge, 'nuclei').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ReportError);
    expect((error as Error).message).toMatch(/more than the parse worker's 32 MB of memory/);
    expect(pool.load).toEqual({ running: 0, waiting: 0 });
  }, 60_000);
});
