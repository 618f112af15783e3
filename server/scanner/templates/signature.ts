/**
 * Template signatures, checked as nuclei checks them (projectdiscovery/nuclei,
 * pkg/templates/signer): ProjectDiscovery signs every template of nuclei-templates and appends
 * the signature as the file's last line,
 *
 *   # digest: <hex>:<key fragment>
 *
 * - The signed content is the file before the last `# digest: `, white space trimmed at both
 *   ends (Go's `bytes.TrimSpace`), with CRLF turned into LF (nuclei normalizes line ends since
 *   late 2024, projectdiscovery/nuclei#5869, so a checkout on Windows still verifies).
 * - `<hex>` is a Go `encoding/gob` stream of one `[]byte`: the ASN.1 DER ECDSA signature of the
 *   SHA-256 of that content.
 * - `<key fragment>` names the key: the MD5 of the public key's X coordinate. ProjectDiscovery's
 *   is `922c64590222798bb761d5b6d8e72950`.
 * - The key is the certificate nuclei embeds (pkg/keys/nuclei.crt): ECDSA P-256, subject
 *   `CN=projectdiscovery/nuclei-templates`. Nuclei checks the signature only, not the
 *   certificate's dates, and so does this module.
 *
 * Two templates of the corpus at 9424c7c (`yonyou-nc-lfi`, `unauth-java-message-broker-detect`)
 * were signed over their CRLF bytes, before nuclei normalized line ends; current nuclei reports
 * them as unsigned (projectdiscovery/nuclei-templates#15754). A signature that verifies over the
 * exact bytes of the file is just as much ProjectDiscovery's, so it is accepted too
 * (`form: 'crlf'`). A signature that also covers files a template imports (nuclei appends them,
 * for code and javascript templates) does not verify here: such templates are reported as
 * mismatched, and the engine does not run them anyway.
 */
import { createHash, verify, X509Certificate, type KeyObject } from 'node:crypto';
import { parseTemplateDocument, PROTOCOLS } from './loader.ts';

