import { isIP } from 'node:net';
import { systemResolver, type Resolver } from '../scans/scope.ts';
import { normalizeHostName } from '../scans/targets.ts';

/**
 * The local engine's target: one web service, named by a URL (`http://localhost:8080`). The
 * scope of a local scan is exactly this: the addresses the URL's host resolves to now, and the
 * URL's port. Loopback and private addresses are allowed (a CI job scans what it started
 * itself); cloud metadata addresses stay refused by the scope policy.
 */

export class LocalTargetError extends Error {
  override name = 'LocalTargetError';
}

export interface LocalTarget {
  /** The URL as given. */
  url: string;
  scheme: 'http' | 'https';
  /** The host name or the literal address (IPv6 without brackets): what findings name as their target. */
  host: string;
  port: number;
  /** Every address the host resolved to: the whole scope of the scan. */
  addresses: string[];
}

export async function resolveLocalTarget(
  raw: string,
  resolve: Resolver = systemResolver,
): Promise<LocalTarget> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new LocalTargetError(
      `target "${raw}" is not a URL; with --local, name the service as http://host:port (e.g. http://localhost:8080).`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new LocalTargetError(`target "${raw}" must start with http:// or https://.`);
  if (url.username || url.password)
    throw new LocalTargetError(`target "${raw}" must not contain credentials.`);
  const scheme = url.protocol === 'https:' ? 'https' : 'http';
  const port = url.port === '' ? (scheme === 'https' ? 443 : 80) : Number(url.port);
  const bare = url.hostname.replace(/^\[|\]$/g, '');
  let host: string;
  let addresses: string[];
  if (isIP(bare)) {
    host = bare;
    addresses = [bare];
  } else {
    const name = normalizeHostName(bare);
    if (!name) throw new LocalTargetError(`target "${raw}" does not name a host.`);
    host = name;
    try {
      addresses = [...new Set(await resolve(name))];
    } catch (error) {
      throw new LocalTargetError(
        `the host of target "${raw}" does not resolve: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (addresses.length === 0) throw new LocalTargetError(`the host of target "${raw}" does not resolve.`);
  }
  return { url: raw.trim(), scheme, host, port, addresses };
}
