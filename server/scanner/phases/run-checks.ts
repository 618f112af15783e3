import PQueue from 'p-queue';
import { checksFor } from '../check-registry.ts';
import type { Check } from '../check.ts';
import { targetOf, type PhaseContext } from '../types.ts';

/** Checks running at once within a scan. */
const CHECK_CONCURRENCY = 16;

/**
 * Runs the phase's checks against every identified service they apply to and
 * records detections and coverage: a check that ran on a port covers it, so a
 * finding it no longer reports there is resolved when the scan completes.
 */
export async function runChecks(ctx: PhaseContext, phase: Check['phase']): Promise<void> {
  const checks = checksFor(ctx.scan, phase);
  const work = ctx.state.services.flatMap((service) =>
    checks.filter((check) => check.appliesTo(service)).map((check) => ({ check, service })),
  );
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
