import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Requests Node's HTTP parser rejects before any application code runs (a
 * malformed request line, headers over the size limit, a non-numeric
 * Content-Length) still get the API's error shape, then the connection closes.
 */
function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
      socket.destroy();
      return;
    }
    // 400 BAD_REQUEST for all of them: the error codes of decisions.md have no 431.
    const detail =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? 'request headers are too large'
        : 'the request could not be parsed as HTTP';
    endSocket(socket, '400 Bad Request', 'BAD_REQUEST', detail);
  });
}

/** Writes an error in the API's shape from outside the app (requests Node refuses before Koa sees them). */
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

/**
 * The HTTP server every entry point (main.ts, tests, benchmarks) serves the app with.
 *
 * Node answers two kinds of request itself, with an empty body: an HTTP/1.1
 * request without `Host` (400) and an `Expect` other than `100-continue` (417);
 * and it drops a `CONNECT` without a word. All three are taken over here so
 * they answer in the error shape too.
 */
export function createHttpServer(handler: RequestListener): Server {
  const server = createServer({ requireHostHeader: false }, (req: IncomingMessage, res: ServerResponse) => {
    if (req.httpVersion === '1.1' && req.headers.host === undefined) {
      sendError(res, 400, 'BAD_REQUEST', 'the Host header is required');
      return;
    }
    handler(req, res);
  });
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    sendError(res, 417, 'EXPECTATION_FAILED', 'the only Expect the server meets is 100-continue');
  });
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    endSocket(socket, '400 Bad Request', 'BAD_REQUEST', 'CONNECT is not supported: this server is no proxy');
  });
  answerClientErrors(server);
  return server;
}
