import { z } from 'zod';
import { targetExposure } from '../scoring/exposure.ts';
import { tryCvssScore } from '../scoring/cvss.ts';
import type { KevEntry } from '../scoring/kev.ts';
import { describeComponent, type ComponentInfo } from './component.ts';
import type { FindingFacts } from './finding-facts.ts';
import { knowledgeFor, type KnowledgeEntry } from './knowledge/index.ts';
import { fill, placeholderValues, type PlaceholderValues } from './placeholders.ts';
import { getPlaybook } from './playbooks/index.ts';
import {
  percent,
  REMEDIATION_PRIORITIES,
  remediationPriority,
  type AnalysisContext,
  type PriorityDecision,
} from './priority.ts';
import { excerpt } from './redact.ts';

/** The `ai_analysis` object of `GET /api/v1/findings/{id}/ai-analysis`. */
export const AiAnalysisSchema = z
  .object({
    risk_assessment: z.string().min(1),
    attack_scenarios: z.array(z.string().min(1)),
    remediation_priority: z.enum(REMEDIATION_PRIORITIES),
    recommended_actions: z.array(z.string().min(1)),
    automation_available: z.boolean(),
    ansible_playbook_id: z.string().optional(),
  })
  .refine((a) => a.automation_available === (a.ansible_playbook_id !== undefined), {
    error: 'ansible_playbook_id is present exactly when automation_available is true',
    path: ['ansible_playbook_id'],
  });
export type AiAnalysis = z.infer<typeof AiAnalysisSchema>;

export interface AnalysisInput {
  finding: FindingFacts;
  context?: AnalysisContext;
}

const MAX_SCENARIOS = 4;
const MAX_ACTIONS = 9;
const EVIDENCE_CHARS = 160;

/**
 * The built-in analyser: a deterministic analysis written from the finding's own
 * data (title, component, severity, CVSS vector, EPSS, KEV entries, evidence) and
 * the remediation knowledge base. The same input always gives the same text.
 */
export function analyzeFinding(finding: FindingFacts, context: AnalysisContext = {}): AiAnalysis {
  const { entry } = knowledgeFor(finding);
  const component = describeComponent(finding.affected_component, finding.target);
  const values = placeholderValues(finding, entry, component);
  const decision = remediationPriority(finding, context);
  const kev = context.kevEntries ?? [];
  const automation = automationFor(entry, component);

  return {
    risk_assessment: riskAssessment(finding, context, entry, component, values, decision),
    attack_scenarios: attackScenarios(entry, values, kev),
    remediation_priority: decision.priority,
    recommended_actions: recommendedActions(finding, context, entry, component, values, decision, kev),
    ...automation,
  };
}

/**
 * Automation fields: a playbook id only when the entry has a playbook that exists and
 * (when the component is given) that can fix this kind of component.
 */
export function automationFor(
  entry: KnowledgeEntry,
  component?: ComponentInfo,
): { automation_available: true; ansible_playbook_id: string } | { automation_available: false } {
  const playbook = playbookFor(entry, component);
  return playbook
    ? { automation_available: true, ansible_playbook_id: playbook.id }
    : { automation_available: false };
}

/** {@link automationFor} for a finding: its knowledge entry and its affected component. */
export function automationForFinding(finding: FindingFacts): ReturnType<typeof automationFor> {
  return automationFor(
    knowledgeFor(finding).entry,
    describeComponent(finding.affected_component, finding.target),
  );
}

function playbookFor(entry: KnowledgeEntry, component?: ComponentInfo) {
  if (!entry.playbookId) return undefined;
  const schemes = entry.playbookSchemes;
  if (schemes && component?.scheme && !schemes.includes(component.scheme)) return undefined;
  return getPlaybook(entry.playbookId);
}

function riskAssessment(
  finding: FindingFacts,
  context: AnalysisContext,
  entry: KnowledgeEntry,
  component: ComponentInfo,
  values: PlaceholderValues,
  decision: PriorityDecision,
): string {
  const sentences: string[] = [];
  sentences.push(`"${finding.title}": ${component.label} ${fill(entry.impact, values)}`);
  sentences.push(scoreSentence(finding));

  for (const kev of (context.kevEntries ?? []).slice(0, 3)) sentences.push(kevSentence(kev));
  if (typeof finding.epss_score === 'number') {
    sentences.push(
      `EPSS estimates a ${percent(finding.epss_score)} probability of exploitation activity against ${
        finding.cve_ids.length > 0 ? finding.cve_ids[0] : 'this weakness'
      } in the next 30 days.`,
    );
  }

  const exposure = context.exposure ?? targetExposure(finding.target);
  if (isLoopback(finding.target)) {
    sentences.push(
      `${values.endpoint} is on this host (a loopback address): only software running on this host can reach it, which lowers the urgency but not the impact.`,
    );
  } else if (exposure === 'internet') {
    sentences.push(`${values.host} has a public address, so anyone on the internet can attempt this.`);
  } else if (exposure === 'internal') {
    sentences.push(
      `${values.host} is on an internal network: an attacker first needs a foothold inside, which lowers the urgency but not the impact.`,
    );
  } else {
    sentences.push(
      `${values.endpoint} answered the scanner, so it is reachable at least from the scanner's network.`,
    );
  }

  const evidence = evidenceSentence(finding.evidence?.response || finding.evidence?.request);
  if (evidence) sentences.push(evidence);

  sentences.push(`Remediation priority is ${decision.priority} because ${decision.reason}.`);
  return sentences.join(' ');
}

