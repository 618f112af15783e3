import { severitiesAtOrAbove, type GateResult } from '../core/gate.ts';
import { SEVERITIES, TRIAGED_AWAY, bySeverity, isNew, scanCounts } from '../core/scan.ts';
import type { Verdict } from '../core/verdict.ts';
import { SEVERITY_TITLES, cell, code } from './markdown.ts';

/**
 * The job summary (Markdown shown on the workflow run page): what was scanned,
 * how it ended, the counts, the most severe findings and where to read more.
 * Every value from the API is escaped: a finding title is data, not Markdown.
 */

/** What became of the SARIF file on GitHub, for the summary's last line. */
export type UploadState = 'disabled' | 'no-repository' | 'processed' | 'processing' | 'failed';

const UPLOAD_TEXT: Record<UploadState, string> = {
  disabled: 'not uploaded (upload-sarif: false)',
  'no-repository': 'not uploaded (no GitHub repository, commit or ref)',
  processed: 'uploaded to code scanning and processed',
  processing: 'uploaded to code scanning (still processing)',
  failed: 'upload to code scanning failed (see the log)',
};

/** What only the front end knows. */
export interface SummaryContext {
  /** The workflow run. */
  runUrl?: string | undefined;
  /** The SARIF file written for a completed scan, and what became of its upload. */
  sarif?: { path: string; upload: UploadState } | undefined;
  /** How many findings to list. */
  top?: number | undefined;
}

export function renderSummary(verdict: Verdict, context: SummaryContext = {}): string {
  const { scan, links } = verdict;
  const gate = verdict.kind === 'completed' ? verdict.gate : undefined;
  const timedOut = verdict.kind === 'unsuccessful' && verdict.timedOut;
  const lines: string[] = [`## Scanward scan of ${code(scan.target)}`, ''];

  lines.push('| | |', '|---|---|');
  lines.push(`| Scan | [${code(scan.id)}](${links.scanUrl}) |`);
  lines.push(`| Type | ${cell(scan.scan_type)} |`);
  lines.push(`| Status | ${cell(timedOut ? `timed out (${scan.status})` : scan.status)} |`);
  const duration = durationText(scan.started_at, scan.completed_at);
  if (duration) lines.push(`| Duration | ${duration} |`);
  if (gate) lines.push(`| Result | ${cell(gateText(gate))} |`);
  lines.push('');

  if (scan.status === 'failed' && scan.error) lines.push(`> **The scan failed:** ${cell(scan.error)}`, '');
  if (timedOut) {
    lines.push('> **The scan did not finish within timeout-minutes and was cancelled.**', '');
  }

  // The scan's own counts (triaged findings included), as the outputs give them.
  const counts = scanCounts(scan);
  lines.push('### Findings', '');
  lines.push(`| ${SEVERITIES.map((s) => SEVERITY_TITLES[s]).join(' | ')} |`);
  lines.push(`|${SEVERITIES.map(() => '---:').join('|')}|`);
  lines.push(`| ${SEVERITIES.map((s) => String(counts[s])).join(' | ')} |`);
  if (gate && gate.ignored > 0) {
    lines.push('', `${gate.ignored} finding(s) triaged as false positive or accepted are not counted.`);
  }
  lines.push('');

  const reported = verdict.kind === 'completed' ? verdict.reported : [];
  const open = reported.filter((f) => !TRIAGED_AWAY.has(f.status));
  if (open.length > 0) {
    const top = [...open].sort(bySeverity).slice(0, context.top ?? 10);
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

  const linkList = [`[Scan details](${links.scanUrl})`, `[PDF report](${links.reportUrl})`];
  if (context.runUrl) linkList.push(`[Workflow run](${context.runUrl})`);
  lines.push(`${linkList.join(' · ')} (the Scanward links need your Scanward credentials)`, '');
  if (context.sarif) {
    lines.push(`SARIF: ${code(context.sarif.path)}, ${cell(UPLOAD_TEXT[context.sarif.upload])}`, '');
  }
  return lines.join('\n');
}

function gateText(gate: GateResult): string {
  if (gate.failOn === 'none') return 'not gated (fail-on: none)';
  const over = severitiesAtOrAbove(gate.failOn).filter((s) => gate.counts[s] > 0);
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
