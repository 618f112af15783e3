import { cwePage, hasCwe, mentions, type KnowledgeEntry } from './entry.ts';

/** TLS protocol, cipher and certificate findings. */

const TLS_REFERENCES = [
  'https://ssl-config.mozilla.org/',
  'https://wiki.mozilla.org/Security/Server_Side_TLS',
  'https://cheatsheetseries.owasp.org/cheatsheets/Transport_Layer_Security_Cheat_Sheet.html',
];

/** The TLS 1.2 cipher suites of Mozilla's "intermediate" profile (OpenSSL names). */
export const INTERMEDIATE_TLS12_CIPHERS =
  'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:DHE-RSA-CHACHA20-POLY1305';

export const tlsLegacyProtocol: KnowledgeEntry = {
  id: 'tls-legacy-protocol',
  aliases: [
    'deprecated-tls',
    'tls10-enabled',
    'tls11-enabled',
    'tls-1-0-enabled',
    'tls-1-1-enabled',
    'sslv3-enabled',
    'legacy-tls',
  ],
  category: 'tls',
  cwe_ids: ['CWE-326', 'CWE-757'],
  defaultPort: 443,
  recognise: (f) =>
    mentions(
      f,
      /\btls ?v?1\.[01]\b|\btls1[._]?[01]\b|\bsslv[23]\b|deprecated (tls|ssl|protocol)|legacy tls/i,
    ),
  impact:
    'still accepts TLS 1.0 or 1.1 (or SSL), protocol versions deprecated by RFC 8996 that lack modern cipher suites and are refused by current browsers and compliance baselines such as PCI DSS.',
  scenarios: [
    'An attacker who can intercept traffic to {endpoint} pushes old or misconfigured clients onto TLS 1.0/1.1 and attacks the weaker CBC-mode constructions those versions rely on.',
    'Auditors and card-brand scans flag {endpoint} as non-compliant because strong cryptography requirements exclude these protocol versions.',
  ],
  playbookId: 'pb_tls_disable_legacy',
  playbookSchemes: ['https'],
  remediation: {
    summary: 'Disable TLS 1.0 and 1.1 (and any SSL version) on {endpoint}; allow only TLS 1.2 and 1.3.',
    steps: [
      'Find every place the protocol list is set (`ssl_protocols` in nginx, `SSLProtocol` in Apache, load balancer or CDN TLS policies).',
      'Allow only TLS 1.2 and 1.3, and use a current cipher list for TLS 1.2 (Mozilla "intermediate").',
      'Test the configuration (`nginx -t` / `apachectl configtest`), reload, and confirm a TLS 1.1 handshake with {endpoint} now fails.',
      'Check with clients that still need old protocols (very old Android, Java 6/7, embedded devices) and plan their upgrade.',
    ],
    code_example: `# nginx (http or server block)
ssl_protocols TLSv1.2 TLSv1.3;

# Apache mod_ssl
SSLProtocol -all +TLSv1.2 +TLSv1.3

# verify: both must fail to handshake
openssl s_client -connect {endpoint} -tls1 </dev/null
openssl s_client -connect {endpoint} -tls1_1 </dev/null`,
    references: ['https://datatracker.ietf.org/doc/html/rfc8996', ...TLS_REFERENCES, cwePage(326)],
  },
};

export const tlsWeakCipher: KnowledgeEntry = {
  id: 'tls-weak-cipher',
  aliases: [
    'weak-cipher-suites',
    'insecure-cipher-suite-detect',
    'tls-weak-ciphers',
    'ssl-weak-ciphers',
    'rc4-cipher',
    '3des-cipher',
    'tls-cbc-beast',
    'tls-cbc-lucky13',
  ],
  category: 'weak-crypto',
  cwe_ids: ['CWE-327', 'CWE-326'],
  defaultPort: 443,
  recognise: (f) =>
    mentions(f, /cipher|rc4|3des|\bdes\b|export|null cipher|anon|sweet32/i) &&
    (f.category === 'tls' || f.category === 'weak-crypto' || hasCwe(f, 326, 327) || mentions(f, /tls|ssl/i)),
  impact:
    'negotiates weak cipher suites (for example RC4, 3DES, export-grade, anonymous or non-forward-secret key exchange) that let a well-placed attacker decrypt or tamper with traffic.',
  scenarios: [
    'An attacker records long-lived sessions with {endpoint} that use 3DES and recovers cookies through a birthday attack (Sweet32).',
    'With static RSA key exchange, anyone who later obtains the server’s private key can decrypt previously recorded traffic, because there is no forward secrecy.',
  ],
  playbookId: 'pb_tls_disable_legacy',
  playbookSchemes: ['https'],
  remediation: {
    summary: 'Restrict {endpoint} to strong, forward-secret AEAD cipher suites.',
    steps: [
      'Replace the cipher list with Mozilla’s "intermediate" TLS 1.2 suites (ECDHE/DHE with AES-GCM or ChaCha20-Poly1305); TLS 1.3 suites are strong by design.',
      'Remove RC4, 3DES, CBC-only, export, NULL and anonymous suites and static RSA key exchange.',
      'Test, reload and re-check the offered suites with `nmap --script ssl-enum-ciphers -p {port} {host}` or a similar tool.',
    ],
    code_example: `# nginx
ssl_protocols TLSv1.2 TLSv1.3;
ssl_ciphers ${INTERMEDIATE_TLS12_CIPHERS};
ssl_prefer_server_ciphers off;

# Apache mod_ssl
SSLProtocol -all +TLSv1.2 +TLSv1.3
SSLCipherSuite ${INTERMEDIATE_TLS12_CIPHERS}
SSLHonorCipherOrder off`,
    references: [...TLS_REFERENCES, cwePage(327)],
  },
};

