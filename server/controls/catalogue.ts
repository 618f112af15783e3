/**
 * The compliance controls a network, web and TLS vulnerability scanner can speak to.
 *
 * Names and descriptions are our own short paraphrases of what each control is
 * about, written for people triaging findings; they are not the text of the
 * standards (read the standards for that). `reference` is the framework's own
 * identifier.
 *
 * Id scheme: `ctrl_<framework slug without punctuation>_<reference lower-cased, every
 * run of other characters turned into "_">`, so `CC7.1` of SOC 2 is `ctrl_soc2_cc7_1`,
 * `11.3.1` of PCI DSS is `ctrl_pcidss_11_3_1` and `A.8.8` of ISO 27001 is
 * `ctrl_iso27001_a_8_8`. Ids are stable: a published id is never renamed.
 */

export const FRAMEWORK_SLUGS = ['soc2', 'pci-dss', 'iso27001'] as const;
export type FrameworkSlug = (typeof FRAMEWORK_SLUGS)[number];

export interface Framework {
  slug: FrameworkSlug;
  name: string;
  /** The edition the controls are taken from. */
  version: string;
}

export const FRAMEWORKS: readonly Framework[] = [
  { slug: 'soc2', name: 'SOC 2', version: 'Trust Services Criteria (2017, points of focus revised 2022)' },
  { slug: 'pci-dss', name: 'PCI DSS', version: '4.0.1' },
  { slug: 'iso27001', name: 'ISO/IEC 27001', version: '2022 (Annex A)' },
];

export interface ControlDefinition {
  /** `ctrl_…`, see the id scheme above. */
  id: string;
  framework: FrameworkSlug;
  /** The framework's own identifier, e.g. `CC7.1`, `11.3.1`, `A.8.8`. */
  reference: string;
  name: string;
  description: string;
}

export function isFrameworkSlug(value: string): value is FrameworkSlug {
  return (FRAMEWORK_SLUGS as readonly string[]).includes(value);
}

/** The control id for a framework reference, following the documented scheme. */
export function controlId(framework: FrameworkSlug, reference: string): string {
  const fw = framework.replace(/[^a-z0-9]/g, '');
  const ref = reference
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
  return `ctrl_${fw}_${ref}`;
}

type Entry = [reference: string, name: string, description: string];

const SOC2: Entry[] = [
  [
    'CC6.1',
    'Logical access security',
    'Access to systems and data goes through authentication and access-control mechanisms; services that let anyone in without credentials, or with well-known default ones, undermine this.',
  ],
  [
    'CC6.6',
    'Protection against threats from outside the system boundary',
    'Connections from outside the organisation are limited to what is intended, and what is reachable from untrusted networks is hardened; unexpected exposed services and admin interfaces are gaps.',
  ],
  [
    'CC6.7',
    'Protection of data in transit',
    'Data moving between systems and users is protected, typically with current TLS and sound certificates; cleartext protocols, legacy TLS versions and weak ciphers are gaps.',
  ],
  [
    'CC6.8',
    'Prevention and detection of malicious software',
    'Controls stop or detect unauthorised or malicious software, such as backdoors, web shells and command-and-control implants, on the organisation’s systems.',
  ],
  [
    'CC7.1',
    'Detection of vulnerabilities and configuration weaknesses',
    'The organisation runs detection procedures, such as regular vulnerability scans, to find newly introduced vulnerabilities and configuration weaknesses, and follows up on what they find.',
  ],
  [
    'CC7.2',
    'Monitoring for anomalies and attacks',
    'Systems are monitored for signs of attack or misuse, with attention to threats known to be exploited in the wild.',
  ],
  [
    'CC8.1',
    'Change management',
    'Changes to infrastructure and software, patches and configuration fixes included, are authorised, tested and tracked before they reach production.',
  ],
];

