/**
 * End-of-life and outdated software, judged from the end-of-life snapshot: the release
 * cycle a version belongs to (the longest cycle label it starts with), whether that cycle
 * has reached its end of life, and how far the version is behind the cycle's latest release.
 */
import type { EolCycle, EolProduct, EolSnapshot } from './build-endoflife.ts';
import { inCycle } from './build-endoflife.ts';
import { eolSnapshot } from './snapshots.ts';
import type { IdentifiedSoftware } from './software.ts';
import { compareVersions } from './versions.ts';

export interface EolAssessment {
  product: EolProduct;
  cycle: EolCycle;
  /** `cpe:2.3:a:apache:http_server:2.4.49:*:*:*:*:*:*:*`, when the product has a CPE. */
  cpe?: string;
  /** The cycle ended: on this date, or on an unknown date (`true`). */
  endOfLife: string | true | undefined;
  behind?: { releases: number; months?: number; latest: string; latestDate?: string; releasedOn?: string };
}

/** Whole months from one `YYYY-MM-DD` to a later one. */
export function monthsBetween(from: string, to: string): number {
  const [fy, fm, fd] = from.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = to.split('-').map(Number) as [number, number, number];
  return Math.max(0, (ty - fy) * 12 + (tm - fm) - (td < fd ? 1 : 0));
}

export function cpeFor(product: EolProduct, version: string): string | undefined {
  if (!product.cpe) return undefined;
  const escaped = version.replace(/[^A-Za-z0-9._-]/g, (c) => `\\${c}`);
  return `${product.cpe}:${escaped}:*:*:*:*:*:*:*`;
}

export function assessEndOfLife(
  software: IdentifiedSoftware,
  today: string,
  snapshot: EolSnapshot = eolSnapshot(),
): EolAssessment | undefined {
  const slug = software.product.endoflife;
  const product = slug ? snapshot.products[slug] : undefined;
  if (!product) return undefined;
  const { version } = software;
  const scheme = software.product.scheme;
  const cycle = product.cycles
    .filter((c) => inCycle(version, c.cycle))
    .sort((a, b) => b.cycle.length - a.cycle.length)[0];
  const cpe = cpeFor(product, version);
  if (!cycle) return undefined;
  const endOfLife =
    cycle.eol === true ? true : typeof cycle.eol === 'string' && cycle.eol <= today ? cycle.eol : undefined;
  let behind: EolAssessment['behind'];
  const order = cycle.latest === undefined ? undefined : compareVersions(version, cycle.latest, scheme);
  if (cycle.latest !== undefined && order !== undefined && order < 0) {
    const latest = cycle.latest;
    const newer = cycle.releases.filter(([v]) => {
      const after = compareVersions(v, version, scheme);
      const upTo = compareVersions(v, latest, scheme);
      return after !== undefined && after > 0 && upTo !== undefined && upTo <= 0;
    }).length;
    const releasedOn = cycle.releases.find(([v]) => compareVersions(v, version, scheme) === 0)?.[1];
    behind = {
      releases: Math.max(1, newer),
      latest,
      ...(cycle.latest_date && { latestDate: cycle.latest_date }),
      ...(releasedOn && { releasedOn }),
      ...(releasedOn && cycle.latest_date && { months: monthsBetween(releasedOn, cycle.latest_date) }),
    };
  }
  return { product, cycle, ...(cpe && { cpe }), endOfLife, ...(behind && { behind }) };
}
