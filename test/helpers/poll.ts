/**
 * Reads `read` until `done` holds and answers every value seen, oldest first
 * (tests check how a scan's progress moved). Fails with the last value after
 * the deadline. Reads back to back, yielding to the event loop in between, or
 * every `intervalMs` when given (reads that cost another process work).
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 60_000, intervalMs = 0 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T[]> {
  const seen: T[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    seen.push(value);
    if (done(value)) return seen;
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) =>
      intervalMs > 0 ? setTimeout(resolve, intervalMs) : setImmediate(resolve),
    );
  }
}

/** {@link pollUntil}, answering only the value that met the condition. */
export async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options?: Parameters<typeof pollUntil>[2],
): Promise<T> {
  const seen = await pollUntil(read, done, options);
  return seen[seen.length - 1]!;
}

/** Polls until `check` returns a value, or fails after the deadline with the last error. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
