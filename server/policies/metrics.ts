import { createHash, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.ts';

/**
 * Who may scrape GET /metrics. The figures are instance-wide (every organization's), so
 * they answer only to the operator: the bearer of SCANWARD_METRICS_TOKEN, or everyone when
 * SCANWARD_METRICS_PUBLIC=true. An organization's token, API key or console session is no
 * operator credential, whatever its role.
 */
export type MetricsAccess = Pick<Config, 'metricsPublic' | 'metricsToken'>;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether the `Authorization` header carries the operator's metrics token. Compared in
 * constant time, on digests so the length of the token does not show either.
 */
export function carriesMetricsToken(authorization: string, token: string | undefined): boolean {
  const presented = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization)?.[1];
  if (!token || presented === undefined) return false;
  return timingSafeEqual(sha256(presented), sha256(token));
}

/** Whether a request with this `Authorization` header may read the metrics. */
export function mayScrapeMetrics(access: MetricsAccess, authorization: string): boolean {
  return access.metricsPublic || carriesMetricsToken(authorization, access.metricsToken);
}
