/**
 * Nuclei-format templates as one check. `SCANWARD_TEMPLATES_DIR` names a directory tree of
 * templates, loaded once per process (templates/loader.ts); this check runs every loaded
 * template against each HTTP(S) service (templates/execute.ts) and returns their detections.
 *
 * Coverage is per template, not per check: besides the `nuclei-templates` entry the runner
 * records, the check pushes one coverage entry per template that ran to completion, under
 * the template's canonical check id, so a template finding that disappears is resolved.
 *
 * Templates that try credentials (nuclei's `default-login` tag, the `default-logins/` folders)
 * run only under `credential_checks: defaults`, like the built-in login checks.
 */
import { templateCacheDir, templatesIn } from '../templates/corpus.ts';
import type { TemplateSet } from '../templates/loader.ts';
import { runTemplates } from '../templates/execute.ts';
import { installedTemplates } from '../templates/install.ts';
import { credentialChecksFor } from '../../schemas/scans.ts';
import type { LoadedTemplate } from '../templates/schema.ts';
import type { ScanState } from '../types.ts';
import type { Check } from './check.ts';

/** Template sets whose load statistics were logged, and scans that noted them. */
const logged = new WeakSet<TemplateSet>();
const noted = new WeakSet<ScanState>();

export const templatesCheck: Check = {
  id: 'nuclei-templates',
  upstreamIds: [],
  phase: 'web_analysis',
  quick: false,
  category: 'misconfiguration',
  cweIds: [],
  appliesTo: (service) => service.service === 'http' || service.service === 'https',
  run: async (ctx, service) => {
    // SCANWARD_TEMPLATES_DIR, else the corpus `scanward templates update` installed.
    const directory = ctx.services.config.templatesDir ?? installedTemplates(ctx.services.config.dataDir);
    if (!directory) return [];
    const set = await templatesIn(directory, { cacheDir: templateCacheDir(ctx.services.config.dataDir) });
    if (!logged.has(set)) {
      logged.add(set);
      ctx.log.info({ templates: set.stats }, 'nuclei-format templates loaded');
    }
    if (!noted.has(ctx.state)) {
      noted.add(ctx.state);
      const { loaded, skipped, files } = set.stats;
      ctx.state.notes.push(
        `templates: ${loaded} of ${files} loaded from ${directory} (${skipped} skipped as unsupported)`,
      );
    }
    const mayLogIn = credentialChecksFor(ctx.scan.scan_type, ctx.scan.credential_checks) === 'defaults';
    const templates = mayLogIn ? set.templates : set.templates.filter((t) => !triesCredentials(t));
    if (templates.length === 0) return [];
    const run = await runTemplates(ctx, service, templates);
    ctx.state.coverage.push(...run.coverage);
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

/** A template that logs in with default or guessed credentials. */
export function triesCredentials(template: LoadedTemplate): boolean {
  return template.info.tags.includes('default-login') || /(^|[\\/])default-logins?[\\/]/.test(template.file);
}
