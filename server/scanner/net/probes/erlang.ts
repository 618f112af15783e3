/**
 * Erlang/OTP distribution.
 *
 * - The port mapper (epmd, usually 4369): `NAMES_REQ` (`\x00\x01n`) answers its own port
 *   and one line per registered node, `name rabbit at port 25672`. Read-only; epmd closes
 *   the connection after answering.
 * - A node's distribution port: the first handshake message, `send_name` (protocol version
 *   5, name `scanward@probe`), is answered with `s` and a status (`ok`, `nok`,
 *   `not_allowed`, ...). The connection is closed right after: no challenge is answered and
 *   no cookie is involved.
 */
import { compact, type ClientFirstProbe, type ProbeFinding } from './probe.ts';

export const NAMES_REQUEST = Buffer.from([0x00, 0x01, 0x6e]);

export interface EpmdNode {
  name: string;
  port: number;
}

/** The nodes of a NAMES answer, or undefined when `data` is not one. */
export function parseEpmdNames(data: Buffer): { epmdPort: number; nodes: EpmdNode[] } | undefined {
  if (data.length < 4) return undefined;
  const text = data.toString('latin1', 4);
  const lines = text.split('\n').filter((line) => line !== '');
  const nodes: EpmdNode[] = [];
  for (const line of lines) {
    const match = /^name (\S+) at port (\d{1,5})$/.exec(line);
    if (!match) return undefined;
    nodes.push({ name: match[1] as string, port: Number(match[2]) });
  }
  const epmdPort = data.readUInt32BE(0);
  if (epmdPort < 1 || epmdPort > 65535) return undefined;
  return { epmdPort, nodes };
}

export const epmd: ClientFirstProbe = {
  name: 'epmd',
  async run(session, context) {
    session.write(NAMES_REQUEST);
    // epmd answers and closes: read until the peer is done.
    const reply = await session.read(() => false, context.replyWaitMs);
    const names = parseEpmdNames(reply);
    if (!names) return null;
    return compact<ProbeFinding>({
      service: 'epmd',
      product: 'Erlang Port Mapper Daemon',
      banner: names.nodes.length
        ? names.nodes.map((n) => `name ${n.name} at port ${n.port}`).join('\n')
        : 'epmd: no registered nodes',
      details: {
        epmd_nodes: names.nodes.map((n) => `${n.name}:${n.port}`).join(', '),
      },
    });
  },
};

/** Capabilities of an OTP 23+ node (DFLAG_HANDSHAKE_23 and the flags OTP 25+ insists on). */
const SEND_NAME_FLAGS = 0x03f7_fffd | 0x0100_0000;

/** The OTP 23+ `send_name` message (`N`): flags, creation 0, our node name. */
export function sendName(name: string): Buffer {
  const body = Buffer.alloc(15 + name.length);
  body.write('N', 0, 'latin1');
  body.writeUInt32BE(0, 1);
  body.writeUInt32BE(SEND_NAME_FLAGS, 5);
  body.writeUInt32BE(0, 9);
  body.writeUInt16BE(name.length, 13);
  body.write(name, 15, 'latin1');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(body.length, 0);
  return Buffer.concat([length, body]);
}

/** The status message and, when the node went on to its challenge, the node's name. */
export function parseDistributionAnswer(data: Buffer): { status: string; node?: string } | undefined {
  if (data.length < 4 || data.length < 2 + data.readUInt16BE(0) || data[2] !== 0x73) return undefined;
  const end = 2 + data.readUInt16BE(0);
  const status = data.toString('latin1', 3, end).split(':')[0] as string;
  if (!/^(ok|ok_simultaneous|nok|not_allowed|alive|named)$/.test(status)) return undefined;
  const challenge = data.subarray(end);
  // 'N' challenge: length (2), 'N', flags (8), challenge (4), creation (4), name length (2), name.
  if (challenge.length >= 21 && challenge[2] === 0x4e) {
    const nameLength = challenge.readUInt16BE(19);
    const node = challenge.toString('latin1', 21, 21 + nameLength);
    if (/^[\w.-]+@[\w.-]+$/.test(node)) return { status, node };
  }
  return { status };
}

export const erlangDistribution: ClientFirstProbe = {
  name: 'erlang-distribution',
  async run(session, context) {
    session.write(sendName('scanward@probe'));
    const reply = await session.read(
      (data) =>
        data.length >= 2 &&
        data.length >= 2 + data.readUInt16BE(0) &&
        (data.length > 2 + data.readUInt16BE(0) || data.toString('latin1', 3, 5) !== 'ok'),
      context.replyWaitMs,
    );
    const answer = parseDistributionAnswer(reply);
    if (!answer) return null;
    return compact<ProbeFinding>({
      service: 'erlang-dist',
      product: 'Erlang/OTP distribution',
      banner: `send_name answered: s${answer.status}${answer.node ? `, node ${answer.node}` : ''}`,
      details: compact({ dist_status: answer.status, node: answer.node }),
    });
  },
};
