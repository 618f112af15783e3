import { createHash } from 'node:crypto';
import type { ObservedHost } from '../assets/inventory.ts';
import { serviceFact } from '../assets/service-facts.ts';
import { controlsForFinding } from '../controls/mapping.ts';
import { AppError } from '../errors.ts';
import type { Principal } from '../policies/principal.ts';
import type { FindingDetection } from '../findings/normalize.ts';
import { recordResults } from '../results/record.ts';
import { configuredKevCatalogue } from '../remediation/kev-context.ts';
import { ImportResult, type ImportParams } from '../schemas/imports.ts';
import { recallResponse, rememberResponse, requestHash } from '../scans/idempotency.ts';
import { BUILT_IN_CHECKS, builtInForTemplate } from '../scanner/check-registry.ts';
import { SERVICE_NAMES } from '../scanner/net/services.ts';
import { endOfLifeOfProduct } from '../scanner/inventory.ts';
import { correlate } from '../scanner/phases/correlation.ts';
import { recordImportedScan } from '../scans/lifecycle.ts';
import { getScanDetail } from '../scans/listing.ts';
import { assertMonthlyQuota, lockOrganization } from '../scans/quota.ts';
import type { Services } from '../services.ts';
import { parseReportOffLoop } from './parse-off-loop.ts';
import { ReportError, type ImportedHost, type ImportedResult, type ParsedReport } from './report.ts';

/**
 * POST /api/v1/imports: another tool's report becomes a completed scan of `target`, and its
 * results go through the findings lifecycle exactly as the engine's detections do
 * (fingerprints, new/unchanged/reopened, counts, `vulnerability.*` and `scan.completed`
 * events). See docs/imports.md.
 *
 * The report is parsed first, outside any transaction (off the event loop when large); a
 * report that does not read is 422 naming the line or element, and nothing is written. Then,
 * in one transaction with the organization locked: the monthly quota (an import counts as a
 * scan), the scan row, its findings, the resolution of what earlier imports of the same tool
 * and target reported and this one does not, and the compliance evidence.
 */
export async function importReport(
  services: Pick<Services, 'db' | 'config' | 'importParsers'>,
  principal: Principal,
  params: ImportParams,
  bytes: Uint8Array,
  now = new Date(),
  idempotencyKey?: string | undefined,
): Promise<ImportResult> {
  const orgId = principal.org.id;
  // A retried import (the same Idempotency-Key, the same fields and the same bytes) answers the
  // scan the first one recorded, and records nothing: checked before parsing, and again under
  // the organization's lock, as POST /api/v1/scans does (server/scans/create-scan.ts).
  const hash = idempotencyKey
    ? requestHash({ import: params, sha256: createHash('sha256').update(bytes).digest('hex') })
    : '';
  if (idempotencyKey) {
    const earlier = await recallResponse(services.db, orgId, idempotencyKey, hash, now);
    if (earlier) return ImportResult.parse(earlier.body);
  }
  let report: ParsedReport;
  try {
    report = await parseReportOffLoop(bytes, params.format, services.importParsers);
  } catch (err) {
    if (err instanceof ReportError)
      throw new AppError(422, 'VALIDATION_ERROR', `file: ${err.message}`, 'file');
    throw err;
  }
  const target = params.target;
  const detections = keyedAsScanward(
    report.results.map((r) => detectionOf(r, report.tool, target)),
    report.tool,
  );

  // Read before the transaction (a file, once per process).
  const kevCatalogue = await configuredKevCatalogue(services.config.kevFile);

  const recorded = await services.db.transaction(async (trx) => {
    const org = await lockOrganization(trx, orgId);
    if (idempotencyKey) {
      const earlier = await recallResponse(trx, orgId, idempotencyKey, hash, now);
      if (earlier) return ImportResult.parse(earlier.body);
    }
    await assertMonthlyQuota(trx, org, now);
    const scan = await recordImportedScan(
      trx,
      {
        orgId,
        createdBy: principal.user.id,
        target,
        scanType: params.scan_type ?? 'full',
        tool: report.tool,
        reportName: params.report_name,
        ciRun: params.ci_run,
        resultsRead: report.results.length,
      },
      async (row, at) => {
        await recordResults(trx, {
          scan: { id: row.id, org_id: orgId, target, scan_type: row.scan_type },
          source: { kind: 'import', tool: report.tool },
          detections,
          hosts: (report.hosts ?? []).map(observedHost),
          evidence: {
            title: `${report.tool} report imported for ${target}`,
            description: `Imported as scan ${row.id} on ${at.toISOString()}: a finding of this report maps to the control.`,
          },
          enrichment: { kevCatalogue },
          now: at,
        });
      },
      now,
    );
    const result: ImportResult = {
      ...(await getScanDetail(trx, orgId, scan.id)),
      format: report.format,
      results_read: report.results.length,
    };
    if (idempotencyKey)
      await rememberResponse(trx, orgId, idempotencyKey, hash, { status: 201, body: result }, now);
    return result;
  });
  return recorded;
}

