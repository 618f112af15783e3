import type { Logger } from 'pino';
import { loadKev, type KevCatalogue, type KevEntry } from '../scoring/kev.ts';

/**
 * KEV entries for analysis, from the catalogue file SCANWARD_KEV_FILE names. The
 * file is read once per process and path; when it is unset or unreadable the
 * analysis simply goes without KEV context.
 */

const catalogues = new Map<string, Promise<KevCatalogue>>();

function catalogueAt(path: string): Promise<KevCatalogue> {
  let catalogue = catalogues.get(path);
  if (!catalogue) {
    catalogue = loadKev(path);
    catalogues.set(path, catalogue);
    // A failed read is retried on a later call (the operator may fix the file).
    catalogue.catch(() => catalogues.delete(path));
  }
  return catalogue;
}

export async function kevEntriesFor(
  kevFile: string | undefined,
  cveIds: readonly string[],
  logger?: Logger,
): Promise<KevEntry[]> {
  if (!kevFile || cveIds.length === 0) return [];
  try {
    return (await catalogueAt(kevFile)).entriesFor(cveIds);
  } catch (err) {
    logger?.warn({ err, path: kevFile }, 'KEV catalogue unreadable; analysing without it');
    return [];
  }
}

/** The configured catalogue (read once per process and path), or undefined when unset or unreadable. */
export async function configuredKevCatalogue(
  kevFile: string | undefined,
  logger?: Logger,
): Promise<KevCatalogue | undefined> {
  if (!kevFile) return undefined;
  try {
    return await catalogueAt(kevFile);
  } catch (err) {
    logger?.warn({ err, path: kevFile }, 'KEV catalogue unreadable; recording without it');
    return undefined;
  }
}
