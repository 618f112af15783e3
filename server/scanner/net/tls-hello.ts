/**
 * A raw TLS ClientHello offering exactly the cipher suites asked about, and a reader of
 * the server's first answer (ServerHello or alert). This is how the scanner learns whether
 * a server still accepts suites that Node's own OpenSSL no longer implements (EXPORT,
 * RC4, 3DES, NULL): the handshake is never completed, only the server's choice is read.
 */

/** TLS 1.2 in a record that says TLS 1.0, as clients send it for the widest compatibility. */
const RECORD_VERSION = 0x0301;
const CLIENT_VERSION = 0x0303;
const EMPTY_RENEGOTIATION_INFO_SCSV = 0x00ff;

export interface WeakSuiteFamily {
  name: 'NULL' | 'EXPORT' | 'RC4' | '3DES';
  /** What the family means for the connection, for findings. */
  meaning: string;
  severity: 'high' | 'medium';
  suites: Record<number, string>;
}

export const WEAK_SUITE_FAMILIES: readonly WeakSuiteFamily[] = [
  {
    name: 'NULL',
    meaning: 'no encryption at all: traffic is readable by anyone on the path',
    severity: 'high',
    suites: {
      0x0001: 'TLS_RSA_WITH_NULL_MD5',
      0x0002: 'TLS_RSA_WITH_NULL_SHA',
      0x003b: 'TLS_RSA_WITH_NULL_SHA256',
      0xc001: 'TLS_ECDH_ECDSA_WITH_NULL_SHA',
      0xc006: 'TLS_ECDHE_ECDSA_WITH_NULL_SHA',
      0xc00b: 'TLS_ECDH_RSA_WITH_NULL_SHA',
      0xc010: 'TLS_ECDHE_RSA_WITH_NULL_SHA',
      0xc015: 'TLS_ECDH_anon_WITH_NULL_SHA',
    },
  },
  {
    name: 'EXPORT',
    meaning: '40- and 56-bit export-grade keys, broken in minutes (FREAK, Logjam)',
    severity: 'high',
    suites: {
      0x0003: 'TLS_RSA_EXPORT_WITH_RC4_40_MD5',
      0x0006: 'TLS_RSA_EXPORT_WITH_RC2_CBC_40_MD5',
      0x0008: 'TLS_RSA_EXPORT_WITH_DES40_CBC_SHA',
      0x000b: 'TLS_DH_DSS_EXPORT_WITH_DES40_CBC_SHA',
      0x000e: 'TLS_DH_RSA_EXPORT_WITH_DES40_CBC_SHA',
      0x0011: 'TLS_DHE_DSS_EXPORT_WITH_DES40_CBC_SHA',
      0x0014: 'TLS_DHE_RSA_EXPORT_WITH_DES40_CBC_SHA',
      0x0017: 'TLS_DH_anon_EXPORT_WITH_RC4_40_MD5',
      0x0019: 'TLS_DH_anon_EXPORT_WITH_DES40_CBC_SHA',
      0x0062: 'TLS_RSA_EXPORT1024_WITH_DES_CBC_SHA',
      0x0064: 'TLS_RSA_EXPORT1024_WITH_RC4_56_SHA',
    },
  },
  {
    name: 'RC4',
    meaning: 'the RC4 stream cipher, whose biases let plaintext be recovered (RFC 7465 prohibits it)',
    severity: 'medium',
    suites: {
      0x0004: 'TLS_RSA_WITH_RC4_128_MD5',
      0x0005: 'TLS_RSA_WITH_RC4_128_SHA',
      0x0018: 'TLS_DH_anon_WITH_RC4_128_MD5',
      0xc002: 'TLS_ECDH_ECDSA_WITH_RC4_128_SHA',
      0xc007: 'TLS_ECDHE_ECDSA_WITH_RC4_128_SHA',
      0xc00c: 'TLS_ECDH_RSA_WITH_RC4_128_SHA',
      0xc011: 'TLS_ECDHE_RSA_WITH_RC4_128_SHA',
      0xc016: 'TLS_ECDH_anon_WITH_RC4_128_SHA',
    },
  },
  {
    name: '3DES',
    meaning: 'Triple-DES, a 64-bit block cipher open to birthday attacks on long sessions (SWEET32)',
    severity: 'medium',
    suites: {
      0x000a: 'TLS_RSA_WITH_3DES_EDE_CBC_SHA',
      0x000d: 'TLS_DH_DSS_WITH_3DES_EDE_CBC_SHA',
      0x0010: 'TLS_DH_RSA_WITH_3DES_EDE_CBC_SHA',
      0x0013: 'TLS_DHE_DSS_WITH_3DES_EDE_CBC_SHA',
      0x0016: 'TLS_DHE_RSA_WITH_3DES_EDE_CBC_SHA',
      0x001b: 'TLS_DH_anon_WITH_3DES_EDE_CBC_SHA',
      0xc003: 'TLS_ECDH_ECDSA_WITH_3DES_EDE_CBC_SHA',
      0xc008: 'TLS_ECDHE_ECDSA_WITH_3DES_EDE_CBC_SHA',
      0xc00d: 'TLS_ECDH_RSA_WITH_3DES_EDE_CBC_SHA',
      0xc012: 'TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA',
      0xc017: 'TLS_ECDH_anon_WITH_3DES_EDE_CBC_SHA',
    },
  },
];

