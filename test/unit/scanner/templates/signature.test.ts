import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkTemplateSignature,
  gobBytes,
  isTemplateDocument,
  projectDiscoveryKey,
  trimSpace,
  type SigningKey,
} from '../../../../server/scanner/templates/signature.ts';

const CORPUS = fileURLToPath(
  new URL('../../../../../shared/data/nuclei-templates-9424c7c.tar.gz', import.meta.url),
);
const haveCorpus = existsSync(CORPUS);
if (!haveCorpus) console.warn(`skipping the corpus signature tests: ${CORPUS} is absent`);

/** A gob stream of one []byte, as Go's encoding/gob writes it (what nuclei's signer hex-encodes). */
function gob(bytes: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from([0x0a, 0x00, bytes.length]), bytes]);
  return Buffer.concat([Buffer.from([body.length]), body]);
}

/** A key of our own, to sign as nuclei signs (the fragment is its own). */
function ownKey(): { key: SigningKey; signLine: (content: string) => string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const key: SigningKey = { name: 'test', certificate_sha256: '', fragment: 'f'.repeat(32), publicKey };
  const signLine = (content: string): string => {
    const der = sign('sha256', Buffer.from(content.trim().replaceAll('\r\n', '\n')), {
      key: privateKey,
      dsaEncoding: 'der',
    });
    return `# digest: ${gob(der).toString('hex')}:${key.fragment}`;
  };
  return { key, signLine };
}

