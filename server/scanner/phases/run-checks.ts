import PQueue from 'p-queue';
import { checksFor } from '../check-registry.ts';
import type { Check } from '../check.ts';
import { targetOf, type PhaseContext, type PhaseOutcome } from '../types.ts';

const WHAT: Record<Check['phase'], string> = {
  vulnerability_scanning: 'no service its checks apply to',
  web_analysis: 'no HTTP or TLS service',
  cloud_analysis: 'no cloud endpoints (no cloud or container control plane among the services)',
};

/** Why a checks phase had nothing to do: `no cloud endpoints … on a loopback target`. */
function nothingToDo(ctx: PhaseContext, phase: Check['phase']): string {
  const loopback = /^(127\.|::1$|\[::1\]$|localhost$)/i.test(ctx.scan.target.trim());
  const found = ctx.state.services.length === 0 ? 'no service was identified' : WHAT[phase];
  return `${found}${loopback ? ' on a loopback target' : ''}`;
}

/** Checks running at once within a scan. */
const CHECK_CONCURRENCY = 16;

/**
 * Runs the phase's checks against every identified service they apply to and
 * records detections and coverage: a check that ran on a port covers it, so a
 * finding it no longer reports there is resolved when the scan completes.
 */
export async function runChecks(ctx: PhaseContext, phase: Check['phase']): Promise<void | PhaseOutcome> {
  const checks = checksFor(ctx.scan, phase);
  const work = ctx.state.services.flatMap((service) =>
    checks.filter((check) => check.appliesTo(service)).map((check) => ({ check, service })),
  );
  if (work.length === 0) return { skipped: nothingToDo(ctx, phase) };
  ctx.progress.setTotal(work.length);
  const queue = new PQueue({ concurrency: CHECK_CONCURRENCY });
  for (const { check, service } of work) {
    void queue
      .add(
        async () => {
          if (ctx.signal.aborted) return;
          ctx.progress.tool(check.id);
          const detections = await check.run(ctx, service);
          ctx.state.coverage.push({
            target: targetOf(ctx.state, service.address),
            check_id: check.id,
            port: service.port,
          });
          ctx.state.detections.push(...detections);
          ctx.progress.advance();
        },
        { signal: ctx.signal },
      )
      .catch((err: unknown) => {
        if (!ctx.signal.aborted) ctx.log.warn({ err, check: check.id }, 'check failed');
      });
  }
  await queue.onIdle();
  if (ctx.signal.aborted) throw ctx.signal.reason;
}
