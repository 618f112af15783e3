import { defineRoute } from '../http/contract.ts';
import { getPerson, invitePerson, listPeopleOf, removePerson, updatePerson } from '../people/people.ts';
import { mailInvitation } from '../notifications/invitation-mail.ts';
import { PaginationQuery } from '../schemas/common.ts';
import {
  UserDeleted,
  UserIdParams,
  UserInvite,
  UserInvited,
  UserList,
  UserRecord,
  UserUpdate,
} from '../schemas/people.ts';

/**
 * The People of the organization, run by its admins (issue 22): invite with a role,
 * change the role, disable and enable, delete. Bearer tokens only: people are not
 * managed by automation keys.
 */

const tags = ['People'];
const access = { bearerOnly: true, admin: true } as const;

export const listUsersRoute = defineRoute({
  method: 'get',
  path: '/api/v1/users',
  operationId: 'listUsers',
  summary: "List the organization's users",
  tags,
  access,
  query: PaginationQuery,
  responses: { 200: { description: 'Users, oldest first', schema: UserList } },
  errors: ['INSUFFICIENT_PERMISSION'],
  handler: async ({ principal, query, services }) => ({
    body: await listPeopleOf(services.db, principal.org.id, query.page, query.per_page),
  }),
});

export const inviteUserRoute = defineRoute({
  method: 'post',
  path: '/api/v1/users',
  operationId: 'inviteUser',
  summary: 'Invite a person by e-mail with a role',
  description:
    'Creates the account with no usable password and answers, once, `invite_url`: a one-time link under ' +
    'SCANWARD_PUBLIC_URL (the origin of this request when unset) where the person sets their password, ' +
    "valid 72 hours. Deliver it yourself (no e-mail is sent). An e-mail of this organization's own people is " +
    '409 CONFLICT; an address with an account in another organization is answered exactly as a new one ' +
    '(its link tells the person opening it that the address is taken), so the answer tells nothing about other organizations.',
  tags,
  access,
  body: UserInvite,
  responses: { 201: { description: 'The invited user and their link', schema: UserInvited } },
  errors: ['INSUFFICIENT_PERMISSION', 'CONFLICT'],
  handler: async ({ principal, body, services, ctx }) => {
    const invited = await invitePerson(
      services.db,
      principal,
      body,
      services.config.publicUrl ?? `${ctx.protocol}://${ctx.host}`,
      ctx.ip,
    );
    // The invitee also gets the link by e-mail when SMTP is configured (docs/email.md).
    await mailInvitation(services, principal.org.id, principal.user.email, invited);
    return { status: 201, body: invited };
  },
});

export const getUserRoute = defineRoute({
  method: 'get',
  path: '/api/v1/users/{user_id}',
  operationId: 'getUser',
  summary: 'Get a user of the organization',
  tags,
  access,
  params: UserIdParams,
  responses: { 200: { description: 'The user', schema: UserRecord } },
  errors: ['INSUFFICIENT_PERMISSION', 'NOT_FOUND'],
  handler: async ({ principal, params, services }) => ({
    body: await getPerson(services.db, principal.org.id, params.user_id),
  }),
});

export const updateUserRoute = defineRoute({
  method: 'patch',
  path: '/api/v1/users/{user_id}',
  operationId: 'updateUser',
  summary: 'Change the role of a user, or disable or enable them',
  description:
    "A role change takes effect on the user's next request. `disabled: true` refuses their log-in and revokes " +
    'every session and API key of theirs at once; `disabled: false` lets them log in again (what was revoked ' +
    'stays revoked). The last active admin can be neither demoted nor disabled (409 CONFLICT).',
  tags,
  access,
  params: UserIdParams,
  body: UserUpdate,
  responses: { 200: { description: 'The user as changed', schema: UserRecord } },
  errors: ['INSUFFICIENT_PERMISSION', 'NOT_FOUND', 'CONFLICT'],
  handler: async ({ principal, params, body, services, ctx }) => ({
    body: await updatePerson(services.db, principal, params.user_id, body, ctx.ip),
  }),
});

export const deleteUserRoute = defineRoute({
  method: 'delete',
  path: '/api/v1/users/{user_id}',
  operationId: 'deleteUser',
  summary: 'Delete a user',
  description:
    'Their sessions and API keys stop working at once; their comments and finding history keep their ' +
    'e-mail. The last active admin cannot be deleted (409 CONFLICT).',
  tags,
  access,
  params: UserIdParams,
  responses: { 200: { description: 'The user is deleted', schema: UserDeleted } },
  errors: ['INSUFFICIENT_PERMISSION', 'NOT_FOUND', 'CONFLICT'],
  handler: async ({ principal, params, services, ctx }) => ({
    body: await removePerson(services.db, principal, params.user_id, ctx.ip),
  }),
});

export const userRoutes = [listUsersRoute, inviteUserRoute, getUserRoute, updateUserRoute, deleteUserRoute];