function u16(value: number): Buffer {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16BE(value, 0);
  return bytes;
}

function withLength16(body: Buffer): Buffer {
  return Buffer.concat([u16(body.length), body]);
}

function extension(type: number, body: Buffer): Buffer {
  return Buffer.concat([u16(type), withLength16(body)]);
}

/** A ClientHello (TLS 1.2, no session, no compression) offering `suites`, with SNI when `serverName` is given. */
export function buildClientHello(suites: readonly number[], serverName?: string): Buffer {
  const extensions = Buffer.concat([
    ...(serverName
      ? [
          extension(
            0x0000,
            withLength16(Buffer.concat([Buffer.from([0]), withLength16(Buffer.from(serverName, 'ascii'))])),
          ),
        ]
      : []),
    // supported_groups: x25519, secp256r1, secp384r1, secp521r1
    extension(0x000a, withLength16(Buffer.from([0x00, 0x1d, 0x00, 0x17, 0x00, 0x18, 0x00, 0x19]))),
    // ec_point_formats: uncompressed
    extension(0x000b, Buffer.from([1, 0])),
    // signature_algorithms: rsa_pkcs1 sha256/384/1, ecdsa sha256/384/1, rsa_pss sha256
    extension(
      0x000d,
      withLength16(
        Buffer.from([0x04, 0x01, 0x05, 0x01, 0x02, 0x01, 0x04, 0x03, 0x05, 0x03, 0x02, 0x03, 0x08, 0x04]),
      ),
    ),
  ]);
  const body = Buffer.concat([
    u16(CLIENT_VERSION),
    Buffer.from(Array.from({ length: 32 }, () => Math.floor(Math.random() * 256))),
    Buffer.from([0]), // session id
    withLength16(Buffer.concat([...suites, EMPTY_RENEGOTIATION_INFO_SCSV].map(u16))),
    Buffer.from([1, 0]), // compression: null only
    withLength16(extensions),
  ]);
  const handshake = Buffer.concat([
    Buffer.from([1, body.length >> 16, (body.length >> 8) & 0xff, body.length & 0xff]),
    body,
  ]);
  return Buffer.concat([Buffer.from([0x16]), u16(RECORD_VERSION), withLength16(handshake)]);
}

export type ServerAnswer =
  | { kind: 'server-hello'; version: number; suite: number }
  | { kind: 'alert'; level: number; description: number }
  | { kind: 'other' };

/** Whether `data` holds the whole first record. */
export function recordComplete(data: Buffer): boolean {
  return data.length >= 5 && data.length >= 5 + data.readUInt16BE(3);
}

/** The server's first answer: the version and suite of its ServerHello, or its alert. */
export function parseServerAnswer(data: Buffer): ServerAnswer {
  if (data.length < 7 || !recordComplete(data)) return { kind: 'other' };
  const type = data[0];
  if (type === 0x15) return { kind: 'alert', level: data[5] as number, description: data[6] as number };
  if (type !== 0x16 || data[5] !== 2) return { kind: 'other' };
  const body = data.subarray(9);
  if (body.length < 2 + 32 + 1) return { kind: 'other' };
  const sessionIdLength = body[34] as number;
  const at = 35 + sessionIdLength;
  if (body.length < at + 2) return { kind: 'other' };
  return { kind: 'server-hello', version: body.readUInt16BE(0), suite: body.readUInt16BE(at) };
}

export function versionName(version: number): string {
  return (
    { 0x0300: 'SSLv3', 0x0301: 'TLSv1', 0x0302: 'TLSv1.1', 0x0303: 'TLSv1.2', 0x0304: 'TLSv1.3' }[version] ??
    `0x${version.toString(16)}`
  );
}
