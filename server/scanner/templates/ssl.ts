/**
 * Nuclei's ssl protocol (`ssl:`), compiled: the subset the public corpus's `ssl/` templates
 * use. A block makes one TLS handshake with the service (`address: {{Host}}:{{Port}}`),
 * optionally pinned to one protocol version (`min_version`/`max_version`: `tls10` … `tls13`;
 * `ssl30` cannot be spoken by Node, so such a handshake never answers), and judges the fields
 * nuclei's tlsx exposes (SSL_FIELDS: `tls_version`, `cipher`, `expired`, `self_signed`,
 * `subject_cn`, …) with the HTTP engine's matchers; a matcher's `part` names a field, and the
 * default part is the fields as JSON. A block with extractors and no matchers (`deprecated-tls`)
 * matches when one of its `json` (`.tls_version`) or `kval` extractors reads a non-empty field,
 * which is when nuclei reports it.
 *
 * Running them is execute-ssl.ts; this file is pure (it runs in the loader's worker).
 */
import { z } from 'zod';
import { UnsupportedTemplate, compileInfo, compileMatcher } from './loader.ts';
import { matcherSchema, type CompiledSslRequest, type RawTemplate, type SslTemplate } from './schema.ts';

/** The response fields of a handshake, as tlsx names them; execute-ssl.ts fills every one. */
export const SSL_FIELDS = [
  'host',
  'ip',
  'port',
  'probe_status',
  'tls_version',
  'cipher',
  'expired',
  'self_signed',
  'mismatched',
  'untrusted',
  'wildcard_certificate',
  'not_before',
  'not_after',
  'subject_dn',
  'subject_cn',
  'subject_org',
  'subject_an',
  'issuer_dn',
  'issuer_cn',
  'issuer_org',
  'serial',
  'domains',
  'sni',
] as const;
export type SslField = (typeof SSL_FIELDS)[number];

const VERSIONS: Record<string, string | null> = {
  ssl30: null,
  tls10: 'TLSv1',
  tls11: 'TLSv1.1',
  tls12: 'TLSv1.2',
  tls13: 'TLSv1.3',
};

const extractorSchema = z
  .object({
    type: z.string(),
    name: z.string().optional(),
    internal: z.boolean().optional(),
    json: z.array(z.string()).optional(),
    kval: z.array(z.string()).optional(),
    dsl: z.array(z.string()).optional(),
    part: z.string().optional(),
  })
  .strict();

const sslBlockSchema = z
  .object({
    address: z.string(),
    min_version: z.string().optional(),
    max_version: z.string().optional(),
    'matchers-condition': z.enum(['and', 'or']).optional(),
    matchers: z.array(matcherSchema).optional(),
    extractors: z.array(extractorSchema).optional(),
  })
  .strict();

const isField = (name: string): name is SslField => (SSL_FIELDS as readonly string[]).includes(name);

function version(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (!(v in VERSIONS)) throw new UnsupportedTemplate('invalid');
  return VERSIONS[v];
}

/** The field an extractor reads: `json: [".tls_version"]`, `kval: [not_after]`. */
function extractorFields(extractor: z.infer<typeof extractorSchema>): string[] {
  if (extractor.type === 'json') {
    return (extractor.json ?? []).map((path) => {
      const m = /^\s*\.([a-z_]+)\s*$/.exec(path);
      if (!m || !isField(m[1] as string)) throw new UnsupportedTemplate('unsupported-extractor');
      return m[1] as string;
    });
  }
  if (extractor.type === 'kval') {
    return (extractor.kval ?? []).map((name) => {
      if (!isField(name.trim())) throw new UnsupportedTemplate('unsupported-extractor');
      return name.trim();
    });
  }
  throw new UnsupportedTemplate('unsupported-extractor');
}

export function compileSslTemplate(template: RawTemplate, blocks: unknown, file: string): SslTemplate {
  if (!Array.isArray(blocks) || blocks.length === 0) throw new UnsupportedTemplate('invalid');
  const variables = new Map<string, string>();
  for (const [name, value] of Object.entries(template.variables ?? {})) {
    if (value.includes('{{')) throw new UnsupportedTemplate('dynamic-variables');
    variables.set(name, value);
  }
  const requests = blocks.map((block: unknown): CompiledSslRequest => {
    const parsed = sslBlockSchema.safeParse(block);
    if (!parsed.success) {
      const unknownKey = parsed.error.issues.find((i) => i.code === 'unrecognized_keys');
      throw new UnsupportedTemplate(unknownKey ? `unsupported-key:${unknownKey.keys[0]}` : 'invalid');
    }
    const b = parsed.data;
    if (!/^\{\{(Host|Hostname)\}\}(:\{\{Port\}\})?$/.test(b.address.trim()))
      throw new UnsupportedTemplate('path-not-on-target');
    if (b.extractors?.some((e) => e.internal)) throw new UnsupportedTemplate('multi-step');
    const minVersion = version(b.min_version);
    const maxVersion = version(b.max_version);
    const matchers = b.matchers ?? [];
    // Extractor-only blocks report what they extract: only field reads can be judged that way.
    const fields = matchers.length === 0 ? (b.extractors ?? []).flatMap(extractorFields) : [];
    if (matchers.length === 0 && fields.length === 0) throw new UnsupportedTemplate('no-matchers');
    const partOf = (part: string | undefined): string => {
      const p = (part ?? 'response').trim().toLowerCase();
      if (['response', 'raw', 'all', 'body'].includes(p)) return 'all';
      if (isField(p)) return `header:${p}`;
      throw new UnsupportedTemplate(`unsupported-part:${p}`);
    };
    const extractorNames = new Set(
      (b.extractors ?? []).map((e) => e.name?.toLowerCase() ?? '').filter(Boolean),
    );
    const dslKnown = new Set([...variables.keys()].map((k) => k.toLowerCase()));
    return {
      minVersion: minVersion ?? undefined,
      maxVersion: maxVersion ?? undefined,
      sslv3: minVersion === null || maxVersion === null,
      matchersCondition: b['matchers-condition'] ?? 'or',
      matchers: matchers.map((m) =>
        compileMatcher(m, extractorNames, dslKnown, {
          partOf,
          variables: new Set<string>([...SSL_FIELDS, 'response', 'raw', 'all']),
        }),
      ),
      extractorFields: fields,
    };
  });
  return {
    protocol: 'ssl',
    id: template.id,
    file,
    info: compileInfo(template.info),
    variables,
    requests,
  };
}
