import { FINDING_SEVERITIES } from '../server/schemas/findings.ts';
import type { Finding, ScanBody, Severity } from './responses.ts';
import { TRIAGED_AWAY, bySeverity, isNew, type GateResult, type SeverityCounts } from './threshold.ts';

/**
 * The job summary (Markdown shown on the workflow run page): what was scanned,
 * how it ended, the counts, the most severe findings and where to read more.
 * Every value from the API is escaped: a finding title is data, not Markdown.
 */

export interface SummaryInput {
  scan: ScanBody;
  /** The counts to show: the gate's when findings were read, otherwise the scan's. */
  counts: SeverityCounts;
  /** Undefined when the findings list was not read (failed scan, or an error). */
  findings?: readonly Finding[] | undefined;
  gate?: GateResult | undefined;
  timedOut?: boolean | undefined;
  scanUrl: string;
  reportUrl: string;
  runUrl?: string | undefined;
  sarif?: { path: string; upload: string } | undefined;
  /** How many findings to list. */
  top?: number | undefined;
}

export const SEVERITY_TITLES: Record<Severity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  info: 'Info',
};

export function renderSummary(input: SummaryInput): string {
  const { scan } = input;
  const lines: string[] = [`## Scanward scan of ${code(scan.target)}`, ''];

  lines.push('| | |', '|---|---|');
  lines.push(`| Scan | [${code(scan.id)}](${input.scanUrl}) |`);
  lines.push(`| Type | ${cell(scan.scan_type)} |`);
  lines.push(`| Status | ${cell(statusText(input))} |`);
  const duration = durationText(scan.started_at, scan.completed_at);
  if (duration) lines.push(`| Duration | ${duration} |`);
  if (input.gate) lines.push(`| Result | ${cell(gateText(input.gate))} |`);
  lines.push('');

  if (scan.status === 'failed' && scan.error) lines.push(`> **The scan failed:** ${cell(scan.error)}`, '');
  if (input.timedOut) {
    lines.push('> **The scan did not finish within timeout-minutes and was cancelled.**', '');
  }

  lines.push('### Findings', '');
  lines.push(`| ${FINDING_SEVERITIES.map((s) => SEVERITY_TITLES[s]).join(' | ')} |`);
  lines.push(`|${FINDING_SEVERITIES.map(() => '---:').join('|')}|`);
  lines.push(`| ${FINDING_SEVERITIES.map((s) => String(input.counts[s])).join(' | ')} |`);
  if (input.gate && input.gate.ignored > 0) {
    lines.push('', `${input.gate.ignored} finding(s) triaged as false positive or accepted are not counted.`);
  }
  lines.push('');

  const open = (input.findings ?? []).filter((f) => !TRIAGED_AWAY.has(f.status));
  if (open.length > 0) {
    const top = [...open].sort(bySeverity).slice(0, input.top ?? 10);
    lines.push('### Top findings', '');
    lines.push('| Severity | Component | Title | CVSS |', '|---|---|---|---:|');
    for (const f of top) {
      const score = f.cvss_score !== null && f.cvss_score > 0 ? f.cvss_score.toFixed(1) : '–';
      const label = isNew(f) ? ` **(${f.change})**` : '';
      lines.push(
        `| ${SEVERITY_TITLES[f.severity]} | ${code(f.affected_component)} | ${cell(f.title)}${label} | ${score} |`,
      );
    }
    if (open.length > top.length) lines.push('', `…and ${open.length - top.length} more.`);
    lines.push('');
  }

  const links = [`[Scan details](${input.scanUrl})`, `[PDF report](${input.reportUrl})`];
  if (input.runUrl) links.push(`[Workflow run](${input.runUrl})`);
  lines.push(`${links.join(' · ')} (the Scanward links need your Scanward credentials)`, '');
  if (input.sarif) lines.push(`SARIF: ${code(input.sarif.path)}, ${cell(input.sarif.upload)}`, '');
  return lines.join('\n');
}

function statusText(input: SummaryInput): string {
  const { scan } = input;
  if (input.timedOut) return `timed out (${scan.status})`;
  if (scan.status === 'completed') return 'completed';
  return scan.status;
}

function gateText(gate: GateResult): string {
  if (gate.failOn === 'none') return 'not gated (fail-on: none)';
  const over = FINDING_SEVERITIES.slice(0, FINDING_SEVERITIES.indexOf(gate.failOn) + 1).filter(
    (s) => gate.counts[s] > 0,
  );
  const kind = gate.mode === 'new' ? 'new ' : '';
  if (!gate.failed) return `✅ passed: nothing ${kind}at or above ${gate.failOn}`;
  return `❌ failed: ${over.map((s) => `${gate.counts[s]} ${kind}${s}`).join(', ')} at or above ${gate.failOn}`;
}

function durationText(startedAt?: string, completedAt?: string): string | undefined {
  if (!startedAt || !completedAt) return undefined;
  const ms = Date.parse(completedAt) - Date.parse(startedAt);
  if (!Number.isFinite(ms) || ms < 0) return undefined;
  const seconds = Math.round(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes}m ${seconds % 60}s` : `${seconds}s`;
}

/** Text safe inside a Markdown table cell: no pipes, line breaks or HTML. */
export function cell(text: string): string {
  return text
    .replace(/\r?\n|\r/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/([*_[\]`])/g, '\\$1');
}

/** A code span, when the text allows one (no backticks, pipes or line breaks); escaped text otherwise. */
export function code(text: string): string {
  return /[`|\r\n]/.test(text) ? cell(text) : `\`${text}\``;
}
