import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { AppError } from '../errors.ts';

export const TOKEN_LIFETIME_SECONDS = 3600;

export interface TokenClaims {
  sub: string;
  org: string;
  sid: string;
}

export interface IssuedToken {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
}

/** Signs an HS256 access token for a session: `sub`, `org`, `sid`, `iat`, `exp` (iat + 3600), `jti`. */
export async function issueToken(
  secret: Uint8Array,
  claims: TokenClaims,
  now = new Date(),
): Promise<IssuedToken> {
  const iat = Math.floor(now.getTime() / 1000);
  const token = await new SignJWT({ org: claims.org, sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt(iat)
    .setExpirationTime(iat + TOKEN_LIFETIME_SECONDS)
    .setJti(randomUUID())
    .sign(secret);
  return { access_token: token, token_type: 'bearer', expires_in: TOKEN_LIFETIME_SECONDS };
}

export const invalidToken = () => new AppError(401, 'INVALID_TOKEN', 'could not validate credentials');
export const tokenExpired = () => new AppError(401, 'TOKEN_EXPIRED', 'token has expired');

/**
 * Verifies signature, algorithm (HS256 only: `none` and every other algorithm are
 * refused) and lifetime. Throws TOKEN_EXPIRED for an expired token and
 * INVALID_TOKEN for anything else.
 */
export async function verifyToken(secret: Uint8Array, token: string): Promise<TokenClaims> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      requiredClaims: ['sub', 'org', 'sid', 'iat', 'exp', 'jti'],
    });
    const { sub, org, sid } = payload;
    if (typeof sub !== 'string' || typeof org !== 'string' || typeof sid !== 'string') throw invalidToken();
    return { sub, org, sid };
  } catch (err) {
    if (err instanceof errors.JWTExpired) throw tokenExpired();
    throw invalidToken();
  }
}
