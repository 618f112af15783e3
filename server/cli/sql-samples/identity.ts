import * as organizations from '../../identity/organizations.repository.ts';
import * as passwordResets from '../../identity/password-resets.repository.ts';
import * as auditEvents from '../../identity/audit-events.repository.ts';
import * as invites from '../../identity/user-invites.repository.ts';
import * as users from '../../identity/users.repository.ts';
import { QUERY_PIECE, repositorySamples } from '../sql-generator.ts';
import { EMAIL, NOW, ORG, PAGE, USER } from './fixture.ts';

/** Samples of server/identity/. */

export const identitySamples = [
  repositorySamples('server/identity/organizations.repository.ts', organizations, {
    insertOrganization: [[{ id: 'org_new', name: 'New', plan: 'startup' }]],
    findOrganization: [[ORG]],
    findOrganizationForUpdate: [[ORG]],
    listOrganizations: [[]],
    updateOrganization: [[ORG, { plan: 'professional', monthly_scan_limit: 100, updated_at: NOW }]],
    findPasswordLogin: [[ORG]],
    updatePasswordLogin: [[ORG, false, NOW]],
    findCiAudience: [[ORG]],
    findSignInSettings: [[ORG]],
    updateSignInSettings: [[ORG, { sso_enabled: true, sso_domains: ['example.com'] }, NOW]],
    listSsoOrganizations: [[]],
    mintCiAudience: [[ORG, `https://scanward.example.com/ci/${ORG}`]],
    findOrganizationIdByCiAudience: [[`https://scanward.example.com/ci/${ORG}`]],
    organizationOf: QUERY_PIECE,
  }),
  repositorySamples('server/identity/users.repository.ts', users, {
    insertUser: [
      [{ id: 'user_new', org_id: ORG, email: 'new@example.com', password_hash: 'hash', role: 'member' }],
    ],
    findUser: [[ORG, USER]],
    findUserByEmailInAnyOrganization: [[EMAIL]],
    findUserBySsoIdentityInAnyOrganization: [['https://idp.example.com', 'subject-1']],
    bindSsoIdentity: [[ORG, USER, { issuer: 'https://idp.example.com', subject: 'subject-1' }, NOW]],
    anyUserExists: [[]],
    updateUserPassword: [[ORG, USER, 'hash', NOW]],
    acceptMfaStep: [[ORG, USER, 'sealed', 1000]],
    storePendingMfaSecret: [[ORG, USER, 'sealed', NOW]],
    enableMfa: [[ORG, USER, 'sealed', 1000, NOW]],
    removeMfa: [[ORG, USER, NOW]],
    setUserDisabled: [
      { name: 'disable', args: [ORG, USER, true, NOW] },
      { name: 'enable', args: [ORG, USER, false, NOW] },
    ],
    deleteUserRow: [[ORG, 'user_new']],
    countActiveAdmins: [
      { name: 'every admin', args: [ORG] },
      { name: 'but one', args: [ORG, USER] },
    ],
    listUsersWithOrganization: [
      { name: 'every organization', args: [undefined] },
      { name: 'one organization', args: [ORG] },
    ],
    findPasswordCallerInAnyOrganization: [[EMAIL]],
    countPeople: [[ORG]],
    listPeople: [[ORG, PAGE]],
    findPerson: [[ORG, USER]],
    setUserRole: [[ORG, USER, 'viewer', NOW]],
  }),
  repositorySamples('server/identity/password-resets.repository.ts', passwordResets, {
    insertPasswordReset: [
      [{ id: 'pwr_new', org_id: ORG, user_id: USER, token_hash: 'hash', expires_at: NOW, created_at: NOW }],
    ],
    consumePasswordReset: [['hash', NOW]],
    spendPasswordResetsOfUser: [[ORG, USER, NOW]],
  }),
  repositorySamples('server/identity/user-invites.repository.ts', invites, {
    insertUserInvite: [
      [{ id: 'inv_new', org_id: ORG, user_id: USER, token_hash: 'hash', expires_at: NOW, created_at: NOW }],
    ],
    invitationsWithoutUser: [[ORG]],
    hasInviteWithoutUser: [[ORG, EMAIL]],
    findInviteWithoutUser: [[ORG, USER]],
    setInviteWithoutUserRole: [[ORG, USER, 'viewer']],
    setInviteWithoutUserDisabled: [
      { name: 'disable', args: [ORG, USER, true, NOW] },
      { name: 'enable', args: [ORG, USER, false, NOW] },
    ],
    deleteInviteWithoutUser: [[ORG, USER]],
    consumeUserInvite: [['hash', NOW]],
  }),
  repositorySamples('server/identity/audit-events.repository.ts', auditEvents, {
    insertAuditEvents: [
      [
        [
          {
            id: 'audit_new',
            org_id: ORG,
            action: 'user.invited',
            actor_id: USER,
            actor_email: EMAIL,
            target_id: 'user_new',
            target_email: 'new@example.com',
            ip: '127.0.0.1',
            details: { role: 'member' },
            created_at: NOW,
          },
        ],
      ],
    ],
    countAuditEvents: [
      { name: 'every event', args: [ORG, {}] },
      {
        name: 'every filter',
        args: [ORG, { actor: EMAIL, action: 'user.invited', target: 'user_new', from: NOW, to: NOW }],
      },
    ],
    listAuditEvents: [
      { name: 'every event', args: [ORG, {}, PAGE] },
      {
        name: 'every filter',
        args: [ORG, { actor: EMAIL, action: 'user.invited', from: NOW, to: NOW }, PAGE],
      },
    ],
  }),
];
