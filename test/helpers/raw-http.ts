import { connect } from 'node:net';

/**
 * Writes raw bytes to the server (in one write) and reads everything it answers until it
 * closes: for the tests that send what no HTTP client would (broken request lines, bare
 * headers, broken chunked framing, bytes that are not UTF-8).
 */
export function sendRaw(url: string, bytes: string | Uint8Array): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

/** An answer of {@link sendRaw} taken apart: status, lower-cased headers, the JSON body. */
export function parseRawAnswer(answer: string): {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
} {
  const split = answer.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = answer.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine ?? '')?.[1] ?? 0);
  return { status, headers, body: JSON.parse(answer.slice(split + 4)) as Record<string, unknown> };
}
