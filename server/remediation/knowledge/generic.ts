import type { FindingCategory } from '../../controls/mapping.ts';
import type { Severity } from '../../scoring/severity.ts';
import { cwePage, type KnowledgeEntry } from './entry.ts';
import { tlsWeakCipher } from './tls.ts';
import { missingSecurityHeaders } from './web.ts';

/**
 * Knowledge for findings no specific entry covers: a known CVE in a component, one
 * entry per finding category, and a last resort per severity.
 */

export const knownVulnerability: KnowledgeEntry = {
  id: 'known-vulnerability',
  aliases: ['outdated-software', 'vulnerable-component', 'outdated-software-cve'],
  category: 'known-vulnerability',
  cwe_ids: ['CWE-1104', 'CWE-1395'],
  impact:
    'runs a version affected by {cves}: publicly documented, with attack details (and often exploit code) available to anyone.',
  scenarios: [
    'An attacker fingerprints the version of {component}, looks up {cves} and runs a public exploit or scanner template against {endpoint}.',
    'Mass-exploitation campaigns scan the internet for exactly this version shortly after disclosure and compromise every unpatched instance they find.',
  ],
  remediation: {
    summary:
      'Apply the vendor fix for {cves} to {component}: upgrade to a fixed version, or apply the vendor’s mitigation until you can.',
    steps: [
      'Confirm the installed version of the affected software on {host} (package manager, `--version`, or the banner in the evidence).',
      'Read the vendor advisory for {cves} (see the references) to find the first fixed version and any mitigations.',
      'Upgrade through your normal change process: packages from the distribution’s security repository, or rebuild container images on a patched base and redeploy.',
      'If you cannot patch yet, apply the vendor’s mitigation and restrict network access to {endpoint} to the clients that need it.',
      'Rescan {host} to confirm the vulnerable version is gone.',
    ],
    code_example: `# Debian/Ubuntu: upgrade the affected package
sudo apt-get update && sudo apt-get install --only-upgrade <package>
# RHEL/Fedora/Alma/Rocky
sudo dnf upgrade --refresh <package>
# container image: rebuild on a patched base image and redeploy
docker build --pull -t <image>:<tag> . && docker push <image>:<tag>`,
    references: [
      'https://owasp.org/Top10/A06_2021-Vulnerable_and_Outdated_Components/',
      'https://www.cisa.gov/known-exploited-vulnerabilities-catalog',
      'https://www.first.org/epss/',
      cwePage(1104),
    ],
  },
};

const tlsGeneric: KnowledgeEntry = {
  id: 'tls-configuration',
  aliases: [],
  category: 'tls',
  cwe_ids: ['CWE-326'],
  defaultPort: 443,
  impact: 'has a weakness in its TLS setup, which reduces the protection of data exchanged with it.',
  scenarios: [
    'An attacker on the network path to {endpoint} exploits the weaker TLS setup to intercept or tamper with traffic, or to impersonate the server.',
  ],
  remediation: {
    summary:
      'Bring the TLS configuration of {endpoint} in line with a current baseline (Mozilla "intermediate").',
    steps: [
      'Generate a baseline configuration for your server software and version with the Mozilla SSL Configuration Generator.',
      'Allow only TLS 1.2 and 1.3 with forward-secret AEAD ciphers, and serve a valid, trusted certificate with its full chain.',
      'Test the configuration, reload the server and rescan {endpoint}.',
    ],
    code_example: `# nginx
ssl_protocols TLSv1.2 TLSv1.3;
ssl_prefer_server_ciphers off;

# inspect what {endpoint} negotiates
openssl s_client -connect {endpoint} -servername {host} </dev/null`,
    references: [
      'https://ssl-config.mozilla.org/',
      'https://wiki.mozilla.org/Security/Server_Side_TLS',
      cwePage(326),
    ],
  },
};