const PCI_DSS: Entry[] = [
  [
    '1.2.1',
    'Network security control configuration standards',
    'Firewalls, security groups and similar controls follow documented, maintained configuration standards.',
  ],
  [
    '1.3.1',
    'Inbound traffic to the cardholder data environment is restricted',
    'Only the inbound traffic that is needed reaches in-scope systems; everything else is denied.',
  ],
  [
    '1.4.1',
    'Controls between trusted and untrusted networks',
    'Network security controls sit between internal networks and untrusted ones such as the internet, so internal services are not directly reachable from outside.',
  ],
  [
    '2.2.1',
    'System configuration standards',
    'Every system type has a hardening standard that covers known weaknesses, and systems are built and kept to it.',
  ],
  [
    '2.2.2',
    'Vendor default accounts',
    'Default accounts and passwords shipped by vendors are changed or the accounts disabled before systems go live.',
  ],
  [
    '2.2.4',
    'Only necessary services enabled',
    'Services, protocols, daemons and functions that are not needed are removed or disabled.',
  ],
  [
    '2.2.5',
    'Insecure services are justified and secured',
    'Where an insecure service or protocol must remain, there is a documented business reason and extra protections reduce its risk.',
  ],
  [
    '2.2.7',
    'Encrypted administrative access',
    'Administrative access that does not use a local console is protected with strong cryptography.',
  ],
  [
    '4.2.1',
    'Strong cryptography for cardholder data over public networks',
    'Data sent over open, public networks is protected with strong cryptography and trusted, valid certificates; legacy protocol versions and weak ciphers are not accepted.',
  ],
  [
    '6.2.4',
    'Software engineering against common attacks',
    'Custom software is built with techniques that prevent common attacks such as injection, cross-site scripting and broken access control.',
  ],
  [
    '6.3.1',
    'Security vulnerabilities are identified and risk-ranked',
    'New vulnerabilities are identified from trusted sources and each is assigned a risk ranking that drives how fast it is handled.',
  ],
  [
    '6.3.3',
    'Known vulnerabilities are patched',
    'System components are protected from known vulnerabilities by installing available security patches, critical ones promptly.',
  ],
  [
    '6.4.1',
    'Public-facing web applications are protected',
    'Internet-facing web applications are protected against known attacks, through regular security assessment or an automated protective solution.',
  ],
  [
    '8.3.1',
    'User access is authenticated',
    'Every access to system components by users and administrators requires authentication.',
  ],
  [
    '8.3.2',
    'Authentication factors protected with strong cryptography',
    'Passwords and other authentication factors are unreadable in transit and in storage, protected with strong cryptography.',
  ],
  [
    '11.3.1',
    'Internal vulnerability scanning',
    'Internal vulnerability scans run at least quarterly and after significant changes; high-risk and critical findings are fixed and confirmed by a rescan.',
  ],
  [
    '11.3.2',
    'External vulnerability scanning',
    'Externally reachable systems are scanned at least quarterly by an approved scanning vendor and rescanned until they pass.',
  ],
  [
    '11.4.1',
    'Penetration testing methodology',
    'A defined penetration testing methodology covers the network perimeter and critical systems from inside and outside. A vulnerability scan is not a penetration test; evidence for this control comes from the test itself.',
  ],
];

const ISO27001: Entry[] = [
  [
    'A.5.7',
    'Threat intelligence',
    'Information about current threats, such as which vulnerabilities are being exploited in the wild, is gathered and used to prioritise protection.',
  ],
  [
    'A.8.5',
    'Secure authentication',
    'Access to systems and services is protected by sound authentication; services must not accept anonymous or default-credential logins.',
  ],
  [
    'A.8.8',
    'Technical vulnerability management',
    'Vulnerabilities in systems in use are found, assessed for exposure and addressed in good time, for example by patching.',
  ],
  [
    'A.8.9',
    'Configuration management',
    'Secure configurations are defined, applied, monitored and reviewed for hardware, software, services and networks.',
  ],
  [
    'A.8.12',
    'Data leakage prevention',
    'Measures stop sensitive data, such as credentials, source code and configuration files, from being exposed to those who should not see it.',
  ],
  [
    'A.8.16',
    'Monitoring activities',
    'Networks, systems and applications are watched for anomalous behaviour so possible incidents are noticed and handled.',
  ],
  [
    'A.8.20',
    'Networks security',
    'Networks and network devices are secured and managed so that services are reachable only where intended.',
  ],
  [
    'A.8.21',
    'Security of network services',
    'Security mechanisms and service levels of network services, such as authentication and encryption, are defined and in place.',
  ],
  [
    'A.8.24',
    'Use of cryptography',
    'Cryptography is used according to agreed rules, including current protocol versions, strong algorithms and well-managed keys and certificates.',
  ],
  [
    'A.8.26',
    'Application security requirements',
    'Security requirements for applications, such as protective HTTP headers and input handling, are identified and met.',
  ],
  [
    'A.8.28',
    'Secure coding',
    'Software is written following secure coding principles so it does not contain common flaws such as injection.',
  ],
];

function build(framework: FrameworkSlug, entries: Entry[]): ControlDefinition[] {
  return entries.map(([reference, name, description]) => ({
    id: controlId(framework, reference),
    framework,
    reference,
    name,
    description,
  }));
}

/** Every control, grouped by framework in {@link FRAMEWORK_SLUGS} order, then in reference order. */
export const CONTROLS: readonly ControlDefinition[] = Object.freeze([
  ...build('soc2', SOC2),
  ...build('pci-dss', PCI_DSS),
  ...build('iso27001', ISO27001),
]);

const BY_ID: ReadonlyMap<string, ControlDefinition> = new Map(CONTROLS.map((c) => [c.id, c]));
const POSITION: ReadonlyMap<string, number> = new Map(CONTROLS.map((c, i) => [c.id, i]));

export function getControl(id: string): ControlDefinition | undefined {
  return BY_ID.get(id);
}

export function isControlId(id: string): boolean {
  return BY_ID.has(id);
}

export function controlsOfFramework(framework: FrameworkSlug): ControlDefinition[] {
  return CONTROLS.filter((c) => c.framework === framework);
}

/** Sorts control ids into catalogue order (framework, then reference); unknown ids last. */
export function sortControlIds(ids: Iterable<string>): string[] {
  return [...new Set(ids)].sort(
    (a, b) => (POSITION.get(a) ?? Infinity) - (POSITION.get(b) ?? Infinity) || a.localeCompare(b),
  );
}