const ATTACK_VECTOR: Record<string, string> = {
  N: 'over the network',
  A: 'from an adjacent network',
  L: 'with local access',
  P: 'with physical access',
};
const PRIVILEGES: Record<string, string> = {
  N: 'without any privileges',
  L: 'with low privileges',
  H: 'with high privileges',
};

/** A loopback target (`127.0.0.0/8`, `::1`, `localhost`): "this host", never "an internal network". */
export function isLoopback(target: string | null | undefined): boolean {
  const t = (target ?? '')
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(t) || t === '::1' || t === 'localhost';
}

// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffd]/g;

/**
 * What the scanner recorded, fit to quote: raw protocol bytes are never quoted as they are. Text
 * with a few control bytes has them escaped (`\x00`); an answer that is mostly binary is
 * summarised by its length.
 */
export function evidenceSentence(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  const unprintable = raw.match(UNPRINTABLE)?.length ?? 0;
  if (unprintable > 0 && unprintable * 5 > raw.length)
    return `The scanner recorded a binary answer of ${raw.length} bytes (kept in the finding's evidence).`;
  const escaped = raw.replace(UNPRINTABLE, (c) =>
    c === '\ufffd' ? '\\ufffd' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  const quoted = excerpt(escaped, EVIDENCE_CHARS);
  return quoted ? `The scanner recorded: "${quoted}".` : undefined;
}

function scoreSentence(finding: FindingFacts): string {
  const cvss = tryCvssScore(finding.cvss_vector);
  if (cvss) {
    const m = cvss.metrics;
    const ui = m.UI === 'N' ? 'without user interaction' : 'only with user interaction';
    const how = [ATTACK_VECTOR[m.AV ?? ''], PRIVILEGES[m.PR ?? '']].filter(Boolean).join(', ');
    return `The scanner rates it ${finding.severity}; its CVSS ${cvss.version} base score is ${cvss.baseScore.toFixed(1)} (${cvss.rating}), exploitable ${how} and ${ui}.`;
  }
  if (typeof finding.cvss_score === 'number' && finding.cvss_score > 0) {
    return `The scanner rates it ${finding.severity} with a CVSS base score of ${finding.cvss_score.toFixed(1)}.`;
  }
  return `The scanner rates it ${finding.severity}.`;
}

function kevSentence(kev: KevEntry): string {
  const ransomware =
    kev.knownRansomwareCampaignUse?.toLowerCase() === 'known'
      ? ' It is known to be used in ransomware campaigns.'
      : '';
  return `${kev.cveID} (${kev.vulnerabilityName}) has been in CISA's Known Exploited Vulnerabilities catalogue since ${kev.dateAdded}, so attackers are already using it; the federal remediation deadline was ${kev.dueDate}.${ransomware}`;
}

function attackScenarios(
  entry: KnowledgeEntry,
  values: PlaceholderValues,
  kev: readonly KevEntry[],
): string[] {
  const scenarios = entry.scenarios.map((s) => fill(s, values));
  if (kev.length > 0) {
    scenarios.unshift(
      `Attackers already exploiting ${kev[0]?.cveID} in the wild find ${values.endpoint} with automated scans and run their exploit against it without any targeting effort.`,
    );
  }
  return scenarios.slice(0, MAX_SCENARIOS);
}

function recommendedActions(
  finding: FindingFacts,
  context: AnalysisContext,
  entry: KnowledgeEntry,
  component: ComponentInfo,
  values: PlaceholderValues,
  decision: PriorityDecision,
  kev: readonly KevEntry[],
): string[] {
  const actions: string[] = [];
  const exposure = context.exposure ?? targetExposure(finding.target);
  if (decision.priority === 'immediate' && exposure !== 'internal') {
    actions.push(
      `Now: restrict access to ${values.endpoint} to trusted addresses (firewall or security group) until the fix below is in place.`,
    );
  }
  for (const k of kev.slice(0, 2)) actions.push(`For ${k.cveID}, CISA requires: ${k.requiredAction}`);
  actions.push(...entry.remediation.steps.map((step) => fill(step, values)));
  const playbook = playbookFor(entry, component);
  if (playbook) {
    actions.push(
      `Automate the fix with the Ansible playbook ${playbook.id} ("${playbook.title}"): review its variables, then run it against ${values.host}.`,
    );
  }
  const rescan = `Rescan ${finding.target || values.host} afterwards: when the check no longer fires, Scanward marks "${finding.title}" resolved.`;
  if (!actions.some((a) => /^rescan\b/i.test(a))) actions.push(rescan);
  const unique = [...new Set(actions)];
  if (unique.length <= MAX_ACTIONS) return unique;
  // Keep the first actions and the closing one (verification).
  return [...unique.slice(0, MAX_ACTIONS - 1), unique[unique.length - 1] as string];
}
