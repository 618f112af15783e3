import { addressesOf, sizeOf } from '../../scans/ip-ranges.ts';
import { scopePolicyFor } from '../../scans/scope.ts';
import { AppError } from '../../errors.ts';
import { ScanError, type Phase, type PhaseContext } from '../types.ts';

/** Ports knocked on to tell whether a host of a range is up (an answer or a refusal both mean up). */
export const LIVENESS_PORTS = [80, 443, 22, 445, 3389, 8080, 25, 53];
/** How long a knock waits for an answer (no retry). */
export const LIVENESS_TIMEOUT_MS = 500;

/**
 * Turns the target into hosts: a name's addresses (resolved and scope-checked
 * now, and only these are ever connected to), a single address, or a range's
 * addresses. Which addresses of a range are up is learnt by the sweep itself
 * (enumeration knocks on each host just before sweeping it, in the same window),
 * so discovery and the sweep overlap instead of running one after the other.
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
    // Plain objects, about 100 bytes a host: a /16 (the largest range the default policy allows) stays small.
    ctx.state.hosts = Array.from(addressesOf(range), (address) => ({ target: address, address }));
    if (sizeOf(range) === 1n) ctx.state.hosts[0]!.alive = true;
    ctx.progress.setTotal(1);
    ctx.progress.advance();
  },
};
