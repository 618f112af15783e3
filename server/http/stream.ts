import { Readable } from 'node:stream';

/**
 * A streamed response body, started: its first chunk is read before anything is
 * sent, so a failure found then (a query the database refuses, say) is thrown to
 * the caller while the answer can still be a normal error in the one shape.
 * Once the first byte is out, a failure can no longer change the status: Koa's
 * pipeline then destroys the response, so the chunked body never gets its final
 * chunk and every HTTP client reports the file as cut rather than complete; the
 * app's error listener logs it once, with the request id.
 */
export async function startedStream(body: Readable): Promise<Readable> {
  const chunks = body[Symbol.asyncIterator]() as AsyncIterator<unknown>;
  let first: IteratorResult<unknown>;
  try {
    first = await chunks.next();
  } catch (err) {
    body.destroy();
    throw err;
  }
  async function* rest(): AsyncGenerator<unknown> {
    try {
      if (first.done) return;
      yield first.value;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
    } finally {
      // The reader stopped early (client gone) or failed: release the source.
      await chunks.return?.();
    }
  }
  return Readable.from(rest(), { objectMode: false });
}
