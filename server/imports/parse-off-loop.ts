import { AppError } from '../errors.ts';
import type { ParseWorkers } from '../services.ts';
import { startModuleWorker } from '../worker-source.ts';
import { parseReport } from './parse.ts';
import { ReportError, type ImportFormat, type ParsedReport } from './report.ts';

/**
 * Parses a report, off the event loop unless it is small: a report over its inline limit is
 * parsed in a worker thread of its own (heap capped, time bounded), so a large or slow report
 * never holds up the server's other requests. Small reports (almost all of them) are parsed
 * inline, where a worker's start-up would cost more than the parse: every check before the
 * parser is linear (xml.ts `scanXml`, json.ts `refuseDeepJson`), and the inline limits keep
 * the parse itself to a few milliseconds.
 *
 * Parse workers are a pool per process (`ParsePool`): at most `workers` at once, then a queue
 * of at most `queue` waiting reports, and beyond it 503 SERVICE_UNAVAILABLE with
 * `Retry-After`, so parallel imports cannot take the machine's memory or cores.
 */

/** JSON at most this large is parsed inline (JSON.parse is native and linear). */
export const INLINE_JSON_LIMIT = 256 * 1024;
/** XML and CSV at most this large are parsed inline (their parsers are JavaScript). */
export const INLINE_TEXT_LIMIT = 32 * 1024;
/** A parse that takes longer is stopped and the report refused. */
const PARSE_TIMEOUT_MS = 60_000;
/** What a 503 tells the client to wait, in seconds. */
export const PARSE_RETRY_AFTER_SECONDS = 5;

export interface ParsePoolOptions {
  /** Parse workers running at once (SCANWARD_IMPORT_WORKERS). */
  workers: number;
  /** Reports waiting for a worker beyond those (SCANWARD_IMPORT_QUEUE); 503 beyond. */
  queue: number;
  /** Each worker's heap cap in MB (SCANWARD_IMPORT_WORKER_HEAP_MB). */
  heapMb: number;
  timeoutMs?: number;
}

/** A held worker slot; calling it gives the slot back (once). */
export type ParseSlot = () => void;

export class ParsePool implements ParseWorkers {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly options: ParsePoolOptions) {}

  /** Workers busy now, and reports waiting for one. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /**
   * A worker slot: at once when one is free, after the reports ahead in the queue when all
   * are busy, and a 503 with Retry-After when the queue is full too.
   */
  async acquire(): Promise<ParseSlot> {
    if (this.running < this.options.workers) {
      this.running++;
      return this.slot();
    }
    if (this.waiting.length >= this.options.queue) {
      throw new AppError(
        503,
        'SERVICE_UNAVAILABLE',
        `every report parser is busy (${this.options.workers} running, ${this.waiting.length} waiting): try again in ${PARSE_RETRY_AFTER_SECONDS} s`,
        undefined,
        { 'Retry-After': String(PARSE_RETRY_AFTER_SECONDS) },
      );
    }
    // The slot passes from the releasing report straight to this one (running stays counted).
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    return this.slot();
  }

  private slot(): ParseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    };
  }

  /** Parses `bytes` in a worker thread of this pool. */
  async parse(bytes: Uint8Array, format: ImportFormat | undefined): Promise<ParsedReport> {
    return parseInPool(this, bytes, format);
  }
}

/** The largest report of this kind parsed on the event loop: by its first character. */
export function inlineLimitOf(bytes: Uint8Array): number {
  let i = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  // White space before the first character (bounded: a report of only white space is small or parsed off the loop).
  while (
    i < bytes.length &&
    i < INLINE_JSON_LIMIT &&
    (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)
  )
    i++;
  return bytes[i] === 0x5b || bytes[i] === 0x7b ? INLINE_JSON_LIMIT : INLINE_TEXT_LIMIT;
}

export async function parseReportOffLoop(
  bytes: Uint8Array,
  format: ImportFormat | undefined,
  pool: ParseWorkers,
): Promise<ParsedReport> {
  if (bytes.length <= inlineLimitOf(bytes)) return parseReport(bytes, format);
  return parseInPool(pool, bytes, format);
}

/** Parses `bytes` in a worker thread of the pool, once a slot of it is free. */
async function parseInPool(
  pool: ParseWorkers,
  bytes: Uint8Array,
  format: ImportFormat | undefined,
): Promise<ParsedReport> {
  const release = await pool.acquire();
  try {
    return await parseInWorker(
      bytes,
      format,
      pool.options.heapMb,
      pool.options.timeoutMs ?? PARSE_TIMEOUT_MS,
    );
  } finally {
    release();
  }
}

function parseInWorker(
  bytes: Uint8Array,
  format: ImportFormat | undefined,
  heapMb: number,
  timeoutMs: number,
): Promise<ParsedReport> {
  const worker = startModuleWorker(
    new URL(`./parse-worker${extension()}`, import.meta.url),
    { bytes, format },
    {
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(64, heapMb / 4) },
    },
  );
  return new Promise<ParsedReport>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(() => {
      settle(() => reject(new ReportError(`the report took longer than ${timeoutMs / 1000} s to read`)));
    }, timeoutMs);
    worker.once('message', (message: { report?: ParsedReport; error?: string; invalid?: boolean }) => {
      settle(() => {
        if (message.report) resolve(message.report);
        else if (message.invalid) reject(new ReportError(message.error ?? 'the report could not be read'));
        else reject(new Error(message.error ?? 'the report parser failed'));
      });
    });
    worker.once('error', (err: Error & { code?: string }) => {
      settle(() => {
        if (err.code === 'ERR_WORKER_OUT_OF_MEMORY')
          reject(
            new ReportError(
              `reading the report needs more than the parse worker's ${heapMb} MB of memory (SCANWARD_IMPORT_WORKER_HEAP_MB)`,
            ),
          );
        else reject(err);
      });
    });
    worker.once('exit', (code) => {
      settle(() => reject(new Error(`the report parser stopped (exit code ${code})`)));
    });
  });
}

/** `.ts` when this module runs from source (tsx, vitest), `.js` from the build. */
function extension(): string {
  return import.meta.url.endsWith('.ts') ? '.ts' : '.js';
}
