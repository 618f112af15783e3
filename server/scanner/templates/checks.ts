/**
 * The nuclei-format templates as checks, one per protocol:
 *
 * - `nuclei-templates` (web_analysis): every HTTP template against each HTTP(S) service
 *   (execute.ts), then again under the directories of the crawled pages (crawl-bases.ts);
 * - `nuclei-network-templates` (vulnerability_scanning): the network templates meant for a
 *   service (its port is one the template names, or a tag names its protocol), over plain TCP
 *   or TLS as the service speaks;
 * - `nuclei-ssl-templates` (web_analysis): the ssl templates against every service identified
 *   inside TLS.
 *
 * The scan's templates (SCANWARD_TEMPLATES_DIR, else the installed corpus, else the curated
 * default set: sources.ts) are loaded once per process off the event loop (corpus.ts). Every
 * connection is `connectService`'s, through the scan's scope guard.
 *
 * Coverage is per template, not per check: besides the check's own entry the runner records,
 * each check pushes one coverage entry per template that ran to completion, under the
 * template's canonical id, so a finding a template raised is resolved only when that template
 * ran against the service again and did not match.
 *
 * HTTP templates that try credentials (nuclei's `default-login` tag, the `default-logins/`
 * folders) run only under `credential_checks: defaults`, like the built-in login checks.
 * Network templates that log in never run: logins to network services are the built-in checks'
 * alone, one attempt each from the credential policy's fixed list (docs/checks.md).
 *
 * A template and a built-in check that see the same weakness make one finding: the registry
 * (check-registry.ts, one level up, which knows the built-in checks) hands these checks the
 * lookup from a template id to the built-in check that lists it among its `upstreamIds`.
 */
import { credentialChecksFor } from '../../schemas/scans.ts';
import type { Check } from '../check.ts';
import { anyService, isHttp, speaksTls } from '../net/service-rules.ts';
import { crawl } from '../net/web-crawl.ts';
import type { Coverage, Detection, PhaseContext, ScanState } from '../types.ts';
import { templateCacheDir, templatesIn } from './corpus.ts';
import { crawlBases, runsOnCrawledPages } from './crawl-bases.ts';
import { networkTemplateApplies, runNetworkTemplates } from './execute-network.ts';
import { runSslTemplates } from './execute-ssl.ts';
import { canonicalCheckId, runTemplates } from './execute.ts';
import type { FuzzingTemplateFile, TemplateSet } from './template-set.ts';
import { templateSource } from './sources.ts';

/** The built-in check id that stands for a template id (upstream or canonical), if any. */
export type BuiltInLookup = (templateId: string) => string | undefined;

/** Template sets whose load statistics were logged, and scans that noted them. */
const logged = new WeakSet<TemplateSet>();
const noted = new WeakSet<ScanState>();

/** The scan's templates (loaded once per process, off the event loop), or undefined when there are none. */
async function scanTemplateSet(ctx: PhaseContext): Promise<TemplateSet | undefined> {
  const { config } = ctx.services;
  const source = templateSource(config);
  if (!source) return undefined;
  const set = await templatesIn(source.directory, { cacheDir: templateCacheDir(config.dataDir) });
  if (!logged.has(set)) {
    logged.add(set);
    ctx.log.info({ templates: set.stats, origin: source.origin }, 'nuclei-format templates loaded');
  }
  if (!noted.has(ctx.state)) {
    noted.add(ctx.state);
    const { loaded, skipped, files } = set.stats;
    const from = source.origin === 'default' ? 'the default set' : source.directory;
    ctx.state.notes.push(
      `templates: ${loaded} of ${files} loaded from ${from} (${skipped} skipped as unsupported)`,
    );
  }
  return set;
}

/** The operator's fuzzing templates for a scan, and the fuzzing templates of the tree that were skipped. */
export interface ScanFuzzingTemplates {
  /** Where they come from: the configured directory or the installed corpus (never the default HTTP set). */
  directory: string;
  templates: FuzzingTemplateFile[];
  /** Skipped fuzzing templates: relative path and reason (`fuzzing:matcher-dsl`). */
  skipped: Array<[string, string]>;
}

/**
 * The fuzzing templates (`fuzzing:` sections) of the scan's template tree, from the same load
 * as every other template (once per process, in the worker, through the compiled-template
 * cache). The web assessment runs them beside its default fuzzing set (check-registry.ts hands
 * it this function). Undefined when the scan has no tree of its own.
 */
export async function scanFuzzingTemplates(ctx: PhaseContext): Promise<ScanFuzzingTemplates | undefined> {
  const source = templateSource(ctx.services.config);
  if (!source || source.origin === 'default') return undefined;
  const set = await scanTemplateSet(ctx);
  if (!set) return undefined;
  return {
    directory: source.directory,
    templates: set.fuzzing,
    skipped: [...set.skippedFiles].filter(([, reason]) => reason.startsWith('fuzzing:')),
  };
}

/** Whether the scan may run templates that log in. */
export function mayLogIn(ctx: PhaseContext): boolean {
  return credentialChecksFor(ctx.scan.scan_type, ctx.scan.credential_checks) === 'defaults';
}

/** A template that logs in with default or guessed credentials. */
export function triesCredentials(template: { info: { tags: string[] }; file: string }): boolean {
  return template.info.tags.includes('default-login') || /(^|[\\/])default-logins?[\\/]/.test(template.file);
}

