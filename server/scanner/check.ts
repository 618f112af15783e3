import type { ServiceIdentification } from './net/services.ts';
import type { Detection, PhaseContext } from './types.ts';

/**
 * A check is a small unit that declares what it needs (a kind of service, a
 * phase, whether it is fast enough for quick scans) and turns one service into
 * zero or more detections. The runner never changes when checks are added.
 * Built-in checks (checks/) and the templates' checks (templates/checks.ts) implement it;
 * check-registry.ts lists them all.
 */
export interface Check {
  /** Canonical check id: the finding's `template_id`. */
  id: string;
  /** Upstream template ids this check stands for (e.g. nuclei ids), so one weakness stays one finding. */
  upstreamIds: string[];
  phase: 'vulnerability_scanning' | 'web_analysis' | 'cloud_analysis';
  /** Runs in quick scans too. */
  quick: boolean;
  /** What the check looks for, for the compliance mapping (compliance scans run the checks of their frameworks). */
  category: string;
  cweIds: string[];
  /** Logs in with a default or empty credential: runs only when the scan's `credential_checks` is `defaults`. */
  sendsCredentials?: true;
  appliesTo(service: ServiceIdentification): boolean;
  run(ctx: PhaseContext, service: ServiceIdentification): Promise<Detection[]>;
}
