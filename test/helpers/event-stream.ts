import type { TestApp } from './app.ts';

/** One server-sent event as a client parses it. */
export interface StreamedEvent {
  id: string | undefined;
  event: string | undefined;
  data: { type: string; timestamp: string; data: Record<string, unknown> };
}

/**
 * A client of GET /api/v1/events: opens the stream with the given headers and
 * parses what arrives (events, and the comment lines the server sends as
 * heartbeats). `next(n)` waits for the next n events; `close()` hangs up.
 */
export interface EventStreamClient {
  status: number;
  headers: Headers;
  /** The body of a refused request. */
  text: string;
  next(count: number, timeoutMs?: number): Promise<StreamedEvent[]>;
  /** Waits until a comment line (a heartbeat) arrived. */
  comment(timeoutMs?: number): Promise<string>;
  /** Waits until the server ends the stream (reading and dropping what still arrives). */
  ended(timeoutMs?: number): Promise<void>;
  close(): void;
}

export async function openStream(app: TestApp, headers: Record<string, string>): Promise<EventStreamClient> {
  const abort = new AbortController();
  const res = await app.request('/api/v1/events', { headers, signal: abort.signal });
  if (res.status !== 200 || !res.body) {
    return {
      status: res.status,
      headers: res.headers,
      text: await res.text(),
      next: () => Promise.reject(new Error(`stream refused: ${res.status}`)),
      comment: () => Promise.reject(new Error(`stream refused: ${res.status}`)),
      ended: () => Promise.resolve(),
      close: () => abort.abort(),
    };
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const events: StreamedEvent[] = [];
  const comments: string[] = [];

  /** Reads one chunk and parses the complete frames in the buffer; false at the end of the stream. */
  const readMore = async (): Promise<boolean> => {
    const { value, done } = await reader.read();
    if (done) return false;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields: Record<string, string> = {};
      for (const line of frame.split('\n')) {
        if (line.startsWith(':')) comments.push(line.slice(1).trim());
        else {
          const colon = line.indexOf(':');
          fields[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
        }
      }
      if (fields.data !== undefined) {
        events.push({
          id: fields.id,
          event: fields.event,
          data: JSON.parse(fields.data) as StreamedEvent['data'],
        });
      }
    }
    return true;
  };

  /** Reads until `enough` holds, failing after the deadline (the reader is cancelled by then). */
  const readUntil = async (enough: () => boolean, what: string, timeoutMs: number) => {
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    try {
      while (!enough()) {
        if (!(await readMore())) throw new Error(`the stream ended before ${what}`);
      }
    } catch (err) {
      if (abort.signal.aborted) throw new Error(`timed out waiting for ${what}`, { cause: err });
      throw err;
    } finally {
      clearTimeout(timer);
    }
  };

  let taken = 0;
  return {
    status: res.status,
    headers: res.headers,
    text: '',
    next: async (count, timeoutMs = 20_000) => {
      await readUntil(() => events.length >= taken + count, `${count} events`, timeoutMs);
      const out = events.slice(taken, taken + count);
      taken += count;
      return out;
    },
    comment: async (timeoutMs = 20_000) => {
      await readUntil(() => comments.length > 0, 'a comment line', timeoutMs);
      return comments.shift()!;
    },
    ended: async (timeoutMs = 20_000) => {
      const timer = setTimeout(() => abort.abort(), timeoutMs);
      try {
        while (await readMore());
      } catch (err) {
        if (abort.signal.aborted) throw new Error('timed out waiting for the stream to end', { cause: err });
        throw err;
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => abort.abort(),
  };
}
