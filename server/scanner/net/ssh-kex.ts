/**
 * The SSH algorithm negotiation (RFC 4253 §7.1): after the identification lines, each side
 * sends SSH_MSG_KEXINIT with its name-lists of key exchange, host key, cipher, MAC and
 * compression algorithms. The scanner reads the server's list and goes no further: no key
 * exchange, no authentication.
 */

export const SSH_MSG_KEXINIT = 20;

export interface KexInit {
  kex: string[];
  hostKey: string[];
  ciphers: string[];
  macs: string[];
  compression: string[];
}

/** Whether `data` (after the identification line) holds one whole binary packet. */
export function packetComplete(data: Buffer): boolean {
  return data.length >= 4 && data.length >= 4 + data.readUInt32BE(0);
}

/** The KEXINIT in the first binary packet of `data`, or undefined. */
export function parseKexInit(data: Buffer): KexInit | undefined {
  if (!packetComplete(data)) return undefined;
  const length = data.readUInt32BE(0);
  if (length < 22 || length > 35_000) return undefined;
  const padding = data[4] as number;
  const payload = data.subarray(5, 4 + length - padding);
  if (payload[0] !== SSH_MSG_KEXINIT) return undefined;
  const lists: string[][] = [];
  let at = 17; // message byte + 16-byte cookie
  for (let i = 0; i < 10; i++) {
    if (at + 4 > payload.length) return undefined;
    const size = payload.readUInt32BE(at);
    if (at + 4 + size > payload.length) return undefined;
    lists.push(
      payload
        .toString('latin1', at + 4, at + 4 + size)
        .split(',')
        .filter(Boolean),
    );
    at += 4 + size;
  }
  const [
    kex = [],
    hostKey = [],
    ciphersC2s = [],
    ciphersS2c = [],
    macsC2s = [],
    macsS2c = [],
    compression = [],
  ] = lists;
  return {
    kex,
    hostKey,
    ciphers: [...new Set([...ciphersC2s, ...ciphersS2c])],
    macs: [...new Set([...macsC2s, ...macsS2c])],
    compression,
  };
}

/** A KEXINIT packet with these lists (for fixtures and tests). */
export function buildKexInit(lists: KexInit): Buffer {
  const nameList = (names: string[]): Buffer => {
    const text = Buffer.from(names.join(','), 'latin1');
    const size = Buffer.alloc(4);
    size.writeUInt32BE(text.length, 0);
    return Buffer.concat([size, text]);
  };
  const payload = Buffer.concat([
    Buffer.from([SSH_MSG_KEXINIT]),
    Buffer.alloc(16, 0x5a),
    ...[
      lists.kex,
      lists.hostKey,
      lists.ciphers,
      lists.ciphers,
      lists.macs,
      lists.macs,
      lists.compression,
      lists.compression,
      [],
      [],
    ].map(nameList),
    Buffer.from([0, 0, 0, 0, 0]), // first_kex_packet_follows, reserved
  ]);
  const padding = 8 - ((payload.length + 5) % 8) + 4;
  const header = Buffer.alloc(5);
  header.writeUInt32BE(1 + payload.length + padding, 0);
  header[4] = padding;
  return Buffer.concat([header, payload, Buffer.alloc(padding)]);
}

export type Weakness = 'none' | 'broken' | 'weak';

interface Rule {
  pattern: RegExp;
  grade: Weakness;
  why: string;
}

/** Algorithms current guidance (RFC 9142, RFC 8758, NIST SP 800-131A, OpenSSH defaults) retires, and why. */
const RULES: Record<keyof Omit<KexInit, 'compression'>, Rule[]> = {
  kex: [
    { pattern: /^diffie-hellman-group1-sha1$/, grade: 'broken', why: '1024-bit group (Logjam)' },
    {
      pattern:
        /^(rsa1024-sha1|diffie-hellman-group-exchange-sha1|diffie-hellman-group14-sha1|gss-.*-sha1-.*)$/,
      grade: 'weak',
      why: 'SHA-1 (RFC 9142)',
    },
  ],
  hostKey: [
    { pattern: /^ssh-dss(-cert-v01@openssh\.com)?$/, grade: 'broken', why: 'DSA, 1024 bits' },
    {
      pattern: /^ssh-rsa(-cert-v01@openssh\.com)?$/,
      grade: 'weak',
      why: 'RSA with SHA-1 signatures (RFC 8332)',
    },
  ],
  ciphers: [
    { pattern: /^none$/, grade: 'none', why: 'no encryption' },
    {
      pattern: /^(arcfour.*|des-cbc.*|3des-cbc|blowfish-cbc|cast128-cbc|idea-cbc|rc2-cbc)$/,
      grade: 'broken',
      why: 'RC4, DES or a 64-bit block cipher (RFC 8758, SWEET32)',
    },
    {
      pattern: /^(aes\d+-cbc|rijndael-cbc@lysator\.liu\.se)$/,
      grade: 'weak',
      why: 'CBC mode (plaintext recovery, CVE-2008-5161)',
    },
  ],
  macs: [
    { pattern: /^none$/, grade: 'none', why: 'no integrity protection' },
    { pattern: /^hmac-md5.*$/, grade: 'broken', why: 'MD5' },
    {
      pattern: /^(hmac-sha1-96.*|umac-32.*|hmac-ripemd160.*)$/,
      grade: 'weak',
      why: 'truncated or retired MAC',
    },
  ],
};

export interface WeakAlgorithm {
  kind: 'key exchange' | 'host key' | 'cipher' | 'MAC';
  name: string;
  grade: Weakness;
  why: string;
}

const KIND: Record<keyof typeof RULES, WeakAlgorithm['kind']> = {
  kex: 'key exchange',
  hostKey: 'host key',
  ciphers: 'cipher',
  macs: 'MAC',
};

export function weakAlgorithms(offer: KexInit): WeakAlgorithm[] {
  const found: WeakAlgorithm[] = [];
  for (const key of Object.keys(RULES) as (keyof typeof RULES)[]) {
    for (const name of offer[key]) {
      const rule = RULES[key].find((r) => r.pattern.test(name));
      if (rule) found.push({ kind: KIND[key], name, grade: rule.grade, why: rule.why });
    }
  }
  return found;
}
