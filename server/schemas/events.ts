import { z } from 'zod';

/** The event stream's names (docs/events.md): the scan lifecycle's, then the findings'. */
export const StreamEventName = z.enum([
  'scan.queued',
  'scan.started',
  'scan.progress',
  'scan.completed',
  'scan.failed',
  'scan.cancelled',
  'vulnerability.found',
  'vulnerability.critical',
  'finding.updated',
]);
export type StreamEventName = z.infer<typeof StreamEventName>;

/** What every event's `data:` line holds (the webhook payload's shape). */
export const StreamEventEnvelope = z
  .object({
    type: StreamEventName,
    timestamp: z.string().meta({ description: 'When it happened (ISO 8601)' }),
    data: z.record(z.string(), z.unknown()).meta({
      description:
        'The scan (`scan.*`: its list view; `scan.progress`: id, status, progress, phase, phases_completed, current_tool), the finding (`vulnerability.*`: its list view with `scan_id`), or the triage change (`finding.updated`)',
    }),
  })
  .meta({ id: 'StreamEvent' });

/** `Last-Event-ID`: the last `id:` the client received; the stream resumes after it. */
export const LastEventId = z
  .string()
  .regex(/^\d{1,15}$/, { error: 'must be the id of an event received from this stream (digits)' })
  .optional()
  .meta({
    description: '`Last-Event-ID`: resume after this event (EventSource sends it when it reconnects)',
  });
