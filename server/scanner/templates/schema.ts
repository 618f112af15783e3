/**
 * The subset of the nuclei template format Scanward runs, as zod schemas over the parsed
 * YAML, and the compiled form the engine executes. Request blocks are `.strict()`: a key the
 * engine does not know could change what a template means, so such a template is skipped
 * (and counted) rather than run with a different meaning.
 */
import { z } from 'zod';
import type { DslNode } from './dsl.ts';

const stringOrList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : [v]));
const scalar = z.union([z.string(), z.number(), z.boolean()]).transform(String);

export const matcherSchema = z
  .object({
    type: z.string(),
    part: z.string().optional(),
    condition: z.enum(['and', 'or']).optional(),
    negative: z.boolean().optional(),
    'case-insensitive': z.boolean().optional(),
    words: z.array(scalar).optional(),
    regex: z.array(z.string()).optional(),
    status: z.array(z.number().int()).optional(),
    size: z.array(z.number().int()).optional(),
    binary: z.array(z.string()).optional(),
    dsl: z.array(z.string()).optional(),
    name: z.string().optional(),
    internal: z.boolean().optional(),
    'match-all': z.boolean().optional(),
    encoding: z.string().optional(),
  })
  .strict();

export const extractorSchema = z
  .object({
    type: z.string(),
    internal: z.boolean().optional(),
  })
  .loose();

/** Keys of a request block with no effect on what Scanward sends or concludes. */
export const IGNORED_REQUEST_KEYS = [
  'max-size',
  'host-redirects',
  'max-redirects',
  'skip-variables-check',
  'stop-at-first-match',
  'iterate-all',
  'read-all',
  'disable-cookie',
  'threads',
  'id',
  'name',
  'digest-username',
  'digest-password',
] as const;

export const httpRequestSchema = z
  .object({
    method: z
      .string()
      .regex(/^[A-Z]+$/)
      .default('GET'),
    path: z.array(z.string()).min(1).optional(),
    raw: z.array(z.string()).min(1).optional(),
    headers: z.record(z.string(), scalar).optional(),
    body: z.string().optional(),
    redirects: z.boolean().optional(),
    'max-redirects': z.number().int().optional(),
    'host-redirects': z.boolean().optional(),
    'stop-at-first-match': z.boolean().optional(),
    'matchers-condition': z.enum(['and', 'or']).optional(),
    matchers: z.array(matcherSchema).min(1),
    extractors: z.array(extractorSchema).optional(),
    payloads: z.record(z.string(), z.unknown()).optional(),
    attack: z.string().optional(),
    'max-size': z.number().optional(),
    'skip-variables-check': z.boolean().optional(),
    'iterate-all': z.boolean().optional(),
    'read-all': z.boolean().optional(),
    'disable-cookie': z.boolean().optional(),
    threads: z.number().optional(),
    id: z.string().optional(),
    name: z.string().optional(),
  })
  .strict();

export const templateSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/),
    info: z
      .object({
        name: z.string().min(1),
        severity: z.string().optional(),
        description: z.string().optional(),
        impact: z.string().optional(),
        remediation: z.string().optional(),
        tags: stringOrList.optional(),
        classification: z
          .object({
            'cve-id': stringOrList.nullish(),
            'cwe-id': stringOrList.nullish(),
            'cvss-metrics': z.string().nullish(),
          })
          .loose()
          .nullish(),
      })
      .loose(),
    variables: z.record(z.string(), scalar).optional(),
  })
  .loose();

export type RawTemplate = z.infer<typeof templateSchema>;
export type RawRequest = z.infer<typeof httpRequestSchema>;
export type RawMatcher = z.infer<typeof matcherSchema>;

export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info';

export interface CompiledMatcher {
  type: 'word' | 'status' | 'regex' | 'dsl' | 'size' | 'binary';
  /** Normalised part: `body`, `header`, `all`, `status_code`, … or a header's variable name. */
  part: string;
  condition: 'and' | 'or';
  negative: boolean;
  caseInsensitive: boolean;
  /** Internal matchers take part in the decision like any other (they only hide their name upstream). */
  words: string[];
  regexes: RegExp[];
  statuses: number[];
  sizes: number[];
  binaries: Buffer[];
  dsl: DslNode[];
}

/** One HTTP request to send; `path` still holds `{{BaseURL}}` (or `{{RootURL}}`) and friends. */
export interface RequestItem {
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body: string | undefined;
}

export interface CompiledRequest {
  /** The requests of the block, after payload expansion; each is judged on its own. */
  items: RequestItem[];
  /** Follow redirects, only to the same scheme, host and port, at most `maxRedirects` hops. */
  redirects: boolean;
  maxRedirects: number;
  stopAtFirstMatch: boolean;
  matchersCondition: 'and' | 'or';
  matchers: CompiledMatcher[];
}

export interface TemplateInfo {
  name: string;
  severity: Severity;
  description: string;
  impact: string;
  cveIds: string[];
  cweIds: string[];
  cvssVector: string | null;
  tags: string[];
}

export interface LoadedTemplate {
  id: string;
  /** Path relative to the templates directory. */
  file: string;
  info: TemplateInfo;
  /** The template's `variables` (literal values only), readable by its DSL matchers. */
  variables: ReadonlyMap<string, string>;
  requests: CompiledRequest[];
}

/** One `inputs:` entry of a `tcp:`/`network:` block: bytes to write, then optionally a read. */
export interface NetworkInput {
  /** The bytes to send, placeholders (`{{Hostname}}`, …) still in; hex already decoded (latin1). */
  data: string;
  /** Bytes to read after writing this input (0: none). */
  read: number;
  /** The read's name, readable by matchers as a part (`part: banner`). */
  name: string | undefined;
}

export interface CompiledNetworkRequest {
  /** Connect in TLS (`tls://{{Hostname}}`) or plain; both when the template lists both. */
  tls: boolean[];
  inputs: NetworkInput[];
  /** Bytes of the final read, after the inputs (nuclei's `read-size`, default 1024). */
  readSize: number;
  matchersCondition: 'and' | 'or';
  matchers: CompiledMatcher[];
}

/** A `tcp:`/`network:` template (nuclei's network protocol), run against TCP services. */
export interface NetworkTemplate {
  protocol: 'network';
  id: string;
  file: string;
  info: TemplateInfo;
  /** Ports the template names (`port: 6379,6380`); empty when it names none. */
  ports: number[];
  variables: ReadonlyMap<string, string>;
  requests: CompiledNetworkRequest[];
}

export interface CompiledSslRequest {
  /** `min_version`/`max_version` as Node names them (`TLSv1.1`); undefined: the defaults. */
  minVersion: string | undefined;
  maxVersion: string | undefined;
  /** `ssl30`: Node cannot speak SSLv3, so this handshake is never made (no response). */
  sslv3: boolean;
  matchersCondition: 'and' | 'or';
  matchers: CompiledMatcher[];
  /** Fields (`tls_version`, `not_after`) of an extractor-only block: it matches when one is non-empty. */
  extractorFields: string[];
}

/** An `ssl:` template (nuclei's ssl protocol), run against TLS services. */
export interface SslTemplate {
  protocol: 'ssl';
  id: string;
  file: string;
  info: TemplateInfo;
  variables: ReadonlyMap<string, string>;
  requests: CompiledSslRequest[];
}
