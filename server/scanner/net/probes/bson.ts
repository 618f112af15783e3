/**
 * The little of BSON (bsonspec.org) the MongoDB probe needs: encoding flat command
 * documents, and decoding replies. Decoding stops quietly at a type it does not know.
 */
export type BsonValue =
  number | bigint | string | boolean | null | Date | Buffer | BsonDocument | BsonValue[];
export interface BsonDocument {
  [key: string]: BsonValue;
}

/** A command document of strings, booleans and numbers (integers as int32, others as double). */
export function encodeDocument(document: Record<string, string | number | boolean>): Buffer {
  const parts: Buffer[] = [];
  for (const [key, value] of Object.entries(document)) {
    const name = Buffer.from(`${key}\0`, 'utf8');
    if (typeof value === 'string') {
      const text = Buffer.from(`${value}\0`, 'utf8');
      const length = Buffer.alloc(4);
      length.writeInt32LE(text.length);
      parts.push(Buffer.from([0x02]), name, length, text);
    } else if (typeof value === 'boolean') {
      parts.push(Buffer.from([0x08]), name, Buffer.from([value ? 1 : 0]));
    } else if (Number.isInteger(value) && Math.abs(value) < 2 ** 31) {
      const int = Buffer.alloc(4);
      int.writeInt32LE(value);
      parts.push(Buffer.from([0x10]), name, int);
    } else {
      const double = Buffer.alloc(8);
      double.writeDoubleLE(value);
      parts.push(Buffer.from([0x01]), name, double);
    }
  }
  const body = Buffer.concat(parts);
  const document_ = Buffer.alloc(4 + body.length + 1);
  document_.writeInt32LE(document_.length);
  body.copy(document_, 4);
  return document_;
}

export function decodeDocument(data: Buffer, offset = 0): BsonDocument {
  return decode(data, offset, false) as BsonDocument;
}

function decode(data: Buffer, offset: number, asArray: boolean): BsonDocument | BsonValue[] {
  const result: BsonDocument = {};
  const length = data.readInt32LE(offset);
  const end = Math.min(offset + length - 1, data.length);
  let at = offset + 4;
  while (at < end) {
    const type = data[at] as number;
    const nameEnd = data.indexOf(0, at + 1);
    if (nameEnd === -1 || nameEnd >= end) break;
    const name = data.toString('utf8', at + 1, nameEnd);
    at = nameEnd + 1;
    const read = readValue(data, type, at);
    if (!read) break;
    result[name] = read.value;
    at += read.size;
  }
  return asArray ? Object.values(result) : result;
}

function readValue(data: Buffer, type: number, at: number): { value: BsonValue; size: number } | undefined {
  switch (type) {
    case 0x01:
      return { value: data.readDoubleLE(at), size: 8 };
    case 0x02: {
      const size = data.readInt32LE(at);
      return { value: data.toString('utf8', at + 4, at + 4 + size - 1), size: 4 + size };
    }
    case 0x03:
    case 0x04:
      return { value: decode(data, at, type === 0x04), size: data.readInt32LE(at) };
    case 0x05: {
      const size = data.readInt32LE(at);
      return { value: data.subarray(at + 5, at + 5 + size), size: 5 + size };
    }
    case 0x07:
      return { value: data.subarray(at, at + 12), size: 12 };
    case 0x08:
      return { value: data[at] === 1, size: 1 };
    case 0x09:
      return { value: new Date(Number(data.readBigInt64LE(at))), size: 8 };
    case 0x0a:
    case 0x7f:
    case 0xff:
      return { value: null, size: 0 };
    case 0x10:
      return { value: data.readInt32LE(at), size: 4 };
    case 0x11:
    case 0x12:
      return { value: data.readBigInt64LE(at), size: 8 };
    case 0x13:
      return { value: data.subarray(at, at + 16), size: 16 };
    default:
      return undefined;
  }
}
