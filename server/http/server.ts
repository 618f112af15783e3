import { createServer, type RequestListener, type Server } from 'node:http';
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
    const body = JSON.stringify({ detail, error_code: 'BAD_REQUEST' });
    socket.end(
      'HTTP/1.1 400 Bad Request\r\n' +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}

/** The HTTP server every entry point (main.ts, tests, benchmarks) serves the app with. */
export function createHttpServer(handler: RequestListener): Server {
  const server = createServer(handler);
  answerClientErrors(server);
  return server;
}
