import { controlsForFinding } from '../../controls/mapping.ts';
import { isFrameworkSlug } from '../../controls/catalogue.ts';
import type { ScanRecord } from '../types.ts';
import type { Check } from './check.ts';
import { credentialChecksFor } from '../../schemas/scans.ts';
import { defaultCredentialChecks } from './default-credentials.ts';
import { erlangDistributionCheck } from './erlang.ts';
import { exposedServiceChecks } from './exposed-services.ts';
import { softwareVersionChecks } from './software-versions.ts';
import { templatesCheck } from './templates.ts';
import { networkTemplatesCheck, sslTemplatesCheck } from './template-protocols.ts';
import { smtpOpenRelayCheck } from './smtp-relay.ts';
import { sshChecks } from './ssh.ts';
import { tlsBreadthChecks } from './tls-breadth.ts';
import { tlsChecks } from './tls.ts';
import { webChecks } from './web.ts';
import { missingHstsCheck } from './web-hsts.ts';
import { webHardeningChecks } from './web-hardening.ts';

export type { Check } from './check.ts';

/** Every check the engine knows. Adding a check means adding it here; nothing else changes. */
export const CHECKS: readonly Check[] = [
  ...exposedServiceChecks,
  ...defaultCredentialChecks,
  erlangDistributionCheck,
  ...sshChecks,
  smtpOpenRelayCheck,
  ...webChecks,
  missingHstsCheck,
  ...webHardeningChecks,
  ...tlsChecks,
  ...tlsBreadthChecks,
  templatesCheck,
  networkTemplatesCheck,
  sslTemplatesCheck,
  ...softwareVersionChecks,
];

/**
 * The checks a scan runs in a phase: quick scans only the fast ones; compliance
 * scans those that speak to one of the chosen frameworks (all frameworks when
 * none were chosen). Checks that log in run only under `credential_checks: defaults`.
 */
export function checksFor(
  scan: ScanRecord,
  phase: Check['phase'],
  checks: readonly Check[] = CHECKS,
): Check[] {
  const frameworks = scan.frameworks.filter(isFrameworkSlug);
  return checks.filter((check) => {
    if (check.phase !== phase) return false;
    if (check.sendsCredentials && !credentialsAllowed(scan)) return false;
    if (scan.scan_type === 'quick') return check.quick;
    if (scan.scan_type === 'compliance') {
      const mapping = controlsForFinding(
        { category: check.category, cwe_ids: check.cweIds, cve_ids: [], severity: 'high' },
        frameworks.length > 0 ? { frameworks } : {},
      );
      return mapping.control_ids.length > 0;
    }
    return true;
  });
}

/** Whether the scan may try default credentials (`credential_checks`, by scan type when absent). */
export function credentialsAllowed(scan: ScanRecord): boolean {
  return credentialChecksFor(scan.scan_type, scan.credential_checks) === 'defaults';
}