/**
 * nuclei results keyed as the scan engine keys its own template detections, so a result and
 * Scanward's check of the same weakness on the same component are one finding: a template a
 * built-in check stands for (`exposed-redis` → `redis-unauthenticated`, the registry's
 * `builtInForTemplate`) takes the check's id, and a network template's `tcp://host:port` the
 * scheme of the service the check is for (`redis://host:6379`, as the engine names it); then
 * the engine's correlation (phases/correlation.ts) keys a template naming a CVE by the CVE on
 * the service and merges what stands for one weakness. Other tools' check ids are their own.
 */
function keyedAsScanward(detections: FindingDetection[], tool: string): FindingDetection[] {
  if (tool !== 'nuclei') return detections;
  return correlate(detections.map(asBuiltInCheck));
}

function asBuiltInCheck(detection: FindingDetection): FindingDetection {
  // A result's check id is `template-id`, or `template-id:matcher-name`.
  const template = detection.check_id.split(':')[0]!;
  const builtIn = builtInForTemplate(detection.check_id) ?? builtInForTemplate(template);
  if (!builtIn) return detection;
  const check = BUILT_IN_CHECKS.find((c) => c.id === builtIn);
  const service = check?.rule.description;
  const scheme = (SERVICE_NAMES as readonly string[]).includes(service ?? '') ? service : undefined;
  // What the report leaves out, the check that stands for the weakness declares (never its
  // severity or score: those are the report's own view of it).
  const meta = check?.meta;
  return {
    ...detection,
    ...(meta && {
      description: detection.description.trim() || `${meta.title}. ${meta.impact}`,
      impact: detection.impact.trim() || meta.impact,
      cwe_ids: detection.cwe_ids.length > 0 ? detection.cwe_ids : [...meta.cweIds],
      category: detection.category ?? meta.category,
    }),
    check_id: builtIn,
    upstream_ids: [...new Set([template, detection.check_id])],
    affected_component: scheme
      ? detection.affected_component.replace(/^tcp:\/\//i, `${scheme}://`)
      : detection.affected_component,
  };
}

/** One result as the findings lifecycle's engine-neutral input. */
function detectionOf(result: ImportedResult, tool: string, target: string): FindingDetection {
  const component = result.affected_component || target;
  const mapping = controlsForFinding({
    category: result.category ?? null,
    cwe_ids: result.cwe_ids,
    cve_ids: result.cve_ids,
    severity: result.severity,
    target: hostOf(component) ?? target,
  });
  return {
    check_id: result.check_id,
    title: result.title,
    severity: result.severity,
    cvss_vector: result.cvss_vector ?? null,
    cvss_score: result.cvss_score ?? null,
    target,
    affected_component: component,
    port: result.port ?? null,
    tool,
    category: result.category ?? null,
    cve_ids: result.cve_ids,
    cwe_ids: result.cwe_ids,
    description: result.description,
    impact: result.impact ?? '',
    ...(result.remediation
      ? {
          remediation: {
            summary: result.remediation.summary,
            steps: [],
            code_example: '',
            references: result.remediation.references,
          },
        }
      : {}),
    evidence: {
      request: result.evidence.request,
      response: result.evidence.response,
      screenshot_url: null,
      // nmap's CVEs (vulners) are matched by the version it read, not proved.
      ...(tool === 'nmap' && result.cve_ids.length > 0 && { established: 'inferred from version' as const }),
    },
    frameworks: mapping.frameworks,
  };
}

function hostOf(component: string): string | undefined {
  const match = /^[a-z][a-z0-9+.-]*:\/\/(\[[^\]]*\]|[^/:?#]*)/i.exec(component);
  return match?.[1]?.replace(/^\[|\]$/g, '') || undefined;
}

/** A host of the report as the asset inventory takes it, with the end-of-life state of what it identified. */
function observedHost(host: ImportedHost): ObservedHost {
  return {
    address: host.address,
    names: host.names,
    services: host.services.map((s) => {
      // The fact as the inventory keeps it (MariaDB's compatibility prefix read, a range no
      // version), so the end-of-life state is judged from what the report means.
      const fact = serviceFact(s.service, s.product, s.version, s.cpe);
      const eol = endOfLifeOfProduct(host.address, s.port, fact.product, fact.version);
      return { ...s, product: fact.product, version: fact.version, cpe: fact.cpe, ...(eol ? { eol } : {}) };
    }),
  };
}