export const tlsCertificateExpired: KnowledgeEntry = {
  id: 'tls-certificate-expired',
  aliases: ['expired-ssl', 'ssl-certificate-expired', 'expired-certificate', 'tls-expired-certificate'],
  category: 'tls',
  cwe_ids: ['CWE-298'],
  defaultPort: 443,
  recognise: (f) => mentions(f, /expired/i) && (mentions(f, /certificate|ssl|tls/i) || hasCwe(f, 298)),
  impact:
    'presents a certificate past its expiry date, so clients either refuse the connection or users are trained to click through certificate warnings, which removes protection against interception.',
  scenarios: [
    'Browsers and API clients refuse to connect to {endpoint}, causing an outage for everything that depends on it.',
    'Users who have learnt to ignore the warning on {host} will also ignore it when an attacker intercepts the connection with a forged certificate.',
  ],
  remediation: {
    summary: 'Renew the certificate served on {endpoint} and automate renewal so it cannot lapse again.',
    steps: [
      'Check the current dates: `openssl s_client -connect {endpoint} -servername {host} </dev/null | openssl x509 -noout -dates`.',
      'Renew the certificate with your CA; with an ACME CA such as Let’s Encrypt, `certbot renew` (or your ACME client) renews and can reload the server.',
      'Install the full chain (leaf plus intermediates), reload the server, and check the new expiry date.',
      'Automate renewal and add expiry monitoring with an alert at least 14 days ahead.',
    ],
    code_example: `# renew with certbot and reload nginx after success
sudo certbot renew --deploy-hook "systemctl reload nginx"

# check what {endpoint} now serves
echo | openssl s_client -connect {endpoint} -servername {host} 2>/dev/null | openssl x509 -noout -enddate`,
    references: [
      'https://letsencrypt.org/docs/',
      'https://eff-certbot.readthedocs.io/en/stable/using.html',
      cwePage(298),
    ],
  },
};

export const tlsCertificateSelfSigned: KnowledgeEntry = {
  id: 'tls-certificate-self-signed',
  aliases: [
    'self-signed-ssl',
    'untrusted-root-certificate',
    'self-signed-certificate',
    'tls-untrusted-certificate',
  ],
  category: 'tls',
  cwe_ids: ['CWE-295'],
  defaultPort: 443,
  recognise: (f) => mentions(f, /self[- ]signed|untrusted (root|certificate|issuer)/i) || hasCwe(f, 295),
  impact:
    'presents a self-signed or otherwise untrusted certificate, so clients cannot tell the real server from an impostor and either fail or are configured to skip verification.',
  scenarios: [
    'An attacker on the network path to {endpoint} presents their own self-signed certificate; clients that were told to ignore verification errors accept it and send credentials to the attacker.',
    'Browsers show a warning on {host}, and users who click through it learn a habit that phishing and interception rely on.',
  ],
  remediation: {
    summary:
      'Serve a certificate for {host} issued by a CA that clients trust: a public CA for public services, your internal CA for internal ones.',
    steps: [
      'For public names, obtain a certificate from a public CA (an ACME client such as certbot does this for free with Let’s Encrypt).',
      'For internal services, issue the certificate from an internal CA and distribute that CA’s root certificate to clients, instead of disabling verification.',
      'Install the full chain, reload the server, and remove any `verify=false`/`-k` workarounds from clients.',
    ],
    code_example: `# public name served by nginx: obtain and install a certificate
sudo certbot --nginx -d {host}

# confirm the chain now verifies
openssl s_client -connect {endpoint} -servername {host} -verify_return_error </dev/null`,
    references: ['https://letsencrypt.org/getting-started/', ...TLS_REFERENCES.slice(2), cwePage(295)],
  },
};

export const TLS_ENTRIES: readonly KnowledgeEntry[] = [
  tlsLegacyProtocol,
  tlsWeakCipher,
  tlsCertificateExpired,
  tlsCertificateSelfSigned,
];
