import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import {
  findCiAudience,
  findOrganizationIdByCiAudience,
  mintCiAudience,
} from '../identity/organizations.repository.ts';
import { setCiTrustPoliciesAudience } from './ci-trust-policies.repository.ts';

/**
 * Every organization's own audience for keyless CI (issue 31, item 1; docs/ci-trust.md):
 * `<base>/ci/<organization id>`, the base being SCANWARD_PUBLIC_URL (else the origin of the
 * request that first needed it). The service mints it, once: it is stored on the organization
 * (unique), every policy of the organization carries it, and a CI job's ID token addressed to
 * it can only ever be matched against that organization's policies. Nobody chooses it, so no
 * organization can name another's.
 */

/** The audience an organization gets: its id under the base. */
export function audienceFor(base: string, orgId: string): string {
  return `${base.replace(/\/+$/, '')}/ci/${orgId}`;
}

function baseOf(config: Config, requestOrigin: string): string {
  return config.publicUrl ?? requestOrigin;
}

/**
 * The organization's audience, minted now when it has none (by an authenticated caller of the
 * organization: an unauthenticated request never writes one, so a forged Host cannot fix it).
 */
export async function ciAudienceOf(
  db: Db,
  config: Config,
  orgId: string,
  requestOrigin: string,
): Promise<string> {
  const stored = await findCiAudience(db, orgId);
  if (stored) return stored;
  const minted = (await mintCiAudience(db, orgId, audienceFor(baseOf(config, requestOrigin), orgId)))!;
  await setCiTrustPoliciesAudience(db, orgId, minted);
  return minted;
}

/**
 * The audience a CI job asks its ID token for, told to anyone who names the organization (an
 * audience is not a secret; it only binds a token to one organization): the stored one, else the
 * one it will get. Nothing is written, and an unknown id answers the same form as a new
 * organization's, so the answer tells nobody whether an organization exists.
 */
export async function publishedCiAudience(
  db: Db,
  config: Config,
  orgId: string,
  requestOrigin: string,
): Promise<string> {
  return (await findCiAudience(db, orgId)) ?? audienceFor(baseOf(config, requestOrigin), orgId);
}

const MAX_AUDIENCES = 8;

/** The organization owning one of the token's audiences; undefined when none or several (never guessed). */
export async function organizationOfAudience(
  db: Db,
  audiences: readonly string[],
): Promise<string | undefined> {
  const distinct = [...new Set(audiences)];
  // A CI provider's token carries one audience; a long list is nobody's real token.
  if (distinct.length === 0 || distinct.length > MAX_AUDIENCES) return undefined;
  const owners = new Set<string>();
  for (const audience of distinct) {
    const owner = await findOrganizationIdByCiAudience(db, audience);
    if (owner) owners.add(owner);
  }
  return owners.size === 1 ? [...owners][0] : undefined;
}
