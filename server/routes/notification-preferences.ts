import { defineRoute } from '../http/contract.ts';
import { digestPreference, setDigestPreference } from '../notifications/digest.ts';
import { DigestPreference, DigestPreferenceChange } from '../schemas/integrations.ts';

/** A person's own e-mail choices (docs/email.md, "Daily digest"). */
const tags = ['Authentication'];

export const getNotificationPreferencesRoute = defineRoute({
  method: 'get',
  path: '/api/v1/auth/notification-preferences',
  operationId: 'getNotificationPreferences',
  summary: "The caller's e-mail choices (the daily digest)",
  tags,
  access: { bearerOnly: true },
  responses: { 200: { description: 'Choices', schema: DigestPreference } },
  handler: async ({ principal, services }) => ({
    body: await digestPreference(services.db, principal.org.id, principal.user.id),
  }),
});

export const updateNotificationPreferencesRoute = defineRoute({
  method: 'patch',
  path: '/api/v1/auth/notification-preferences',
  operationId: 'updateNotificationPreferences',
  summary: 'Turn the daily digest e-mail on or off for yourself',
  tags,
  access: { bearerOnly: true },
  body: DigestPreferenceChange,
  responses: { 200: { description: 'Choices', schema: DigestPreference } },
  handler: async ({ body, principal, services }) => ({
    body: await setDigestPreference(services.db, principal.org.id, principal.user.id, body.email_digest),
  }),
});

export const notificationPreferenceRoutes = [
  getNotificationPreferencesRoute,
  updateNotificationPreferencesRoute,
];
