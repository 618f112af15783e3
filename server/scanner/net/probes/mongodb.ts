/**
 * MongoDB wire protocol, OP_MSG (MongoDB 3.6 and later), three read-only commands on the
 * `admin` database: `hello` (is this MongoDB?), `buildInfo` (the version; allowed without
 * authentication) and `listDatabases` with `nameOnly` (does it let an anonymous client
 * read? it fails with code 13 when authentication is enabled).
 */
import type { ProbeSession } from '../probe-session.ts';
import { decodeDocument, encodeDocument, type BsonDocument } from './bson.ts';
import { compact, type ClientFirstProbe, type ProbeContext, type ProbeFinding } from './probe.ts';

const OP_MSG = 2013;
const HEADER_BYTES = 16;

export const mongodb: ClientFirstProbe = {
  name: 'mongodb',
  async run(session, context) {
    const hello = await command(session, context, 1, { hello: 1, $db: 'admin' });
    if (!hello || !isHelloReply(hello)) return null;
    const build = await command(session, context, 2, { buildInfo: 1, $db: 'admin' });
    const databases = await command(session, context, 3, { listDatabases: 1, nameOnly: true, $db: 'admin' });
    const version = typeof build?.version === 'string' ? build.version : undefined;
    return compact<ProbeFinding>({
      service: 'mongodb',
      product: 'MongoDB',
      version,
      banner: version ? `MongoDB ${version}` : 'MongoDB hello',
      anonymousAccess: databases ? databases.ok === 1 : undefined,
      details: compact({
        max_wire_version: typeof hello.maxWireVersion === 'number' ? hello.maxWireVersion : undefined,
        replica_set: typeof hello.setName === 'string' ? hello.setName : undefined,
        git_version: typeof build?.gitVersion === 'string' ? build.gitVersion : undefined,
        databases:
          databases?.ok === 1 && Array.isArray(databases.databases)
            ? databases.databases
                .map((db) =>
                  db && typeof db === 'object' && !Array.isArray(db) ? (db as BsonDocument).name : undefined,
                )
                .filter((name): name is string => typeof name === 'string')
                .slice(0, 50)
                .join(', ')
            : undefined,
        auth_error:
          databases && databases.ok !== 1 && typeof databases.errmsg === 'string'
            ? databases.errmsg
            : undefined,
      }),
    });
  },
};

function isHelloReply(reply: BsonDocument): boolean {
  return (
    reply.ok === 1 &&
    (typeof reply.maxWireVersion === 'number' ||
      reply.isWritablePrimary !== undefined ||
      reply.ismaster !== undefined)
  );
}

export function opMsg(requestId: number, document: Record<string, string | number | boolean>): Buffer {
  const body = encodeDocument(document);
  const message = Buffer.alloc(HEADER_BYTES + 4 + 1 + body.length);
  message.writeInt32LE(message.length, 0);
  message.writeInt32LE(requestId, 4);
  message.writeInt32LE(0, 8);
  message.writeInt32LE(OP_MSG, 12);
  message.writeUInt32LE(0, 16); // flagBits
  message.writeUInt8(0, 20); // section kind 0: body
  body.copy(message, 21);
  return message;
}

/** The body document of an OP_MSG reply, or undefined when `data` is not one. */
export function parseOpMsgReply(data: Buffer): BsonDocument | undefined {
  if (data.length < HEADER_BYTES + 5 + 5) return undefined;
  const length = data.readInt32LE(0);
  if (length > data.length || data.readInt32LE(12) !== OP_MSG || data[20] !== 0) return undefined;
  try {
    return decodeDocument(data.subarray(0, length), 21);
  } catch {
    return undefined;
  }
}

function messageComplete(data: Buffer): boolean {
  if (data.length < 4) return false;
  const length = data.readInt32LE(0);
  return length < HEADER_BYTES || length > 16 * 1024 * 1024 || data.length >= length;
}

async function command(
  session: ProbeSession,
  context: ProbeContext,
  requestId: number,
  document: Record<string, string | number | boolean>,
): Promise<BsonDocument | undefined> {
  if (session.peerClosed) return undefined;
  session.write(opMsg(requestId, document));
  return parseOpMsgReply(await session.read(messageComplete, context.replyWaitMs));
}
