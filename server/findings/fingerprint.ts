import { createHash } from 'node:crypto';

/**
 * A finding's identity across scans: organization, concrete target, affected
 * component and canonical check id, hashed. Nothing that varies from run to run
 * (evidence, timings, dates, titles) takes part, so the same weakness seen
 * again maps to the same finding.
 *
 * Host names and URL schemes are case-insensitive, so they are lower-cased; a
 * URL's path and query keep their case (servers may treat them differently).
 */
export function findingFingerprint(parts: {
  orgId: string;
  target: string;
  affectedComponent: string;
  checkId: string;
}): string {
  const canonical = JSON.stringify([
    parts.orgId,
    parts.target.trim().toLowerCase(),
    normalizeComponent(parts.affectedComponent),
    parts.checkId.trim(),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** Lower-cases the scheme and authority of a URL (`HTTPS://App.Example:443/A` → `https://app.example:443/A`). */
export function normalizeComponent(component: string): string {
  const trimmed = component.trim();
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(.*)$/is.exec(trimmed);
  return match ? match[1]!.toLowerCase() + match[2]! : trimmed;
}
