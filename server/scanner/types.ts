import type { Logger } from 'pino';
import type { FindingPriority } from '../schemas/findings.ts';
import type { Phase as PhaseName } from '../schemas/scans.ts';
import type { FrameworkValue, RemediationValue } from '../findings/rows.ts';
import type { Severity } from '../scoring/severity.ts';
import type { ServiceIdentification } from './net/services.ts';
import type { Config } from '../config.ts';
import type { WebTestingOptions } from '../schemas/web-testing.ts';

/**
 * The engine's vocabulary. A scan runs the phases of its type in order; each
 * phase reads what earlier phases learned from the scan state and adds to it.
 * The state is plain JSON, saved after every phase, so a runner that takes over
 * a scan resumes after the last completed phase.
 */

/**
 * One weakness seen at one place, as a check reports it and the later phases
 * complete it (KEV, remediation, compliance mapping, remediation planning's
 * plan). At completion the scan's detections are handed to the finding
 * lifecycle (server/findings/lifecycle.ts), which records them in one
 * transaction.
 */
export interface Detection {
  /** Canonical check (template) id: the finding's `template_id`. */
  check_id: string;
  /** Upstream template ids this check stands for, so two tools' reports stay one finding. */
  upstream_ids?: string[];
  title: string;
  severity: Severity;
  /** CVSS vector; the score is computed from it (0.0 without a valid one). */
  cvss_vector?: string | null;
  epss_score?: number | null;
  /** The concrete host scanned. */
  target: string;
  /** A URL with an explicit port: `https://host:443/path`, `redis://host:6379`. */
  affected_component: string;
  port?: number | null;
  tool: string;
  category?: string | null;
  cve_ids: string[];
  cwe_ids: string[];
  description: string;
  impact: string;
  /** Built-in checks fill it from their remediation entry (`defineCheck`); correlation sets it when a check gave none (templates). */
  remediation?: RemediationValue;
  /** Set when the remediation is this finding's own (the release that fixes a vendor CVE), not its check's general advice. */
  particular_remediation?: true;
  /**
   * `established`: how the weakness is known, `confirmed` (a probe proved it: the request and
   * response) or `inferred from version` (the banner and the vendor's range). Correlation sets
   * it where a check did not (version checks: inferred; everything else: confirmed).
   */
  evidence: { request: string; response: string; screenshot_url?: string | null; established?: Established };
  /** The compliance mapping, set by correlation. */
  frameworks?: FrameworkValue[];
  /** In CISA's KEV catalogue (threat_intelligence). */
  kev?: boolean;
  /** A priority the check suggests, applied to new findings only (never over a person's choice). */
  priority?: FindingPriority;
  /**
   * Remediation planning's plan (the remediation with its playbook step, a
   * suggested priority), applied by the lifecycle when the finding is new or reopened.
   */
  planned?: { priority: FindingPriority; remediation: RemediationValue };
}

/** How a finding's weakness is known (docs/checks.md, "One weakness, one finding"). */
export type Established = 'confirmed' | 'inferred from version';

/**
 * A (target, check, port) combination the scan tested; without a port it covers every
 * port. A sweep of many ports names them as inclusive `port_ranges` instead: one entry
 * per host rather than one per port. A finding the scan covered but no longer detects
 * is resolved when the scan completes.
 */
export interface Coverage {
  target: string;
  check_id: string;
  port?: number | null;
  port_ranges?: ReadonlyArray<readonly [number, number]>;
}

/** A host to scan: the name the user gave (or the address) and the address checked against the scope. */
export interface ScanHost {
  /** What findings name as their target: the DNS name, or the address. */
  target: string;
  address: string;
  alive?: boolean;
}

export interface OpenPort {
  address: string;
  port: number;
}

export interface ScanState {
  hosts: ScanHost[];
  openPorts: OpenPort[];
  services: ServiceIdentification[];
  /** Which tool learned what, e.g. `{ 'nmap': 3, 'scanward-probe': 5 }`. */
  toolsUsed: Record<string, number>;
  detections: Detection[];
  coverage: Coverage[];
  /** Controls this scan assessed, and which of them its findings fail (compliance_mapping). */
  compliance?: { assessed: string[]; failing: string[] };
  notes: string[];
}

/** What findings on `address` name as their target: the host's DNS name or range address, else the address. */
export function targetOf(state: ScanState, address: string): string {
  return state.hosts.find((h) => h.address === address)?.target ?? address;
}

export function emptyState(): ScanState {
  return { hosts: [], openPorts: [], services: [], toolsUsed: {}, detections: [], coverage: [], notes: [] };
}

export interface ScanRecord {
  id: string;
  org_id: string;
  target: string;
  scan_type: 'quick' | 'full' | 'compliance';
  frameworks: string[];
  ports: string | null;
  /** Whether default-credential logins may be tried (absent: by scan type, see `credentialChecksFor`). */
  credential_checks?: 'defaults' | 'none';
  /**
   * Web application testing (issue 33): sign-in, exclusions, whether attack checks run. Secrets
   * (password, header values) are in clear here, in memory only: never logged, stored or answered.
   */
  web?: WebTestingOptions | undefined;
  attempts: number;
  created_by: string | null;
}

/** Reports progress inside a phase: `done` units of the phase's declared `total`. */
export interface PhaseProgress {
  setTotal(units: number): void;
  advance(units?: number): void;
  tool(name: string): void;
}

export interface PhaseContext {
  scan: ScanRecord;
  state: ScanState;
  signal: AbortSignal;
  /**
   * What the phases read of the process: its configuration only, so the engine also runs
   * without a database (the local engine in a CI job, server/local-scan/).
   */
  services: { config: Config };
  log: Logger;
  progress: PhaseProgress;
  /** Throws when the address is outside the scan scope policy; called before every connection. */
  assertAllowed(address: string): void;
}

export interface Phase {
  name: Exclude<PhaseName, 'complete'>;
  /** Relative share of a scan's duration, for progress weighting. */
  weight: number;
  /** Answers `{ skipped: why }` when the phase had nothing to do on the target (phase_timings.skipped). */
  run(ctx: PhaseContext): Promise<void | PhaseOutcome>;
}

/** A phase that had nothing to do says why: shown as `skipped`, never as done in 0.0 s. */
export interface PhaseOutcome {
  skipped: string;
}

/** A reason a scan cannot go on, shown to the user as the failed scan's `error`. */
export class ScanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScanError';
  }
}

/** Raised when a scan's work must stop because it was cancelled or its lease was lost. */
export class ScanAborted extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ScanAborted';
  }
}
