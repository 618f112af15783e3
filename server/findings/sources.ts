import type { FindingSourceView } from '../schemas/findings.ts';
import { severityRank, type Severity } from '../scoring/severity.ts';
import type { FindingSourceRow } from './finding-sources.repository.ts';
import type { EvidenceValue } from './rows.ts';

/**
 * A finding seen by several sources keeps each one's view (finding-sources.repository.ts) and
 * shows the strongest as its headline (docs/finding-lifecycle.md, "Sources"):
 *
 * - a proof (`confirmed`) outranks a version match (`inferred from version`);
 * - then Scanward's own scan outranks an import;
 * - then the more severe, then the higher score, then the latest seen;
 * - resolved sources count only when no source is active (the finding's last view stays).
 *
 * The headline takes the strongest source's severity, title, evidence and tool. Its score is
 * the strongest source's when that states one; a stated 0.0 or a missing score never replaces a
 * real one (the best-ranked source with a score gives it, with its vector). Its description is
 * the strongest non-empty one: a description is never emptied.
 */

export type SourceView = Pick<
  FindingSourceRow,
  | 'source_key'
  | 'kind'
  | 'tool'
  | 'severity'
  | 'cvss_score'
  | 'cvss_vector'
  | 'title'
  | 'description'
  | 'evidence'
  | 'established'
  | 'status'
  | 'last_seen_at'
>;

export interface Headline {
  source_key: string;
  tool: string;
  title: string;
  severity: Severity;
  cvss_score: number;
  cvss_vector: string | null;
  description: string;
  evidence: EvidenceValue;
}

function rank(s: SourceView): number[] {
  return [
    s.status === 'active' ? 1 : 0,
    s.established === 'confirmed' ? 1 : 0,
    s.kind === 'scan' ? 1 : 0,
    severityRank(s.severity),
    Number(s.cvss_score) || 0,
    new Date(s.last_seen_at).getTime(),
  ];
}

/** Sources strongest first. */
export function byStrength<T extends SourceView>(sources: readonly T[]): T[] {
  return [...sources].sort((a, b) => {
    const [ra, rb] = [rank(a), rank(b)];
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return rb[i]! - ra[i]!;
    return a.source_key < b.source_key ? -1 : a.source_key > b.source_key ? 1 : 0;
  });
}

/** The finding's headline from its sources (at least one). */
export function headlineOf(sources: readonly SourceView[]): Headline {
  const ordered = byStrength(sources);
  const best = ordered[0]!;
  const scored = Number(best.cvss_score) > 0 ? best : ordered.find((s) => Number(s.cvss_score) > 0);
  const described = ordered.find((s) => s.description.trim() !== '') ?? best;
  return {
    source_key: best.source_key,
    tool: best.tool,
    title: best.title.trim() ? best.title : (ordered.find((s) => s.title.trim())?.title ?? best.title),
    severity: best.severity,
    cvss_score: scored ? Number(scored.cvss_score) : 0,
    cvss_vector: scored ? scored.cvss_vector : best.cvss_vector,
    description: described.description,
    evidence: best.evidence,
  };
}

/** The sources as the API shows them: strongest first, the headline's marked. */
export function sourceViews(rows: readonly FindingSourceRow[]): FindingSourceView[] {
  const ordered = byStrength(rows);
  return ordered.map((r, i) => ({
    source: r.kind,
    tool: r.tool,
    headline: i === 0,
    status: r.status,
    established: r.established,
    severity: r.severity,
    cvss_score: Number(r.cvss_score),
    cvss_vector: r.cvss_vector,
    first_scan_id: r.first_scan_id,
    last_scan_id: r.last_scan_id,
    first_seen_at: new Date(r.first_seen_at).toISOString(),
    last_seen_at: new Date(r.last_seen_at).toISOString(),
    evidence: {
      request: r.evidence.request,
      response: r.evidence.response,
      screenshot_url: r.evidence.screenshot_url ?? null,
      ...(r.evidence.established && { established: r.evidence.established }),
    },
  }));
}
