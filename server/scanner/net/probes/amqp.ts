/**
 * AMQP 0-9-1 (RabbitMQ and others): send the protocol header `AMQP\0\0\x09\x01`; the server
 * answers with a `Connection.Start` method frame whose server-properties table names the
 * product and version, and which lists the SASL mechanisms it accepts. The connection is
 * then simply closed: no login is attempted. A server speaking another AMQP version
 * answers with its own protocol header instead, which identifies it as AMQP too.
 */
import { compact, type ClientFirstProbe, type ProbeFinding } from './probe.ts';

export const AMQP_0_9_1_HEADER = Buffer.from([0x41, 0x4d, 0x51, 0x50, 0, 0, 9, 1]);
const FRAME_METHOD = 1;
const FRAME_END = 0xce;

export type FieldValue = string | number | bigint | boolean | null | Buffer | FieldTable | FieldValue[];
export interface FieldTable {
  [name: string]: FieldValue;
}

export interface ConnectionStart {
  versionMajor: number;
  versionMinor: number;
  serverProperties: FieldTable;
  mechanisms: string[];
  locales: string[];
}

export const amqp: ClientFirstProbe = {
  name: 'amqp',
  async run(session, context) {
    session.write(AMQP_0_9_1_HEADER);
    const reply = await session.read(frameComplete, context.replyWaitMs);
    const otherVersion = protocolHeader(reply);
    if (otherVersion) {
      return {
        service: 'amqp',
        banner: `AMQP protocol header ${otherVersion}`,
        details: { protocol: otherVersion },
      };
    }
    const start = parseConnectionStart(reply);
    return start ? fromConnectionStart(start) : null;
  },
};

function frameComplete(data: Buffer): boolean {
  if (data.length >= 8 && data.subarray(0, 4).toString('latin1') === 'AMQP') return true;
  if (data.length < 7) return false;
  return data.length >= 7 + data.readUInt32BE(3) + 1;
}

/** `AMQP\x00\x01\x00\x00` → `1.0.0` (AMQP 1.0); `AMQP\x00\x00\x09\x01` → `0-9-1`. */
function protocolHeader(data: Buffer): string | undefined {
  if (data.length < 8 || data.subarray(0, 4).toString('latin1') !== 'AMQP') return undefined;
  const [id, major, minor, revision] = [data[4], data[5], data[6], data[7]];
  return id === 0 && major === 0
    ? `0-${minor}-${revision}`
    : `${major}.${minor}.${revision} (protocol id ${id})`;
}

export function parseConnectionStart(data: Buffer): ConnectionStart | undefined {
  if (data.length < 12 || data[0] !== FRAME_METHOD || data.readUInt16BE(1) !== 0) return undefined;
  const size = data.readUInt32BE(3);
  if (data.length < 7 + size + 1 || data[7 + size] !== FRAME_END) return undefined;
  const payload = data.subarray(7, 7 + size);
  if (payload.readUInt16BE(0) !== 10 || payload.readUInt16BE(2) !== 10) return undefined; // connection.start
  try {
    const reader = new Reader(payload, 4);
    const versionMajor = reader.uint8();
    const versionMinor = reader.uint8();
    const serverProperties = reader.table();
    const mechanisms = reader.longString().toString('utf8').split(' ').filter(Boolean);
    const locales = reader.longString().toString('utf8').split(' ').filter(Boolean);
    return { versionMajor, versionMinor, serverProperties, mechanisms, locales };
  } catch {
    return undefined;
  }
}

function fromConnectionStart(start: ConnectionStart): ProbeFinding {
  const text = (name: string): string | undefined => {
    const value = start.serverProperties[name];
    return Buffer.isBuffer(value) ? value.toString('utf8') : typeof value === 'string' ? value : undefined;
  };
  const product = text('product');
  const version = text('version');
  return compact<ProbeFinding>({
    service: 'amqp',
    product,
    version,
    banner: [product, version].filter(Boolean).join(' ') || 'AMQP Connection.Start',
    anonymousAccess: start.mechanisms.includes('ANONYMOUS') ? true : undefined,
    details: compact({
      protocol: `${start.versionMajor}-${start.versionMinor}`,
      platform: text('platform'),
      cluster_name: text('cluster_name'),
      mechanisms: start.mechanisms.join(' '),
    }),
  });
}

/** Reads AMQP 0-9-1 field values (with RabbitMQ's type letters, the ones servers actually send). */
class Reader {
  constructor(
    private readonly data: Buffer,
    private at: number,
  ) {}

  uint8(): number {
    return this.take(1).readUInt8(0);
  }

  shortString(): string {
    return this.take(this.uint8()).toString('utf8');
  }

  longString(): Buffer {
    return this.take(this.take(4).readUInt32BE(0));
  }

  table(): FieldTable {
    const table: FieldTable = {};
    const inner = new Reader(this.longString(), 0);
    while (inner.at < inner.data.length) {
      const name = inner.shortString();
      table[name] = inner.value();
    }
    return table;
  }

  private array(): FieldValue[] {
    const values: FieldValue[] = [];
    const inner = new Reader(this.longString(), 0);
    while (inner.at < inner.data.length) values.push(inner.value());
    return values;
  }

  private value(): FieldValue {
    const type = String.fromCharCode(this.uint8());
    switch (type) {
      case 't':
        return this.uint8() !== 0;
      case 'b':
        return this.take(1).readInt8(0);
      case 'B':
        return this.uint8();
      case 's':
        return this.take(2).readInt16BE(0);
      case 'u':
        return this.take(2).readUInt16BE(0);
      case 'I':
        return this.take(4).readInt32BE(0);
      case 'i':
        return this.take(4).readUInt32BE(0);
      case 'l':
        return this.take(8).readBigInt64BE(0);
      case 'f':
        return this.take(4).readFloatBE(0);
      case 'd':
        return this.take(8).readDoubleBE(0);
      case 'D': {
        const scale = this.uint8();
        return this.take(4).readInt32BE(0) / 10 ** scale;
      }
      case 'S':
      case 'x':
        return this.longString();
      case 'A':
        return this.array();
      case 'T':
        return this.take(8).readBigUInt64BE(0);
      case 'F':
        return this.table();
      case 'V':
        return null;
      default:
        throw new Error(`unknown AMQP field type ${JSON.stringify(type)}`);
    }
  }

  private take(count: number): Buffer {
    if (this.at + count > this.data.length) throw new Error('AMQP frame ends early');
    const slice = this.data.subarray(this.at, this.at + count);
    this.at += count;
    return slice;
  }
}
