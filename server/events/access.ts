import { readableEventFamilies } from '../policies/events.ts';
import type { Principal } from '../policies/principal.ts';
import { FINDING_EVENTS, SCAN_EVENTS, type DomainEventType } from './outbox.ts';

/**
 * The event types a caller may read on the stream: those of the families the events
 * policy (policies/events.ts) lets them read, scan events first; it refuses (403) a caller
 * who may read neither.
 */
export function streamTypesFor(principal: Principal): DomainEventType[] {
  return readableEventFamilies(principal).flatMap((family) =>
    family === 'scan' ? SCAN_EVENTS : FINDING_EVENTS,
  );
}
