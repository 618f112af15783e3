import type { LocalEngine } from '../../server/schemas/local-scan.ts';
import type { GateResult } from '../core/gate.ts';
import { ACTION_VERSION } from '../core/version.ts';
import type { Fetch, RetryPolicy, Sleep } from '../service/http.ts';
import type { GitHubContext } from './context.ts';
import type { ActionCore } from './core.ts';

/**
 * What the Action's run (run.ts) is handed from the outside world, and what it answers: tests
 * run it against a fake service and a fake GitHub without waiting.
 */

export interface ActionDeps {
  core: ActionCore;
  context: GitHubContext;
  fetch: Fetch;
  sleep: Sleep;
  now: () => number;
  writeFile: (path: string, data: string) => Promise<void>;
  mkdir: (path: string) => Promise<void>;
  /** Reads a report to import (`import-file`). */
  readFile?: ((path: string) => Promise<Uint8Array>) | undefined;
  /** Relative paths (sarif-file) resolve against this: the workspace on a runner. */
  cwd: string;
  /** Aborted when the job is cancelled. */
  signal?: AbortSignal | undefined;
  retry?: RetryPolicy | undefined;
  /** How long to watch GitHub process the upload. */
  sarifProcessing?: { attempts: number; intervalMs: number } | undefined;
  /** The GitHub client's retry backoff unit (tests shorten it). */
  githubRetryBaseMs?: number | undefined;
  /** false: no throttling plugin, so tests do not wait a second between writes. */
  githubThrottle?: boolean | undefined;
  /** Whether the runner can mint an ID token (ACTIONS_ID_TOKEN_REQUEST_URL is set: the job has `id-token: write`). */
  idTokenAvailable?: boolean | undefined;
  /** Loads the local engine (`mode: local`): dist/local/engine.mjs beside the bundle. */
  loadEngine?: (() => Promise<LocalEngine>) | undefined;
  /** Milliseconds since the step started, for the local engine's first-probe line. */
  sinceStart?: (() => number) | undefined;
  /** Where the local engine keeps its compiled-template cache (RUNNER_TEMP). */
  cacheDir?: string | undefined;
}

export interface ActionResult {
  /** `failed` when the step was failed, for whatever reason. */
  outcome: 'passed' | 'failed' | 'started';
  scanId?: string | undefined;
  status?: string | undefined;
  timedOut?: boolean | undefined;
  gate?: GateResult | undefined;
  sarifPath?: string | undefined;
  uploadId?: string | undefined;
  comment?: 'created' | 'updated' | undefined;
}

export const USER_AGENT = `scanward-github-action/${ACTION_VERSION}`;
