import { gzipSync } from 'node:zlib';
import type { UploadState } from '../reports/summary.ts';
import { githubError, statusOf, type GitHubClient, type Repository } from './api.ts';

/**
 * GitHub code scanning: upload a SARIF file (`POST /repos/{owner}/{repo}/code-scanning/sarifs`,
 * gzip + base64) and watch GitHub process it, failing when GitHub says the upload failed.
 */

export interface SarifUpload {
  sarif: string;
  commitSha: string;
  ref: string;
  startedAt?: string | undefined;
}

export interface ProcessingStatus {
  status: 'pending' | 'complete' | 'failed';
  errors: string[];
}

/** GitHub rejects a gzipped SARIF file larger than this. */
export const MAX_GZIPPED_BYTES = 10 * 1024 * 1024;

export function encodeSarif(sarif: string): { encoded: string; gzippedBytes: number } {
  const gzipped = gzipSync(Buffer.from(sarif, 'utf8'));
  return { encoded: gzipped.toString('base64'), gzippedBytes: gzipped.length };
}

/** `POST /repos/{owner}/{repo}/code-scanning/sarifs` (gzip + base64); answers the upload id. */
export async function uploadSarif(
  github: GitHubClient,
  repository: Repository,
  upload: SarifUpload,
): Promise<{ id: string }> {
  const { encoded, gzippedBytes } = encodeSarif(upload.sarif);
  if (gzippedBytes > MAX_GZIPPED_BYTES) {
    throw new Error(
      `The SARIF file is ${(gzippedBytes / 1048576).toFixed(1)} MiB gzipped; GitHub accepts at most 10 MiB.`,
    );
  }
  try {
    const { data } = await github.rest.codeScanning.uploadSarif({
      ...repository,
      commit_sha: upload.commitSha,
      ref: upload.ref,
      sarif: encoded,
      tool_name: 'Scanward',
      ...(upload.startedAt ? { started_at: upload.startedAt } : {}),
    });
    if (typeof data.id !== 'string')
      throw new Error('GitHub accepted the SARIF upload but sent no upload id.');
    return { id: data.id };
  } catch (error) {
    throw githubError(error, 'upload the SARIF file');
  }
}

/** One look at the processing status; a not-yet-known upload (404) counts as pending. */
export async function processingStatus(
  github: GitHubClient,
  repository: Repository,
  uploadId: string,
): Promise<ProcessingStatus> {
  try {
    const { data } = await github.rest.codeScanning.getSarif({ ...repository, sarif_id: uploadId });
    const status =
      data.processing_status === 'complete' || data.processing_status === 'failed'
        ? data.processing_status
        : 'pending';
    return { status, errors: (data.errors ?? []).filter((e): e is string => typeof e === 'string') };
  } catch (error) {
    if (statusOf(error) === 404) return { status: 'pending', errors: [] };
    throw githubError(error, 'read the SARIF processing status');
  }
}

export interface ProcessingWatch {
  /** How many times to look at the processing status, and how long to wait between looks. */
  attempts: number;
  intervalMs: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal | undefined;
  log: (message: string) => void;
}

/** Uploads the SARIF file and waits (a bounded time) for GitHub to process it. */
export async function uploadAndWatch(
  github: GitHubClient,
  repository: Repository,
  upload: SarifUpload,
  watch: ProcessingWatch,
): Promise<{ state: Extract<UploadState, 'processed' | 'processing'>; id: string }> {
  const { id } = await uploadSarif(github, repository, upload);
  watch.log(`SARIF uploaded to GitHub code scanning (upload ${id}); waiting for GitHub to process it.`);
  for (let attempt = 1; attempt <= watch.attempts; attempt++) {
    const status = await processingStatus(github, repository, id);
    if (status.status === 'complete') {
      watch.log('GitHub processed the SARIF upload; alerts are in the Security tab.');
      return { state: 'processed', id };
    }
    if (status.status === 'failed') {
      throw new Error(
        `GitHub could not process the SARIF upload ${id}: ${status.errors.join('; ') || 'no reason given'}`,
      );
    }
    if (attempt < watch.attempts) await watch.sleep(watch.intervalMs, watch.signal);
  }
  watch.log(
    `GitHub is still processing SARIF upload ${id}; the alerts will appear in the Security tab shortly.`,
  );
  return { state: 'processing', id };
}
