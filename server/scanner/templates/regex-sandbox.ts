/**
 * Template regexes are written for Go's linear-time RE2; JavaScript backtracks, and a response
 * of a few hundred KiB (a minified bundle, or a hostile server) can keep a pattern such as
 * `[a-z_]*(KEY|TOKEN)[a-z_]*=` busy for minutes. So every regex a template runs is tested in
 * a worker thread with a time limit: past REGEX_TIMEOUT_MS the worker is terminated (V8
 * interrupts the match), a fresh one takes its place, and the test counts as "no match".
 * The scan's event loop never runs a template regex itself.
 */
import { Worker } from 'node:worker_threads';

/** Most time one matcher's regexes may take against one response. */
export const REGEX_TIMEOUT_MS = 1_000;
/** Workers testing regexes at once in the process. */
const POOL_SIZE = 2;

// Plain JavaScript, evaluated as the worker's source: it needs nothing of the server.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const cache = new Map();
parentPort.on('message', ({ id, patterns, text, all }) => {
  let result = false;
  try {
    const test = (p) => {
      const key = p.flags + '/' + p.source;
      let re = cache.get(key);
      if (!re) {
        if (cache.size > 10000) cache.clear();
        re = new RegExp(p.source, p.flags);
        cache.set(key, re);
      }
      re.lastIndex = 0;
      return re.test(text);
    };
    result = all ? patterns.every(test) : patterns.some(test);
  } catch {
    result = false;
  }
  parentPort.postMessage({ id, result });
});
`;

interface Slot {
  worker: Worker | undefined;
  tail: Promise<unknown>;
  queued: number;
}

const slots: Slot[] = Array.from({ length: POOL_SIZE }, () => ({
  worker: undefined,
  tail: Promise.resolve(),
  queued: 0,
}));
let nextId = 0;
let timeouts = 0;

/** Regex tests that hit the time limit since the process started. */
export function regexTimeouts(): number {
  return timeouts;
}

function workerOf(slot: Slot): Worker {
  if (!slot.worker) {
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    worker.on('error', () => undefined);
    worker.once('exit', () => {
      if (slot.worker === worker) slot.worker = undefined;
    });
    slot.worker = worker;
  }
  return slot.worker;
}

function runOn(slot: Slot, patterns: readonly RegExp[], text: string, all: boolean): Promise<boolean> {
  const worker = workerOf(slot);
  const id = nextId++;
  return new Promise<boolean>((resolve) => {
    const done = (result: boolean): void => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      resolve(result);
    };
    const onMessage = (message: { id: number; result: boolean }): void => {
      if (message.id === id) done(message.result);
    };
    const onExit = (): void => done(false);
    const timer = setTimeout(() => {
      timeouts++;
      if (slot.worker === worker) slot.worker = undefined;
      void worker.terminate();
      done(false);
    }, REGEX_TIMEOUT_MS);
    worker.on('message', onMessage);
    worker.once('exit', onExit);
    worker.postMessage({
      id,
      patterns: patterns.map((re) => ({ source: re.source, flags: re.flags })),
      text,
      all,
    });
  });
}

/**
 * Whether every (`all`) or any of the patterns matches the text, tested off the event loop;
 * false when the test takes longer than REGEX_TIMEOUT_MS.
 */
export function sandboxedRegexTest(patterns: readonly RegExp[], text: string, all = false): Promise<boolean> {
  if (patterns.length === 0) return Promise.resolve(all);
  const slot = slots.reduce((a, b) => (b.queued < a.queued ? b : a));
  slot.queued++;
  const result = slot.tail.then(() => runOn(slot, patterns, text, all));
  slot.tail = result.finally(() => {
    slot.queued--;
  });
  return result;
}
