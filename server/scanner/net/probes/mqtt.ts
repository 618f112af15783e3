/**
 * MQTT 3.1.1: `CONNECT` without credentials (clean session, a random client id) → `CONNACK`,
 * whose return code says whether anonymous clients are accepted (0) or not (4, 5). When
 * accepted, the probe subscribes to the read-only `$SYS/broker/version` topic, which brokers
 * such as Mosquitto publish as a retained message, then sends `DISCONNECT`. Nothing is
 * published.
 */
import { randomBytes } from 'node:crypto';
import type { ProbeSession } from '../probe-session.ts';
import { compact, type ClientFirstProbe, type ProbeContext, type ProbeFinding } from './probe.ts';

const CONNACK = 0x20;
const PUBLISH = 0x30;
const SUBACK = 0x90;
const VERSION_TOPIC = '$SYS/broker/version';
/** How long to wait for the retained version message after the subscription is acknowledged. */
const VERSION_WAIT_MS = 1000;

const RETURN_CODES: Record<number, string> = {
  0: 'accepted',
  1: 'unacceptable protocol version',
  2: 'identifier rejected',
  3: 'server unavailable',
  4: 'bad user name or password',
  5: 'not authorized',
};

export interface MqttPacket {
  type: number;
  flags: number;
  body: Buffer;
}

export const mqtt: ClientFirstProbe = {
  name: 'mqtt',
  async run(session, context) {
    session.write(connectPacket(`scanward-probe-${randomBytes(4).toString('hex')}`));
    const connack = parsePackets(await session.read(hasPacket, context.replyWaitMs))[0];
    if (!connack || connack.type !== CONNACK || connack.body.length !== 2) return null;
    const code = connack.body[1] as number;
    const outcome = RETURN_CODES[code];
    if (outcome === undefined) return null;
    const accepted = code === 0;
    const brokerVersion = accepted ? await readBrokerVersion(session, context) : undefined;
    if (accepted) session.write(Buffer.from([0xe0, 0x00])); // DISCONNECT
    const parsed = brokerVersion ? /^(\S+) version (\S+)/i.exec(brokerVersion) : null;
    return compact<ProbeFinding>({
      service: 'mqtt',
      product: parsed?.[1],
      version: parsed?.[2],
      banner: brokerVersion ?? `CONNACK ${code} (${outcome})`,
      anonymousAccess: accepted ? true : code === 4 || code === 5 ? false : undefined,
      details: compact({ connack_code: code, connack: outcome, broker_version: brokerVersion }),
    });
  },
};

async function readBrokerVersion(session: ProbeSession, context: ProbeContext): Promise<string | undefined> {
  session.write(subscribePacket(1, VERSION_TOPIC));
  const wait = Math.min(context.replyWaitMs, VERSION_WAIT_MS);
  let received = Buffer.alloc(0);
  const deadline = performance.now() + wait;
  while (performance.now() < deadline && !session.peerClosed) {
    received = Buffer.concat([received, await session.read(hasPacket, deadline - performance.now())]);
    const packets = parsePackets(received);
    const publish = packets.find((packet) => (packet.type & 0xf0) === PUBLISH);
    if (publish) return publishPayload(publish, VERSION_TOPIC);
    if (packets.some((packet) => packet.type === SUBACK && packet.body[2] === 0x80)) return undefined;
  }
  return undefined;
}

export function connectPacket(clientId: string): Buffer {
  const id = Buffer.from(clientId, 'utf8');
  const variable = Buffer.from([0x00, 0x04, 0x4d, 0x51, 0x54, 0x54, 0x04, 0x02, 0x00, 0x3c]); // "MQTT", level 4, clean session, keep-alive 60 s
  return packet(0x10, Buffer.concat([variable, lengthPrefixed(id)]));
}

function subscribePacket(packetId: number, topic: string): Buffer {
  const id = Buffer.alloc(2);
  id.writeUInt16BE(packetId);
  return packet(0x82, Buffer.concat([id, lengthPrefixed(Buffer.from(topic, 'utf8')), Buffer.from([0x00])]));
}

function lengthPrefixed(bytes: Buffer): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function packet(header: number, body: Buffer): Buffer {
  const length: number[] = [];
  let remaining = body.length;
  do {
    let byte = remaining % 128;
    remaining = Math.floor(remaining / 128);
    if (remaining > 0) byte |= 0x80;
    length.push(byte);
  } while (remaining > 0);
  return Buffer.concat([Buffer.from([header, ...length]), body]);
}

function hasPacket(data: Buffer): boolean {
  return parsePackets(data).length > 0;
}

/** Whole control packets at the start of `data`. */
export function parsePackets(data: Buffer): MqttPacket[] {
  const packets: MqttPacket[] = [];
  let at = 0;
  while (at + 2 <= data.length) {
    let length = 0;
    let multiplier = 1;
    let cursor = at + 1;
    for (;;) {
      if (cursor >= data.length || cursor - at > 4) return packets;
      const byte = data[cursor++] as number;
      length += (byte & 0x7f) * multiplier;
      multiplier *= 128;
      if ((byte & 0x80) === 0) break;
    }
    if (cursor + length > data.length) break;
    const first = data[at] as number;
    packets.push({ type: first & 0xf0, flags: first & 0x0f, body: data.subarray(cursor, cursor + length) });
    at = cursor + length;
  }
  return packets;
}

function publishPayload(publish: MqttPacket, expectedTopic: string): string | undefined {
  if (publish.body.length < 2) return undefined;
  const topicLength = publish.body.readUInt16BE(0);
  const topic = publish.body.toString('utf8', 2, 2 + topicLength);
  if (topic !== expectedTopic) return undefined;
  const qos = (publish.flags >> 1) & 0x03;
  const payloadAt = 2 + topicLength + (qos > 0 ? 2 : 0);
  return publish.body.toString('utf8', payloadAt).slice(0, 200);
}
