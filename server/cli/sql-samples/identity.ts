import * as organizations from '../../identity/organizations.repository.ts';
import * as users from '../../identity/users.repository.ts';
import { QUERY_PIECE, repositorySamples } from '../sql-generator.ts';
import { EMAIL, NOW, ORG, USER } from './fixture.ts';

/** Samples of server/identity/. */

export const identitySamples = [
  repositorySamples('server/identity/organizations.repository.ts', organizations, {
    insertOrganization: [[{ id: 'org_new', name: 'New', plan: 'startup' }]],
    findOrganization: [[ORG]],
    findOrganizationForUpdate: [[ORG]],
    listOrganizations: [[]],
    updateOrganization: [[ORG, { plan: 'professional', monthly_scan_limit: 100, updated_at: NOW }]],
    organizationOf: QUERY_PIECE,
  }),
  repositorySamples('server/identity/users.repository.ts', users, {
    insertUser: [
      [{ id: 'user_new', org_id: ORG, email: 'new@example.com', password_hash: 'hash', role: 'member' }],
    ],
    findUser: [[ORG, USER]],
    findUserByEmailInAnyOrganization: [[EMAIL]],
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
  }),
];