const exposedService: KnowledgeEntry = {
  id: 'exposed-service',
  aliases: [],
  category: 'exposed-service',
  cwe_ids: ['CWE-284'],
  impact:
    'is reachable from networks that should not reach it, which widens the attack surface for password guessing and exploits.',
  scenarios: [
    'An attacker who finds {endpoint} in an internet-wide scan tries default credentials and known exploits for {service}.',
    'Any future vulnerability in {service} becomes remotely exploitable the day it is published, because the service is already exposed.',
  ],
  remediation: {
    summary: 'Limit who can reach the {service} at {endpoint} to the clients that need it.',
    steps: [
      'Decide whether {endpoint} needs to be reachable from where the scan ran; most databases, caches and brokers do not.',
      'Bind the service to localhost or a private interface, and allow {port}/tcp only from known client addresses at the firewall or security group.',
      'Make sure the service requires authentication and encrypts connections, even on internal networks.',
      'Rescan {host} to confirm the port is closed or filtered from the scanner’s network.',
    ],
    code_example: `# host firewall (nftables): allow {port}/tcp only from the application subnet
nft add rule inet filter input ip saddr 10.0.0.0/24 tcp dport {port} accept
nft add rule inet filter input tcp dport {port} drop

# ufw equivalent
ufw allow from 10.0.0.0/24 to any port {port} proto tcp
ufw deny {port}/tcp`,
    references: ['https://owasp.org/Top10/A05_2021-Security_Misconfiguration/', cwePage(284)],
  },
};

const defaultCredentials: KnowledgeEntry = {
  id: 'default-credentials',
  aliases: [],
  category: 'default-credentials',
  cwe_ids: ['CWE-1392'],
  impact:
    'accepts a default or well-known username and password, so anyone who knows the product can log in.',
  scenarios: [
    'An attacker tries the vendor’s documented default credentials against {endpoint} and gets in on the first attempt.',
    'Botnets that carry lists of default credentials log in automatically and use the access to spread or to mine cryptocurrency.',
  ],
  remediation: {
    summary:
      'Replace the default credentials on the {service} at {endpoint} with unique, strong ones and disable unused default accounts.',
    steps: [
      'Change the password of the default account, or disable it after creating a named administrator.',
      'Store the new credential in your secrets manager and update the clients that use it.',
      'Restrict management access to {endpoint} to administrative networks.',
      'Confirm the default credentials no longer work, then rescan {host}.',
    ],
    code_example:
      '# product-specific: change the default account password in the admin interface or CLI,\n# then verify that the old credentials are refused.',
    references: [
      'https://owasp.org/Top10/A07_2021-Identification_and_Authentication_Failures/',
      cwePage(1392),
    ],
  },
};

const unauthenticatedAccess: KnowledgeEntry = {
  id: 'unauthenticated-access',
  aliases: [],
  category: 'unauthenticated-access',
  cwe_ids: ['CWE-306'],
  impact:
    'performs sensitive functions without asking who the caller is, so anyone who can reach it can use them.',
  scenarios: [
    'An attacker connects to {endpoint} and reads or changes data without presenting any credential.',
    'The attacker uses the open access to pivot further into the network from {host}.',
  ],
  remediation: {
    summary:
      'Require authentication for every client of the {service} at {endpoint}, and restrict network access to it.',
    steps: [
      'Enable the service’s authentication mechanism and create credentials per client with the least privileges needed.',
      'Bind the service to private interfaces and firewall {port}/tcp from untrusted networks.',
      'Confirm that an unauthenticated connection to {endpoint} is refused, then rescan {host}.',
    ],
    code_example:
      '# product-specific: enable authentication in the service configuration, restart,\n# and verify that an anonymous connection is refused.',
    references: [
      'https://owasp.org/Top10/A07_2021-Identification_and_Authentication_Failures/',
      cwePage(306),
    ],
  },
};

