import { defineRoute } from '../http/contract.ts';
import { confirmPasswordReset, requestPasswordReset } from '../people/password-reset.ts';
import {
  PasswordResetAccepted,
  PasswordResetConfirm,
  PasswordResetDone,
  PasswordResetRequest,
} from '../schemas/integrations.ts';

/** Self-service password reset by e-mail (docs/email.md). */
const tags = ['Authentication'];

export const requestPasswordResetRoute = defineRoute({
  method: 'post',
  path: '/api/v1/auth/password-reset',
  operationId: 'requestPasswordReset',
  summary: 'E-mail a one-time password reset link',
  description:
    'Answers 202 with the same body whether or not an account has the address. The link works once, for one ' +
    'hour. 10 requests per e-mail and 50 per client address in 15 minutes, then 429 with `Retry-After`.',
  tags,
  access: { public: true },
  body: PasswordResetRequest,
  responses: { 202: { description: 'Accepted', schema: PasswordResetAccepted } },
  errors: ['RATE_LIMIT_EXCEEDED'],
  handler: async ({ body, services, ctx }) => ({
    status: 202,
    body: await requestPasswordReset(services, {
      email: body.email,
      ip: ctx.ip,
      origin: `${ctx.protocol}://${ctx.host}`,
    }),
  }),
});

export const confirmPasswordResetRoute = defineRoute({
  method: 'post',
  path: '/api/v1/auth/password-reset/confirm',
  operationId: 'confirmPasswordReset',
  summary: "Set a new password with the e-mailed link's token",
  description:
    'Revokes every session, and the API keys unless `keep_api_keys`, as the operator reset does. The token ' +
    'works once; a used, expired or unknown one is 422 naming `token`.',
  tags,
  access: { public: true },
  body: PasswordResetConfirm,
  responses: { 200: { description: 'Password set', schema: PasswordResetDone } },
  handler: async ({ body, services, ctx }) => ({
    body: await confirmPasswordReset(services.db, {
      token: body.token,
      password: body.new_password,
      keepApiKeys: body.keep_api_keys ?? false,
      ip: ctx.ip,
    }),
  }),
});

export const passwordResetRoutes = [requestPasswordResetRoute, confirmPasswordResetRoute];
