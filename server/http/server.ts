import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import type { HttpTimeouts } from '../config.ts';

/** What was wrong with a request Node's parser (llhttp) refused, for the client. */
function parseErrorDetail(err: NodeJS.ErrnoException & { reason?: unknown }): string {
  if (err.code === 'HPE_HEADER_OVERFLOW') return 'request headers are too large';
  if (err.code === 'HPE_INVALID_TRANSFER_ENCODING') return TRANSFER_ENCODING_NOT_CHUNKED;
  // llhttp's reason names the fault without quoting the request: "Invalid character in chunk size".
  const reason = typeof err.reason === 'string' && err.reason !== '' ? `: ${err.reason}` : '';
  return `the request could not be parsed as HTTP${reason}`;
}

const TRANSFER_ENCODING_NOT_CHUNKED = 'Transfer-Encoding must end with chunked (RFC 9112 §6.1)';

/**
 * Requests Node's HTTP parser rejects get the API's error shape, then the
 * connection closes. Two moments:
 *
 * - in the body of the request last handed to the app (a chunk size that is
 *   not hexadecimal, a chunk not ended by CRLF, a `Transfer-Encoding` that
 *   does not end in `chunked`): the answer goes through that request's own
 *   response, so the app sees it as sent and writes nothing more
 *   (`routeMiddleware` runs no handler for it, the body reader fails when the
 *   connection closes). Only a response whose first byte is already out cannot
 *   carry it; that connection is dropped, which the client sees as a cut
 *   response;
 * - before a request reached the app (a malformed request line, headers over
 *   the size limit, a non-numeric Content-Length): the answer is written to the
 *   socket itself, after the answers to the requests before it on the same
 *   connection (pipelining), which keep their order.
 *
 * The parser reports an error again for every later packet of a broken
 * connection; only the first is answered.
 */
function answerClientErrors(server: Server, lastResponse: WeakMap<Duplex, ServerResponse>): void {
  const answering = new WeakSet<Duplex>();
  server.on('clientError', (err: NodeJS.ErrnoException & { reason?: unknown }, socket: Duplex) => {
    if (answering.has(socket)) return;
    answering.add(socket);
    // 408 when the headers or the whole request did not arrive in time (headersTimeout,
    // requestTimeout); else 400 BAD_REQUEST: the error codes of decisions.md have no 431.
    const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const [status, statusLine, code] = timedOut
      ? [408, '408 Request Timeout', 'REQUEST_TIMEOUT']
      : [400, '400 Bad Request', 'BAD_REQUEST'];
    const detail = timedOut ? 'the request did not arrive in time' : parseErrorDetail(err);
    const last = lastResponse.get(socket);
    if (last && !last.req.complete) {
      // The broken part is this request's body.
      if (last.writableEnded) return; // answered already (malformedRequest, or the app): it closes
      if (last.headersSent) socket.destroy();
      else sendError(last, status, code, detail);
      return;
    }
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const answer = () => endSocket(socket, statusLine, code, detail);
    if (last && !last.writableFinished) last.once('finish', answer).once('close', answer);
    else answer();
  });
}

/** Writes an error in the API's shape from outside the app (requests refused before Koa sees them). */
function sendError(res: ServerResponse, status: number, errorCode: string, detail: string): void {
  const body = JSON.stringify({ detail, error_code: errorCode });
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    Connection: 'close',
  });
  res.end(body);
}