const informationDisclosure: KnowledgeEntry = {
  id: 'information-disclosure',
  aliases: [],
  category: 'information-disclosure',
  cwe_ids: ['CWE-200'],
  impact:
    'discloses information that helps an attacker, such as internal details, versions, files or credentials.',
  scenarios: [
    'An attacker collects what {component} discloses and uses it to plan targeted attacks on {host}.',
    'If the disclosed data includes credentials or keys, the attacker uses them directly against other systems.',
  ],
  remediation: {
    summary: 'Stop {component} from disclosing the information, and rotate anything secret it revealed.',
    steps: [
      'Identify exactly what was disclosed (see the finding evidence) and whether it includes secrets or personal data.',
      'Remove the file or endpoint, or restrict it to authenticated administrators; disable verbose errors and version banners.',
      'Rotate any credential or key that was disclosed and review logs for access to it.',
      'Rescan {host} to confirm the information is no longer served.',
    ],
    code_example: `# nginx: hide the version banner
server_tokens off;

# Apache
ServerTokens Prod
ServerSignature Off`,
    references: ['https://owasp.org/Top10/A01_2021-Broken_Access_Control/', cwePage(200)],
  },
};

const misconfiguration: KnowledgeEntry = {
  id: 'misconfiguration',
  aliases: [],
  category: 'misconfiguration',
  cwe_ids: ['CWE-16'],
  impact: 'runs with an insecure configuration setting that weakens its defences.',
  scenarios: [
    'An attacker who spots the insecure setting on {endpoint} uses it as a first step towards access or data exposure.',
  ],
  remediation: {
    summary:
      'Correct the insecure setting on {component} and make the secure value part of the configuration baseline.',
    steps: [
      'Compare the configuration of {host} with the vendor’s hardening guide or a CIS benchmark for the product.',
      'Apply the secure setting through configuration management so it cannot drift back.',
      'Rescan {host} to confirm the finding is resolved.',
    ],
    code_example:
      '# product-specific: apply the secure setting through configuration management (Ansible, Puppet, …)\n# so every host gets it and drift is corrected automatically.',
    references: ['https://owasp.org/Top10/A05_2021-Security_Misconfiguration/', cwePage(16)],
  },
};

const injection: KnowledgeEntry = {
  id: 'injection',
  aliases: [],
  category: 'injection',
  cwe_ids: ['CWE-74'],
  impact:
    'passes untrusted input into an interpreter (SQL, HTML, shell, templates) without the necessary encoding or parameterisation.',
  scenarios: [
    'An attacker crafts input to {component} that changes the meaning of the query or page, reading or modifying data they should not reach.',
    'With script injection, the attacker runs code in the browsers of users who open the affected page on {host} and steals their sessions.',
  ],
  remediation: {
    summary:
      'Fix the input handling in {component}: parameterised queries, context-aware output encoding, and no shell or template evaluation of user input.',
    steps: [
      'Locate the code path behind {component} that builds the query, command or page from request data.',
      'Use parameterised queries or an ORM for SQL, context-aware output encoding for HTML, and argument arrays instead of shell strings.',
      'Add a regression test with the payload from the finding evidence, deploy the fix, and rescan {host}.',
    ],
    code_example: `// parameterised SQL instead of string concatenation
const rows = await db.query('SELECT * FROM users WHERE email = $1', [email]);`,
    references: [
      'https://owasp.org/Top10/A03_2021-Injection/',
      'https://cheatsheetseries.owasp.org/cheatsheets/Injection_Prevention_Cheat_Sheet.html',
      cwePage(74),
    ],
  },
};

const malware: KnowledgeEntry = {
  id: 'malware',
  aliases: [],
  category: 'malware',
  cwe_ids: ['CWE-506'],
  impact:
    'shows signs of a backdoor, web shell or command-and-control component, which means the host may already be compromised.',
  scenarios: [
    'The operator of the implant on {host} already has remote control and uses it to steal data or move to other systems.',
    'Other attackers find the same backdoor at {endpoint} and use it too.',
  ],
  remediation: {
    summary:
      'Treat {host} as compromised: isolate it, preserve evidence, and rebuild it from a trusted source.',
    steps: [
      'Isolate {host} from the network without powering it off, so memory and disk can be preserved for investigation.',
      'Follow your incident response plan: scope the intrusion, find the entry point, and check other hosts for the same indicators.',
      'Rebuild the host from known-good images, rotate every credential it held, and close the entry point before reconnecting it.',
    ],
    code_example: '# incident response: isolate first, investigate second, rebuild third.',
    references: [
      'https://www.cisa.gov/resources-tools/resources/federal-government-cybersecurity-incident-and-vulnerability-response-playbooks',
      cwePage(506),
    ],
  },
};

