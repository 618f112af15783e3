/**
 * Where a network finding is placed. GitHub requires a location and refuses URIs with a scheme
 * such as `https://`, so each result is placed on a repository-relative path that names the
 * component and does not exist in the repository: `scanward/<host>/<scheme>-<port>/<path>`.
 */

/** Locations are relative to the repository root, as GitHub reads them. */
export const SRCROOT = '%SRCROOT%';

const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443', ws: '80', wss: '443', ftp: '21' };
const MAX_SEGMENTS = 8;
const MAX_SEGMENT_LENGTH = 64;

/**
 * The repository-relative path a network finding is placed on:
 * `https://app.example.com:443/admin/login?x=1` → `scanward/app.example.com/https-443/admin/login`,
 * `redis://[::1]:6379` → `scanward/__1/redis-6379`. Query strings and fragments
 * are left out (they vary between runs); a component that is not a URL is kept
 * as one segment under the target.
 */
export function locationPath(component: string, target: string): string {
  let url: URL | undefined;
  try {
    url = new URL(component);
  } catch {
    url = undefined;
  }
  if (!url || !url.hostname) return `scanward/${pathSegment(target)}/${pathSegment(component)}`;
  const scheme = url.protocol.replace(/:$/, '');
  const port = url.port || DEFAULT_PORTS[scheme];
  const service = port ? `${scheme}-${port}` : scheme;
  const segments = url.pathname
    .split('/')
    .map((s) => pathSegment(safeDecode(s)))
    .filter((s) => s !== '' && s !== '_' && s !== '.' && s !== '..')
    .slice(0, MAX_SEGMENTS);
  return ['scanward', pathSegment(url.hostname.replace(/^\[|\]$/g, '')), service, ...segments].join('/');
}

/** One path segment of letters, digits and `._~-`, everything else `_`, at most 64 characters. */
export function pathSegment(value: string): string {
  const cleaned = value.replace(/[^A-Za-z0-9._~-]/g, '_').slice(0, MAX_SEGMENT_LENGTH);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? '_' : cleaned;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
