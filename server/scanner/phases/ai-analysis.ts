import PQueue from 'p-queue';
import { AppError } from '../../http/errors.ts';
import { findOrganization } from '../../identity/organizations.ts';
import { findingAnalysis } from '../../remediation/finding-analysis.ts';
import type { Phase } from '../types.ts';
import { newOrReopenedFindings } from './remediation-planning.ts';

/** Provider calls at once: a language model answers in seconds, and its endpoint may rate-limit. */
const PROVIDER_CONCURRENCY = 2;

/**
 * AI guidance for the scan's new and reopened critical and high findings,
 * computed ahead so `GET /findings/{id}/ai-analysis` answers from cache. Runs
 * only when a language-model provider is configured (the built-in analyser
 * answers on demand in no time). Each analysis is charged like a call, so the
 * plan's monthly credits bound provider spend; when they run out the phase
 * stops asking and the scan goes on. A provider failure stores nothing, and
 * the next request asks it again.
 */
export const aiAnalysis: Phase = {
  name: 'ai_analysis',
  weight: 3,
  async run(ctx) {
    const { services, scan, state } = ctx;
    if (!services.config.ai) {
      ctx.progress.setTotal(1);
      state.notes.push('ai analysis: no provider configured; guidance is built in and computed on request');
      ctx.progress.advance();
      return;
    }
    const org = await findOrganization(services.db, scan.org_id);
    const findings = (await newOrReopenedFindings(services.db, scan.id)).filter(
      (f) => f.severity === 'critical' || f.severity === 'high',
    );
    ctx.progress.setTotal(findings.length || 1);
    if (!org || findings.length === 0) {
      ctx.progress.advance();
      return;
    }
    ctx.progress.tool(services.config.ai.model);

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
              else ctx.log.warn({ err, finding_id: finding.id }, 'AI analysis failed');
            } finally {
              ctx.progress.advance();
            }
          },
          { signal: ctx.signal },
        )
        .catch(() => undefined);
    }
    await queue.onIdle();
    if (ctx.signal.aborted) throw ctx.signal.reason;
    state.notes.push(
      `ai analysis: ${analysed} of ${findings.length} critical/high finding(s) analysed ahead` +
        (quotaReached ? '; the AI credits for the month ran out' : ''),
    );
  },
};
