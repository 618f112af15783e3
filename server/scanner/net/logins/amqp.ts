/**
 * AMQP 0-9-1 (RabbitMQ): one login as `guest`/`guest`, the vendor default, with SASL PLAIN
 * (Connection.StartOk); when the broker answers Connection.Tune, the harmless proof is
 * opening the default virtual host `/` (Connection.Open → OpenOk), then a polite
 * Connection.Close. Nothing is declared, published or consumed.
 */
import { AMQP_0_9_1_HEADER, parseConnectionStart } from '../probes/amqp.ts';
import { MessageReader, openLoginSession, type LoginResult, type LoginTarget } from './session.ts';

const FRAME_END = 0xce;

const frameLength = (data: Buffer): number | undefined => {
  if (data.length >= 8 && data.toString('latin1', 0, 4) === 'AMQP') return 8;
  return data.length >= 7 ? 7 + data.readUInt32BE(3) + 1 : undefined;
};

function shortString(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from([bytes.length]), bytes]);
}

function longString(bytes: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length, 0);
  return Buffer.concat([length, bytes]);
}

export function methodFrame(classId: number, methodId: number, args: Buffer): Buffer {
  const header = Buffer.alloc(11);
  header[0] = 1;
  header.writeUInt16BE(0, 1);
  header.writeUInt32BE(4 + args.length, 3);
  header.writeUInt16BE(classId, 7);
  header.writeUInt16BE(methodId, 9);
  return Buffer.concat([header, args, Buffer.from([FRAME_END])]);
}

/** Class and method of a method frame, and its arguments. */
export function parseMethod(frame: Buffer): { classId: number; methodId: number; args: Buffer } | undefined {
  if (frame[0] !== 1 || frame.length < 12) return undefined;
  return { classId: frame.readUInt16BE(7), methodId: frame.readUInt16BE(9), args: frame.subarray(11, -1) };
}

function closeReason(args: Buffer): string {
  const code = args.readUInt16BE(0);
  return `Connection.Close ${code} ${args.toString('utf8', 3, 3 + (args[2] as number))}`;
}

export async function amqpGuestLogin(target: LoginTarget): Promise<LoginResult> {
  const session = await openLoginSession(target);
  const reader = new MessageReader(session);
  const request = [
    'AMQP 0-9-1: Connection.StartOk, SASL PLAIN as "guest" with the vendor default password guest (1 attempt)',
  ];
  const refused = (response: string): LoginResult => ({
    accepted: false,
    request: request.join('\n'),
    response,
  });
  try {
    session.write(AMQP_0_9_1_HEADER);
    const start = parseConnectionStart(await reader.next(frameLength));
    if (!start) return refused('no AMQP 0-9-1 Connection.Start');
    const text = (name: string): string => {
      const value = start.serverProperties[name];
      return Buffer.isBuffer(value) ? value.toString('utf8') : typeof value === 'string' ? value : '';
    };
    const server = `${text('product')} ${text('version')}`.trim() || 'AMQP server';
    if (!start.mechanisms.includes('PLAIN'))
      return refused(`${server}: PLAIN is not offered (${start.mechanisms.join(' ')})`);
    session.write(
      methodFrame(
        10,
        11,
        Buffer.concat([
          longString(Buffer.alloc(0)), // client properties: an empty table
          shortString('PLAIN'),
          longString(Buffer.from('\0guest\0guest', 'utf8')),
          shortString('en_US'),
        ]),
      ),
    );
    let answer;
    try {
      answer = parseMethod(await reader.next(frameLength));
    } catch {
      return refused(`${server}: the broker closed the connection (login refused)`);
    }
    if (!answer || answer.classId !== 10 || answer.methodId !== 30) {
      return refused(
        `${server}: ${answer?.classId === 10 && answer.methodId === 50 ? closeReason(answer.args) : 'login refused'}`,
      );
    }
    const channelMax = answer.args.readUInt16BE(0);
    const frameMax = answer.args.readUInt32BE(2);
    const tuneOk = Buffer.alloc(8);
    tuneOk.writeUInt16BE(channelMax, 0);
    tuneOk.writeUInt32BE(frameMax, 2);
    session.write(methodFrame(10, 31, tuneOk));
    request.push('Connection.TuneOk, Connection.Open virtual host "/"');
    session.write(methodFrame(10, 40, Buffer.concat([shortString('/'), shortString(''), Buffer.from([0])])));
    const opened = parseMethod(await reader.next(frameLength));
    const vhost =
      opened?.classId === 10 && opened.methodId === 41
        ? 'Connection.OpenOk: virtual host "/" opened'
        : opened?.classId === 10 && opened.methodId === 50
          ? `virtual host "/": ${closeReason(opened.args)}`
          : 'virtual host "/": no answer';
    request.push('Connection.Close 200');
    session.write(
      methodFrame(
        10,
        50,
        Buffer.concat([Buffer.from([0, 200]), shortString('scanward done'), Buffer.alloc(4)]),
      ),
    );
    return {
      accepted: true,
      request: request.join('\n'),
      response: [
        `${server} (cluster ${text('cluster_name') || 'unnamed'})`,
        `Connection.Tune: logged in (channel_max ${channelMax}, frame_max ${frameMax})`,
        vhost,
      ].join('\n'),
    };
  } finally {
    session.close();
  }
}