/** Writes an error in the API's shape straight to a socket Node took out of HTTP handling, then closes it. */
function endSocket(socket: Duplex, statusLine: string, errorCode: string, detail: string): void {
  const body = JSON.stringify({ detail, error_code: errorCode });
  socket.end(
    `HTTP/1.1 ${statusLine}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** How many times a header appears in the request as sent (Node keeps only the first `Host`). */
function headerCount(req: IncomingMessage, name: string): number {
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() === name) count++;
  }
  return count;
}

/**
 * Why Node would hand the app a request that HTTP/1.1 says is malformed, or
 * undefined when it is sound: no `Host` on HTTP/1.1, or more than one (RFC 9112
 * §3.2: both 400), and a `Transfer-Encoding` whose last coding is not
 * `chunked` (RFC 9112 §6.1: the length of such a request body cannot be known,
 * 400; Node's parser refuses it too, a moment after it handed the request over).
 */
function malformedRequest(req: IncomingMessage): string | undefined {
  const hosts = headerCount(req, 'host');
  if (hosts === 0 && req.httpVersion === '1.1') return 'the Host header is required';
  if (hosts > 1) return 'the Host header must be given once';
  const te = req.headers['transfer-encoding'];
  if (te !== undefined && te.split(',').at(-1)!.trim().toLowerCase() !== 'chunked') {
    return TRANSFER_ENCODING_NOT_CHUNKED;
  }
  return undefined;
}

/** Node's defaults would keep a stalled request 300 s and close idle connections after 5 s. */
export const DEFAULT_TIMEOUTS: HttpTimeouts = {
  keepAliveTimeout: 65_000,
  headersTimeout: 66_000,
  requestTimeout: 300_000,
  bodyIdleTimeout: 30_000,
};

/**
 * A request body of which nothing arrives for `ms` is answered 408 REQUEST_TIMEOUT (when no
 * answer has started) and its connection closed. The socket's inactivity timer measures it:
 * it runs from the headers until the body has arrived whole, then the connection's own
 * timeouts apply again.
 */
function limitBodyIdleness(req: IncomingMessage, res: ServerResponse, ms: number): void {
  if (req.complete) return;
  const hasBody =
    Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return;
  req.setTimeout(ms, () => {
    if (req.complete) return;
    if (!res.headersSent && !res.writableEnded) {
      res.once('finish', () => req.socket.destroy());
      sendError(
        res,
        408,
        'REQUEST_TIMEOUT',
        `the request body stopped arriving (nothing for ${ms / 1000} s)`,
      );
    } else req.socket.destroy();
  });
  // Whole: the connection's own timeouts again (after an answer already sent, Node has set
  // the keep-alive timeout itself, which stays).
  req.once('end', () => {
    if (!res.writableFinished) req.socket?.setTimeout(0);
  });
}

/**
 * The HTTP server every entry point (main.ts, tests, benchmarks) serves the app with.
 *
 * Node answers two kinds of request itself, with an empty body: an HTTP/1.1
 * request without `Host` (400) and an `Expect` other than `100-continue` (417);
 * and it drops a `CONNECT` without a word. All three are taken over here so
 * they answer in the error shape too, as do a repeated `Host` and a
 * `Transfer-Encoding` not ending in `chunked`, which Node would pass on.
 *
 * Timeouts (docs/configuration.md, SCANWARD_HTTP_*): an idle keep-alive connection closes
 * after `keepAliveTimeout` (65 s, above the 60 s of common load balancers, so the balancer
 * closes first); headers not received within `headersTimeout` (above it) and a request not
 * received whole within `requestTimeout` are answered 408; so is a body of which nothing
 * arrives for `bodyIdleTimeout`.
 */
export function createHttpServer(
  handler: RequestListener,
  timeouts: HttpTimeouts = DEFAULT_TIMEOUTS,
): Server {
  // The response to the request each connection last handed over, for the parser's refusals.
  const lastResponse = new WeakMap<Duplex, ServerResponse>();
  const server = createServer(
    {
      requireHostHeader: false,
      headersTimeout: timeouts.headersTimeout,
      requestTimeout: timeouts.requestTimeout,
      // How often Node looks for connections past headersTimeout/requestTimeout (30 s by default).
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(timeouts.headersTimeout / 4))),
    },
    (req: IncomingMessage, res: ServerResponse) => {
      lastResponse.set(req.socket, res);
      const malformed = malformedRequest(req);
      if (malformed) {
        sendError(res, 400, 'BAD_REQUEST', malformed);
        return;
      }
      limitBodyIdleness(req, res, timeouts.bodyIdleTimeout);
      handler(req, res);
    },
  );
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    sendError(res, 417, 'EXPECTATION_FAILED', 'the only Expect the server meets is 100-continue');
  });
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    endSocket(socket, '400 Bad Request', 'BAD_REQUEST', 'CONNECT is not supported: this server is no proxy');
  });
  answerClientErrors(server, lastResponse);
  return server;
}
