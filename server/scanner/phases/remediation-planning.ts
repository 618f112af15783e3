import type { Knex } from 'knex';
import { automationForFinding } from '../../remediation/analysis.ts';
import { suggestedFindingPriority } from '../../remediation/priority.ts';
import type { FindingFacts, Remediation } from '../../remediation/finding-facts.ts';
import type { Phase } from '../types.ts';

interface FindingRow extends FindingFacts {
  id: string;
  priority: string | null;
  remediation: Remediation;
  kev: boolean;
}

/** Findings this scan found for the first time or reopened. */
export async function newOrReopenedFindings(db: Knex, scanId: string): Promise<FindingRow[]> {
  return (await db('finding_observations as o')
    .join('findings as f', 'f.id', 'o.finding_id')
    .where('o.scan_id', scanId)
    .whereIn('o.change', ['new', 'reopened'])
    .orderBy('f.id')
    .select('f.*')) as FindingRow[];
}

/**
 * For each new or reopened finding: a suggested priority (from severity, KEV
 * and EPSS) where nobody set one, and a link to the Ansible playbook that fixes
 * it where the project ships one.
 */
export const remediationPlanning: Phase = {
  name: 'remediation_planning',
  weight: 2,
  async run(ctx) {
    ctx.progress.tool('remediation-planner');
    const findings = await newOrReopenedFindings(ctx.services.db, ctx.scan.id);
    ctx.progress.setTotal(findings.length || 1);
    for (const finding of findings) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      const automation = automationForFinding(finding);
      // The playbook is linked as a step (references hold URLs, and the service knows no public base URL).
      const step = automation.automation_available
        ? `Automate the fix with the Ansible playbook ${automation.ansible_playbook_id} ` +
          `(GET /api/v1/playbooks/${automation.ansible_playbook_id}).`
        : undefined;
      const steps =
        step && !finding.remediation.steps.includes(step)
          ? [...finding.remediation.steps, step]
          : finding.remediation.steps;
      await ctx.services
        .db('findings')
        .where({ id: finding.id, org_id: ctx.scan.org_id })
        .update({
          priority: finding.priority ?? suggestedFindingPriority(finding),
          remediation: JSON.stringify({ ...finding.remediation, steps }),
        });
      ctx.progress.advance();
    }
  },
};
