import { request } from 'node:https';
import { errors, importJWK, jwtVerify, decodeProtectedHeader, type JWK, type JWTPayload } from 'jose';

/**
 * The OpenID issuers CI providers sign their ID tokens with (docs/ci-trust.md): the signing
 * keys of an issuer are found through its discovery document
 * (`<issuer>/.well-known/openid-configuration` → `jwks_uri`), kept for ten minutes, and
 * fetched again when a token names a key id they lack (a rotation at the issuer), at most
 * once every ten seconds per issuer so a stream of made-up key ids cannot turn the service
 * into a load on the issuer.
 *
 * Only issuers the exchange allows are ever contacted (GitHub's and SCANWARD_CI_OIDC_ISSUERS),
 * over https with the certificate verified against Node's CA store, which NODE_EXTRA_CA_CERTS
 * extends for a private CA. `ca` replaces the store for one instance: the in-process tests,
 * which cannot set NODE_EXTRA_CA_CERTS after their process started, hand the test issuer's CA
 * to it the way the variable would.
 *
 * A key is used only with the algorithm its JWK declares (a JWK without `alg` is used only for
 * the algorithms of its key type); `none` and the symmetric algorithms are never accepted.
 */

export class IssuerUnavailable extends Error {
  constructor(issuer: string, reason: string) {
    super(`the OpenID issuer ${issuer} could not be reached: ${reason}`);
    this.name = 'IssuerUnavailable';
  }
}

/** The token could not be verified: bad signature, unknown key, wrong claims, expired... */
export class IdTokenInvalid extends Error {
  constructor(
    reason: string,
    readonly expired = false,
  ) {
    super(reason);
    this.name = 'IdTokenInvalid';
  }
}

const ASYMMETRIC = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

const ALGORITHMS_OF_KEY_TYPE: Record<string, readonly string[]> = {
  RSA: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'],
  EC: ['ES256', 'ES384', 'ES512'],
  OKP: ['EdDSA', 'Ed25519'],
};

/** How far apart the issuer's clock and ours may be, for exp, nbf and iat. */
export const CLOCK_SKEW_SECONDS = 60;
const KEYS_MAX_AGE_MS = 10 * 60_000;
const REFETCH_COOLDOWN_MS = 10_000;
const FETCH_TIMEOUT_MS = 10_000;
const MAX_DOCUMENT_BYTES = 512 * 1024;

interface IssuerKeys {
  keys: JWK[];
  fetchedAt: number;
}

export interface CiIssuersOptions {
  /** PEM certificates trusted instead of Node's store (tests; production uses NODE_EXTRA_CA_CERTS). */
  ca?: string | undefined;
}

export class CiIssuers {
  private readonly keys = new Map<string, IssuerKeys>();
  private readonly inflight = new Map<string, Promise<IssuerKeys>>();

  constructor(private readonly options: CiIssuersOptions = {}) {}

