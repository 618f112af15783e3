import type { Phase } from '../types.ts';

/**
 * Sums up the scan for its record: which tools learned what and what the scan
 * noticed along the way. Counts and `changes` are written by the lifecycle
 * service; the `scan.completed` event is queued with the completion itself.
 */
export const reporting: Phase = {
  name: 'reporting',
  weight: 2,
  async run(ctx) {
    ctx.progress.tool('report');
    ctx.progress.setTotal(1);
    const { hosts, openPorts, services, detections } = ctx.state;
    ctx.state.notes.push(
      `${hosts.length} host(s), ${openPorts.length} open port(s), ${services.length} service(s) identified, ` +
        `${detections.length} detection(s)`,
    );
    ctx.progress.advance();
  },
};