describe('template signatures as nuclei writes them', () => {
  const template = 'id: t\ninfo:\n  name: T\n  severity: info\nhttp:\n  - path: ["{{BaseURL}}"]\n';

  it("knows ProjectDiscovery's key: the certificate nuclei embeds, and the fragment digest lines carry", () => {
    const key = projectDiscoveryKey();
    expect(key.name).toBe('projectdiscovery/nuclei-templates');
    expect(key.fragment).toBe('922c64590222798bb761d5b6d8e72950');
    expect(key.certificate_sha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(key.publicKey.asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
  });

  it('verifies a signature over the trimmed, LF-normalized content, and refuses any one-byte change', () => {
    const { key, signLine } = ownKey();
    const signed = Buffer.from(`${template}${signLine(template)}\n`);
    expect(checkTemplateSignature(signed, key)).toEqual({ status: 'verified', form: 'lf' });
    // Line ends do not matter (nuclei normalizes CRLF); surrounding white space neither.
    const crlf = Buffer.from(`\n${template.replaceAll('\n', '\r\n')}${signLine(template)}\r\n`);
    expect(checkTemplateSignature(crlf, key).status).toBe('verified');
    // Every single-byte change of the content is refused.
    for (let i = 0; i < template.trim().length; i++) {
      const tampered = Buffer.from(signed);
      tampered[i] = (tampered[i] as number) ^ 0x01;
      expect(checkTemplateSignature(tampered, key).status, `byte ${i}`).toBe('mismatched');
    }
    // ... and so is a change of the signature itself.
    const digestAt = signed.indexOf('# digest: ') + 20;
    const badDigest = Buffer.from(signed);
    badDigest[digestAt] = badDigest[digestAt] === 0x30 ? 0x31 : 0x30;
    expect(checkTemplateSignature(badDigest, key).status).toBe('mismatched');
  });

  it('reports unsigned templates, foreign keys, and anything after the digest line', () => {
    const { key, signLine } = ownKey();
    expect(checkTemplateSignature(Buffer.from(template), key)).toEqual({ status: 'unsigned' });
    const line = signLine(template);
    expect(checkTemplateSignature(Buffer.from(`${template}${line.replace(/:f+$/, ':0123')}`), key)).toEqual({
      status: 'mismatched',
      reason: 'signed by another key (fragment 0123)',
    });
    // Without a fragment, the digest is checked against the key alone (as nuclei does).
    expect(checkTemplateSignature(Buffer.from(`${template}${line.replace(/:f+$/, '')}`), key).status).toBe(
      'verified',
    );
    // The signature must be the file's last line: text after it is part of the "digest".
    expect(checkTemplateSignature(Buffer.from(`${template}${line}\nhttp: []\n`), key)).toMatchObject({
      status: 'mismatched',
    });
    expect(checkTemplateSignature(Buffer.from(`${template}# digest: zz`), key)).toMatchObject({
      status: 'mismatched',
      reason: 'malformed digest line',
    });
    // Signed by our key, checked against ProjectDiscovery's: refused.
    expect(checkTemplateSignature(Buffer.from(`${template}${line.replace(/:f+$/, '')}`)).status).toBe(
      'mismatched',
    );
  });

  it("reads Go's gob []byte and trims white space as Go's bytes.TrimSpace does", () => {
    expect(gobBytes(gob(Buffer.from('abc')))).toEqual(Buffer.from('abc'));
    expect(() => gobBytes(Buffer.from('4b0a0048', 'hex'))).toThrow();
    expect(() => gobBytes(Buffer.from('040c000161', 'hex'))).toThrow(/not a gob \[\]byte/);
    expect(trimSpace(Buffer.from('\u00a0\u2003 x y\t\u0085\n')).toString()).toBe('x y');
    // A byte that is not UTF-8 is not white space.
    expect(trimSpace(Buffer.from([0x20, 0xa0, 0x41, 0x20]))).toEqual(Buffer.from([0xa0, 0x41]));
    expect(trimSpace(Buffer.from('\ufeffx'))).toEqual(Buffer.from('\ufeffx'));
  });

  it('tells templates from scan profiles and workflows, and counts anything unreadable as a template', () => {
    expect(isTemplateDocument(template)).toBe(true);
    expect(isTemplateDocument('tags:\n  - cve\nseverity: [critical]\n')).toBe(false);
    expect(isTemplateDocument('id: w\ninfo: {name: W}\nworkflows:\n  - template: a.yaml\n')).toBe(false);
    // A "workflow" carrying a request of its own is a template the engine would run.
    expect(isTemplateDocument('workflows: []\nhttp:\n  - path: ["{{BaseURL}}"]\n')).toBe(true);
    expect(isTemplateDocument('{id: flow-style, http: []}')).toBe(true);
    expect(isTemplateDocument('id: [unclosed')).toBe(true);
  });
});

describe.skipIf(!haveCorpus)('signatures of the nuclei-templates corpus at 9424c7c', () => {
  let dir: string;
  const files = new Map<string, Buffer>();

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'scanward-signatures-'));
    execFileSync('tar', ['-xzf', CORPUS, '-C', dir, 'http', 'network', 'ssl', 'dns', 'javascript']);
    for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (e.isFile() && e.name.endsWith('.yaml')) {
        const path = join(e.parentPath, e.name);
        files.set(relative(dir, path), readFileSync(path));
      }
    }
  }, 120_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("verifies 10,075 templates with ProjectDiscovery's key; one is unsigned", () => {
    const outcome = new Map<string, string[]>();
    for (const [path, data] of files) {
      const check = checkTemplateSignature(data);
      const kind = check.status === 'verified' ? `verified-${check.form}` : check.status;
      outcome.set(kind, [...(outcome.get(kind) ?? []), path]);
    }
    expect(files.size).toBe(10_076);
    expect(outcome.get('verified-lf')).toHaveLength(10_073);
    // Signed over their CRLF bytes, before nuclei normalized line ends (nuclei-templates#15754).
    expect(outcome.get('verified-crlf')?.sort()).toEqual([
      'http/vulnerabilities/yonyou/yonyou-nc-lfi.yaml',
      'network/detection/unauth-java-message-broker-detect.yaml',
    ]);
    expect(outcome.get('unsigned')).toEqual(['http/exposures/configs/exposed-gitmodules.yaml']);
    expect(outcome.get('mismatched')).toBeUndefined();
  });

  it('refuses every real template changed by one byte, wherever the byte is', () => {
    const samples = [
      'http/exposures/configs/git-config.yaml',
      'http/vulnerabilities/generic/generic-env.yaml',
      'network/exposures/exposed-redis.yaml',
      'ssl/self-signed-ssl.yaml',
      'http/vulnerabilities/yonyou/yonyou-nc-lfi.yaml',
    ];
    for (const path of samples) {
      const original = files.get(path)!;
      expect(checkTemplateSignature(original).status, path).toBe('verified');
      const end = original.lastIndexOf('# digest: ');
      for (const at of [0, 3, Math.floor(end / 2), end - 2]) {
        const tampered = Buffer.from(original);
        tampered[at] = (tampered[at] as number) === 0x41 ? 0x42 : 0x41;
        expect(checkTemplateSignature(tampered), `${path} byte ${at}`).toEqual({
          status: 'mismatched',
          reason: 'the signature does not match the content',
        });
      }
    }
  });
});
