import { randomBytes, randomUUID } from 'node:crypto';
import { decodeJwt, generateKeyPair, SignJWT, UnsecuredJWT, type JWTPayload } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectError } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, type Tenant } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';
import { deleteSession, listMySessions, refreshToken } from '../../../server/routes/auth.ts';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe(`bearer token attacks (${testEngine})`, () => {
  let app: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let token: string;
  let claims: JWTPayload;

  /** Lists the sessions with the token: every attack below is judged by this one call. */
  const call = (bearerToken: string) => apiClient(app, { token: bearerToken }).call(listMySessions);

  /** Claims of a real session, re-signed as the test chooses. */
  const validClaims = () => ({ org: claims.org, sid: claims.sid });
  const now = () => Math.floor(Date.now() / 1000);
  const signHs = (alg: 'HS256' | 'HS384' | 'HS512', secret: Uint8Array, iat = now(), exp = iat + 3600) =>
    new SignJWT(validClaims())
      .setProtectedHeader({ alg, typ: 'JWT' })
      .setSubject(String(claims.sub))
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setJti(randomUUID())
      .sign(secret);

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'professional' });
    other = await factory.tenant(app, { plan: 'professional' });
    token = await tenant.login();
    claims = decodeJwt(token);
  });

  it('accepts a token the test signs exactly like the server (the control for every attack below)', async () => {
    expect((await call(token)).status).toBe(200);
    expect((await call(await signHs('HS256', app.services.keys.jwtSecret))).status).toBe(200);
  });

  it('refuses alg "none", with or without a signature part', async () => {
    const unsigned = new UnsecuredJWT(validClaims())
      .setSubject(String(claims.sub))
      .setIssuedAt()
      .setExpirationTime('1h')
      .setJti(randomUUID())
      .encode();
    await expectError(await call(unsigned), 401, 'INVALID_TOKEN');
    const [, payload, signature] = token.split('.');
    for (const alg of ['none', 'None', 'NONE']) {
      const header = b64url({ alg, typ: 'JWT' });
      await expectError(await call(`${header}.${payload}.`), 401, 'INVALID_TOKEN');
      await expectError(await call(`${header}.${payload}.${signature}`), 401, 'INVALID_TOKEN');
    }
  });

  it('refuses other HMAC algorithms even with the right secret', async () => {
    for (const alg of ['HS384', 'HS512'] as const) {
      await expectError(await call(await signHs(alg, app.services.keys.jwtSecret)), 401, 'INVALID_TOKEN');
    }
  });

  it('refuses RS256 and ES256 tokens, including one whose header claims HS256 over an RSA signature', async () => {
    for (const alg of ['RS256', 'ES256'] as const) {
      const { privateKey } = await generateKeyPair(alg);
      const signed = await new SignJWT(validClaims())
        .setProtectedHeader({ alg })
        .setSubject(String(claims.sub))
        .setIssuedAt()
        .setExpirationTime('1h')
        .setJti(randomUUID())
        .sign(privateKey);
      await expectError(await call(signed), 401, 'INVALID_TOKEN');
      const [, payload, signature] = signed.split('.');
      await expectError(
        await call(`${b64url({ alg: 'HS256' })}.${payload}.${signature}`),
        401,
        'INVALID_TOKEN',
      );
    }
  });

  it('refuses a token signed with a wrong key', async () => {
    await expectError(await call(await signHs('HS256', randomBytes(48))), 401, 'INVALID_TOKEN');
  });

  it('refuses a tampered payload under the original signature', async () => {
    const [header, payload, signature] = token.split('.');
    const original = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const otherToken = await other.login();
    const otherClaims = decodeJwt(otherToken);
    const tamperings: Record<string, unknown>[] = [
      { ...original, org: other.orgId },
      { ...original, sub: other.admin.id },
      { ...original, sub: other.admin.id, org: other.orgId, sid: otherClaims.sid },
      { ...original, exp: Number(original.exp) + 86_400 },
    ];
    for (const changed of tamperings) {
      await expectError(await call(`${header}.${b64url(changed)}.${signature}`), 401, 'INVALID_TOKEN');
    }
  });

  it('refuses a validly signed token whose claims point at another user or organization', async () => {
    const otherClaims = decodeJwt(await other.login());
    const forged = (payload: Record<string, unknown>) =>
      new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setExpirationTime('1h')
        .setJti(randomUUID())
        .sign(app.services.keys.jwtSecret);
    const cases = [
      { sub: other.admin.id, org: claims.org, sid: claims.sid },
      { sub: claims.sub, org: other.orgId, sid: claims.sid },
      { sub: claims.sub, org: claims.org, sid: otherClaims.sid },
      { sub: claims.sub, org: claims.org },
    ];
    for (const payload of cases) await expectError(await call(await forged(payload)), 401, 'INVALID_TOKEN');
  });

  it('answers TOKEN_EXPIRED for an expired token, and refuses to refresh it', async () => {
    const iat = now() - 7200;
    const expired = await signHs('HS256', app.services.keys.jwtSecret, iat, iat + 3600);
    await expectError(await call(expired), 401, 'TOKEN_EXPIRED');
    await expectError(await apiClient(app, { token: expired }).call(refreshToken), 401, 'TOKEN_EXPIRED');
  });

  it('answers INVALID_TOKEN, not TOKEN_EXPIRED, for an expired token with a wrong signature', async () => {
    const iat = now() - 7200;
    await expectError(
      await call(await signHs('HS256', randomBytes(48), iat, iat + 3600)),
      401,
      'INVALID_TOKEN',
    );
  });

  it('refuses every token of a revoked session at once', async () => {
    const victim = await tenant.addUser('member');
    const victimToken = await tenant.login(victim);
    expect((await call(victimToken)).status).toBe(200);
    const sid = String(decodeJwt(victimToken).sid);
    expect(
      (await apiClient(app, { token: victimToken }).call(deleteSession, { params: { session_id: sid } }))
        .status,
    ).toBe(200);
    await expectError(await call(victimToken), 401, 'INVALID_TOKEN');
  });

  it('refuses a token of a session past its 30-day lifetime', async () => {
    const user = await tenant.addUser('member');
    const userToken = await tenant.login(user);
    // eslint-disable-next-line no-restricted-syntax -- no route ages a session: its expiry is moved into the past in place
    await app.services
      .db('sessions')
      .where({ id: String(decodeJwt(userToken).sid) })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await expectError(await call(userToken), 401, 'INVALID_TOKEN');
  });

  it('refuses garbage in the Authorization header', async () => {
    const garbage = [
      'garbage',
      'a.b.c',
      'a.b',
      '...',
      `${token}x`,
      token.split('.').slice(0, 2).join('.'),
      `${token}.extra`,
      'eyJhbGciOiJIUzI1NiJ9.%%%.%%%',
      'x'.repeat(4000),
    ];
    for (const value of garbage) await expectError(await call(value), 401, 'INVALID_TOKEN');
    for (const header of ['Bearer', 'Token abc', 'Digest abc', `Basic ${token}`]) {
      await expectError(
        await apiClient(app, { headers: { authorization: header } }).call(listMySessions),
        401,
        'INVALID_TOKEN',
      );
    }
  });
});
