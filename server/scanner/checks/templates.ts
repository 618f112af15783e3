/**
 * Nuclei-format templates as one check. The scan's templates (SCANWARD_TEMPLATES_DIR, else the
 * installed corpus, else the curated default set: templates/sources.ts) are loaded once per
 * process off the event loop (templates/corpus.ts); this check runs every HTTP template against
 * each HTTP(S) service (templates/execute.ts) and returns their detections. Network and ssl
 * templates are the checks of template-protocols.ts.
 *
 * Coverage is per template, not per check: besides the `nuclei-templates` entry the runner
 * records, the check pushes one coverage entry per template that ran to completion, under
 * the template's canonical check id, so a template finding that disappears is resolved.
 *
 * Templates that try credentials (nuclei's `default-login` tag, the `default-logins/` folders)
 * run only under `credential_checks: defaults`, like the built-in login checks.
 */
import { crawlBases, runsOnCrawledPages } from '../templates/crawl-bases.ts';
import { runTemplates } from '../templates/execute.ts';
import type { Check } from './check.ts';
import { asBuiltIn, mayLogIn, scanTemplateSet, triesCredentials } from './template-protocols.ts';
import { crawl } from './web-crawl.ts';

export { triesCredentials } from './template-protocols.ts';

export const templatesCheck: Check = {
  id: 'nuclei-templates',
  upstreamIds: [],
  phase: 'web_analysis',
  quick: false,
  category: 'misconfiguration',
  cweIds: [],
  appliesTo: (service) => service.service === 'http' || service.service === 'https',
  run: async (ctx, service) => {
    const set = await scanTemplateSet(ctx);
    if (!set) return [];
    const templates = mayLogIn(ctx) ? set.templates : set.templates.filter((t) => !triesCredentials(t));
    if (templates.length === 0) return [];
    const run = asBuiltIn(await runTemplates(ctx, service, templates));
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
      run.detections.push(...asBuiltIn(more).detections);
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
};
