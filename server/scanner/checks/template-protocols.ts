/**
 * The template set of a scan, shared by the three template checks (HTTP in templates.ts; network
 * and ssl here), and the network (`tcp:`) and ssl (`ssl:`) template checks themselves:
 *
 * - `nuclei-network-templates` (vulnerability_scanning): the network templates meant for a
 *   service (its port is one the template names, or a tag names its protocol), over plain TCP
 *   or TLS as the service speaks;
 * - `nuclei-ssl-templates` (web_analysis): the ssl templates against every service identified
 *   inside TLS.
 *
 * Every connection is `connectService`'s, through the scan's scope guard. Network templates that
 * log in (`default-login` tag or folder) never run: logins to network services are the built-in
 * checks' alone, one attempt each from the credential policy's fixed list (docs/checks.md).
 */
import { credentialChecksFor } from '../../schemas/scans.ts';
import { templateCacheDir, templatesIn } from '../templates/corpus.ts';
import { networkTemplateApplies, runNetworkTemplates } from '../templates/execute-network.ts';
import { runSslTemplates } from '../templates/execute-ssl.ts';
import type { TemplateSet } from '../templates/loader.ts';
import { templateSource } from '../templates/sources.ts';
import { canonicalCheckId } from '../templates/execute.ts';
import type { Coverage, Detection, PhaseContext, ScanState } from '../types.ts';
import type { Check } from './check.ts';
import { isTlsService } from './http-exchange.ts';
// A cycle (index.ts registers the checks of this file), read only when a check runs.
import { CHECKS } from './index.ts';

/** Template sets whose load statistics were logged, and scans that noted them. */
const logged = new WeakSet<TemplateSet>();
const noted = new WeakSet<ScanState>();

/** The scan's templates (loaded once per process, off the event loop), or undefined when there are none. */
export async function scanTemplateSet(ctx: PhaseContext): Promise<TemplateSet | undefined> {
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

let builtIns: Map<string, string> | undefined;

/**
 * The built-in check that stands for a template: the check listing the template's id among its
 * `upstreamIds` (`exposed-redis` → `redis-unauthenticated`), also by the template's canonical
 * knowledge id (`redis-no-auth`), so a template and a built-in check that see the same weakness
 * make one finding (correlation merges by check id and component), and coverage resolves both.
 */
function builtInFor(id: string): string | undefined {
  if (!builtIns) {
    builtIns = new Map();
    for (const check of CHECKS) {
      for (const upstream of check.upstreamIds) {
        if (!builtIns.has(upstream)) builtIns.set(upstream, check.id);
        const canonical = canonicalCheckId(upstream);
        if (!builtIns.has(canonical)) builtIns.set(canonical, check.id);
      }
    }
  }
  return builtIns.get(id);
}

/** Template detections and coverage under the id of the built-in check that stands for them. */
export function asBuiltIn<T extends { detections: Detection[]; coverage: Coverage[] }>(run: T): T {
  for (const d of run.detections) {
    d.check_id = builtInFor(d.upstream_ids?.[0] ?? '') ?? builtInFor(d.check_id) ?? d.check_id;
  }
  for (const c of run.coverage) c.check_id = builtInFor(c.check_id) ?? c.check_id;
  return run;
}

/** Whether the scan may run templates that log in. */
export function mayLogIn(ctx: PhaseContext): boolean {
  return credentialChecksFor(ctx.scan.scan_type, ctx.scan.credential_checks) === 'defaults';
}

/** A template that logs in with default or guessed credentials. */
export function triesCredentials(template: { info: { tags: string[] }; file: string }): boolean {
  return template.info.tags.includes('default-login') || /(^|[\\/])default-logins?[\\/]/.test(template.file);
}

export const networkTemplatesCheck: Check = {
  id: 'nuclei-network-templates',
  upstreamIds: [],
  phase: 'vulnerability_scanning',
  quick: false,
  category: 'misconfiguration',
  cweIds: [],
  appliesTo: () => true,
  run: async (ctx, service) => {
    const set = await scanTemplateSet(ctx);
    if (!set) return [];
    // Network logins are the built-in checks' alone (one attempt from the policy's fixed list).
    const templates = set.network.filter((t) => networkTemplateApplies(t, service) && !triesCredentials(t));
    if (templates.length === 0) return [];
    const run = asBuiltIn(await runNetworkTemplates(ctx, service, templates));
    ctx.state.coverage.push(...run.coverage);
    return run.detections;
  },
};

export const sslTemplatesCheck: Check = {
  id: 'nuclei-ssl-templates',
  upstreamIds: [],
  phase: 'web_analysis',
  quick: false,
  category: 'tls',
  cweIds: [],
  appliesTo: isTlsService,
  run: async (ctx, service) => {
    const set = await scanTemplateSet(ctx);
    if (!set || set.ssl.length === 0) return [];
    const run = asBuiltIn(await runSslTemplates(ctx, service, set.ssl));
    ctx.state.coverage.push(...run.coverage);
    return run.detections;
  },
};
