import type { Context } from 'koa';
import {
  beginSignIn,
  completeSignIn,
  OIDC_CALLBACK_PATH,
  OIDC_LOGIN_PATH,
  SsoRefusal,
} from '../auth/oidc.ts';
import { defineRoute } from '../http/contract.ts';
import { authenticationSettingsOf, setPasswordLogin } from '../identity/organizations.ts';
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
      await completeSignIn(services, oidc, ctx);
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
  summary: 'Switch password log-in on or off for the organization',
  description:
    'With `password_login: false` the organization signs in only with single sign-on: password log-ins ' +
    '(POST /api/v1/auth/token and the console) answer 403 PASSWORD_LOGIN_DISABLED; sessions already open and ' +
    'API keys keep working. Refused (CONFLICT) while the instance has no OpenID Connect provider, so nobody ' +
    'is locked out.',
  tags,
  access: { admin: true, bearerOnly: true },
  body: AuthenticationSettingsChange,
  responses: { 200: { description: 'The sign-in settings now in force', schema: AuthenticationSettings } },
  errors: ['CONFLICT'],
  handler: async ({ body, principal, services, ctx }) => ({
    body: await setPasswordLogin(
      services.db,
      principal,
      body.password_login,
      services.config.oidc !== undefined,
      ctx.ip,
    ),
  }),
});

export const oidcRoutes = [
  getSignInMethods,
  oidcLogin,
  oidcCallback,
  getAuthenticationSettings,
  putAuthenticationSettings,
];
