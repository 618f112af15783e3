/**
 * NATS: a client connects without credentials and asks to be answered. The server greets with
 * `INFO {json}`; the client sends `CONNECT` with no user, password, token or key (verbose, so
 * the server acknowledges it) and `PING`. `+OK` and `PONG` mean the server let an
 * unauthenticated client in; `-ERR 'Authorization Violation'` means it did not. Nothing is
 * subscribed to or published.
 */
import { MessageReader, openLoginSession, type LoginResult, type LoginTarget } from './session.ts';

export const NATS_CONNECT =
  'CONNECT {"verbose":true,"pedantic":false,"name":"scanward","lang":"scanward","version":"1","protocol":1}';

/** A whole line. */
const lineDone = (text: string): boolean => /\r?\n$/.test(text);

export async function natsAnonymousConnect(target: LoginTarget): Promise<LoginResult> {
  const session = await openLoginSession(target);
  const reader = new MessageReader(session);
  const request: string[] = ['(connection opened: the server speaks first)'];
  const response: string[] = [];
  try {
    const info = (await reader.lines(lineDone)).trim();
    response.push(info.length > 1024 ? `${info.slice(0, 1024)}…` : info);
    if (!info.startsWith('INFO '))
      return { accepted: false, request: request.join('\n'), response: response.join('\n') };
    request.push(NATS_CONNECT, 'PING');
    session.write(`${NATS_CONNECT}\r\nPING\r\n`);
    // +OK for the CONNECT, then PONG; an error ends the exchange (the server closes after it).
    const reply = await reader
      .lines((text) => /(?:^|\n)(?:PONG|-ERR[^\n]*)\r?\n$/.test(text))
      .catch(() => '');
    const lines = reply.split(/\r?\n/).filter((line) => line !== '');
    response.push(...(lines.length > 0 ? lines : ['(no answer)']));
    const accepted = lines.includes('PONG') && !lines.some((line) => line.startsWith('-ERR'));
    return { accepted, request: request.join('\n'), response: response.join('\n') };
  } finally {
    session.close();
  }
}
