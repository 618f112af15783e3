import * as analyses from '../../remediation/ai-analyses.repository.ts';
import * as credits from '../../remediation/ai-credit-usage.repository.ts';
import { repositorySamples } from '../sql-generator.ts';
import { FINDING, NOW, ORG } from './fixture.ts';

/** Samples of server/remediation/. */

export const remediationSamples = [
  repositorySamples('server/remediation/ai-analyses.repository.ts', analyses, {
    findAnalysis: [[ORG, FINDING]],
    insertAnalysisUnlessPresent: [
      [ORG, { finding_id: FINDING, source: 'knowledge-base', analysis: '{}', created_at: NOW }],
    ],
  }),
  repositorySamples('server/remediation/ai-credit-usage.repository.ts', credits, {
    addCreditsWithinAllowance: [
      { name: 'within an allowance', args: [ORG, '2026-11-01', 1, 100] },
      { name: 'unlimited', args: [ORG, '2026-11-01', 1, -1] },
    ],
    subtractCredits: [[ORG, '2026-11-01', 1]],
    findCreditsUsed: [[ORG, '2026-11-01']],
  }),
];
