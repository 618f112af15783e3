import { targetExposure } from '../scoring/exposure.ts';
import { severityRank, type Severity } from '../scoring/severity.ts';
import { controlId, FRAMEWORK_SLUGS, getControl, sortControlIds, type FrameworkSlug } from './catalogue.ts';

/**
 * Which compliance controls a finding speaks to, and which controls a scan assesses.
 *
 * The mapping is indicative: it tells an auditor-facing team where to look, it is
 * not an audit opinion. docs/compliance-mapping.md shows it as a table; keep the two
 * in step.
 *
 * A finding maps through three independent keys, whose controls are unioned:
 * its category, its CWE ids (grouped into families) and whether it names CVEs.
 * Severity adds the scanning requirements (a high or critical finding is what PCI DSS
 * 11.3.x requires to be fixed and rescanned) and silences inventory observations
 * (an informational "port 443 is open" is not a control gap).
 */

export const FINDING_CATEGORIES = [
  'tls',
  'weak-crypto',
  'web-headers',
  'exposed-service',
  'default-credentials',
  'unauthenticated-access',
  'outdated-software',
  'known-vulnerability',
  'information-disclosure',
  'misconfiguration',
  'injection',
  'malware',
  'open-port',
  'informational',
] as const;
export type FindingCategory = (typeof FINDING_CATEGORIES)[number];

/** Other spellings scanners and templates use for the same categories. */
const CATEGORY_ALIASES: Readonly<Record<string, FindingCategory>> = {
  ssl: 'tls',
  certificate: 'tls',
  crypto: 'weak-crypto',
  'security-headers': 'web-headers',
  headers: 'web-headers',
  exposure: 'information-disclosure',
  exposures: 'information-disclosure',
  disclosure: 'information-disclosure',
  'default-login': 'default-credentials',
  'weak-credentials': 'default-credentials',
  unauth: 'unauthenticated-access',
  'missing-authentication': 'unauthenticated-access',
  'known-cve': 'known-vulnerability',
  cve: 'known-vulnerability',
  'vulnerable-component': 'known-vulnerability',
  outdated: 'outdated-software',
  'end-of-life': 'outdated-software',
  misconfig: 'misconfiguration',
  backdoor: 'malware',
  c2: 'malware',
  port: 'open-port',
  info: 'informational',
};

export function normalizeCategory(value: string | null | undefined): FindingCategory | undefined {
  if (!value) return undefined;
  const key = value
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  if ((FINDING_CATEGORIES as readonly string[]).includes(key)) return key as FindingCategory;
  return CATEGORY_ALIASES[key];
}

/** Control references per framework, as the framework writes them. */
type References = Partial<Record<FrameworkSlug, readonly string[]>>;

export const CATEGORY_CONTROLS: Readonly<Record<FindingCategory, References>> = {
  tls: { soc2: ['CC6.7'], 'pci-dss': ['2.2.7', '4.2.1'], iso27001: ['A.8.21', 'A.8.24'] },
  'weak-crypto': { soc2: ['CC6.7'], 'pci-dss': ['2.2.7', '4.2.1', '8.3.2'], iso27001: ['A.8.24'] },
  'web-headers': { soc2: ['CC6.6'], 'pci-dss': ['2.2.1', '6.4.1'], iso27001: ['A.8.9', 'A.8.26'] },
  'exposed-service': {
    soc2: ['CC6.6'],
    'pci-dss': ['1.2.1', '1.3.1', '1.4.1', '2.2.4'],
    iso27001: ['A.8.20', 'A.8.21'],
  },
  'default-credentials': { soc2: ['CC6.1'], 'pci-dss': ['2.2.2', '8.3.1'], iso27001: ['A.8.5', 'A.8.9'] },
  'unauthenticated-access': {
    soc2: ['CC6.1', 'CC6.6'],
    'pci-dss': ['1.3.1', '2.2.5', '8.3.1'],
    iso27001: ['A.8.5', 'A.8.20', 'A.8.21'],
  },
  'outdated-software': { soc2: ['CC7.1', 'CC8.1'], 'pci-dss': ['6.3.1', '6.3.3'], iso27001: ['A.8.8'] },
  'known-vulnerability': { soc2: ['CC7.1', 'CC8.1'], 'pci-dss': ['6.3.1', '6.3.3'], iso27001: ['A.8.8'] },
  'information-disclosure': { soc2: ['CC6.1'], 'pci-dss': ['2.2.1', '6.4.1'], iso27001: ['A.8.9', 'A.8.12'] },
  misconfiguration: { soc2: ['CC7.1', 'CC8.1'], 'pci-dss': ['2.2.1'], iso27001: ['A.8.9'] },
  injection: { soc2: ['CC7.1', 'CC8.1'], 'pci-dss': ['6.2.4', '6.4.1'], iso27001: ['A.8.26', 'A.8.28'] },
  malware: { soc2: ['CC6.8', 'CC7.2'], iso27001: ['A.8.16'] },
  'open-port': { soc2: ['CC6.6'], 'pci-dss': ['1.3.1', '2.2.4'], iso27001: ['A.8.20'] },
  informational: {},
};

