import type { Context } from 'koa';
import { z } from 'zod';
import {
  beginSignIn,
  completeSignIn,
  completeSignInMfa,
  OIDC_CALLBACK_PATH,
  OIDC_LOGIN_PATH,
  OIDC_MFA_PATH,
  SsoRefusal,
} from '../auth/oidc.ts';
import { AppError } from '../errors.ts';
import { defineRoute } from '../http/contract.ts';
import { authenticationSettingsOf, setAuthenticationSettings } from '../identity/organizations.ts';
import { AuthenticationSettings, AuthenticationSettingsChange, SignInMethods } from '../schemas/settings.ts';

/**
 * Single sign-on with the instance's OpenID Connect provider (auth/oidc.ts), and the
 * organization's sign-in settings (password log-in on or off). The two browser routes answer
 * redirects and, when sign-in fails, a page a person can read, never JSON.
 */

const tags = ['Authentication'];

function escapeHtml(text: string): string {
  const entities: Record<string, string> = {
    '&': '&amp;',
    '<': '&lt;',
    '>': '&gt;',
    '"': '&quot;',
    "'": '&#39;',
  };
  return text.replace(/[&<>"']/g, (c) => entities[c] ?? c);
}

/** The page a refused single sign-on shows: what happened and the way back to the sign-in page. */
function refusalPage(ctx: Context, status: number, message: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
  ctx.body = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Single sign-on failed · Scanward</title>
  <style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2933}h1{font-size:1.4rem}p{line-height:1.5}</style>
</head>
<body>
  <main>
    <h1>Single sign-on failed</h1>
    <p id="reason">${escapeHtml(message)}</p>
    <p><a href="/">Back to the sign-in page</a></p>
  </main>
</body>
</html>
`;
}

/**
 * The page of the local MFA step after a single sign-on: one field for the code (or a recovery
 * code), posted back to this service with the MFA cookie. No script; framing refused.
 */
function mfaPage(ctx: Context, status: number, problem?: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  );
  ctx.body = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Two-factor code · Scanward</title>
  <style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2933}h1{font-size:1.4rem}p{line-height:1.5}input,button{font:inherit;padding:.4rem .6rem}</style>
</head>
<body>
  <main>
    <h1>Two-factor code</h1>
    <p>Your identity provider signed you in. Your Scanward account also asks for its own code.</p>
    ${problem ? `<p id="problem" role="alert">${escapeHtml(problem)}</p>` : ''}
    <form method="post" action="${OIDC_MFA_PATH}">
      <label for="mfa_code">Code from your authenticator app, or a recovery code</label><br>
      <input id="mfa_code" name="mfa_code" autocomplete="one-time-code" required autofocus maxlength="64">
      <button type="submit">Sign in</button>
    </form>
    <p><a href="/">Back to the sign-in page</a></p>
  </main>
</body>
</html>
`;
}

const notConfigured = (ctx: Context) =>
  refusalPage(ctx, 404, 'Single sign-on is not configured on this Scanward instance.');

async function asPage(ctx: Context, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (!(err instanceof SsoRefusal)) throw err;
    refusalPage(ctx, err.status, err.message);
  }
}

export const getSignInMethods = defineRoute({
  method: 'get',
  path: '/api/v1/auth/methods',
  operationId: 'getSignInMethods',
  summary: 'How people can sign in to this instance: password, and single sign-on when configured',
  description:
    'Public, for the sign-in page: `sso` is set when the instance has an OpenID Connect provider ' +
    '(SCANWARD_OIDC_ISSUER); the browser signs in by going to its `login_url`. Not counted against any request rate.',
  tags,
  access: { public: true },
  responses: { 200: { description: 'The sign-in methods', schema: SignInMethods } },
  handler: async ({ services }) => ({
    body: { password: true as const, sso: services.config.oidc ? { login_url: OIDC_LOGIN_PATH } : null },
  }),
});

export const oidcLogin = defineRoute({
  method: 'get',
  path: OIDC_LOGIN_PATH,
  operationId: 'startOidcLogin',
  summary: 'Sign in with single sign-on: redirects the browser to the OpenID Connect provider',
  description:
    'Authorization code flow with PKCE (S256), `state` and `nonce`, scopes `openid email profile`. The three ' +
    'secrets travel in a short-lived (10 minutes), encrypted, HttpOnly cookie for the callback. When single ' +
    'sign-on is not configured (404) or the provider cannot be reached (502), answers an HTML page saying so.',
  tags,
  access: { public: true },
  responses: {
    302: { description: "Redirect to the provider's authorization endpoint" },
    404: { description: 'Single sign-on is not configured (HTML page)', contentTypes: ['text/html'] },
    502: { description: 'The provider could not be reached (HTML page)', contentTypes: ['text/html'] },
  },
  handler: async ({ services, ctx }) => {
    const oidc = services.config.oidc;
    if (!oidc) return notConfigured(ctx);
    await asPage(ctx, async () => {
      const url = await beginSignIn(services, oidc, ctx);
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(url);
    });
  },
});

