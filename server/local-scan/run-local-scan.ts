import { setMaxListeners } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { loadConfig } from '../config.ts';
import { phasesOf } from '../scans/phases.ts';
import { cloudAnalysis, vulnerabilityScanning, webAnalysis } from '../scanner/phases/checks-phases.ts';
import { complianceMapping } from '../scanner/phases/compliance-mapping.ts';
import { correlation } from '../scanner/phases/correlation.ts';
import { discovery } from '../scanner/phases/discovery.ts';
import { enumeration } from '../scanner/phases/enumeration.ts';
import { remediationPlanning } from '../scanner/phases/remediation-planning.ts';
import { reporting } from '../scanner/phases/reporting.ts';
import { threatIntelligence } from '../scanner/phases/threat-intelligence.ts';
import { ProgressTracker } from '../scanner/progress.ts';
import { createScopeGuard } from '../scanner/scope-guard.ts';
import { emptyState, ScanError, type Phase, type PhaseContext, type ScanRecord } from '../scanner/types.ts';
import {
  LOCAL_SCAN_REPORT_FORMAT,
  type LocalScanReport,
  type LocalScanRequest,
} from '../schemas/local-scan.ts';
import { localFindings } from './findings.ts';
import { LocalTargetError, resolveLocalTarget } from './target.ts';

/**
 * Scanward's engine run in the calling process, against one web service a CI job started
 * (`scanward-ci scan --local`, the Action's `mode: local`): the same phases, checks, templates
 * and intelligence snapshots as the service's runner, with no database. The phases only ever
 * read the scan state and the configuration (PhaseContext.services is the configuration), so
 * the engine runs in memory and hands back its findings, merged by fingerprint exactly as the
 * finding lifecycle merges one scan's detections; history (new, unchanged, reopened) is the
 * service's, when the caller records the result there through the import API.
 *
 * Scope: exactly the target URL's host (the addresses it resolves to now) and port. The scan's
 * ports are that one port, the scope policy allows those addresses and nothing else (loopback
 * and private addresses included: the job started the service itself), and every connection
 * asks the scan's scope guard first, so a redirect or a link to another host is never followed
 * (the crawl and the templates already stay on the service's origin).
 *
 * Not run: `ai_analysis` (it needs the service's provider and the findings' rows) and nmap's
 * second opinion (an outside program; `SCANWARD_NMAP=off`). Sweeps run on the calling thread.
 */

/** The phase modules the local engine runs (every phase but ai_analysis), by name. */
const LOCAL_PHASES: Record<string, Phase> = Object.fromEntries(
  [
    discovery,
    enumeration,
    vulnerabilityScanning,
    webAnalysis,
    cloudAnalysis,
    threatIntelligence,
    correlation,
    complianceMapping,
    remediationPlanning,
    reporting,
  ].map((phase) => [phase.name, phase]),
);

export { LocalTargetError };

export async function runLocalScan(request: LocalScanRequest): Promise<LocalScanReport> {
  const started = performance.now();
  const startedAt = new Date();
  const say = request.log ?? (() => undefined);
  const target = await resolveLocalTarget(request.target);
  const config = loadConfig({
    // The scope: the target's addresses, nothing else.
    SCANWARD_SCAN_ALLOW: target.addresses.join(','),
    SCANWARD_SCAN_THREADS: '0',
    SCANWARD_NMAP: 'off',
    SCANWARD_DATA_DIR: request.cacheDir ?? join(tmpdir(), 'scanward-local'),
    SCANWARD_KEV_FILE: request.kevFile,
    LOG_LEVEL: 'warn',
  });
  const log: Logger = pino({ level: 'warn', base: undefined }, pino.destination(2));
  const scan: ScanRecord = {
    id: 'local',
    org_id: 'local',
    target: target.host,
    scan_type: request.scanType,
    frameworks: [],
    ports: String(target.port),
    ...(request.credentialChecks ? { credential_checks: request.credentialChecks } : {}),
    ...(request.web ? { web: request.web } : {}),
    attempts: 1,
    created_by: null,
  };
  const state = emptyState();
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const outer = request.signal;
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  outer?.addEventListener('abort', onAbort, { once: true });

  const guard = createScopeGuard(config, state);
  let firstProbeMs: number | null = null;
  const assertAllowed = (address: string) => {
    guard(address);
    firstProbeMs ??= Math.round(performance.now() - started);
  };

  const names = phasesOf(request.scanType).filter((name) => name in LOCAL_PHASES);
  const modules = names.map((name) => LOCAL_PHASES[name]!);
  const tracker = new ProgressTracker(
    modules.map((m) => m.weight),
    0,
    () => undefined,
  );
  const timings: Record<string, number> = {};
  const ctx: Omit<PhaseContext, 'progress'> = {
    scan,
    state,
    signal: controller.signal,
    services: { config },
    log,
    assertAllowed,
  };
  say(
    `Scanning ${target.url} in this job (${request.scanType}; scope: ${target.addresses.join(', ')} port ${target.port} only)`,
  );
  try {
    for (const phase of modules) {
      if (controller.signal.aborted) throw controller.signal.reason;
      const progress = tracker.startPhase(phase.weight);
      const phaseStarted = performance.now();
      await phase.run({ ...ctx, progress });
      timings[phase.name] = Math.round(performance.now() - phaseStarted);
      tracker.finishPhase();
      say(`  ${phase.name}: ${timings[phase.name]} ms (${tracker.value}%)`);
    }
  } catch (error) {
    if (error instanceof ScanError) throw new LocalTargetError(error.message);
    throw error;
  } finally {
    outer?.removeEventListener('abort', onAbort);
  }
  if (!state.openPorts.some((p) => p.port === target.port)) {
    throw new LocalTargetError(
      `nothing answered on ${target.url} (port ${target.port} of ${target.addresses.join(', ')} is closed): start the service before the scan, and wait until it is healthy.`,
    );
  }
  const findings = localFindings(state.detections);
  return {
    format: LOCAL_SCAN_REPORT_FORMAT,
    target: target.url,
    host: target.host,
    port: target.port,
    addresses: target.addresses,
    scan_type: request.scanType,
    started_at: startedAt.toISOString(),
    completed_at: new Date().toISOString(),
    first_probe_ms: firstProbeMs,
    phases: timings,
    notes: state.notes,
    findings,
  };
}