/** Categories whose informational findings are inventory, not gaps. */
const INVENTORY_CATEGORIES: ReadonlySet<FindingCategory> = new Set(['open-port', 'informational']);

export interface CweFamily {
  name: string;
  cwes: readonly number[];
  /** The finding category a CWE of this family stands for when a check gives none. */
  category: FindingCategory;
  controls: References;
}

export const CWE_FAMILIES: readonly CweFamily[] = [
  {
    name: 'authentication and access control',
    cwes: [284, 285, 287, 288, 290, 306, 862, 863, 1390],
    category: 'unauthenticated-access',
    controls: { soc2: ['CC6.1'], 'pci-dss': ['8.3.1'], iso27001: ['A.8.5'] },
  },
  {
    name: 'default or hard-coded credentials',
    cwes: [521, 798, 1391, 1392, 1393],
    category: 'default-credentials',
    controls: { soc2: ['CC6.1'], 'pci-dss': ['2.2.2', '8.3.1'], iso27001: ['A.8.5'] },
  },
  {
    name: 'credential protection',
    cwes: [256, 257, 261, 522, 523],
    category: 'weak-crypto',
    controls: { soc2: ['CC6.1'], 'pci-dss': ['8.3.2'], iso27001: ['A.8.5', 'A.8.24'] },
  },
  {
    name: 'cryptography and transport security',
    cwes: [295, 296, 297, 298, 299, 310, 311, 319, 326, 327, 328, 757, 1428],
    category: 'tls',
    controls: { soc2: ['CC6.7'], 'pci-dss': ['4.2.1'], iso27001: ['A.8.24'] },
  },
  {
    name: 'information disclosure',
    cwes: [200, 201, 209, 213, 215, 497, 527, 530, 532, 538, 540, 548, 552],
    category: 'information-disclosure',
    controls: { soc2: ['CC6.1'], 'pci-dss': ['2.2.1'], iso27001: ['A.8.12'] },
  },
  {
    name: 'security misconfiguration',
    cwes: [2, 15, 16, 614, 693, 942, 1004, 1021, 1032, 1275],
    category: 'misconfiguration',
    controls: { soc2: ['CC7.1'], 'pci-dss': ['2.2.1'], iso27001: ['A.8.9'] },
  },
  {
    name: 'vulnerable and outdated components',
    cwes: [937, 1035, 1104, 1352, 1395],
    category: 'outdated-software',
    controls: { soc2: ['CC7.1'], 'pci-dss': ['6.3.1', '6.3.3'], iso27001: ['A.8.8'] },
  },
  {
    name: 'injection and input handling',
    cwes: [20, 22, 74, 77, 78, 79, 89, 90, 91, 94, 611, 917, 918, 1236],
    category: 'injection',
    controls: { soc2: ['CC7.1'], 'pci-dss': ['6.2.4', '6.4.1'], iso27001: ['A.8.26', 'A.8.28'] },
  },
  {
    name: 'malicious code',
    cwes: [506, 507, 508, 510, 511, 912],
    category: 'malware',
    controls: { soc2: ['CC6.8', 'CC7.2'], iso27001: ['A.8.16'] },
  },
];