/** Template detections and coverage under the id of the built-in check that stands for them. */
export function asBuiltIn<T extends { detections: Detection[]; coverage: Coverage[] }>(
  run: T,
  builtInFor: BuiltInLookup,
): T {
  for (const d of run.detections) {
    d.check_id = builtInFor(d.upstream_ids?.[0] ?? '') ?? builtInFor(d.check_id) ?? d.check_id;
  }
  for (const c of run.coverage) c.check_id = builtInFor(c.check_id) ?? c.check_id;
  return run;
}

/**
 * A template naming a CVE makes a finding keyed by that CVE on the service (correlation folds it
 * with the version matches of the same CVE), so the template's coverage covers the CVE too: a
 * template that ran clean resolves the CVE finding it raised, unless another check (a version
 * match) still reports it. Templates folded into a built-in check keep that check's coverage.
 */
export function withCveCoverage<T extends { coverage: Coverage[] }>(
  run: T,
  templates: readonly { id: string; info: { cveIds: string[] } }[],
  builtInFor: BuiltInLookup,
): T {
  const cveOf = new Map<string, string>();
  for (const t of templates) {
    const cve = t.info.cveIds.find((id) => /^CVE-\d{4}-\d{4,}$/i.test(id.trim()));
    const canonical = canonicalCheckId(t.id);
    if (cve && !builtInFor(t.id) && !builtInFor(canonical)) cveOf.set(canonical, cve.trim().toUpperCase());
  }
  const extra: Coverage[] = [];
  for (const c of run.coverage) {
    const cve = cveOf.get(c.check_id);
    if (cve && cve !== c.check_id) extra.push({ ...c, check_id: cve });
  }
  run.coverage.push(...extra);
  return run;
}

const httpTemplatesCheck = (builtInFor: BuiltInLookup): Check => ({
  id: 'nuclei-templates',
  upstreamIds: [],
  phase: 'web_analysis',
  quick: false,
  category: 'misconfiguration',
  cweIds: [],
  ports: isHttp.ports,
  appliesTo: isHttp.matches,
  run: async (ctx, service) => {
    const set = await scanTemplateSet(ctx);
    if (!set) return [];
    const templates = mayLogIn(ctx) ? set.templates : set.templates.filter((t) => !triesCredentials(t));
    if (templates.length === 0) return [];
    const run = asBuiltIn(
      withCveCoverage(await runTemplates(ctx, service, templates), templates, builtInFor),
      builtInFor,
    );
    ctx.state.coverage.push(...run.coverage);
    // Then under the directories of the crawled pages (bounded: templates/crawl-bases.ts).
    const pages = await crawl(ctx, service).catch(() => []);
    const bases = crawlBases(pages.map((p) => ({ path: p.path, status: p.exchange.response?.status })));
    const repeated = templates.filter(runsOnCrawledPages);
    for (const basePath of repeated.length > 0 ? bases : []) {
      const more = await runTemplates(ctx, service, repeated, { basePath }).catch((err: unknown) => {
        if (ctx.signal.aborted) throw err;
        return undefined;
      });
      if (!more) continue;
      run.detections.push(...asBuiltIn(more, builtInFor).detections);
      run.requests += more.requests;
    }
    ctx.log.debug(
      {
        service: `${service.address}:${service.port}`,
        templates: templates.length,
        requests: run.requests,
      },
      'templates ran',
    );
    return run.detections;
  },
});

const networkTemplatesCheck = (builtInFor: BuiltInLookup): Check => ({
  id: 'nuclei-network-templates',
  upstreamIds: [],
  phase: 'vulnerability_scanning',
  quick: false,
  category: 'misconfiguration',
  cweIds: [],
  // The network templates name their own ports; they run on whatever the sweep found.
  ports: anyService.ports,
  appliesTo: anyService.matches,
  run: async (ctx, service) => {
    const set = await scanTemplateSet(ctx);
    if (!set) return [];
    // Network logins are the built-in checks' alone (one attempt from the policy's fixed list).
    const templates = set.network.filter((t) => networkTemplateApplies(t, service) && !triesCredentials(t));
    if (templates.length === 0) return [];
    const run = asBuiltIn(
      withCveCoverage(await runNetworkTemplates(ctx, service, templates), templates, builtInFor),
      builtInFor,
    );
    ctx.state.coverage.push(...run.coverage);
    return run.detections;
  },
});

const sslTemplatesCheck = (builtInFor: BuiltInLookup): Check => ({
  id: 'nuclei-ssl-templates',
  upstreamIds: [],
  phase: 'web_analysis',
  quick: false,
  category: 'tls',
  cweIds: [],
  ports: speaksTls.ports,
  appliesTo: speaksTls.matches,
  run: async (ctx, service) => {
    const set = await scanTemplateSet(ctx);
    if (!set || set.ssl.length === 0) return [];
    const run = asBuiltIn(
      withCveCoverage(await runSslTemplates(ctx, service, set.ssl), set.ssl, builtInFor),
      builtInFor,
    );
    ctx.state.coverage.push(...run.coverage);
    return run.detections;
  },
});

/** The three template checks, folding their findings into the built-in checks' through `builtInFor`. */
export function templateChecks(builtInFor: BuiltInLookup): Check[] {
  return [httpTemplatesCheck(builtInFor), networkTemplatesCheck(builtInFor), sslTemplatesCheck(builtInFor)];
}
