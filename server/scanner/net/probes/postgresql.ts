/**
 * PostgreSQL frontend/backend protocol 3.0:
 *
 * 1. `SSLRequest` → `S` (TLS offered: the session switches to TLS) or `N`.
 * 2. A startup message for user `postgres`, database `postgres` → the server's first
 *    message says how it wants this user authenticated: `AuthenticationOk` (trust: no
 *    password; the following ParameterStatus messages carry `server_version`), a password
 *    request (cleartext, MD5, SCRAM, GSS/SSPI), or an error (e.g. no pg_hba.conf entry).
 * 3. `Terminate`. No password is ever sent and no query is run.
 *
 * A version is reported only when the server sends `server_version` (after trust login);
 * it is never guessed from error texts.
 */
import { compact, type ClientFirstProbe, type ProbeFinding } from './probe.ts';

const SSL_REQUEST_CODE = 80877103;
const PROTOCOL_3_0 = 196608;

const AUTH_METHODS: Record<number, string> = {
  0: 'trust',
  2: 'kerberos',
  3: 'password',
  5: 'md5',
  7: 'gss',
  9: 'sspi',
  10: 'sasl',
};

export interface BackendMessage {
  type: string;
  body: Buffer;
}

export const postgresql: ClientFirstProbe = {
  name: 'postgresql',
  async run(session, context) {
    const sslRequest = Buffer.alloc(8);
    sslRequest.writeInt32BE(8, 0);
    sslRequest.writeInt32BE(SSL_REQUEST_CODE, 4);
    session.write(sslRequest);
    const answer = await session.read(() => true, context.replyWaitMs);
    if (answer.length !== 1 || (answer[0] !== 0x53 && answer[0] !== 0x4e)) return null;
    const sslOffered = answer[0] === 0x53;
    if (sslOffered) await session.upgradeToTls();

    session.write(
      startupMessage({ user: 'postgres', database: 'postgres', application_name: 'scanward-probe' }),
    );
    const messages = parseBackendMessages(await session.read(startupAnswerComplete, context.replyWaitMs));
    const finding = fromStartupAnswer(messages, sslOffered);
    if (finding) session.write(Buffer.from([0x58, 0, 0, 0, 4])); // Terminate
    return finding;
  },
};

export function startupMessage(parameters: Record<string, string>): Buffer {
  const pairs = Object.entries(parameters).flatMap(([key, value]) => [key, value]);
  const body = Buffer.from(`${pairs.join('\0')}\0\0`, 'utf8');
  const message = Buffer.alloc(8 + body.length);
  message.writeInt32BE(message.length, 0);
  message.writeInt32BE(PROTOCOL_3_0, 4);
  body.copy(message, 8);
  return message;
}

/** Complete backend messages at the start of `data` (a trailing partial message is left out). */
export function parseBackendMessages(data: Buffer): BackendMessage[] {
  const messages: BackendMessage[] = [];
  let at = 0;
  while (at + 5 <= data.length) {
    const length = data.readInt32BE(at + 1);
    if (length < 4 || at + 1 + length > data.length) break;
    messages.push({
      type: String.fromCharCode(data[at] as number),
      body: data.subarray(at + 5, at + 1 + length),
    });
    at += 1 + length;
  }
  return messages;
}

/** An error, a password request, or (after AuthenticationOk) everything up to ReadyForQuery. */
function startupAnswerComplete(data: Buffer): boolean {
  const messages = parseBackendMessages(data);
  const first = messages[0];
  if (!first) return false;
  if (first.type === 'R' && first.body.length >= 4 && first.body.readInt32BE(0) === 0) {
    return messages.some((message) => message.type === 'Z' || message.type === 'E');
  }
  return true;
}

export function fromStartupAnswer(messages: BackendMessage[], sslOffered: boolean): ProbeFinding | null {
  const first = messages[0];
  if (!first) return null;
  if (first.type === 'E') {
    const fields = errorFields(first.body);
    if (!fields.S && !fields.C) return null;
    return compact<ProbeFinding>({
      service: 'postgresql',
      product: 'PostgreSQL',
      banner: `${fields.S ?? 'ERROR'}: ${fields.M ?? ''}`.trim(),
      details: compact({ ssl: sslOffered, error: fields.M, sqlstate: fields.C }),
    });
  }
  if (first.type !== 'R' || first.body.length < 4) return null;
  const code = first.body.readInt32BE(0);
  const method = AUTH_METHODS[code];
  if (method === undefined) return null;
  if (code !== 0) {
    const mechanisms =
      code === 10 ? first.body.toString('utf8', 4).split('\0').filter(Boolean).join(', ') : undefined;
    return compact<ProbeFinding>({
      service: 'postgresql',
      product: 'PostgreSQL',
      banner: `authentication request: ${mechanisms ?? method}`,
      anonymousAccess: false,
      details: compact({ ssl: sslOffered, auth: mechanisms ?? method }),
    });
  }
  const parameters = new Map<string, string>();
  for (const message of messages) {
    if (message.type !== 'S') continue;
    const [name = '', value = ''] = message.body.toString('utf8').split('\0');
    parameters.set(name, value);
  }
  const serverVersion = parameters.get('server_version');
  return compact<ProbeFinding>({
    service: 'postgresql',
    product: 'PostgreSQL',
    version: serverVersion ? /^\d+(?:\.\d+)*/.exec(serverVersion)?.[0] : undefined,
    banner: serverVersion ? `server_version ${serverVersion}` : 'AuthenticationOk',
    anonymousAccess: true,
    details: compact({ ssl: sslOffered, auth: 'trust', server_version: serverVersion }),
  });
}

/** ErrorResponse fields: a type byte, a NUL-terminated string, repeated; a NUL ends them. */
function errorFields(body: Buffer): Record<string, string> {
  const fields: Record<string, string> = {};
  let at = 0;
  while (at < body.length && body[at] !== 0) {
    const end = body.indexOf(0, at + 1);
    if (end === -1) break;
    fields[String.fromCharCode(body[at] as number)] = body.toString('utf8', at + 1, end);
    at = end + 1;
  }
  return fields;
}
