import { recordScanAssets, type ObservedHost } from '../assets/inventory.ts';
import { insertScanEvidence } from '../controls/control-evidence.repository.ts';
import type { Db } from '../db/index.ts';
import { activeUnobservedOfSource } from '../findings/finding-sources.repository.ts';
import { sourceKeyOf, type FindingCoverage, type ResultSource, type ScanRef } from '../findings/lifecycle.ts';
import { newId } from '../identity/ids.ts';
import { recordScanFindings, type ScanFindingsSummary } from '../scans/recording.ts';
import { enrichDetections, type EnrichmentData } from './enrich.ts';
import type { FindingDetection } from '../findings/normalize.ts';

/**
 * The recorder: the one way results become findings, whatever produced them — a scan by the
 * engine (scanner/pipeline.ts), an imported report (imports/import-report.ts) or a local engine
 * run recorded on the service (an import of its `scanward` report). In the caller's transaction
 * (the one that completes or creates the scan), in this order:
 *
 * 1. **enrich** every detection alike (enrich.ts: KEV, EPSS, vendor advisory data, CWE,
 *    remediation, compliance mapping, priority);
 * 2. **normalise, correlate and fold, apply the findings lifecycle** (findings/lifecycle.ts, which
 *    normalises through normalize.ts's `normalizeDetections`): new, unchanged and reopened
 *    findings, each source's own view (`finding_sources`) with the headline from the strongest,
 *    the resolution of what this source no longer reports (only its own view; the finding when no
 *    source reports it any more), observations, history, counts, SLA due dates and the
 *    `vulnerability.*` domain events;
 * 3. **place** the findings on the asset inventory's hosts, with the facts the source saw
 *    (assets/inventory.ts);
 * 4. **record evidence**: the compliance controls the scan assessed.
 *
 * The scan row itself (and `scan.completed`) is the scan lifecycle's (scans/lifecycle.ts).
 * knex-pglite has one connection: everything here uses `trx`, never the root handle.
 */

export interface RecordResultsInput {
  scan: ScanRef;
  source: ResultSource;
  /** As the source reported them; correlation has run for the engine's (and nuclei's, imports/). */
  detections: readonly FindingDetection[];
  /**
   * What the scan tested (target, check, port), for the engine; an import's coverage is what its
   * tool reports on the target and is worked out here.
   */
  coverage?: readonly FindingCoverage[];
  /** The hosts it saw and their services, for the asset inventory. */
  hosts: readonly ObservedHost[];
  /** The compliance controls the scan assessed (the engine's); an import's are those its findings map to. */
  assessedControls?: readonly string[];
  /** Title and description of the scan's compliance evidence. */
  evidence: { title: string; description: string };
  enrichment?: EnrichmentData;
  now: Date;
}

export async function recordResults(trx: Db, input: RecordResultsInput): Promise<ScanFindingsSummary> {
  const { scan, source, now } = input;
  const orgId = scan.org_id;
  const detections = enrichDetections(input.detections, input.enrichment);

  let coverage = input.coverage ?? [];
  let resolvable: string[] | undefined;
  if (source.kind === 'import') {
    // What this tool reports on the target and is still open: covered by this import, so what it
    // no longer reports is resolved (its own view; the finding only when nothing else reports it).
    const earlier = await activeUnobservedOfSource(trx, orgId, scan.id, scan.target, sourceKeyOf(source));
    coverage = [...new Set(earlier.map((f) => f.template_id))].map((check_id) => ({
      target: scan.target,
      check_id,
    }));
    resolvable = earlier.map((f) => f.id);
  }

  const summary = await recordScanFindings(trx, {
    scan,
    detections,
    coverage,
    completed: true,
    source,
    ...(resolvable && { resolvable }),
    now,
  });
  await recordScanAssets(trx, {
    orgId,
    scanId: scan.id,
    hosts: input.hosts,
    source: sourceKeyOf(source),
    now,
  });
  const controls = input.assessedControls ?? [
    ...new Set(detections.flatMap((d) => d.frameworks?.flatMap((f) => f.controls) ?? [])),
  ];
  await insertScanEvidence(
    trx,
    orgId,
    controls.map((controlId) => ({
      id: newId('evid'),
      control_id: controlId,
      scan_id: scan.id,
      title: input.evidence.title,
      description: input.evidence.description,
      created_at: now,
    })),
  );
  return summary;
}
