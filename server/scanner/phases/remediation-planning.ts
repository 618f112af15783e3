import { automationForFinding } from '../../remediation/analysis.ts';
import type { FindingFacts } from '../../remediation/finding-facts.ts';
import { suggestedFindingPriority } from '../../remediation/priority.ts';
import { tryCvssScore } from '../../scoring/cvss.ts';
import type { Detection, Phase } from '../types.ts';

/** What remediation and analysis know about a detection, as they would about its finding. */
function factsOf(d: Detection): FindingFacts {
  return {
    ...d,
    template_id: d.check_id,
    cve_ids: [...new Set(d.cve_ids.map((id) => id.trim().toUpperCase()))],
    cvss_score: tryCvssScore(d.cvss_vector)?.baseScore ?? 0,
  };
}

/**
 * Plans each detection's remediation, in the scan state: a suggested priority
 * (from severity, KEV and EPSS) and a link to the Ansible playbook that fixes
 * it where the project ships one. The finding lifecycle applies the plan when
 * the scan's findings are recorded, to new and reopened findings only (and the
 * priority only where nobody set one).
 */
export const remediationPlanning: Phase = {
  name: 'remediation_planning',
  weight: 2,
  async run(ctx) {
    ctx.progress.tool('remediation-planner');
    const { detections } = ctx.state;
    ctx.progress.setTotal(detections.length || 1);
    for (const detection of detections) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      const facts = factsOf(detection);
      const automation = automationForFinding(facts);
      const remediation = detection.remediation ?? {
        summary: '',
        steps: [],
        code_example: '',
        references: [],
      };
      // The playbook is linked as a step (references hold URLs, and the service knows no public base URL).
      const step = automation.automation_available
        ? `Automate the fix with the Ansible playbook ${automation.ansible_playbook_id} ` +
          `(GET /api/v1/playbooks/${automation.ansible_playbook_id}).`
        : undefined;
      const steps =
        step && !remediation.steps.includes(step) ? [...remediation.steps, step] : remediation.steps;
      detection.planned = {
        priority: suggestedFindingPriority(facts),
        remediation: { ...remediation, steps },
      };
      ctx.progress.advance();
    }
  },
};
