/**
 * The committed intelligence snapshots (built by server/cli/intel-refresh.ts), read once per
 * process on first use. Synchronous and small (well under a MiB together), so no scan waits on them.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EolSnapshot } from './build-endoflife.ts';
import type { EpssSnapshot } from './build-epss.ts';
import type { KevSnapshot } from './build-kev.ts';
import type { VendorSnapshot } from './build-vendor-cves.ts';

export const EOL_SNAPSHOT_PATH = fileURLToPath(new URL('./snapshots/endoflife.json', import.meta.url));
export const KEV_SNAPSHOT_PATH = fileURLToPath(new URL('./snapshots/kev-affected.json', import.meta.url));
export const EPSS_SNAPSHOT_PATH = fileURLToPath(new URL('./snapshots/epss.json', import.meta.url));
export const VENDOR_SNAPSHOT_PATH = fileURLToPath(new URL('./snapshots/vendor-cves.json', import.meta.url));

let eol: EolSnapshot | undefined;
let kev: KevSnapshot | undefined;
let epss: EpssSnapshot | undefined;
let vendor: VendorSnapshot | undefined;

export function eolSnapshot(): EolSnapshot {
  eol ??= JSON.parse(readFileSync(EOL_SNAPSHOT_PATH, 'utf8')) as EolSnapshot;
  return eol;
}

export function kevSnapshot(): KevSnapshot {
  kev ??= JSON.parse(readFileSync(KEV_SNAPSHOT_PATH, 'utf8')) as KevSnapshot;
  return kev;
}

export function epssSnapshot(): EpssSnapshot {
  epss ??= JSON.parse(readFileSync(EPSS_SNAPSHOT_PATH, 'utf8')) as EpssSnapshot;
  return epss;
}

export function vendorSnapshot(): VendorSnapshot {
  vendor ??= JSON.parse(readFileSync(VENDOR_SNAPSHOT_PATH, 'utf8')) as VendorSnapshot;
  return vendor;
}
