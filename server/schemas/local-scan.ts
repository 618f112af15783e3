import type { FindingSeverity } from './findings.ts';
import type { CredentialChecks, ScanType } from './scans.ts';
import type { WebTestingOptions } from './web-testing.ts';

/**
 * The contract between the Action (`action/local/`) and the local scan engine's bundle
 * (`dist/local/engine.mjs`, built from `server/local-scan/`): what the Action asks for and what
 * the engine hands back. Types only, so the Action's bundle stays free of the engine; the engine
 * is loaded at run time, by path, from beside the Action's own bundle (docs/github-action.md,
 * "Scanning what the job runs").
 *
 * A finding is written in Scanward's findings-export shape (`template_id`, `affected_component`,
 * `severity`, `cvss_vector`, `evidence`, ...), so the report's `findings` array is also a
 * `scanward` import report (POST /api/v1/imports, docs/imports.md) as it stands.
 */

export const LOCAL_SCAN_REPORT_FORMAT = 'scanward-local-scan/1';

export interface LocalScanRequest {
  /** `http://host:port` or `https://host:port`: the one service the scan may reach. */
  target: string;
  scanType: ScanType;
  credentialChecks?: CredentialChecks | undefined;
  /** Web application testing: sign-in, exclusions, attack checks (docs/web-testing.md). Secrets in clear, in memory only. */
  web?: WebTestingOptions | undefined;
  /** Where the engine may keep the compiled-template cache; none when unset. */
  cacheDir?: string | undefined;
  /** A CISA KEV catalogue (the service's SCANWARD_KEV_FILE); the committed snapshots apply either way. */
  kevFile?: string | undefined;
  /** Progress lines, one at a time. */
  log?: ((line: string) => void) | undefined;
  signal?: AbortSignal | undefined;
}

export interface LocalFinding {
  /** Local id: `local_` and the start of the finding's fingerprint (stable across runs). */
  id: string;
  template_id: string;
  title: string;
  severity: FindingSeverity;
  cvss_vector: string | null;
  cvss_score: number;
  cve_ids: string[];
  cwe_ids: string[];
  description: string;
  impact: string;
  remediation: { summary: string; steps: string[]; code_example: string; references: string[] } | null;
  /** The host scanned (the name `target` gave). */
  target: string;
  affected_component: string;
  port: number | null;
  category: string | null;
  tool: string;
  frameworks: string[];
  kev: boolean;
  evidence: { request: string; response: string };
}

export interface LocalScanReport {
  format: typeof LOCAL_SCAN_REPORT_FORMAT;
  /** The target as given. */
  target: string;
  /** The host and port scanned, and the addresses the host resolved to (the whole scope). */
  host: string;
  port: number;
  addresses: string[];
  scan_type: ScanType;
  started_at: string;
  completed_at: string;
  /** Milliseconds from the engine's start to its first connection attempt; null when none was made. */
  first_probe_ms: number | null;
  /** Phase timings in milliseconds. */
  phases: Record<string, number>;
  notes: string[];
  findings: LocalFinding[];
}

/** What `dist/local/engine.mjs` exports. */
export interface LocalEngine {
  runLocalScan(request: LocalScanRequest): Promise<LocalScanReport>;
}

/** Why the engine refused to scan (a target it cannot or may not reach): a user's mistake, exit 2. */
export const LOCAL_TARGET_ERROR = 'LocalTargetError';
