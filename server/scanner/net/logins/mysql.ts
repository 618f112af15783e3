/**
 * MySQL and MariaDB: one login as `root` with an empty password (HandshakeResponse41,
 * `mysql_native_password`, whose answer for an empty password is empty), and, when it is
 * accepted, the harmless reads `SELECT VERSION(), CURRENT_USER()` and `SHOW DATABASES`.
 */
import { MessageReader, openLoginSession, type LoginResult, type LoginTarget } from './session.ts';

const CLIENT_LONG_PASSWORD = 0x1;
const CLIENT_PROTOCOL_41 = 0x200;
const CLIENT_TRANSACTIONS = 0x2000;
const CLIENT_SECURE_CONNECTION = 0x8000;
const CLIENT_PLUGIN_AUTH = 0x80000;
const CAPABILITIES =
  CLIENT_LONG_PASSWORD |
  CLIENT_PROTOCOL_41 |
  CLIENT_TRANSACTIONS |
  CLIENT_SECURE_CONNECTION |
  CLIENT_PLUGIN_AUTH;

const packetLength = (data: Buffer): number | undefined =>
  data.length >= 4 ? 4 + data.readUIntLE(0, 3) : undefined;

export function mysqlPacket(sequence: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUIntLE(payload.length, 0, 3);
  header[3] = sequence;
  return Buffer.concat([header, payload]);
}

/** The HandshakeResponse41 of `user` with an empty password. */
export function handshakeResponse(user: string): Buffer {
  const fixed = Buffer.alloc(32);
  fixed.writeUInt32LE(CAPABILITIES, 0);
  fixed.writeUInt32LE(16 * 1024 * 1024, 4);
  fixed[8] = 0x21; // utf8_general_ci
  return Buffer.concat([
    fixed,
    Buffer.from(`${user}\0`, 'utf8'),
    Buffer.from([0]), // auth response length: an empty password answers nothing
    Buffer.from('mysql_native_password\0', 'latin1'),
  ]);
}

function errorText(payload: Buffer): string {
  const code = payload.readUInt16LE(1);
  const message = payload.toString('utf8', payload[3] === 0x23 ? 9 : 3);
  return `ERR ${code}: ${message}`;
}

/** A length-encoded integer at `at`: [value, bytes used]. */
function lengthEncoded(data: Buffer, at: number): [number | null, number] {
  const first = data[at] as number;
  if (first < 0xfb) return [first, 1];
  if (first === 0xfb) return [null, 1];
  if (first === 0xfc) return [data.readUInt16LE(at + 1), 3];
  if (first === 0xfd) return [data.readUIntLE(at + 1, 3), 4];
  return [Number(data.readBigUInt64LE(at + 1)), 9];
}

/** The rows of a text result set (every value as text, NULL as `NULL`). */
async function query(reader: MessageReader, send: (data: Buffer) => void, sql: string): Promise<string[][]> {
  send(mysqlPacket(0, Buffer.concat([Buffer.from([0x03]), Buffer.from(sql, 'utf8')])));
  const first = (await reader.next(packetLength)).subarray(4);
  if (first[0] === 0xff) throw new Error(errorText(first));
  if (first[0] === 0x00) return [];
  const [columns] = lengthEncoded(first, 0);
  for (let i = 0; i < (columns ?? 0); i++) await reader.next(packetLength);
  const isEof = (p: Buffer): boolean => p[0] === 0xfe && p.length < 9;
  const eof = (await reader.next(packetLength)).subarray(4);
  if (!isEof(eof)) throw new Error('unexpected result set framing');
  const rows: string[][] = [];
  for (;;) {
    const row = (await reader.next(packetLength)).subarray(4);
    if (isEof(row)) return rows;
    if (row[0] === 0xff) throw new Error(errorText(row));
    const values: string[] = [];
    let at = 0;
    while (at < row.length) {
      const [length, used] = lengthEncoded(row, at);
      at += used;
      if (length === null) values.push('NULL');
      else {
        values.push(row.toString('utf8', at, at + length));
        at += length;
      }
    }
    rows.push(values);
  }
}

export async function mysqlEmptyRootLogin(target: LoginTarget): Promise<LoginResult> {
  const session = await openLoginSession(target);
  const reader = new MessageReader(session);
  const request = ['MySQL protocol: HandshakeResponse41 as user "root" with an empty password (1 attempt)'];
  try {
    const greeting = (await reader.next(packetLength)).subarray(4);
    if (greeting[0] !== 0x0a) {
      return {
        accepted: false,
        request: request.join('\n'),
        response: greeting[0] === 0xff ? errorText(greeting) : 'no MySQL handshake',
      };
    }
    const serverVersion = greeting.toString('latin1', 1, greeting.indexOf(0, 1));
    session.write(mysqlPacket(1, handshakeResponse('root')));
    let sequence = 2;
    for (;;) {
      const answer = (await reader.next(packetLength)).subarray(4);
      if (answer[0] === 0x00) break;
      if (answer[0] === 0xff) {
        return {
          accepted: false,
          request: request.join('\n'),
          response: `Server ${serverVersion}\n${errorText(answer)}`,
        };
      }
      if (answer[0] === 0xfe) {
        // AuthSwitchRequest: whatever the plugin, an empty password answers with no bytes.
        session.write(mysqlPacket(sequence, Buffer.alloc(0)));
        sequence += 2;
        continue;
      }
      if (answer[0] === 0x01 && answer[1] === 0x03) continue; // caching_sha2 fast-auth success
      return {
        accepted: false,
        request: request.join('\n'),
        response: `Server ${serverVersion}\nthe server asked for more than an empty password`,
      };
    }
    const send = (data: Buffer): void => session.write(data);
    request.push('COM_QUERY SELECT VERSION(), CURRENT_USER()', 'COM_QUERY SHOW DATABASES');
    const [identity] = await query(reader, send, 'SELECT VERSION(), CURRENT_USER()');
    const databases = (await query(reader, send, 'SHOW DATABASES')).map((row) => row[0]);
    session.write(mysqlPacket(0, Buffer.from([0x01]))); // COM_QUIT
    return {
      accepted: true,
      request: request.join('\n'),
      response: [
        'OK: logged in',
        `VERSION(): ${identity?.[0] ?? serverVersion}`,
        `CURRENT_USER(): ${identity?.[1] ?? 'unknown'}`,
        `SHOW DATABASES: ${databases.join(', ')}`,
      ].join('\n'),
    };
  } finally {
    session.close();
  }
}
