import type { Principal } from '../policies/principal.ts';
import { ScanCreated, type CreateScanRequest, type Framework, type ScanType } from '../schemas/scans.ts';
import type { Services } from '../services.ts';
import { recallResponse, rememberResponse, requestHash, type StoredResponse } from './idempotency.ts';
import { presentCreatedScan } from './presenter.ts';
import { assertConcurrency, assertMonthlyQuota, lockOrganization } from './quota.ts';
import { queueScan } from './lifecycle.ts';
import { scopePolicyFor } from './scope.ts';
import { assertWebOptionsFit, fingerprintableWebOptions, sealWebOptions } from './web-options.ts';

const ALL_FRAMEWORKS: readonly Framework[] = ['soc2', 'pci-dss', 'iso27001'];

/** The frameworks a scan maps to: the chosen ones, or all of them for a compliance scan that names none. */
export function frameworksFor(scanType: ScanType, chosen: readonly Framework[] | undefined): Framework[] {
  if (chosen && chosen.length > 0) return [...chosen];
  return scanType === 'compliance' ? [...ALL_FRAMEWORKS] : [];
}

/**
 * Creates a pending scan for POST /api/v1/scans. Order matters:
 * a remembered Idempotency-Key answers first (even if the target has since
 * left the scope); then the target is parsed and checked against the scope
 * (DNS included) outside any transaction; then, with the organization row
 * locked, the key is looked up again, the quota and concurrency ceiling are
 * checked and the scan is inserted, so two processes can never both pass a
 * limit or both use one key. No event fires: the runner sends scan.started.
 */
export async function createScan(
  services: Pick<Services, 'db' | 'config' | 'keys'>,
  principal: Principal,
  request: CreateScanRequest,
  idempotencyKey: string | undefined,
  now = new Date(),
): Promise<StoredResponse> {
  const orgId = principal.org.id;
  const key = services.keys.encryptionKey;
  // The fingerprint is kept 24 hours: secrets go into it as their HMAC, never as they are.
  const hash = requestHash(
    request.web ? { ...request, web: fingerprintableWebOptions(key, request.web) } : request,
  );
  if (idempotencyKey) {
    const earlier = await recallResponse(services.db, orgId, idempotencyKey, hash, now);
    if (earlier) return replay(earlier);
  }

  const scope = await scopePolicyFor(services.config).checkTarget(request.target);
  assertWebOptionsFit(scope.target, request.scan_type, request.web);
  const web = request.web ? sealWebOptions(key, request.web) : null;

  return services.db.transaction(async (trx) => {
    const org = await lockOrganization(trx, orgId);
    if (idempotencyKey) {
      const earlier = await recallResponse(trx, orgId, idempotencyKey, hash, now);
      if (earlier) return replay(earlier);
    }
    await assertMonthlyQuota(trx, org, now);
    await assertConcurrency(trx, org, now);
    const scan = await queueScan(trx, {
      orgId,
      createdBy: principal.user.id,
      target: scope.target,
      scanType: request.scan_type,
      frameworks: frameworksFor(request.scan_type, request.frameworks),
      ports: request.ports?.trim() ?? null,
      credentialChecks: request.credential_checks,
      web,
      createdAt: now,
    });
    const response = { status: 201, body: presentCreatedScan(scan) };
    if (idempotencyKey) await rememberResponse(trx, orgId, idempotencyKey, hash, response, now);
    return response;
  });
}

/** A remembered answer, its keys back in the documented order (jsonb does not keep them). */
function replay(stored: StoredResponse): StoredResponse {
  return { status: stored.status, body: ScanCreated.parse(stored.body) };
}
