/**
 * The committed intelligence snapshots (built by server/cli/intel-refresh.ts), read once per
 * process on first use. Synchronous and small (a few hundred KiB together), so no scan waits on them.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EolSnapshot } from './build-endoflife.ts';
import type { KevSnapshot } from './build-kev.ts';

export const EOL_SNAPSHOT_PATH = fileURLToPath(new URL('./snapshots/endoflife.json', import.meta.url));
export const KEV_SNAPSHOT_PATH = fileURLToPath(new URL('./snapshots/kev-affected.json', import.meta.url));

let eol: EolSnapshot | undefined;
let kev: KevSnapshot | undefined;

export function eolSnapshot(): EolSnapshot {
  eol ??= JSON.parse(readFileSync(EOL_SNAPSHOT_PATH, 'utf8')) as EolSnapshot;
  return eol;
}

export function kevSnapshot(): KevSnapshot {
  kev ??= JSON.parse(readFileSync(KEV_SNAPSHOT_PATH, 'utf8')) as KevSnapshot;
  return kev;
}
