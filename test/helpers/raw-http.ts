import { connect } from 'node:net';

/**
 * Writes raw bytes to the server and reads everything it answers until it closes: for
 * the tests that send what no HTTP client would (broken request lines, bare headers).
 */
export function sendRaw(url: string, bytes: string): Promise<string> {
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
