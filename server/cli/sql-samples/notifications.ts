import * as digest from '../../identity/users-digest.repository.ts';
import * as tickets from '../../notifications/finding-tickets.repository.ts';
import * as integrations from '../../notifications/integrations.repository.ts';
import * as messages from '../../notifications/notification-messages.repository.ts';
import * as rules from '../../notifications/notification-rules.repository.ts';
import { repositorySamples } from '../sql-generator.ts';
import { FINDING, INTEGRATION, NOW, ORG, PAGE, USER, EMAIL } from './fixture.ts';

/** Samples of server/notifications/. */

const MESSAGE = {
  id: 'msg_new',
  org_id: ORG,
  integration_id: INTEGRATION,
  kind: 'chat',
  dedupe_key: 'event:1:intg_sample',
  payload: 'sealed',
  summary: 'vulnerability.found',
  next_attempt_at: NOW,
};

export const notificationsSamples = [
  repositorySamples('server/notifications/integrations.repository.ts', integrations, {
    insertIntegrationUnlessNameTaken: [
      [
        ORG,
        {
          id: 'intg_new',
          org_id: ORG,
          type: 'slack',
          name: 'alerts',
          config: '{}',
          secrets: 'sealed',
          receiver_secret: null,
          created_by: USER,
        },
      ],
    ],
    findIntegration: [[ORG, INTEGRATION]],
    findIntegrationOfAnyOrganization: [[INTEGRATION]],
    countIntegrations: [[ORG]],
    listIntegrations: [[ORG, PAGE]],
    updateIntegration: [[ORG, INTEGRATION, { name: 'renamed', updated_at: NOW }]],
    deleteIntegration: [[ORG, INTEGRATION]],
  }),
  repositorySamples('server/notifications/notification-rules.repository.ts', rules, {
    insertNotificationRule: [
      [
        ORG,
        {
          id: 'nrule_new',
          org_id: ORG,
          integration_id: INTEGRATION,
          events: ['vulnerability.found'],
          min_severity: 'high',
          action: 'ticket',
          created_by: USER,
        },
      ],
    ],
    findNotificationRule: [[ORG, 'nrule_new']],
    countNotificationRules: [[ORG]],
    listNotificationRules: [[ORG, PAGE]],
    deleteNotificationRule: [[ORG, 'nrule_new']],
    rulesForEvent: [[ORG, 'vulnerability.found']],
  }),
  repositorySamples('server/notifications/notification-messages.repository.ts', messages, {
    insertMessageUnlessQueued: [[ORG, MESSAGE]],
    claimDueMessagesOfAnyOrganization: [[20, NOW, 60]],
    recordMessageAttempt: [
      [
        ORG,
        'msg_new',
        {
          status: 'pending',
          next_attempt_at: NOW,
          last_status_code: 500,
          last_error: 'answered 500',
          updated_at: NOW,
        },
      ],
    ],
    countMessages: [[ORG, { status: 'dead' }]],
    listMessages: [[ORG, { status: 'dead', integrationId: INTEGRATION }, PAGE]],
    requeueDeadMessage: [[ORG, 'msg_new', NOW]],
    claimMessage: [[ORG, 'msg_new', NOW, 60]],
    findMessage: [[ORG, 'msg_new']],
  }),
  repositorySamples('server/notifications/finding-tickets.repository.ts', tickets, {
    insertFindingTicket: [
      [
        ORG,
        {
          org_id: ORG,
          finding_id: FINDING,
          integration_id: INTEGRATION,
          key: '#1',
          url: 'https://github.com/acme/web/issues/1',
          external_id: '1',
        },
      ],
    ],
    findFindingTicket: [[ORG, FINDING, INTEGRATION]],
    ticketsOfFinding: [[ORG, FINDING]],
    findTicketByExternalId: [[ORG, INTEGRATION, '1']],
    findTicketByKey: [[ORG, INTEGRATION, 'SEC-1']],
    openTicketsOfClosedFindings: [[ORG, 500]],
    setFindingTicketState: [[ORG, FINDING, INTEGRATION, 'closed', NOW]],
  }),
  repositorySamples('server/identity/users-digest.repository.ts', digest, {
    digestRecipientsOfAnyOrganization: [[NOW]],
    dueFindingsOfAssignee: [[ORG, EMAIL, NOW, 50]],
    findDigestPreference: [[ORG, USER]],
    updateDigestPreference: [[ORG, USER, false]],
  }),
];
