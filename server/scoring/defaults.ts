import type { Severity } from './severity.ts';

/**
 * Defaults for findings whose source gives no CVSS vector or CWE (docs/checks.md, "Complete
 * findings"): a template without a `classification`, a vendor CVE record (vendors publish a
 * level, not a vector). The score is always computed from the vector (cvss.ts), never stated.
 */

/**
 * One CVSS 3.1 vector per severity, each scoring inside its severity's band (9.8, 7.5, 5.6, 3.7,
 * 0.0): network-reachable, no privileges or user interaction, the impact the severity claims.
 */
export const DEFAULT_VECTOR_BY_SEVERITY: Readonly<Record<Severity, string>> = {
  critical: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
  high: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
  medium: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:L',
  low: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N',
  info: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:N/A:N',
};

/** The CWE a finding of a category carries when its source names none. */
export const DEFAULT_CWE_BY_CATEGORY: Readonly<Record<string, string>> = {
  'known-vulnerability': 'CWE-1395', // Dependency on Vulnerable Third-Party Component
  'outdated-software': 'CWE-1104', // Use of Unmaintained Third Party Components
  'default-credentials': 'CWE-1392', // Use of Default Credentials
  'unauthenticated-access': 'CWE-306', // Missing Authentication for Critical Function
  'information-disclosure': 'CWE-200', // Exposure of Sensitive Information
  informational: 'CWE-200',
  injection: 'CWE-74', // Injection
  'exposed-service': 'CWE-668', // Exposure of Resource to Wrong Sphere
  'open-port': 'CWE-668',
  tls: 'CWE-326', // Inadequate Encryption Strength
  'weak-crypto': 'CWE-327', // Broken or Risky Cryptographic Algorithm
  'web-headers': 'CWE-693', // Protection Mechanism Failure
  malware: 'CWE-506', // Embedded Malicious Code
  misconfiguration: 'CWE-16', // Configuration
};

/** The default CWE of a category (`CWE-16`, Configuration, for one not listed). */
export function defaultCweFor(category: string | null | undefined): string {
  return (category && DEFAULT_CWE_BY_CATEGORY[category]) || 'CWE-16';
}