/** ProjectDiscovery's template-signing certificate (nuclei's pkg/keys/nuclei.crt, DER in PEM). */
const PROJECTDISCOVERY_CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIBgDCCASWgAwIBAgIEZSUZ3jAKBggqhkjOPQQDAjAsMSowKAYDVQQDEyFwcm9q
ZWN0ZGlzY292ZXJ5L251Y2xlaS10ZW1wbGF0ZXMwHhcNMjMxMDEwMDkzMTEwWhcN
MjcxMDA5MDkzMTEwWjAsMSowKAYDVQQDEyFwcm9qZWN0ZGlzY292ZXJ5L251Y2xl
aS10ZW1wbGF0ZXMwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAASTaiE41H7LWudF
SMCfnqguQMwEte7dz/FRfK2lmezE02w+I2VwcS3j5cPwNaqYRAJkQhk6+7li0GpG
9fb11Fs2ozUwMzAOBgNVHQ8BAf8EBAMCB4AwEwYDVR0lBAwwCgYIKwYBBQUHAwEw
DAYDVR0TAQH/BAIwADAKBggqhkjOPQQDAgNJADBGAiEAhFsWwLDcWks3RUv3ujCs
4V1reu6KL+kELrCCQWu5FiUCIQDZbtqL30GPGYaPSpVmd6BKrZDBOfUVBsoCS7pS
q3JLHQ==
-----END CERTIFICATE-----
`;

export interface SigningKey {
  /** The certificate's subject common name. */
  name: string;
  /** SHA-256 of the certificate (colon-separated hex, as `openssl x509 -fingerprint` prints it). */
  certificate_sha256: string;
  /** The key's fragment in digest lines: MD5 of the public key's X coordinate. */
  fragment: string;
  publicKey: KeyObject;
}

let projectDiscovery: SigningKey | undefined;

/** ProjectDiscovery's template-signing key. */
export function projectDiscoveryKey(): SigningKey {
  if (projectDiscovery) return projectDiscovery;
  const certificate = new X509Certificate(PROJECTDISCOVERY_CERTIFICATE);
  const { x } = certificate.publicKey.export({ format: 'jwk' });
  // Go's big.Int.Bytes, which nuclei hashes, drops leading zero bytes.
  const xBytes = Buffer.from(x as string, 'base64url');
  const start = xBytes.findIndex((b) => b !== 0);
  return (projectDiscovery = {
    name: /CN=([^\n]+)/.exec(certificate.subject)?.[1] ?? certificate.subject,
    certificate_sha256: certificate.fingerprint256,
    fragment: createHash('md5')
      .update(xBytes.subarray(start === -1 ? xBytes.length : start))
      .digest('hex'),
    publicKey: certificate.publicKey,
  });
}

export type SignatureStatus = 'verified' | 'unsigned' | 'mismatched';

export interface SignatureCheck {
  status: SignatureStatus;
  /** Why a signature did not verify. */
  reason?: string;
  /** What the signature covers when verified: `lf` as nuclei signs now, `crlf` the file's own CRLF bytes. */
  form?: 'lf' | 'crlf';
}

const MARKER = Buffer.from('# digest: ');

/** Code points Go's unicode.IsSpace calls white space (what bytes.TrimSpace removes). */
function isGoSpace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x20 ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** The UTF-8 sequence starting at `i`: its code point and length (U+FFFD, 1 when invalid). */
function runeAt(b: Buffer, i: number): [number, number] {
  const c = b[i] as number;
  if (c < 0x80) return [c, 1];
  const n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
  if (n === 0 || i + n > b.length) return [0xfffd, 1];
  let cp = c & (0xff >> (n + 1));
  for (let k = 1; k < n; k++) {
    const cont = b[i + k] as number;
    if ((cont & 0xc0) !== 0x80) return [0xfffd, 1];
    cp = (cp << 6) | (cont & 0x3f);
  }
  return [cp, n];
}

/** The UTF-8 sequence ending at `end` (Go's utf8.DecodeLastRune): U+FFFD, 1 when invalid. */
function lastRuneBefore(b: Buffer, start: number, end: number): [number, number] {
  let i = end - 1;
  while (i > start && end - i < 4 && ((b[i] as number) & 0xc0) === 0x80) i--;
  const [cp, n] = runeAt(b, i);
  return i + n === end ? [cp, n] : [0xfffd, 1];
}

/** Go's bytes.TrimSpace. */
export function trimSpace(b: Buffer): Buffer {
  let start = 0;
  while (start < b.length) {
    const [cp, n] = runeAt(b, start);
    if (!isGoSpace(cp)) break;
    start += n;
  }
  let end = b.length;
  while (end > start) {
    const [cp, n] = lastRuneBefore(b, start, end);
    if (!isGoSpace(cp)) break;
    end -= n;
  }
  return b.subarray(start, end);
}

/** A gob unsigned integer at `pos`: its value and the position after it. */
function gobUint(b: Buffer, pos: number): [number, number] {
  const first = b[pos];
  if (first === undefined) throw new Error('truncated');
  if (first < 0x80) return [first, pos + 1];
  const n = 0x100 - first;
  if (n > 6 || pos + 1 + n > b.length) throw new Error('bad length');
  return [b.readUIntBE(pos + 1, n), pos + 1 + n];
}

/** The `[]byte` a gob stream of one such value holds (what nuclei's signer writes). */
export function gobBytes(stream: Buffer): Buffer {
  const [length, body] = gobUint(stream, 0);
  if (body + length !== stream.length) throw new Error('not one gob message');
  const [typeId, afterType] = gobUint(stream, body);
  // Type ids are gob ints (zig-zag): 10 is 5, the predefined []byte; then the singleton's 0 delta.
  if (typeId !== 10 || stream[afterType] !== 0) throw new Error('not a gob []byte');
  const [size, data] = gobUint(stream, afterType + 1);
  if (data + size !== stream.length) throw new Error('gob []byte of the wrong size');
  return stream.subarray(data);
}

/** Checks the `# digest:` line of a template's bytes against `key` (ProjectDiscovery's by default). */
export function checkTemplateSignature(data: Buffer, key = projectDiscoveryKey()): SignatureCheck {
  const at = data.lastIndexOf(MARKER);
  if (at === -1) return { status: 'unsigned' };
  const line = trimSpace(trimSpace(data.subarray(at)).subarray(MARKER.length)).toString('latin1');
  const content = trimSpace(data.subarray(0, at));
  const [hex, fragment, ...rest] = line.split(':');
  if (rest.length > 0 || !hex) return { status: 'mismatched', reason: 'malformed digest line' };
  if (fragment !== undefined && fragment !== key.fragment)
    return { status: 'mismatched', reason: `signed by another key (fragment ${fragment.slice(0, 32)})` };
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex))
    return { status: 'mismatched', reason: 'malformed digest line' };
  let der: Buffer;
  try {
    der = gobBytes(Buffer.from(hex, 'hex'));
  } catch {
    return { status: 'mismatched', reason: 'malformed digest' };
  }
  const matches = (signed: Buffer): boolean => {
    try {
      return verify('sha256', signed, { key: key.publicKey, dsaEncoding: 'der' }, der);
    } catch {
      return false;
    }
  };
  const hasCr = content.includes(0x0d);
  const lf = hasCr ? Buffer.from(content.toString('latin1').replaceAll('\r\n', '\n'), 'latin1') : content;
  if (matches(lf)) return { status: 'verified', form: 'lf' };
  if (hasCr && matches(content)) return { status: 'verified', form: 'crlf' };
  return { status: 'mismatched', reason: 'the signature does not match the content' };
}

/**
 * Whether a YAML file that does not verify would be a template to the engine: anything but a
 * mapping without `id` (a scan profile) or a workflow with no request block of its own (it only
 * names templates). A file that does not parse counts as a template: it is never kept unverified.
 */
export function isTemplateDocument(text: string): boolean {
  let doc: Record<string, unknown>;
  try {
    doc = parseTemplateDocument(text);
  } catch {
    return true;
  }
  if (Array.isArray(doc)) return true;
  const requests = ['http', 'requests', ...PROTOCOLS].some((key) => key in doc);
  if ('workflows' in doc && !requests) return false;
  return 'id' in doc || requests;
}