/** A finding that names CVEs is a known vulnerability in a component. */
const KNOWN_CVE_CONTROLS: References = CATEGORY_CONTROLS['known-vulnerability'];
/** A CVE in CISA's KEV catalogue is threat intelligence that should drive priority. */
const KEV_CONTROLS: References = { iso27001: ['A.5.7'] };
/** High and critical findings must be fixed and rescanned under PCI DSS 11.3.x. */
const INTERNAL_SCAN_CONTROLS: References = { 'pci-dss': ['11.3.1'] };
const EXTERNAL_SCAN_CONTROLS: References = { 'pci-dss': ['11.3.2'] };

export interface FindingForMapping {
  category?: string | null;
  /** `CWE-79`, `cwe-79` or `79`. */
  cwe_ids: readonly string[];
  cve_ids: readonly string[];
  severity: Severity;
  /** The scanned host; an internal address leaves out external-scanning controls. */
  target?: string | null;
  /** Whether any of the CVEs is in CISA's KEV catalogue. */
  in_kev?: boolean;
}

/** One entry of the finding detail view's `frameworks` array. */
export interface FrameworkControls {
  name: FrameworkSlug;
  controls: string[];
}

export interface ControlMapping {
  /** Detail view: `[{ name: 'soc2', controls: ['ctrl_soc2_cc6_1'] }, …]`, only frameworks with controls. */
  frameworks: FrameworkControls[];
  /** List view: the framework slugs of `frameworks`. */
  framework_slugs: FrameworkSlug[];
  /** Every mapped control id, in catalogue order. */
  control_ids: string[];
}

export interface MappingOptions {
  /** Restrict the answer to these frameworks (e.g. the frameworks of a compliance scan). */
  frameworks?: readonly FrameworkSlug[];
}

export function controlsForFinding(finding: FindingForMapping, options: MappingOptions = {}): ControlMapping {
  const refs: References[] = [];
  const category = normalizeCategory(finding.category);
  if (category && !(INVENTORY_CATEGORIES.has(category) && finding.severity === 'info')) {
    refs.push(CATEGORY_CONTROLS[category]);
  }
  for (const cwe of finding.cwe_ids) {
    const family = cweFamily(cwe);
    if (family) refs.push(family.controls);
  }
  if (finding.cve_ids.length > 0) refs.push(KNOWN_CVE_CONTROLS);
  if (finding.in_kev) refs.push(KEV_CONTROLS);
  if (severityRank(finding.severity) >= severityRank('high')) {
    refs.push(INTERNAL_SCAN_CONTROLS);
    if (!isInternalTarget(finding.target)) refs.push(EXTERNAL_SCAN_CONTROLS);
  }
  return groupByFramework(toIds(refs), options.frameworks);
}

/** The CWE family of a CWE id (`CWE-79`, `79`), if it belongs to one. */
export function cweFamily(cwe: string): CweFamily | undefined {
  const number = Number(/^(?:cwe-)?(\d+)$/i.exec(cwe.trim())?.[1]);
  if (!Number.isInteger(number)) return undefined;
  return CWE_FAMILIES.find((family) => family.cwes.includes(number));
}

export const SCAN_TYPES = ['quick', 'full', 'compliance'] as const;
export type ScanType = (typeof SCAN_TYPES)[number];

/**
 * What each scan phase looks at, as finding categories (whose controls it can then
 * confirm or fail) plus controls the activity itself evidences.
 */
const PHASE_COVERAGE: Readonly<
  Record<string, { categories: readonly FindingCategory[]; controls?: References }>
