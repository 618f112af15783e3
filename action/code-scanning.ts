import { gzipSync } from 'node:zlib';
import { ApiError } from './errors.ts';
import { requestWithRetry, type HttpDeps } from './http.ts';

/**
 * Uploads SARIF to GitHub code scanning (`POST /repos/{owner}/{repo}/code-scanning/sarifs`,
 * gzip + base64) and polls its processing status. Plain fetch with the shared
 * retry policy rather than Octokit, which this project does not install; the
 * two endpoints are all the Action needs.
 */

export interface CodeScanningTarget {
  /** The REST API base, `https://api.github.com` or a GHES `…/api/v3`. */
  apiUrl: string;
  token: string;
  owner: string;
  repo: string;
  http: HttpDeps;
  userAgent: string;
}

export interface SarifUpload {
  sarif: string;
  commitSha: string;
  ref: string;
  startedAt?: string | undefined;
}

export interface ProcessingStatus {
  status: 'pending' | 'complete' | 'failed';
  errors: string[];
  analysesUrl?: string | undefined;
}

/** GitHub rejects a gzipped SARIF file larger than this. */
export const MAX_GZIPPED_BYTES = 10 * 1024 * 1024;

export function encodeSarif(sarif: string): { encoded: string; gzippedBytes: number } {
  const gzipped = gzipSync(Buffer.from(sarif, 'utf8'));
  return { encoded: gzipped.toString('base64'), gzippedBytes: gzipped.length };
}

/** Uploads; answers the upload id GitHub processes the file under. */
export async function uploadSarif(target: CodeScanningTarget, upload: SarifUpload): Promise<{ id: string }> {
  const { encoded, gzippedBytes } = encodeSarif(upload.sarif);
  if (gzippedBytes > MAX_GZIPPED_BYTES) {
    throw new Error(
      `The SARIF file is ${(gzippedBytes / 1048576).toFixed(1)} MiB gzipped; GitHub accepts at most 10 MiB.`,
    );
  }
  const body = {
    commit_sha: upload.commitSha,
    ref: upload.ref,
    sarif: encoded,
    tool_name: 'Scanward',
    ...(upload.startedAt ? { started_at: upload.startedAt } : {}),
  };
  const res = await requestWithRetry(
    target.http,
    `${target.apiUrl}/repos/${target.owner}/${target.repo}/code-scanning/sarifs`,
    {
      method: 'POST',
      headers: { ...headers(target), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
    'GitHub: upload SARIF',
  );
  if (!res.ok) throw await githubError(res, 'upload the SARIF file');
  const answer = (await res.json()) as { id?: unknown };
  if (typeof answer.id !== 'string')
    throw new Error('GitHub accepted the SARIF upload but sent no upload id.');
  return { id: answer.id };
}

/** One look at the processing status; a not-yet-known upload (404) counts as pending. */
export async function processingStatus(
  target: CodeScanningTarget,
  uploadId: string,
): Promise<ProcessingStatus> {
  const res = await requestWithRetry(
    target.http,
    `${target.apiUrl}/repos/${target.owner}/${target.repo}/code-scanning/sarifs/${encodeURIComponent(uploadId)}`,
    { headers: headers(target) },
    'GitHub: read the SARIF processing status',
  );
  if (res.status === 404) {
    await res.body?.cancel().catch(() => undefined);
    return { status: 'pending', errors: [] };
  }
  if (!res.ok) throw await githubError(res, 'read the SARIF processing status');
  const body = (await res.json()) as {
    processing_status?: unknown;
    errors?: unknown;
    analyses_url?: unknown;
  };
  const status =
    body.processing_status === 'complete' || body.processing_status === 'failed'
      ? body.processing_status
      : 'pending';
  const errors = Array.isArray(body.errors)
    ? body.errors.filter((e): e is string => typeof e === 'string')
    : [];
  return {
    status,
    errors,
    analysesUrl: typeof body.analyses_url === 'string' ? body.analyses_url : undefined,
  };
}

function headers(target: CodeScanningTarget): Record<string, string> {
  return {
    accept: 'application/vnd.github+json',
    authorization: `Bearer ${target.token}`,
    'x-github-api-version': '2022-11-28',
    'user-agent': target.userAgent,
  };
}

async function githubError(res: Response, what: string): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  let message = text.slice(0, 300) || res.statusText;
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string') message = body.message;
  } catch {
    // keep the text
  }
  return new ApiError(
    'GitHub',
    res.status,
    `HTTP_${res.status}`,
    `could not ${what}: ${message}`,
    undefined,
    hint(res.status, message),
  );
}

function hint(status: number, message: string): string | undefined {
  if (status === 403 && /not accessible by integration|permission/i.test(message)) {
    return 'Give the job `permissions: security-events: write` (and `contents: read`), or set upload-sarif: false';
  }
  if (status === 403 || status === 404) {
    return 'Code scanning must be available for the repository (public, or GitHub Code Security enabled) and github-token must be able to see it; otherwise set upload-sarif: false';
  }
  if (status === 401) return 'github-token is not valid; leave it at its default, ${{ github.token }}';
  if (status === 413) return 'The SARIF file is too large for GitHub';
  if (status === 422)
    return 'GitHub refused the SARIF file or the commit/ref; check that the step runs in a workflow for this repository';
  return undefined;
}