export const oidcCallback = defineRoute({
  method: 'get',
  path: OIDC_CALLBACK_PATH,
  operationId: 'completeOidcLogin',
  summary: 'Where the OpenID Connect provider sends the browser back: signs in and opens the console',
  description:
    'The redirect URI to register at the provider: `<SCANWARD_PUBLIC_URL>/api/v1/auth/oidc/callback`. Checks ' +
    'state, PKCE and nonce, and the ID token (issuer, audience, signature, expiry); then signs in the user ' +
    'whose e-mail the verified `email` claim names (creating one when SCANWARD_OIDC_AUTO_PROVISION=true), ' +
    'sets the console session cookie exactly as POST /api/v1/auth/console/session does and redirects to the ' +
    'console. Anything refused answers an HTML page saying why, and is recorded as `auth.login_failed` ' +
    '(details `method: oidc`, `reason`).',
  tags,
  access: { public: true },
  responses: {
    200: {
      description:
        "The account has local MFA (and the organization does not trust the provider's): a page asking for the code, " +
        `posted to ${OIDC_MFA_PATH}`,
      contentTypes: ['text/html'],
    },
    302: { description: 'Signed in: the console cookie is set; redirect to the console' },
    400: {
      description:
        'The sign-in expired, its state was tampered with, or the ID token was refused (HTML page)',
      contentTypes: ['text/html'],
    },
    403: {
      description: 'Unknown, unverified or disabled account (HTML page)',
      contentTypes: ['text/html'],
    },
    404: { description: 'Single sign-on is not configured (HTML page)', contentTypes: ['text/html'] },
    502: { description: 'The provider could not be reached (HTML page)', contentTypes: ['text/html'] },
  },
  handler: async ({ services, ctx }) => {
    const oidc = services.config.oidc;
    if (!oidc) return notConfigured(ctx);
    await asPage(ctx, async () => {
      const outcome = await completeSignIn(services, oidc, ctx);
      if (!outcome.signedIn) return mfaPage(ctx, 200);
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect('/');
    });
  },
});

const MfaStepBody = z
  .object({
    mfa_code: z
      .string({ error: 'is required' })
      .trim()
      .min(1, { error: 'is required' })
      .max(64, { error: 'must be at most 64 characters' })
      .meta({ description: 'A TOTP code or an unused recovery code' }),
  })
  .strict()
  .meta({ id: 'OidcMfaStep' });

export const oidcMfa = defineRoute({
  method: 'post',
  path: OIDC_MFA_PATH,
  operationId: 'completeOidcMfa',
  summary: 'The local MFA step after single sign-on: the code of the account, then the console',
  description:
    'Posted by the page the callback answers when the account has local MFA and the organization does not ' +
    "trust the provider's (`sso_trusts_idp_mfa` with `amr` mfa, otp or hwk). Needs the 5-minute MFA cookie " +
    'the callback set. Wrong codes count as failed log-ins (the same limits as POST /api/v1/auth/token) and ' +
    'answer the page again; the right one signs in exactly as the callback does.',
  tags,
  access: { public: true },
  body: MfaStepBody,
  bodyType: 'form',
  responses: {
    302: { description: 'Signed in: the console cookie is set; redirect to the console' },
    403: {
      description: 'The MFA step expired or was not started here (HTML page)',
      contentTypes: ['text/html'],
    },
    401: { description: 'Wrong or used code: the page again', contentTypes: ['text/html'] },
    429: { description: 'Too many failed log-ins: the page again', contentTypes: ['text/html'] },
  },
  handler: async ({ body, services, ctx }) => {
    await asPage(ctx, async () => {
      try {
        await completeSignInMfa(services, ctx, body.mfa_code);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        if (err.headers) for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
        return mfaPage(ctx, err.status, err.message);
      }
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect('/');
    });
  },
});

export const getAuthenticationSettings = defineRoute({
  method: 'get',
  path: '/api/v1/settings/authentication',
  operationId: 'getAuthenticationSettings',
  summary: "How the organization's people sign in: password log-in on or off, single sign-on available",
  tags,
  access: { admin: true, bearerOnly: true },
  responses: { 200: { description: 'The sign-in settings', schema: AuthenticationSettings } },
  handler: async ({ principal, services }) => ({
    body: await authenticationSettingsOf(services.db, principal.org.id, services.config.oidc !== undefined),
  }),
});

export const putAuthenticationSettings = defineRoute({
  method: 'put',
  path: '/api/v1/settings/authentication',
  operationId: 'setAuthenticationSettings',
  summary:
    "Change how the organization's people sign in: password log-in, single sign-on, its domains and MFA",
  description:
    "Every field is optional; those left out stay as they are. `sso_enabled` lets the instance's OpenID Connect " +
    'provider sign people in to this organization, only for addresses under `sso_domains` (at least one when on); ' +
    "the first SSO sign-in binds the account to the provider's `iss` + `sub`, later ones match by that only. " +
    "A user with local MFA still gives their code after SSO unless `sso_trusts_idp_mfa` and the ID token's `amr` " +
    'says mfa, otp or hwk. With `password_login: false` the organization signs in only with single sign-on: ' +
    'password log-ins (POST /api/v1/auth/token, the console, HTTP Basic) are refused; sessions already open and ' +
    'API keys keep working. CONFLICT while the instance has no OpenID Connect provider or, for password log-in off, ' +
    'while SSO is off for the organization, so nobody is locked out. Every change is an audit event.',
  tags,
  access: { admin: true, bearerOnly: true },
  body: AuthenticationSettingsChange,
  responses: { 200: { description: 'The sign-in settings now in force', schema: AuthenticationSettings } },
  errors: ['CONFLICT'],
  handler: async ({ body, principal, services, ctx }) => ({
    body: await setAuthenticationSettings(
      services.db,
      principal,
      body,
      services.config.oidc !== undefined,
      ctx.ip,
    ),
  }),
});

export const oidcRoutes = [
  getSignInMethods,
  oidcLogin,
  oidcCallback,
  oidcMfa,
  getAuthenticationSettings,
  putAuthenticationSettings,
];