  /**
   * Verifies an ID token of `issuer` for one of `audiences`: signature against the issuer's
   * keys, `iss`, `aud`, `exp`, `nbf` and `iat` (each within {@link CLOCK_SKEW_SECONDS}).
   * Throws IdTokenInvalid, or IssuerUnavailable when the issuer's keys cannot be had.
   */
  async verify(
    token: string,
    issuer: string,
    audiences: readonly string[],
    now = new Date(),
  ): Promise<JWTPayload> {
    let header;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      throw new IdTokenInvalid('not a JSON Web Token');
    }
    const alg = header.alg;
    if (typeof alg !== 'string' || !ASYMMETRIC.includes(alg)) {
      throw new IdTokenInvalid(`the algorithm ${String(alg)} is not accepted`);
    }
    const jwk = await this.keyFor(issuer, header.kid, alg, now);
    if (!jwk) throw new IdTokenInvalid('signed by a key the issuer does not publish');
    let key;
    try {
      key = await importJWK(jwk, alg);
    } catch {
      throw new IdTokenInvalid('the issuer publishes a key that cannot be used');
    }
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: [alg],
        issuer,
        audience: [...audiences],
        clockTolerance: CLOCK_SKEW_SECONDS,
        currentDate: now,
        requiredClaims: ['iss', 'aud', 'exp', 'iat'],
      });
      if (payload.iat! > Math.floor(now.getTime() / 1000) + CLOCK_SKEW_SECONDS) {
        throw new IdTokenInvalid('issued in the future');
      }
      return payload;
    } catch (err) {
      if (err instanceof IdTokenInvalid) throw err;
      if (err instanceof errors.JWTExpired) throw new IdTokenInvalid('the token has expired', true);
      if (err instanceof errors.JWTClaimValidationFailed)
        throw new IdTokenInvalid(`the ${err.claim} claim is not accepted`);
      if (err instanceof errors.JWSSignatureVerificationFailed)
        throw new IdTokenInvalid('the signature does not verify');
      throw new IdTokenInvalid('the token does not verify');
    }
  }

  /** The issuer's key for `kid` usable with `alg`; fetched again once when the kid is unknown. */
  private async keyFor(
    issuer: string,
    kid: string | undefined,
    alg: string,
    now: Date,
  ): Promise<JWK | undefined> {
    const pick = (set: IssuerKeys) => {
      const usable = set.keys.filter(
        (k) =>
          (kid === undefined || k.kid === kid) &&
          (k.use === undefined || k.use === 'sig') &&
          (k.alg !== undefined ? k.alg === alg : (ALGORITHMS_OF_KEY_TYPE[k.kty ?? ''] ?? []).includes(alg)),
      );
      // Without a kid, only an issuer with exactly one usable key is unambiguous.
      return usable.length === 1 ? usable[0] : kid !== undefined ? usable[0] : undefined;
    };
    let set = this.keys.get(issuer);
    const t = now.getTime();
    if (!set || t - set.fetchedAt > KEYS_MAX_AGE_MS) set = await this.refresh(issuer, t);
    const found = pick(set);
    if (found || t - set.fetchedAt < REFETCH_COOLDOWN_MS) return found;
    return pick(await this.refresh(issuer, t));
  }

  /** Fetches the issuer's keys through its discovery document; concurrent callers share one fetch. */
  private refresh(issuer: string, t: number): Promise<IssuerKeys> {
    const running = this.inflight.get(issuer);
    if (running) return running;
    const fetching = (async () => {
      const discovery = await this.getJson(
        issuer,
        `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
      );
      if (discovery.issuer !== issuer) {
        throw new IssuerUnavailable(issuer, 'its discovery document names another issuer');
      }
      const jwksUri = discovery.jwks_uri;
      if (typeof jwksUri !== 'string' || !jwksUri.startsWith('https://')) {
        throw new IssuerUnavailable(issuer, 'its discovery document has no https jwks_uri');
      }
      const jwks = await this.getJson(issuer, jwksUri);
      if (!Array.isArray(jwks.keys)) throw new IssuerUnavailable(issuer, 'its key set has no keys');
      const set = {
        keys: (jwks.keys as unknown[]).filter((k): k is JWK => typeof k === 'object' && k !== null),
        fetchedAt: t,
      };
      this.keys.set(issuer, set);
      return set;
    })();
    this.inflight.set(issuer, fetching);
    return fetching.finally(() => this.inflight.delete(issuer));
  }

  private getJson(issuer: string, url: string): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const fail = (reason: string) => reject(new IssuerUnavailable(issuer, reason));
      const req = request(
        url,
        {
          method: 'GET',
          headers: { accept: 'application/json' },
          timeout: FETCH_TIMEOUT_MS,
          ...(this.options.ca ? { ca: this.options.ca } : {}),
        },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            return fail(`${url} answered ${res.statusCode}`);
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_DOCUMENT_BYTES) {
              req.destroy();
              fail(`${url} answered more than ${MAX_DOCUMENT_BYTES} bytes`);
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () => {
            try {
              const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
              if (typeof value !== 'object' || value === null || Array.isArray(value))
                return fail(`${url} is not a JSON object`);
              resolve(value as Record<string, unknown>);
            } catch {
              fail(`${url} is not JSON`);
            }
          });
          res.on('error', (err) => fail(err.message));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', (err) => fail(err.message));
      req.end();
    });
  }
}
