import PQueue from 'p-queue';
import type { Logger } from 'pino';
import { newOrReopenedFindings } from '../../findings/finding-observations.repository.ts';
import { AppError } from '../../errors.ts';
import { findOrganization } from '../../identity/organizations.repository.ts';
import { findingAnalysis } from '../../remediation/finding-analysis.ts';
import type { Services } from '../../services.ts';
import type { Phase, ScanRecord } from '../types.ts';

/** Provider calls at once: a language model answers in seconds, and its endpoint may rate-limit. */
const PROVIDER_CONCURRENCY = 2;

/**
 * AI guidance for the scan's new and reopened critical and high findings,
 * computed ahead so `GET /findings/{id}/ai-analysis` answers from cache. Runs
 * only when a language-model provider is configured (the built-in analyser
 * answers on demand in no time).
 *
 * The analyses are cached per finding, and a scan's findings are recorded once,
 * when it completes: so the phase itself only notes what will happen, and the
 * runner calls {@link analyseFindingsAhead} right after the completion, before it
 * lets go of the scan.
 */
export const aiAnalysis: Phase = {
  name: 'ai_analysis',
  weight: 3,
  async run(ctx) {
    ctx.progress.setTotal(1);
    ctx.state.notes.push(
      ctx.services.config.ai
        ? 'ai analysis: new critical/high findings are analysed ahead once the scan has recorded them'
        : 'ai analysis: no provider configured; guidance is built in and computed on request',
    );
    ctx.progress.advance();
  },
};

/**
 * Analyses the completed scan's new and reopened critical and high findings.
 * Each analysis is charged like a call, so the plan's monthly credits bound
 * provider spend; when they run out it stops asking. A provider failure stores
 * nothing, and the next request asks it again. Answers a line for the log.
 */
export async function analyseFindingsAhead(
  services: Services,
  scan: ScanRecord,
  signal: AbortSignal,
  log: Logger,
): Promise<string | undefined> {
  if (!services.config.ai) return undefined;
  const org = await findOrganization(services.db, scan.org_id);
  const findings = (await newOrReopenedFindings(services.db, scan.org_id, scan.id)).filter(
    (f) => f.severity === 'critical' || f.severity === 'high',
  );
  if (!org || findings.length === 0) return undefined;

  const queue = new PQueue({ concurrency: PROVIDER_CONCURRENCY });
  let analysed = 0;
  let quotaReached = false;
  for (const finding of findings) {
    void queue
      .add(
        async () => {
          if (quotaReached) return;
          try {
            const answer = await findingAnalysis(services, org, finding.id);
            if (answer.source !== 'builtin') analysed += 1;
          } catch (err) {
            if (err instanceof AppError && err.code === 'AI_QUOTA_EXCEEDED') quotaReached = true;
            else log.warn({ err, finding_id: finding.id }, 'AI analysis failed');
          }
        },
        { signal },
      )
      .catch(() => undefined);
  }
  await queue.onIdle();
  return (
    `ai analysis: ${analysed} of ${findings.length} critical/high finding(s) analysed ahead` +
    (quotaReached ? '; the AI credits for the month ran out' : '')
  );
}
