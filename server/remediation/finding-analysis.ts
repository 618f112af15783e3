import { notFound } from '../errors.ts';
import { effectiveLimits } from '../identity/plans.ts';
import type { OrganizationRow } from '../identity/organizations.repository.ts';
import type { AiAnalysisResponse } from '../schemas/ai.ts';
import type { Services } from '../services.ts';
import { cachedAnalysis, storeAnalysis } from './analysis-cache.ts';
import { ANALYSIS_COST, chargeAiCredits, refundAiCredits } from './credits.ts';
import type { FindingFacts } from './finding-facts.ts';
import { findFindingFacts } from '../findings/findings-remediation.repository.ts';
import { kevEntriesFor } from './kev-context.ts';
import { analyzeWithFallback, providerFromConfig, type AnalysisProvider } from './providers.ts';

/**
 * `GET /api/v1/findings/{finding_id}/ai-analysis`: the cached analysis of the
 * finding for free, or a fresh one for {@link ANALYSIS_COST} credit.
 *
 * - The credit is reserved before the analysis runs (so the allowance is never
 *   exceeded, even by concurrent requests) and given back when the answer is not
 *   delivered as a fresh, stored analysis.
 * - When the configured provider fails, the built-in analyser answers; that
 *   fallback is not stored and costs nothing, so the next call asks the provider
 *   again.
 * - Two concurrent first calls for one finding: the first to store its analysis is
 *   charged; the other is refunded and answers with the stored analysis.
 */

async function findingFacts(services: Services, orgId: string, findingId: string): Promise<FindingFacts> {
  const facts = await findFindingFacts(services.db, orgId, findingId);
  if (!facts) throw notFound('finding');
  return facts;
}

type WireAnalysis = AiAnalysisResponse['ai_analysis'];

/** The analysis with its keys in the documented order (jsonb does not keep key order). */
function analysisView(a: WireAnalysis): WireAnalysis {
  return {
    risk_assessment: a.risk_assessment,
    attack_scenarios: a.attack_scenarios,
    remediation_priority: a.remediation_priority,
    recommended_actions: a.recommended_actions,
    automation_available: a.automation_available,
    ...(a.automation_available && a.ansible_playbook_id
      ? { ansible_playbook_id: a.ansible_playbook_id }
      : {}),
  };
}

export interface FindingAnalysisOptions {
  /** Overrides the provider configured by SCANWARD_AI_URL / _KEY / _MODEL. */
  provider?: AnalysisProvider;
}

export async function findingAnalysis(
  services: Services,
  org: OrganizationRow,
  findingId: string,
  options: FindingAnalysisOptions = {},
): Promise<AiAnalysisResponse> {
  const { db, logger } = services;
  const finding = await findingFacts(services, org.id, findingId);
  const answer = (analysis: { ai_analysis: WireAnalysis; source: string }, credits: number) => ({
    finding_id: findingId,
    ai_analysis: analysisView(analysis.ai_analysis),
    ai_credits_used: credits,
    source: analysis.source,
  });

  const cached = await cachedAnalysis(db, org.id, findingId);
  if (cached) return answer(cached, 0);

  const charge = await chargeAiCredits(db, org.id, effectiveLimits(org).monthlyAiCredits, ANALYSIS_COST);
  let stored: boolean;
  let result: Awaited<ReturnType<typeof analyzeWithFallback>>;
  try {
    const kevEntries = await kevEntriesFor(services.config.kevFile, finding.cve_ids, logger);
    const provider = options.provider ?? providerFromConfig(services.config.ai);
    result = await analyzeWithFallback(provider, { finding, context: { kevEntries } }, (error) =>
      logger.warn(
        { finding_id: findingId, provider: provider.name, reason: error.kind, detail: error.message },
        'AI provider failed; answering with the built-in analysis',
      ),
    );
    stored = result.fallback_reason === undefined && (await storeAnalysis(db, org.id, findingId, result));
  } catch (err) {
    await refundAiCredits(db, org.id, charge);
    throw err;
  }
  if (stored) return answer(result, charge.amount);

  await refundAiCredits(db, org.id, charge);
  if (result.fallback_reason !== undefined) return answer(result, 0);
  // Another request stored its analysis first: answer with that one, like a cached call.
  return answer((await cachedAnalysis(db, org.id, findingId)) ?? result, 0);
}
