import { z } from 'zod';
import { streamTypesFor } from '../events/access.ts';
import { openEventStream } from '../events/stream.ts';
import { resolvePrincipal } from '../auth/gatekeeper.ts';
import { defineRoute, type AnyRoute } from '../http/contract.ts';
import { LastEventId } from '../schemas/events.ts';

const tags = ['Events'];

export const eventStreamRoute = defineRoute({
  method: 'get',
  path: '/api/v1/events',
  operationId: 'streamEvents',
  summary: 'Live events of the organization (server-sent events)',
  description: [
    'A `text/event-stream` of the organization’s scan progress and finding changes, as they commit: `scan.queued`, `scan.started`, `scan.progress`, `scan.completed`, `scan.failed`, `scan.cancelled`, `vulnerability.found`, `vulnerability.critical`, `finding.updated`. Each event has `id:` (its position), `event:` (its type) and one `data:` line holding `{type, timestamp, data}`, the webhook payload’s shape.',
    'Opening the stream counts as one request against the rate limit, however long it stays open. A comment line (`: heartbeat`) is sent when nothing happened for a while (15 s by default, `SCANWARD_EVENTS_HEARTBEAT_SECONDS`), and the stream ends after an hour, or within a heartbeat of its credentials being revoked (a session signed out, a key deleted, a user disabled); reconnect with `Last-Event-ID` (EventSource does it by itself) to get every event after that id, in order, for as long as the events are kept (7 days). Without it, the stream starts with the next event.',
    'An API key needs `read:scans` to open it, and sees the finding events only when it also has `read:findings`. See docs/events.md.',
  ].join('\n\n'),
  tags,
  access: { permission: 'read:scans' },
  headers: z.object({ 'last-event-id': LastEventId }),
  responses: {
    200: {
      description: 'The event stream; it stays open',
      contentTypes: ['text/event-stream'],
    },
  },
  handler: async ({ headers, principal, services, ctx }) => {
    const types = streamTypesFor(principal);
    const raw = headers['last-event-id'];
    const abort = new AbortController();
    ctx.res.once('close', () => abort.abort());
    const body = await openEventStream({
      db: services.db,
      logger: services.logger,
      orgId: principal.org.id,
      types,
      lastEventId: raw === undefined ? undefined : Number(raw),
      heartbeatMs: services.config.eventsHeartbeatSeconds * 1000,
      signal: abort.signal,
      // A revoked session, a deleted key or a disabled user ends an open stream within a heartbeat.
      stillAuthorized: async () => {
        try {
          const again = await resolvePrincipal(ctx, { allowBasic: false });
          return again.user.id === principal.user.id && again.org.id === principal.org.id;
        } catch {
          return false;
        }
      },
    });
    // The connection stays open without a request timeout, and no proxy should buffer it.
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.status = 200;
    ctx.type = 'text/event-stream; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Accel-Buffering', 'no');
    ctx.body = body;
  },
});

export const eventRoutes: AnyRoute[] = [eventStreamRoute];
