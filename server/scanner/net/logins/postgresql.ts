/**
 * PostgreSQL: one login as `postgres` with the password `postgres` (the default many
 * images and installers suggest) on database `postgres`, answering whichever password
 * exchange the server asks for (cleartext, MD5, SCRAM-SHA-256); when it is accepted, the
 * harmless read `SELECT version()` and the list of databases, then `Terminate`. A server
 * that lets the user in without a password (trust) is left to the trust check: no password
 * is sent to it.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { startupMessage } from '../probes/postgresql.ts';
import { MessageReader, openLoginSession, type LoginResult, type LoginTarget } from './session.ts';

const USER = 'postgres';
const PASSWORD = 'postgres';

const messageLength = (data: Buffer): number | undefined =>
  data.length >= 5 ? 1 + data.readInt32BE(1) : undefined;

function frontend(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}

const cString = (text: string): Buffer => Buffer.from(`${text}\0`, 'utf8');

function errorFields(body: Buffer): string {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < body.length && body[at] !== 0) {
    const end = body.indexOf(0, at + 1);
    fields.set(String.fromCharCode(body[at] as number), body.toString('utf8', at + 1, end));
    at = end + 1;
  }
  return `${fields.get('S') ?? 'ERROR'} ${fields.get('C') ?? ''}: ${fields.get('M') ?? ''}`.trim();
}

/** `md5` + md5(md5(password + user) + salt), as the MD5 exchange wants it. */
export function md5Password(user: string, password: string, salt: Buffer): string {
  const inner = createHash('md5')
    .update(password + user)
    .digest('hex');
  return `md5${createHash('md5')
    .update(Buffer.concat([Buffer.from(inner), salt]))
    .digest('hex')}`;
}

/** The client-final-message of SCRAM-SHA-256 (RFC 5802, RFC 7677) for `serverFirst`. */
export function scramClientFinal(
  password: string,
  clientFirstBare: string,
  serverFirst: string,
): { clientFinal: string; serverSignature: string } {
  const attributes = new Map(serverFirst.split(',').map((part) => [part[0], part.slice(2)]));
  const nonce = attributes.get('r') ?? '';
  const salt = Buffer.from(attributes.get('s') ?? '', 'base64');
  const iterations = Number(attributes.get('i'));
  if (!nonce || !Number.isInteger(iterations) || iterations < 1 || iterations > 1_000_000) {
    throw new Error('bad SCRAM server-first-message');
  }
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const withoutProof = `c=biws,r=${nonce}`;
  const authMessage = `${clientFirstBare},${serverFirst},${withoutProof}`;
  const signature = createHmac('sha256', storedKey).update(authMessage).digest();
  const proof = Buffer.from(clientKey.map((byte, i) => byte ^ (signature[i] as number)));
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return {
    clientFinal: `${withoutProof},p=${proof.toString('base64')}`,
    serverSignature: createHmac('sha256', serverKey).update(authMessage).digest('base64'),
  };
}

export async function postgresDefaultLogin(target: LoginTarget): Promise<LoginResult> {
  const session = await openLoginSession(target);
  const reader = new MessageReader(session);
  const request = [`PostgreSQL startup as user "${USER}", database "postgres"`];
  const refused = (response: string): LoginResult => ({
    accepted: false,
    request: request.join('\n'),
    response,
  });
  const next = async (): Promise<{ type: string; body: Buffer }> => {
    const message = await reader.next(messageLength);
    return { type: String.fromCharCode(message[0] as number), body: message.subarray(5) };
  };
  try {
    session.write(startupMessage({ user: USER, database: 'postgres', application_name: 'scanward-login' }));
    let method = '';
    for (;;) {
      const message = await next();
      if (message.type === 'E') return refused(errorFields(message.body));
      if (message.type !== 'R') return refused(`unexpected message ${message.type}`);
      const code = message.body.readInt32BE(0);
      if (code === 0) {
        if (method === '')
          return refused('trust authentication: no password asked (reported by the trust check)');
        break;
      }
      if (code === 3) {
        method = 'cleartext password';
        session.write(frontend('p', cString(PASSWORD)));
      } else if (code === 5) {
        method = 'MD5';
        session.write(frontend('p', cString(md5Password(USER, PASSWORD, message.body.subarray(4, 8)))));
      } else if (code === 10) {
        const mechanisms = message.body.toString('utf8', 4).split('\0').filter(Boolean);
        if (!mechanisms.includes('SCRAM-SHA-256')) return refused(`SASL mechanisms ${mechanisms.join(' ')}`);
        method = 'SCRAM-SHA-256';
        const clientFirstBare = `n=,r=${randomBytes(18).toString('base64')}`;
        const first = Buffer.from(`n,,${clientFirstBare}`, 'utf8');
        const length = Buffer.alloc(4);
        length.writeInt32BE(first.length, 0);
        session.write(frontend('p', Buffer.concat([cString('SCRAM-SHA-256'), length, first])));
        const serverFirst = await next();
        if (serverFirst.type === 'E') return refused(errorFields(serverFirst.body));
        if (serverFirst.type !== 'R' || serverFirst.body.readInt32BE(0) !== 11)
          return refused('bad SCRAM exchange');
        const { clientFinal } = scramClientFinal(
          PASSWORD,
          clientFirstBare,
          serverFirst.body.toString('utf8', 4),
        );
        session.write(frontend('p', Buffer.from(clientFinal, 'utf8')));
      } else if (code === 12) {
        continue; // SASLFinal: AuthenticationOk follows
      } else {
        return refused(`authentication method ${code} is not a password exchange`);
      }
      request[0] = `PostgreSQL startup as user "${USER}", database "postgres", password "${PASSWORD}" (the common default) by ${method} (1 attempt)`;
    }
    // Parameter status and BackendKeyData until ReadyForQuery.
    for (let message = await next(); message.type !== 'Z'; message = await next()) {
      if (message.type === 'E') return refused(errorFields(message.body));
    }
    const sql = 'SELECT version() UNION ALL SELECT datname::text FROM pg_database';
    request.push(`simple query: ${sql}`);
    session.write(frontend('Q', cString(sql)));
    const rows: string[] = [];
    for (let message = await next(); message.type !== 'Z'; message = await next()) {
      if (message.type === 'D' && message.body.readInt16BE(0) === 1) {
        const length = message.body.readInt32BE(2);
        if (length >= 0) rows.push(message.body.toString('utf8', 6, 6 + length));
      }
    }
    session.write(frontend('X', Buffer.alloc(0)));
    const [version, ...databases] = rows;
    return {
      accepted: true,
      request: request.join('\n'),
      response: [
        `AuthenticationOk (${method})`,
        `version(): ${version ?? 'unknown'}`,
        `databases: ${databases.join(', ')}`,
      ].join('\n'),
    };
  } finally {
    session.close();
  }
}
