import { connect, type Connection, type StreamContext, type StreamState } from './connection.ts';
import { TERMINAL, formatSeconds, type Followed } from './followed.ts';

/**
 * The stream half of following a scan: connection after connection to the service's event
 * stream (connection.ts), until the scan ends, the deadline passes, or the stream proves
 * unavailable (then follow.ts polls). A stream that drops is reopened with `Last-Event-ID`, a
 * bounded number of times in a row.
 */

export type StreamResult = ({ kind: 'followed' } & Followed) | { kind: 'unavailable'; reason: string };

/** The reconnection delay when the server did not ask for one (the service asks 3 s). */
const DEFAULT_RETRY_MS = 3000;

interface Reconnects extends StreamState {
  /** Connections in a row that were refused or dropped before lasting `stallMs`. */
  dropsInARow: number;
}

export async function followByStream(ctx: StreamContext): Promise<StreamResult> {
  const state: Reconnects = {
    scan: undefined,
    lastEventId: undefined,
    retryMs: DEFAULT_RETRY_MS,
    dropsInARow: 0,
  };
  for (let first = true; ; first = false) {
    if (ctx.deadline - ctx.deps.http.now() <= 0) return timedOut(ctx, state);
    const connection = await connect(ctx, state);
    const next = await afterConnection(ctx, state, connection, first);
    if (next !== 'reconnect') return next;
  }
}

async function afterConnection(
  ctx: StreamContext,
  state: Reconnects,
  connection: Connection,
  first: boolean,
): Promise<StreamResult | 'reconnect'> {
  switch (connection.kind) {
    case 'terminal': {
      const scan = connection.scan ?? (await ctx.client.getScan(ctx.scanId, ctx.deadline));
      state.scan = scan;
      ctx.progress.report(scan);
      if (TERMINAL.has(scan.status)) return { kind: 'followed', scan, timedOut: false };
      return { kind: 'unavailable', reason: `it reported the scan ended, but the scan reads ${scan.status}` };
    }
    case 'deadline':
      return timedOut(ctx, state);
    case 'renew':
      ctx.deps.log.debug('Event stream: reopening it with refreshed credentials.');
      return 'reconnect';
    case 'silent':
      return {
        kind: 'unavailable',
        reason: `nothing arrived on it within ${formatSeconds(ctx.settings.stallMs)}; a proxy may be buffering it`,
      };
    case 'refused':
      return afterRefusal(ctx, state, connection, first);
    case 'dropped':
      return afterDrop(ctx, state, connection);
  }
}

async function afterRefusal(
  ctx: StreamContext,
  state: Reconnects,
  connection: Extract<Connection, { kind: 'refused' }>,
  first: boolean,
): Promise<StreamResult | 'reconnect'> {
  if (first || [401, 403, 404].includes(connection.status)) {
    return { kind: 'unavailable', reason: connection.reason };
  }
  state.dropsInARow++;
  if (state.dropsInARow > ctx.settings.maxReconnects) {
    return {
      kind: 'unavailable',
      reason: `reopening it failed ${state.dropsInARow} times: ${connection.reason}`,
    };
  }
  ctx.deps.log.debug(`Event stream: ${connection.reason}; trying again.`);
  await pause(ctx, connection.retryAfterMs ?? state.retryMs);
  return 'reconnect';
}

async function afterDrop(
  ctx: StreamContext,
  state: Reconnects,
  connection: Extract<Connection, { kind: 'dropped' }>,
): Promise<StreamResult | 'reconnect'> {
  state.dropsInARow = connection.lastedMs >= ctx.settings.stallMs ? 1 : state.dropsInARow + 1;
  if (state.dropsInARow > ctx.settings.maxReconnects) {
    return {
      kind: 'unavailable',
      reason: `it dropped ${state.dropsInARow} times in a row (last: ${connection.reason})`,
    };
  }
  const after = state.lastEventId === undefined ? '' : ` after event ${state.lastEventId}`;
  ctx.deps.log.debug(`Event stream ended (${connection.reason}); reconnecting${after}.`);
  await pause(ctx, state.retryMs);
  return 'reconnect';
}

async function timedOut(ctx: StreamContext, state: StreamState): Promise<StreamResult> {
  return {
    kind: 'followed',
    scan: state.scan ?? (await ctx.client.getScan(ctx.scanId, ctx.deadline)),
    timedOut: true,
  };
}

/** Waits before a reconnect: as asked, but at most `maxReconnectDelayMs` and never past the deadline. */
async function pause(ctx: StreamContext, ms: number): Promise<void> {
  const { http } = ctx.deps;
  const left = ctx.deadline - http.now();
  if (left <= 0) return;
  await http.sleep(Math.min(ms, ctx.settings.maxReconnectDelayMs, left), http.signal);
}
