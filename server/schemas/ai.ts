import { z } from 'zod';
import { IdParam } from './common.ts';

/**
 * Wire shapes of AI remediation guidance and Ansible playbooks
 * (interface-spec.md "AI analysis"; decisions.md "Findings"). Pure zod.
 */

/** The same values as remediation/priority.ts REMEDIATION_PRIORITIES (checked where both are imported). */
export const REMEDIATION_PRIORITY_VALUES = ['immediate', 'high', 'medium', 'low'] as const;

export const AiAnalysis = z
  .object({
    risk_assessment: z.string(),
    attack_scenarios: z.array(z.string()),
    remediation_priority: z.enum(REMEDIATION_PRIORITY_VALUES),
    recommended_actions: z.array(z.string()),
    automation_available: z.boolean(),
    ansible_playbook_id: z.string().optional().meta({
      description: 'Present only when automation_available is true; see GET /api/v1/playbooks/{playbook_id}',
      example: 'pb_redis_requirepass',
    }),
  })
  .refine((a) => a.automation_available === (a.ansible_playbook_id !== undefined), {
    error: 'ansible_playbook_id is present exactly when automation_available is true',
    path: ['ansible_playbook_id'],
  })
  .meta({ id: 'AiAnalysis' });
export type AiAnalysis = z.infer<typeof AiAnalysis>;

export const AiAnalysisResponse = z
  .strictObject({
    finding_id: z.string(),
    ai_analysis: AiAnalysis,
    ai_credits_used: z.number().int().min(0).meta({
      description:
        'Credits this call used: 1 for a fresh analysis, 0 for a cached one or a built-in fallback after a provider failure',
    }),
    source: z.string().meta({
      description: '`builtin`, or the model name of the configured language-model provider',
      example: 'builtin',
    }),
  })
  .meta({ id: 'AiAnalysisResponse' });
export type AiAnalysisResponse = z.infer<typeof AiAnalysisResponse>;

export const PlaybookIdParams = z.object({ playbook_id: IdParam('playbook', 'pb_redis_requirepass') });

export const Playbook = z
  .object({
    id: z.string().meta({ example: 'pb_redis_requirepass' }),
    title: z.string(),
    description: z.string(),
    content: z.string().meta({ description: 'The Ansible playbook (YAML)' }),
  })
  .meta({ id: 'Playbook' });
export type Playbook = z.infer<typeof Playbook>;
