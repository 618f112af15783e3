import * as domainEvents from '../../events/domain-events.repository.ts';
import * as positions from '../../events/outbox-positions.repository.ts';
import { repositorySamples } from '../sql-generator.ts';
import { NOW, ORG, SCAN, WEEK_AGO } from './fixture.ts';

/** Samples of server/events/. */

export const eventsSamples = [
  repositorySamples('server/events/domain-events.repository.ts', domainEvents, {
    insertDomainEvents: [
      [ORG, [{ org_id: ORG, type: 'scan.queued', subject_id: SCAN, payload: '{}', created_at: NOW }]],
    ],
    numberEventsOfAnyOrganization: [[41, 5000]],
    listEventsAfter: [[ORG, 41, ['scan.started', 'vulnerability.found'], 100]],
    latestEventSeq: [[ORG]],
    listEventsOfAnyOrganization: [[41, 99, 500]],
    organizationsWithEventsAfter: [[41]],
    latestEventSeqOfAnyOrganization: [[]],
    pruneEventsOfAnyOrganization: [[WEEK_AGO, 99]],
  }),
  repositorySamples('server/events/outbox-positions.repository.ts', positions, {
    lockOutboxPosition: [['webhooks']],
    saveOutboxPosition: [['webhooks', 42]],
    outboxPosition: [['sequence']],
  }),
];
