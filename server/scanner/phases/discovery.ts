import PQueue from 'p-queue';
import { addressesOf, sizeOf } from '../../scans/ip-ranges.ts';
import { scopePolicyFor } from '../../scans/scope.ts';
import { AppError } from '../../http/errors.ts';
import { scanTcpPorts } from '../net/tcp-scan.ts';
import { ScanError, type Phase, type PhaseContext, type ScanHost } from '../types.ts';

/** Ports knocked on to tell whether a host of a range is up (an answer or a refusal both mean up). */
const LIVENESS_PORTS = [80, 443, 22, 445, 3389, 8080, 25, 53];
const HOSTS_AT_ONCE = 32;

/**
 * Turns the target into hosts: a name's addresses (resolved and scope-checked
 * now, and only these are ever connected to), a single address, or a range's
 * live addresses.
 */
export const discovery: Phase = {
  name: 'discovery',
  weight: 5,
  async run(ctx: PhaseContext) {
    ctx.progress.tool('dns');
    let check;
    try {
      check = await scopePolicyFor(ctx.services.config).checkTarget(ctx.scan.target);
    } catch (err) {
      // The target was in scope when the scan was created; DNS or the policy changed since.
      if (err instanceof AppError) throw new ScanError(err.detail);
      throw err;
    }
    if (check.kind !== 'cidr') {
      ctx.state.hosts = check.addresses.map((address) => ({ target: check.target, address, alive: true }));
      ctx.progress.setTotal(1);
      ctx.progress.advance();
      return;
    }

    const range = check.range!;
    const hosts: ScanHost[] = [];
    for (const address of addressesOf(range)) hosts.push({ target: address, address });
    ctx.state.hosts = hosts;
    if (sizeOf(range) === 1n) {
      hosts[0]!.alive = true;
      return;
    }
    ctx.progress.tool('tcp-ping');
    ctx.progress.setTotal(hosts.length);
    const queue = new PQueue({ concurrency: HOSTS_AT_ONCE });
    for (const host of hosts) {
      void queue
        .add(
          async () => {
            const result = await scanTcpPorts({
              address: host.address,
              ports: LIVENESS_PORTS,
              assertAllowed: ctx.assertAllowed,
              signal: ctx.signal,
              timeoutMs: 500,
              retries: 0,
              concurrency: LIVENESS_PORTS.length,
            });
            host.alive = result.openPorts.length > 0 || result.closedCount > 0;
            ctx.progress.advance();
          },
          { signal: ctx.signal },
        )
        .catch(() => undefined);
    }
    await queue.onIdle();
    if (ctx.signal.aborted) throw ctx.signal.reason;
    ctx.state.hosts = hosts.filter((h) => h.alive);
    ctx.state.notes.push(`${ctx.state.hosts.length} of ${hosts.length} addresses answered`);
  },
};
