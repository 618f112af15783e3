/**
 * Which templates a scan runs: `SCANWARD_TEMPLATES_DIR` when set, else the full corpus
 * `scanward templates update` installed in the data directory, else the curated default set
 * committed with Scanward (`default/`, built by default-set.ts), so a fresh install runs
 * templates without any set-up.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { installedTemplates } from './install.ts';

/** The curated default set: upstream paths under it, with its manifest and upstream's LICENSE.md. */
export const DEFAULT_TEMPLATES_DIR = fileURLToPath(new URL('./default/', import.meta.url));

export type TemplateOrigin = 'configured' | 'installed' | 'default';

export function templateSource(config: {
  templatesDir: string | undefined;
  dataDir: string;
}): { directory: string; origin: TemplateOrigin } | undefined {
  if (config.templatesDir) return { directory: config.templatesDir, origin: 'configured' };
  const installed = installedTemplates(config.dataDir);
  if (installed) return { directory: installed, origin: 'installed' };
  if (existsSync(DEFAULT_TEMPLATES_DIR)) return { directory: DEFAULT_TEMPLATES_DIR, origin: 'default' };
  return undefined;
}
