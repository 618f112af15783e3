/**
 * The check registry: every check the engine runs, built-in (checks/) and the
 * nuclei-format templates (templates/checks.ts), composed here, one level above both, so
 * that checks/ and templates/ never import each other (docs/architecture.md).
 */
import { controlsForFinding } from '../controls/mapping.ts';
import { isFrameworkSlug } from '../controls/catalogue.ts';
import type { ScanRecord } from './types.ts';
import type { Check, DeclaredCheck } from './check.ts';
import { defaultPortList } from './net/ports.ts';
import { credentialChecksFor } from '../schemas/scans.ts';
import { defaultCredentialChecks } from './checks/default-credentials.ts';
import { erlangDistributionCheck } from './checks/erlang.ts';
import { exposedServiceChecks } from './checks/exposed-services.ts';
import { softwareVersionChecks } from './checks/software-versions.ts';
import { vendorCveCheck } from './checks/vendor-cves.ts';
import { canonicalCheckId } from './templates/execute.ts';
import { scanFuzzingTemplates, templateChecks } from './templates/checks.ts';
import { smtpOpenRelayCheck } from './checks/smtp-relay.ts';
import { sshChecks } from './checks/ssh.ts';
import { tlsBreadthChecks } from './checks/tls-breadth.ts';
import { tlsChecks } from './checks/tls.ts';
import { webChecks } from './checks/web.ts';
import { missingHstsCheck } from './checks/web-hsts.ts';
import { webHardeningChecks } from './checks/web-hardening.ts';
import { webAttackChecksWith } from './web/checks.ts';

export type { Check, DeclaredCheck } from './check.ts';

/** The built-in checks (checks/, each made by `defineCheck`), in the order a scan runs them. */
export const BUILT_IN_CHECKS: readonly DeclaredCheck[] = [
  ...exposedServiceChecks,
  ...defaultCredentialChecks,
  erlangDistributionCheck,
  ...sshChecks,
  smtpOpenRelayCheck,
  ...webChecks,
  missingHstsCheck,
  ...webHardeningChecks,
  // The web assessment's fuzzing check runs the operator's fuzzing templates too (templates/ loads them).
  ...webAttackChecksWith(scanFuzzingTemplates),
  ...tlsChecks,
  ...tlsBreadthChecks,
  ...softwareVersionChecks,
  vendorCveCheck,
];

/**
 * The built-in check standing for a template: the check listing the template's id among its
 * `upstreamIds` (`exposed-redis` → `redis-unauthenticated`), also by the template's canonical
 * knowledge id (`redis-no-auth`), so a template and a built-in check that see the same
 * weakness make one finding (correlation merges by check id and component), and coverage
 * resolves both.
 */
const builtInByTemplateId = new Map<string, string>();
for (const check of BUILT_IN_CHECKS) {
  for (const upstream of check.upstreamIds) {
    if (!builtInByTemplateId.has(upstream)) builtInByTemplateId.set(upstream, check.id);
    const canonical = canonicalCheckId(upstream);
    if (!builtInByTemplateId.has(canonical)) builtInByTemplateId.set(canonical, check.id);
  }
}

const builtInIds = new Set(BUILT_IN_CHECKS.map((c) => c.id));

/** Whether `checkId` is a built-in check's (a weakness named by a check, not by a CVE). */
export const isBuiltInCheckId = (checkId: string): boolean => builtInIds.has(checkId);

/** The built-in check id that stands for a template id, if any. */
export const builtInForTemplate = (templateId: string): string | undefined =>
  builtInByTemplateId.get(templateId);

/** Every check the engine knows. Adding a check means adding it here; nothing else changes. */
export const CHECKS: readonly Check[] = [...BUILT_IN_CHECKS, ...templateChecks(builtInForTemplate)];

/** Every port a check declares it targets, ascending. */
export const CHECK_PORTS: readonly number[] = Object.freeze(
  [...new Set(CHECKS.flatMap((check) => check.ports))].sort((a, b) => a - b),
);

/**
 * The ports a scan sweeps when it names none, whatever its type: nmap's 1,000 most common,
 * with every port a check targets in place of the least common few (net/ports.ts), so a
 * service a check knows is never missed for want of a port.
 */
export const DEFAULT_PORTS: readonly number[] = defaultPortList(CHECK_PORTS);

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
    // Attack checks run only when asked, whatever the scan type (docs/web-testing.md).
    if (check.attacks) return scan.web?.active === true;
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
