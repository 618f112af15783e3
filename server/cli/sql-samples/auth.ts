import * as apiKeys from '../../auth/api-keys.repository.ts';
import * as ciTrustPolicies from '../../auth/ci-trust-policies.repository.ts';
import * as recoveryCodes from '../../auth/mfa-recovery-codes.repository.ts';
import * as sessions from '../../auth/sessions.repository.ts';
import * as settings from '../../auth/settings.repository.ts';
import { repositorySamples } from '../sql-generator.ts';
import { API_KEY, NOW, ORG, PAGE, SESSION, USER } from './fixture.ts';

/** Samples of server/auth/. */

export const authSamples = [
  repositorySamples('server/auth/api-keys.repository.ts', apiKeys, {
    insertApiKey: [
      [
        {
          id: API_KEY,
          org_id: ORG,
          user_id: USER,
          name: 'CI',
          prefix: 'sw_live_abcd',
          key_hash: 'hash',
          permissions: ['read:scans', 'write:scans'],
        },
      ],
    ],
    countLiveApiKeys: [
      { name: 'the organization', args: [ORG] },
      { name: 'one user', args: [ORG, USER] },
    ],
    listLiveApiKeys: [
      { name: 'the organization', args: [ORG, PAGE] },
      { name: 'one user', args: [ORG, PAGE, USER] },
    ],
    revokeLiveApiKey: [
      { name: 'any of the organization', args: [ORG, API_KEY, NOW] },
      { name: 'one user', args: [ORG, API_KEY, NOW, USER] },
    ],
    revokeUserApiKeys: [[ORG, USER, NOW]],
    touchApiKey: [[ORG, API_KEY, NOW]],
    findApiKeyCallerByHash: [['hash']],
  }),
  repositorySamples('server/auth/ci-trust-policies.repository.ts', ciTrustPolicies, {
    insertCiTrustPolicy: [
      [
        {
          id: 'citp_sample',
          org_id: ORG,
          name: 'Pull requests of acme/web',
          issuer: 'https://token.actions.githubusercontent.com',
          audience: 'https://scanward.example.com',
          conditions: { repository: 'acme/web', event_name: 'pull_request' },
          permissions: ['read:scans', 'write:scans'],
          allow_forks: false,
          created_by: USER,
        },
      ],
    ],
    countCiTrustPolicies: [[ORG]],
    listCiTrustPolicies: [[ORG, PAGE]],
    findCiTrustPolicy: [[ORG, 'citp_sample']],
    deleteCiTrustPolicy: [[ORG, 'citp_sample', NOW]],
    findCiTrustPoliciesByIssuer: [[ORG, 'https://token.actions.githubusercontent.com']],
    setCiTrustPoliciesAudience: [[ORG, `https://scanward.example.com/ci/${ORG}`]],
    findCiTokenCaller: [[ORG, 'citp_sample']],
  }),
  repositorySamples('server/auth/sessions.repository.ts', sessions, {
    insertSession: [[{ id: SESSION, org_id: ORG, user_id: USER, expires_at: NOW }]],
    countActiveSessions: [[ORG, USER, NOW]],
    listActiveSessions: [[ORG, USER, NOW, PAGE]],
    revokeActiveSessions: [
      { name: 'all of a user', args: [ORG, USER, NOW] },
      { name: 'one session', args: [ORG, USER, NOW, SESSION] },
    ],
    revokeUnrevokedSessions: [[ORG, USER, NOW]],
    revokeOtherSessions: [
      { name: 'but one', args: [ORG, USER, SESSION, NOW] },
      { name: 'all', args: [ORG, USER, undefined, NOW] },
    ],
    touchSession: [[ORG, SESSION, NOW]],
    findSessionCaller: [[ORG, { sessionId: SESSION, userId: USER }, NOW]],
  }),
  repositorySamples('server/auth/mfa-recovery-codes.repository.ts', recoveryCodes, {
    deleteRecoveryCodes: [[ORG, USER]],
    replaceRecoveryCodes: [
      [ORG, USER, [{ id: 'rcode_sample', org_id: ORG, user_id: USER, code_hash: 'hash' }]],
    ],
    spendRecoveryCode: [[ORG, USER, 'hash', NOW]],
    countUnusedRecoveryCodes: [[ORG, USER]],
  }),
  repositorySamples('server/auth/settings.repository.ts', settings, {
    insertSettingUnlessPresent: [['sample_setting', 'value']],
    findSetting: [['sample_setting']],
  }),
];