> = {
  discovery: { categories: ['open-port', 'exposed-service'] },
  enumeration: { categories: ['exposed-service', 'outdated-software'] },
  vulnerability_scanning: {
    categories: [
      'unauthenticated-access',
      'default-credentials',
      'known-vulnerability',
      'outdated-software',
      'tls',
      'weak-crypto',
      'misconfiguration',
    ],
    controls: { soc2: ['CC7.1'], 'pci-dss': ['6.3.1', '11.3.1', '11.3.2'], iso27001: ['A.8.8'] },
  },
  web_analysis: { categories: ['web-headers', 'information-disclosure', 'injection'] },
  threat_intelligence: { categories: [], controls: { iso27001: ['A.5.7'] } },
};

/** The phases of each scan type that decide coverage (decisions.md, "Scans"). */
const SCAN_TYPE_PHASES: Readonly<Record<ScanType, readonly string[]>> = {
  quick: ['discovery', 'enumeration', 'vulnerability_scanning'],
  full: ['discovery', 'enumeration', 'vulnerability_scanning', 'web_analysis', 'threat_intelligence'],
  compliance: ['discovery', 'enumeration', 'vulnerability_scanning', 'web_analysis', 'threat_intelligence'],
};

/**
 * Controls a scan can fail but never show as passing: an outside-in scan sees their
 * failures (a backdoor, an unpatched component) but cannot see them working
 * (anti-malware, monitoring, change management, penetration tests). They stay
 * `not_assessed` until a finding fails them or a user attaches evidence.
 */
export const MAP_ONLY_CONTROLS: ReadonlySet<string> = new Set(
  ['CC6.8', 'CC7.2', 'CC8.1']
    .map((ref) => controlId('soc2', ref))
    .concat(controlId('pci-dss', '11.4.1'), controlId('iso27001', 'A.8.16')),
);

export interface AssessmentOptions {
  /** The scanned target; an internal address does not assess external scanning (PCI DSS 11.3.2). */
  target?: string | null;
}

/**
 * The control ids a completed scan of this type assesses, in catalogue order,
 * restricted to `frameworks` when given and non-empty. A control a completed scan
 * assessed is `passing` unless an open finding maps to it.
 */
export function controlsAssessedBy(
  scanType: ScanType,
  frameworks?: readonly FrameworkSlug[] | null,
  options: AssessmentOptions = {},
): string[] {
  const refs: References[] = [];
  for (const phase of SCAN_TYPE_PHASES[scanType]) {
    const coverage = PHASE_COVERAGE[phase];
    if (!coverage) continue;
    for (const category of coverage.categories) refs.push(CATEGORY_CONTROLS[category]);
    if (coverage.controls) refs.push(coverage.controls);
  }
  const external = controlId('pci-dss', '11.3.2');
  const ids = toIds(refs).filter(
    (id) => !MAP_ONLY_CONTROLS.has(id) && !(id === external && isInternalTarget(options.target)),
  );
  return groupByFramework(ids, frameworks ?? undefined).control_ids;
}

/** Whether a target is on an internal network (see targetExposure); host names count as external. */
export function isInternalTarget(target: string | null | undefined): boolean {
  return targetExposure(target) === 'internal';
}

function toIds(refs: readonly References[]): string[] {
  const ids = new Set<string>();
  for (const group of refs) {
    for (const framework of FRAMEWORK_SLUGS) {
      for (const reference of group[framework] ?? []) {
        const id = controlId(framework, reference);
        if (!getControl(id))
          throw new Error(`mapping names ${framework} ${reference}, which is not in the catalogue`);
        ids.add(id);
      }
    }
  }
  return sortControlIds(ids);
}

function groupByFramework(ids: readonly string[], only?: readonly FrameworkSlug[]): ControlMapping {
  const wanted = only && only.length > 0 ? new Set(only) : new Set(FRAMEWORK_SLUGS);
  const frameworks: FrameworkControls[] = [];
  for (const name of FRAMEWORK_SLUGS) {
    if (!wanted.has(name)) continue;
    const controls = ids.filter((id) => getControl(id)?.framework === name);
    if (controls.length > 0) frameworks.push({ name, controls });
  }
  return {
    frameworks,
    framework_slugs: frameworks.map((f) => f.name),
    control_ids: frameworks.flatMap((f) => f.controls),
  };
}
