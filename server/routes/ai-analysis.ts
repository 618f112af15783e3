import { defineRoute, type AnyRoute } from '../http/contract.ts';
import { findingAnalysis } from '../remediation/finding-analysis.ts';
import { AiAnalysisResponse } from '../schemas/ai.ts';
import { FindingIdParams } from '../schemas/findings.ts';

const tags = ['Findings'];

export const getFindingAiAnalysisRoute = defineRoute({
  method: 'get',
  path: '/api/v1/findings/{finding_id}/ai-analysis',
  operationId: 'getFindingAiAnalysis',
  summary: 'AI remediation guidance for a finding',
  description:
    'Risk assessment, attack scenarios, remediation priority and recommended actions for the finding, from the configured language-model provider (any OpenAI-compatible chat-completions endpoint) or, without one, the built-in remediation knowledge; `source` says which. ' +
    'A fresh analysis costs 1 AI credit of the organization’s monthly allowance and is cached: asking again costs 0. ' +
    'When the provider fails, the built-in analysis answers (`source: builtin`) for 0 credits and is not cached, so the next call asks the provider again. ' +
    'With the month’s credits used up, a fresh analysis is refused with AI_QUOTA_EXCEEDED (cached ones are still served).',
  tags,
  access: { permission: 'read:findings' },
  params: FindingIdParams,
  responses: { 200: { description: 'The analysis', schema: AiAnalysisResponse } },
  errors: ['NOT_FOUND', 'AI_QUOTA_EXCEEDED'],
  handler: async ({ params, principal, services }) => ({
    body: await findingAnalysis(services, principal.org, params.finding_id),
  }),
});

export const aiAnalysisRoutes: AnyRoute[] = [getFindingAiAnalysisRoute];
