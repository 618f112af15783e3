import type { z } from 'zod';
import type { WebTestingOptions } from '../../server/schemas/web-testing.ts';
import { callApi, listAllPages, type ScanwardClientOptions } from './api-call.ts';
import { requestWithRetry } from './http.ts';
import {
  FindingRefBody,
  HealthBody,
  ScanBody,
  ScanCancelledBody,
  ScanCreatedBody,
  ScanFindingBody,
} from './responses.ts';

/**
 * A small typed client of the Scanward REST API (interface-spec.md "Scans",
 * "Findings"), over fetch. Every call retries 429 and transient failures and
 * never follows a redirect (see http.ts, api-call.ts); error answers become `ApiError`s
 * whose message says what the user can do (api-errors.ts). The credentials
 * come from credentials.ts, which alone knows how they were obtained.
 */

export interface CreateScanInput {
  target: string;
  scan_type: 'quick' | 'full' | 'compliance';
  ports?: string | undefined;
  frameworks?: string[] | undefined;
  credential_checks?: 'defaults' | 'none' | undefined;
  web?: WebTestingOptions | undefined;
}

export type { ScanwardClientOptions } from './api-call.ts';

export class ScanwardClient {
  constructor(private readonly options: ScanwardClientOptions) {}

  /** `POST /api/v1/scans`; the key makes a retried or repeated create return the same scan. */
  async createScan(
    input: CreateScanInput,
    idempotencyKey: string,
    deadline?: number,
  ): Promise<ScanCreatedBody> {
    const body: Record<string, unknown> = {
      target: input.target,
      scan_type: input.scan_type,
      authorized: true,
    };
    if (input.ports !== undefined) body.ports = input.ports;
    if (input.frameworks !== undefined && input.frameworks.length > 0) body.frameworks = input.frameworks;
    if (input.credential_checks !== undefined) body.credential_checks = input.credential_checks;
    if (input.web !== undefined) body.web = input.web;
    return callApi(this.options, 'POST', '/api/v1/scans', ScanCreatedBody, {
      body,
      headers: { 'Idempotency-Key': idempotencyKey },
      deadline,
      what: 'create the scan',
    });
  }

  /**
   * `POST /api/v1/imports`: a report as a completed scan of `target`, sent as the raw body.
   * The key makes a retried import (after a timeout or a network failure) answer the scan the
   * first one recorded instead of recording a second one.
   */
  importReport(
    report: Uint8Array,
    input: {
      target: string;
      scan_type: string;
      format?: string | undefined;
      /** The report's file name, shown with the imported scan. */
      report_name?: string | undefined;
      /** The CI run it came from (a local engine run). */
      ci_run?: string | undefined;
    },
    idempotencyKey: string,
    deadline?: number,
  ): Promise<ScanBody> {
    const query = new URLSearchParams({ target: input.target, scan_type: input.scan_type });
    if (input.format) query.set('format', input.format);
    if (input.report_name) query.set('report_name', input.report_name.slice(0, 255));
    if (input.ci_run) query.set('ci_run', input.ci_run.slice(0, 500));
    return callApi(this.options, 'POST', `/api/v1/imports?${query.toString()}`, ScanBody, {
      raw: report,
      headers: { 'Idempotency-Key': idempotencyKey },
      deadline,
      what: 'import the report',
    });
  }

  getScan(scanId: string, deadline?: number): Promise<ScanBody> {
    return callApi(this.options, 'GET', `/api/v1/scans/${encodeURIComponent(scanId)}`, ScanBody, {
      deadline,
      what: `read scan ${scanId}`,
    });
  }

  /**
   * `GET /api/v1/events`, the organization's live event stream, opened once: no retry and no
   * status check, since the caller (follow.ts) decides what a refusal means (an older service,
   * a key without `read:scans`). A redirect is not followed, so the credentials stay here.
   * The answer comes back with its body unread; `signal` ends the request and the reading.
   */
  async openEventStream(lastEventId: string | undefined, signal: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = {
      accept: 'text/event-stream',
      'user-agent': this.options.userAgent,
      ...(await this.options.credentials.headers()),
    };
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    return this.options.http.fetch(this.url('/api/v1/events'), { headers, redirect: 'manual', signal });
  }

  /** When the credentials will next be refreshed (credentials.ts); undefined when they do not expire. */
  credentialsRefreshDueAt(): number | undefined {
    return this.options.credentials.refreshDueAt?.();
  }

  /**
   * `DELETE /api/v1/scans/{id}`. Runs even after the job was cancelled (that is
   * when it matters most), with few, short tries: the runner kills the step soon.
   */
  cancelScan(scanId: string): Promise<z.infer<typeof ScanCancelledBody>> {
    const { retry } = this.options.http;
    return callApi(this.options, 'DELETE', `/api/v1/scans/${encodeURIComponent(scanId)}`, ScanCancelledBody, {
      what: `cancel scan ${scanId}`,
      http: {
        ...this.options.http,
        signal: undefined,
        retry: {
          ...retry,
          attempts: Math.min(retry.attempts, 2),
          requestTimeoutMs: Math.min(retry.requestTimeoutMs, 5000),
        },
      },
    });
  }

  /** Every finding the scan observed: `GET /api/v1/scans/{id}/findings`, all pages. */
  listScanFindings(scanId: string): Promise<ScanFindingBody[]> {
    return listAllPages(
      this.options,
      `/api/v1/scans/${encodeURIComponent(scanId)}/findings`,
      {},
      ScanFindingBody,
      'findings',
    );
  }

  /** Template ids, CWE ids and frameworks of the scan's findings: `GET /api/v1/findings?scan_id=`, all pages. */
  listFindingRefs(scanId: string): Promise<FindingRefBody[]> {
    return listAllPages(
      this.options,
      '/api/v1/findings',
      { scan_id: scanId },
      FindingRefBody,
      'finding details',
    );
  }

  /** The service version from `GET /api/health`; undefined when it cannot be read. */
  async serviceVersion(): Promise<string | undefined> {
    try {
      const res = await requestWithRetry(
        { ...this.options.http, retry: { ...this.options.http.retry, attempts: 1 } },
        this.url('/api/health'),
        { headers: { accept: 'application/json', 'user-agent': this.options.userAgent } },
        'read the service version',
      );
      if (!res.ok) return undefined;
      return HealthBody.parse(await res.json()).version;
    } catch {
      return undefined;
    }
  }

  private url(path: string): string {
    return `${this.options.baseUrl}${path}`;
  }
}
