import { ConfigurationError } from '../core/errors.ts';
import type { AuthInput } from '../core/inputs.ts';
import { scanwardError } from './api-errors.ts';
import { requestWithRetry, type HttpDeps } from './http.ts';
import { CiAudienceBody, CiTokenBody, TokenBody } from './responses.ts';

/**
 * Credential acquisition for the Scanward service, in one place: from what the user gave
 * (`AuthInput`, core/inputs.ts) to the headers of every request. An API key is sent as
 * `X-API-Key` as it is; a bearer token as `Authorization: Bearer`, swapped for a fresh one of
 * the same session shortly before it expires, because a full scan can outlive it. Every
 * secret is handed to `onSecret` as soon as it is known, so the Action masks it in the log.
 *
 * A new way to sign in (issue 26's `auth: oidc`: a CI provider's ID token exchanged at
 * `POST /api/v1/auth/ci-token` for a short-lived access token) is one more `AuthInput` kind
 * and one more `Credentials` here; the front end hands in what only it can reach (the
 * runner's ID-token request through `@actions/core`) as a dependency. The client, the scan
 * source and the reports do not change.
 */

export interface Credentials {
  /** The headers that authenticate the next request (refreshing first when due). */
  headers(): Promise<Record<string, string>>;
  /**
   * When `headers()` will next refresh them (epoch ms); undefined for credentials that do not
   * expire. A long-lived request (the event stream) is reopened then, with the fresh ones.
   */
  refreshDueAt?(): number | undefined;
}

export interface CredentialDeps {
  /** The service base, e.g. `https://scanward.example.com` (no `/api/v1`). */
  baseUrl: string;
  http: HttpDeps;
  userAgent: string;
  /** Told every secret (the key or token given, and each refreshed token), so the log masks it. */
  onSecret?: ((secret: string) => void) | undefined;
  /** The runner's ID token for an audience (`@actions/core`'s getIDToken); only the Action has it. */
  idToken?: ((audience: string) => Promise<string>) | undefined;
}

/**
 * The audience of the organization's CI jobs, as the service tells it to anyone naming the
 * organization (`GET /api/v1/ci-trust/audience?organization_id=`, no credentials: the job has
 * none before its ID token is exchanged, and an audience is not a secret).
 */
export async function organizationAudience(organizationId: string, deps: CredentialDeps): Promise<string> {
  const res = await requestWithRetry(
    deps.http,
    `${deps.baseUrl}/api/v1/ci-trust/audience?organization_id=${encodeURIComponent(organizationId)}`,
    { method: 'GET', headers: { accept: 'application/json', 'user-agent': deps.userAgent } },
    "Scanward: ask the organization's CI audience",
  );
  if (!res.ok) throw await scanwardError(res, "ask the organization's CI audience (keyless sign-in)");
  return CiAudienceBody.parse(await res.json()).audience;
}

/** Refresh a bearer token this long before it expires (tokens live one hour). */
const TOKEN_REFRESH_MARGIN_MS = 5 * 60_000;

export function acquireCredentials(auth: AuthInput, deps: CredentialDeps): Credentials {
  switch (auth.kind) {
    case 'api-key':
      deps.onSecret?.(auth.apiKey);
      return { headers: async () => ({ 'x-api-key': auth.apiKey }) };
    case 'token':
      deps.onSecret?.(auth.token);
      return new RefreshingToken(auth.token, deps);
    case 'oidc': {
      const mint = deps.idToken;
      if (!mint) throw new ConfigurationError('`auth: oidc` works only in a GitHub Actions job.');
      let audience = auth.audience;
      return new ExchangedToken(
        async () => {
          audience ??= await organizationAudience(auth.organizationId!, deps);
          return mint(audience);
        },
        deps,
        auth.organizationId,
      );
    }
    case 'id-token':
      return new ExchangedToken(async () => auth.idToken, deps);
  }
}

/** A bearer token of a user's session, refreshed through `POST /api/v1/auth/refresh` shortly before it expires. */
class RefreshingToken implements Credentials {
  constructor(
    private token: string,
    private readonly deps: CredentialDeps,
  ) {}

  async headers(): Promise<Record<string, string>> {
    await this.refreshIfDue();
    return this.bearer();
  }

  refreshDueAt(): number | undefined {
    const expiresAt = tokenExpiry(this.token);
    return expiresAt === undefined ? undefined : expiresAt - TOKEN_REFRESH_MARGIN_MS;
  }

  private bearer(): Record<string, string> {
    return { authorization: `Bearer ${this.token}` };
  }

  private async refreshIfDue(): Promise<void> {
    const expiresAt = tokenExpiry(this.token);
    const now = this.deps.http.now();
    if (expiresAt === undefined || expiresAt - now > TOKEN_REFRESH_MARGIN_MS || expiresAt <= now) return;
    const res = await requestWithRetry(
      this.deps.http,
      `${this.deps.baseUrl}/api/v1/auth/refresh`,
      {
        method: 'POST',
        headers: { accept: 'application/json', 'user-agent': this.deps.userAgent, ...this.bearer() },
      },
      'Scanward: refresh the bearer token',
    );
    if (!res.ok) throw await scanwardError(res, 'refresh the bearer token');
    const { access_token } = TokenBody.parse(await res.json());
    this.deps.onSecret?.(access_token);
    this.token = access_token;
  }
}

/** The `exp` of a JWT in epoch ms, read without verifying; undefined for anything else. */
export function tokenExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** Exchange again this long before the access token expires (it lives at most 15 minutes). */
const EXCHANGE_MARGIN_MS = 60_000;

/**
 * Keyless CI sign-in (docs/ci-trust.md): the CI provider's ID token exchanged at
 * `POST /api/v1/auth/ci-token` for a short-lived access token limited to the matching trust
 * policy's permissions. The access token cannot be refreshed: shortly before it expires a new ID
 * token is exchanged (the runner mints a fresh one; a token from a variable is reused, and the
 * service refuses it once it has expired).
 */
class ExchangedToken implements Credentials {
  private token: string | undefined;
  private expiresAt = 0;

  constructor(
    private readonly idToken: () => Promise<string>,
    private readonly deps: CredentialDeps,
    private readonly organizationId?: string,
  ) {}

  async headers(): Promise<Record<string, string>> {
    if (!this.token || this.expiresAt - this.deps.http.now() <= EXCHANGE_MARGIN_MS) await this.exchange();
    return { authorization: `Bearer ${this.token!}` };
  }

  refreshDueAt(): number | undefined {
    return this.token ? this.expiresAt - EXCHANGE_MARGIN_MS : undefined;
  }

  private async exchange(): Promise<void> {
    const idToken = await this.idToken();
    this.deps.onSecret?.(idToken);
    const res = await requestWithRetry(
      this.deps.http,
      `${this.deps.baseUrl}/api/v1/auth/ci-token`,
      {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          'user-agent': this.deps.userAgent,
        },
        body: JSON.stringify({
          id_token: idToken,
          ...(this.organizationId ? { organization_id: this.organizationId } : {}),
        }),
      },
      "Scanward: exchange the CI job's ID token",
    );
    if (!res.ok) throw await scanwardError(res, "exchange the CI job's ID token (keyless sign-in)");
    const { access_token, expires_in } = CiTokenBody.parse(await res.json());
    this.deps.onSecret?.(access_token);
    this.token = access_token;
    this.expiresAt = this.deps.http.now() + expires_in * 1000;
  }
}
