import * as deliveries from '../../webhooks/webhook-deliveries.repository.ts';
import * as webhooks from '../../webhooks/webhooks.repository.ts';
import { repositorySamples } from '../sql-generator.ts';
import { DELIVERY, NOW, ORG, PAGE, USER, WEBHOOK, WEEK_AGO } from './fixture.ts';

/** Samples of server/webhooks/. */

export const webhooksSamples = [
  repositorySamples('server/webhooks/webhooks.repository.ts', webhooks, {
    insertWebhookUnlessUrlTaken: [
      [
        ORG,
        {
          id: 'wh_new',
          url: 'https://hooks.example.com/other',
          events: ['scan.failed'],
          secret: 'sealed',
          created_by: USER,
        },
      ],
    ],
    findWebhook: [[ORG, WEBHOOK]],
    countWebhooks: [[ORG]],
    listWebhooks: [[ORG, PAGE]],
    deleteWebhook: [[ORG, WEBHOOK]],
    reactivateWebhook: [[ORG, WEBHOOK, NOW]],
    subscribedWebhookIds: [[ORG, 'scan.completed']],
    anyWebhookSubscribed: [[ORG, ['vulnerability.found', 'vulnerability.critical']]],
    findWebhookFailingSince: [[ORG, WEBHOOK]],
    clearWebhookFailure: [[ORG, WEBHOOK]],
    recordWebhookFailure: [
      [ORG, WEBHOOK, { failingSince: WEEK_AGO, disabledReason: 'failing for 3 days' }, NOW],
    ],
  }),
  repositorySamples('server/webhooks/webhook-deliveries.repository.ts', deliveries, {
    insertDeliveries: [
      [
        [
          {
            id: 'whd_new',
            org_id: ORG,
            webhook_id: WEBHOOK,
            event: 'scan.failed',
            payload: '{}',
            next_attempt_at: NOW,
          },
        ],
      ],
    ],
    findDelivery: [[ORG, DELIVERY]],
    countDeliveries: [[ORG, WEBHOOK]],
    listDeliveries: [[ORG, WEBHOOK, PAGE]],
    requeueDelivery: [[ORG, WEBHOOK, DELIVERY, NOW]],
    claimDueDeliveriesOfAnyOrganization: [[10, NOW, 30]],
    recordDeliveryAttempt: [
      [
        ORG,
        DELIVERY,
        {
          status: 'succeeded',
          locked_until: null,
          last_status_code: 200,
          last_response_ms: 12,
          last_error: null,
          next_attempt_at: null,
          updated_at: NOW,
        },
      ],
    ],
  }),
];