const openPort: KnowledgeEntry = {
  id: 'open-port',
  aliases: ['open-service'],
  category: 'open-port',
  cwe_ids: [],
  impact: 'is reachable from the scanner; this is an observation, not in itself a weakness.',
  scenarios: [
    'If {endpoint} is not meant to be public, an attacker can probe the {service} behind it for weaknesses.',
  ],
  remediation: {
    summary:
      'Confirm that the {service} at {endpoint} is meant to be reachable from where the scan ran; close it if not.',
    steps: [
      'Check the service on {endpoint} against your list of intended exposures.',
      'If it is not needed, stop the service or firewall {port}/tcp; if it is, make sure it is patched and requires authentication.',
    ],
    code_example: `# which process listens on {port}?
sudo ss -ltnp 'sport = :{port}'`,
    references: ['https://owasp.org/Top10/A05_2021-Security_Misconfiguration/'],
  },
};

/** The entry that speaks for a category when no specific entry matched. */
export const CATEGORY_ENTRIES: Readonly<Partial<Record<FindingCategory, KnowledgeEntry>>> = {
  tls: tlsGeneric,
  'weak-crypto': tlsWeakCipher,
  'web-headers': missingSecurityHeaders,
  'exposed-service': exposedService,
  'default-credentials': defaultCredentials,
  'unauthenticated-access': unauthenticatedAccess,
  'outdated-software': knownVulnerability,
  'known-vulnerability': knownVulnerability,
  'information-disclosure': informationDisclosure,
  misconfiguration,
  injection,
  malware,
  'open-port': openPort,
  informational: openPort,
};

const SEVERITY_SUMMARY: Record<Severity, string> = {
  critical:
    'Treat "{title}" on {component} as an emergency: remove exposure now (firewall or disable the service) and fix the root cause within days.',
  high: 'Fix "{title}" on {component} within your high-severity deadline, and restrict access to {endpoint} in the meantime.',
  medium: 'Plan a fix for "{title}" on {component} in the next maintenance cycle.',
  low: 'Fix "{title}" on {component} as part of routine hardening.',
  info: 'Review "{title}" on {component}: it is an observation; act if it is not what you intend.',
};

/** Last resort: advice shaped by severity alone. */
export function severityEntry(severity: Severity): KnowledgeEntry {
  return {
    id: `generic-${severity}`,
    aliases: [],
    category: severity === 'info' ? 'informational' : 'misconfiguration',
    cwe_ids: [],
    impact:
      severity === 'info'
        ? 'was reported for information; it does not by itself indicate a weakness.'
        : 'has a weakness that the scanner rated {severity}.',
    scenarios: [
      severity === 'info'
        ? 'An attacker uses the same observation about {endpoint} to map your environment before choosing a target.'
        : 'An attacker who finds the same weakness on {endpoint} uses it as a foothold against {host}.',
    ],
    remediation: {
      summary: SEVERITY_SUMMARY[severity],
      steps: [
        'Read the finding description and evidence to understand what the check observed on {component}.',
        'Find the vendor guidance for the affected software and apply the fix or secure setting it recommends.',
        'Restrict network access to {endpoint} to the clients that need it.',
        'Rescan {host} to confirm the finding is resolved.',
      ],
      code_example: '# no generic fix: follow the vendor guidance for the affected software, then rescan.',
      references: ['https://owasp.org/Top10/A05_2021-Security_Misconfiguration/'],
    },
  };
}
