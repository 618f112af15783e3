import { cwePage, type KnowledgeEntry } from './entry.ts';

/** Remediation for the service and certificate checks added for detection depth (docs/checks.md). */

const TLS_REFERENCES = [
  'https://ssl-config.mozilla.org/',
  'https://wiki.mozilla.org/Security/Server_Side_TLS',
];

export const erlangDistributionExposed: KnowledgeEntry = {
  id: 'erlang-distribution-exposed',
  aliases: ['erlang-daemon', 'epmd-exposed'],
  category: 'exposed-service',
  cwe_ids: ['CWE-668'],
  defaultPort: 4369,
  impact:
    'publishes its Erlang nodes and their distribution ports, where only the shared cookie stands between anyone who reaches them and running code on the node.',
  scenarios: [
    'An attacker asks {endpoint} for the node list, then tries default or leaked cookies against the distribution port and, once in, runs `os:cmd/1` on the node.',
    'A cookie copied from a container image or a predictable generator lets every node built from it be taken over.',
  ],
  remediation: {
    summary:
      'Keep epmd and the Erlang distribution ports on {host} off untrusted networks, and use a long random cookie.',
    steps: [
      'Bind epmd and distribution to loopback or a private interface: `ERL_EPMD_ADDRESS=127.0.0.1` and `-kernel inet_dist_use_interface {127,0,0,1}` (RabbitMQ: `RABBITMQ_DIST_PORT` and `listeners` settings; single-node brokers need no distribution from outside).',
      'Firewall 4369/tcp and the distribution port range (RabbitMQ: 25672) from everything but the cluster peers.',
      'Replace the cookie with at least 32 random characters, readable only by the service account, different per cluster.',
      'Where nodes must talk across networks, run distribution over TLS (`-proto_dist inet_tls`).',
    ],
    code_example: `# /etc/rabbitmq/rabbitmq-env.conf
ERL_EPMD_ADDRESS=127.0.0.1
SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"

# a new cookie (stop the node first)
openssl rand -hex 32 | sudo tee /var/lib/rabbitmq/.erlang.cookie >/dev/null
sudo chmod 400 /var/lib/rabbitmq/.erlang.cookie`,
    references: [
      'https://www.erlang.org/doc/system/distributed.html',
      'https://www.rabbitmq.com/docs/networking#epmd-inet-dist-port-range',
      cwePage(668),
    ],
  },
};

export const tlsChainIncomplete: KnowledgeEntry = {
  id: 'tls-certificate-chain-incomplete',
  aliases: ['incomplete-certificate-chain', 'ssl-incomplete-chain'],
  category: 'tls',
  cwe_ids: ['CWE-295'],
  defaultPort: 443,
  impact:
    'sends its certificate without the intermediate CA certificate that links it to a trusted root, so clients without that intermediate cached cannot verify it.',
  scenarios: [
    'API clients, mobile apps and fresh browsers fail to connect to {endpoint}, and their developers disable certificate verification to get going.',
  ],
  remediation: {
    summary: 'Serve the full chain (leaf followed by every intermediate) on {endpoint}.',
    steps: [
      'Download the intermediate certificate(s) from your CA, or use the `fullchain.pem` your ACME client wrote.',
      'Point the server at the full chain (nginx `ssl_certificate fullchain.pem`; Apache `SSLCertificateFile` with the chain appended).',
      'Reload and verify: `openssl s_client -connect {endpoint} -servername {host} -showcerts` lists the intermediates and ends with `Verify return code: 0`.',
    ],
    code_example: `# nginx
ssl_certificate     /etc/letsencrypt/live/{host}/fullchain.pem;
ssl_certificate_key /etc/letsencrypt/live/{host}/privkey.pem;`,
    references: [...TLS_REFERENCES, cwePage(295)],
  },
};

export const tlsHostnameMismatch: KnowledgeEntry = {
  id: 'tls-certificate-hostname-mismatch',
  aliases: ['mismatched-ssl-certificate', 'ssl-dns-names', 'tls-hostname-mismatch', 'tls-certificate-no-san'],
  category: 'tls',
  cwe_ids: ['CWE-297'],
  defaultPort: 443,
  impact:
    'presents a certificate that does not name the host clients ask for, so correct clients refuse it and those told to ignore the mismatch accept any certificate.',
  scenarios: [
    'Users click through the name warning on {host}; an attacker on their network later presents a certificate for any name and they click through again.',
  ],
  remediation: {
    summary: 'Serve on {endpoint} a certificate whose subject alternative names include {host}.',
    steps: [
      'List the names the service is reached by, and issue a certificate covering all of them (SAN entries, or a wildcard for one level).',
      'Where one address serves several names, make sure SNI selects the right certificate for each.',
      'Reload and verify with `openssl s_client -connect {endpoint} -servername {host} -verify_hostname {host}`.',
    ],
    code_example: `sudo certbot certonly --nginx -d {host} -d www.{host}`,
    references: [...TLS_REFERENCES, cwePage(297)],
  },
};

export const tlsWeakKey: KnowledgeEntry = {
  id: 'tls-certificate-weak-key',
  aliases: ['weak-rsa-key', 'ssl-weak-key', 'tls-weak-key'],
  category: 'tls',
  cwe_ids: ['CWE-326'],
  defaultPort: 443,
  impact:
    'identifies itself with an RSA key shorter than 2048 bits, within reach of factoring by a well-funded attacker, who could then impersonate the server.',
  scenarios: [
    'An attacker who factors the key impersonates {endpoint} and, where key exchange is RSA, decrypts recorded sessions.',
  ],
  remediation: {
    summary: 'Replace the certificate on {endpoint} with one for a new RSA 2048+ or ECDSA P-256 key.',
    steps: [
      'Generate a new key (`openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256` or RSA 3072) and a CSR for it.',
      'Have the CA issue the certificate, install it with its chain, reload, and revoke the old certificate.',
    ],
    code_example: `openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \\
  -keyout {host}.key -out {host}.csr -subj "/CN={host}"`,
    references: ['https://csrc.nist.gov/pubs/sp/800/131/a/r2/final', ...TLS_REFERENCES, cwePage(326)],
  },
};

export const tlsNotYetValid: KnowledgeEntry = {
  id: 'tls-certificate-not-yet-valid',
  aliases: ['ssl-not-yet-valid', 'tls-certificate-future'],
  category: 'tls',
  cwe_ids: ['CWE-298'],
  defaultPort: 443,
  impact:
    'presents a certificate whose validity has not started, so clients refuse it until then, or users learn to click through warnings.',
  scenarios: [
    'Clients of {endpoint} fail until the start date; users taught to ignore the warning ignore an attacker’s too.',
  ],
  remediation: {
    summary: 'Serve on {endpoint} a certificate that is valid now, and check the server’s clock.',
    steps: [
      'Check the dates served: `openssl s_client -connect {endpoint} -servername {host} </dev/null | openssl x509 -noout -dates`.',
      'If the host clock is wrong, fix time synchronisation (chrony or systemd-timesyncd) first.',
      'Otherwise reinstall the previous valid certificate until the new one starts, or have the CA issue one valid from now.',
    ],
    code_example: `timedatectl status   # "System clock synchronized: yes"`,
    references: [...TLS_REFERENCES, cwePage(298)],
  },
};

export const DETECTION_DEPTH_ENTRIES: readonly KnowledgeEntry[] = [
  erlangDistributionExposed,
  tlsChainIncomplete,
  tlsHostnameMismatch,
  tlsWeakKey,
  tlsNotYetValid,
];
