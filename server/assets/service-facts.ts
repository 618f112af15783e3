/**
 * What a service is, as a fact with a specificity (docs/assets.md, "Facts and provenance"): the
 * product and version a tool announced, read the way the engine's own probes read them, so a
 * report's banner never says more, or other, than it means. Pure.
 *
 * - **compatibility prefixes**: MariaDB announces `5.5.5-10.11.19-MariaDB-0+deb12u1` to old
 *   MySQL clients, and nmap reports that as MySQL 5.5.5: it is MariaDB 10.11.19;
 * - **ranges are not versions**: `9.6.0 or later`, `2.4.x`, `1.0 - 2.0`, `< 3` say what the
 *   version could be, not what it is, so the fact has a product and no version;
 * - **product names** are the engine's (`PostgreSQL DB` → `PostgreSQL`,
 *   `Redis key-value store` → `Redis`);
 * - **specificity**: 3 a product and a version, 2 a product, 1 only a service name, 0 nothing.
 *   A less specific fact never replaces a more specific one (assets/inventory.ts).
 */

export interface ServiceFact {
  product: string | null;
  version: string | null;
  cpe: string | null;
  specificity: 0 | 1 | 2 | 3;
}

const MARIADB_COMPAT = /^(?:5\.5\.5-)?(\d+\.\d+\.\d+)-MariaDB/i;
/** A version that names one release: digits and dots, then an optional build or distribution suffix. */
const ONE_RELEASE = /^v?\d+(?:\.\d+)*(?:[a-z]\d*)?(?:[-+~_.][0-9a-z][0-9a-z.+~_-]*)?$/i;
const RANGE_WORDS =
  /\b(or later|or earlier|or newer|or older|and later|and up|through|to|before|after|between)\b/i;

const PRODUCT_NAMES: [RegExp, string][] = [
  [/^postgresql( db)?$/i, 'PostgreSQL'],
  [/^redis( key-value store)?$/i, 'Redis'],
  [/^mysql$/i, 'MySQL'],
  [/^mariadb$/i, 'MariaDB'],
];

/** The product's name as the engine names it. */
function productName(product: string): string {
  const trimmed = product.trim();
  return PRODUCT_NAMES.find(([pattern]) => pattern.test(trimmed))?.[1] ?? trimmed;
}

/** Whether `version` names one release (not a range, a wildcard or a phrase). */
export function isOneVersion(version: string): boolean {
  const v = version.trim();
  if (!v || RANGE_WORDS.test(v) || /[x*]$|\.x\b|[<>=]|\s/.test(v)) return false;
  return ONE_RELEASE.test(v);
}

/** The fact a tool's product, version and CPE state (see the module comment). */
export function serviceFact(
  service: string,
  product: string | null | undefined,
  version: string | null | undefined,
  cpe?: string | null,
): ServiceFact {
  let p = product?.trim() || null;
  let v = version?.trim() || null;
  const mariadb = v ? MARIADB_COMPAT.exec(v) : null;
  if (mariadb) {
    p = 'MariaDB';
    v = mariadb[1]!;
  } else if (v && !isOneVersion(v)) {
    // `9.2p1 Debian 2+deb12u1`: the release, then the distribution's words.
    const first = v.split(/\s+/)[0]!;
    v = !RANGE_WORDS.test(v) && !/\s[-–]\s|[<>=]/.test(v) && isOneVersion(first) ? first : null;
  }
  if (p) p = productName(p);
  // A CPE that names the compatibility version (`…:mariadb:5.5.5-10.11.19-mariadb-…`) is rewritten with the real one.
  let c = cpe?.trim() || null;
  if (c && mariadb) c = `cpe:/a:mariadb:mariadb:${v}`;
  else if (c && !v) c = c.replace(/^(cpe:\/[aho]:[^:]+:[^:]+):.*$/i, '$1');
  const specificity = p && v ? 3 : p ? 2 : service && service !== 'unknown' ? 1 : 0;
  return { product: p, version: p ? v : null, cpe: c, specificity };
}
