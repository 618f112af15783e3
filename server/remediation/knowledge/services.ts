import { cwePage, hasCwe, isMissingAuth, isService, mentions, type KnowledgeEntry } from './entry.ts';

/** Network services found answering without authentication, with weak settings, or outdated. */

export const redisNoAuth: KnowledgeEntry = {
  id: 'redis-no-auth',
  aliases: ['exposed-redis', 'redis-unauth', 'unauth-redis', 'redis-default-logins', 'redis-unauthenticated'],
  category: 'unauthenticated-access',
  cwe_ids: ['CWE-306'],
  defaultPort: 6379,
  recognise: (f, c) => isService(f, c, ['redis', 'rediss'], [6379], /\bredis\b/i) && isMissingAuth(f),
  impact:
    'accepts commands without a password: anyone who can reach it can read, change or delete every key, and can often turn that into code execution on the host by making Redis rewrite files on disk.',
  scenarios: [
    'An attacker connects to {endpoint} with redis-cli, runs INFO and SCAN to find session tokens, cached personal data or queued jobs, and copies them out.',
    'Using CONFIG SET dir and dbfilename followed by SAVE, the attacker writes their own content into a file such as ~/.ssh/authorized_keys or a cron directory on {host}, gaining a shell as the Redis user.',
    'Automated botnets that sweep the internet for open Redis servers flush the data set (FLUSHALL) and leave a ransom note key, or load a cryptominer through replication (REPLICAOF) or MODULE LOAD.',
  ],
  playbookId: 'pb_redis_requirepass',
  playbookSchemes: ['redis', 'tcp'],
  remediation: {
    summary:
      'Require authentication on the Redis server at {endpoint} and stop exposing it to networks that have no business reaching it.',
    steps: [
      'Set a long random password with `requirepass` in redis.conf, or on Redis 6+ define ACL users (`user app on >secret ~* +@all -@dangerous`) and disable the passwordless default user.',
      'Keep `protected-mode yes` and bind Redis only to the interfaces its clients use (`bind 127.0.0.1 -::1` plus a private address if needed).',
      'Block port {port}/tcp on {host} from untrusted networks at the host firewall or security group.',
      'Deny dangerous commands (CONFIG, MODULE, DEBUG, FLUSHALL, REPLICAOF) to application users with ACL rules such as `-@dangerous`.',
      'Restart Redis, give clients the new credential, and check that an unauthenticated `PING` to {endpoint} is answered with `NOAUTH`.',
    ],
    code_example: `# /etc/redis/redis.conf  (on some systems /etc/redis.conf)
bind 127.0.0.1 -::1
protected-mode yes
port {port}
requirepass <long-random-secret>

# Redis 6+: an application user without the dangerous commands
# user app on ><app-secret> ~* &* +@all -@dangerous

# verify from another host: must answer NOAUTH
redis-cli -h {host} -p {port} PING`,
    references: [
      'https://redis.io/docs/latest/operate/oss_and_stack/management/security/',
      'https://redis.io/docs/latest/operate/oss_and_stack/management/security/acl/',
      cwePage(306),
    ],
  },
};

export const postgresTrustAuth: KnowledgeEntry = {
  id: 'postgres-trust-auth',
  aliases: [
    'unauth-psql',
    'pgsql-empty-password',
    'postgres-unauth',
    'postgresql-trust-auth',
    'postgres-default-logins',
    'postgresql-default-password',
  ],
  category: 'unauthenticated-access',
  cwe_ids: ['CWE-287', 'CWE-306'],
  defaultPort: 5432,
  recognise: (f, c) =>
    isService(f, c, ['postgresql', 'postgres'], [5432], /postgres|pgsql|psql/i) && isMissingAuth(f),
  impact:
    'lets clients log in without a valid password (pg_hba.conf `trust` or an empty password), so anyone who can reach it can read and change every database that role can reach, and a superuser role can run operating-system commands through COPY … PROGRAM.',
  scenarios: [
    'An attacker runs `psql -h {host} -p {port} -U postgres` and is let in without a password, then dumps every database with pg_dump.',
    'As a superuser the attacker executes `COPY … FROM PROGRAM` to run shell commands on {host} as the postgres user, a technique used by cryptomining botnets.',
    'The attacker quietly alters application data (prices, permissions, password hashes) or creates a new login role to keep access after the hole is closed.',
  ],
  playbookId: 'pb_postgres_scram',
  playbookSchemes: ['postgresql', 'postgres', 'tcp'],
  remediation: {
    summary:
      'Replace `trust` (and empty passwords) with `scram-sha-256` password authentication for PostgreSQL at {endpoint}, and limit who can connect.',
    steps: [
      'Find the active configuration with `SHOW hba_file;` and `SHOW config_file;`.',
      "Set `password_encryption = 'scram-sha-256'` (the default since PostgreSQL 14) and set a password for every login role; roles that still have md5 hashes or none need `ALTER ROLE … PASSWORD` before the switch.",
      'Change every `host`/`hostssl` line whose method is `trust` to `scram-sha-256`, and use `peer` for local socket lines.',
      'Narrow `listen_addresses` and the address ranges in pg_hba.conf to the application hosts, and firewall {port}/tcp from everything else.',
      "Reload with `SELECT pg_reload_conf();` and confirm `SELECT * FROM pg_hba_file_rules WHERE error IS NOT NULL OR auth_method = 'trust';` returns no rows.",
    ],
    code_example: `# postgresql.conf
password_encryption = 'scram-sha-256'
listen_addresses = 'localhost,10.0.0.5'

# pg_hba.conf
# TYPE   DATABASE  USER  ADDRESS       METHOD
local    all       all                 peer
hostssl  all       all   10.0.0.0/24   scram-sha-256

-- set a SCRAM password for each login role, then reload
ALTER ROLE app PASSWORD '<strong password>';
SELECT pg_reload_conf();`,
    references: [
      'https://www.postgresql.org/docs/current/auth-pg-hba-conf.html',
      'https://www.postgresql.org/docs/current/auth-password.html',
      'https://www.postgresql.org/docs/current/runtime-config-connection.html',
      cwePage(287),
    ],
  },
};

export const mysqlExposed: KnowledgeEntry = {
  id: 'mysql-exposed',
  aliases: [
    'mysql-empty-password',
    'mysql-empty-root-password',
    'mysql-default-login',
    'mariadb-exposed',
    'mysql-unauth',
    'exposed-mysql',
  ],
  category: 'exposed-service',
  cwe_ids: ['CWE-284', 'CWE-521'],
  defaultPort: 3306,
  recognise: (f, c) => isService(f, c, ['mysql', 'mariadb'], [3306], /mysql|mariadb/i) && isMissingAuth(f),
  impact:
    'is reachable from untrusted networks, so its accounts face password guessing from anywhere, and any account with an empty or default password (or a wildcard host) hands over the data it can read.',
  scenarios: [
    'An attacker tries `root` and common application account names with empty and well-known passwords against {endpoint} and, once in, dumps the databases with mysqldump.',
    'With the FILE privilege the attacker reads server files with LOAD_FILE() or writes a web shell with SELECT … INTO OUTFILE if the web root is on {host}.',
    'Ransom groups that scan for exposed MySQL/MariaDB drop the tables and leave a ransom note table behind.',
  ],
  remediation: {
    summary:
      'Take MySQL/MariaDB at {endpoint} off untrusted networks and make sure no account can log in without a strong password.',
    steps: [
      'Set `bind-address` to 127.0.0.1 or the private interface the application uses, and firewall {port}/tcp from everything else.',
      "List risky accounts with `SELECT user, host FROM mysql.user WHERE authentication_string = '' OR host = '%';`.",
      'Drop anonymous accounts and the test database (what `mysql_secure_installation` does), give every account a strong password, and restrict account hosts to the application servers.',
      'Require TLS for remote clients with `require_secure_transport = ON`.',
      'Restart the server and confirm {endpoint} is no longer reachable from outside, or refuses logins without valid credentials.',
    ],
    code_example: `# MySQL: /etc/mysql/mysql.conf.d/mysqld.cnf   MariaDB: /etc/mysql/mariadb.conf.d/50-server.cnf
[mysqld]
bind-address = 127.0.0.1
require_secure_transport = ON

-- find and fix risky accounts
SELECT user, host FROM mysql.user WHERE authentication_string = '' OR host = '%';
DROP USER IF EXISTS ''@'localhost';
ALTER USER 'app'@'10.0.0.%' IDENTIFIED BY '<strong password>';`,
    references: [
      'https://dev.mysql.com/doc/refman/8.0/en/security-guidelines.html',
      'https://dev.mysql.com/doc/refman/8.0/en/mysql-secure-installation.html',
      'https://mariadb.com/kb/en/securing-mariadb/',
      cwePage(521),
    ],
  },
};

export const mqttAnonymous: KnowledgeEntry = {
  id: 'mqtt-anonymous',
  aliases: ['unauth-mqtt-broker', 'mqtt-uauth-broker', 'mqtt-unauth', 'mqtt-anonymous-access'],
  category: 'unauthenticated-access',
  cwe_ids: ['CWE-306'],
  defaultPort: 1883,
  recognise: (f, c) =>
    isService(f, c, ['mqtt', 'mqtts'], [1883, 8883], /\bmqtt\b|mosquitto/i) && isMissingAuth(f),
  impact:
    'accepts anonymous clients: anyone who can reach it can subscribe to every topic it is allowed to (often `#`, everything) and publish messages that devices and services act on.',
  scenarios: [
    'An attacker subscribes to `#` on {endpoint} and records every message: sensor readings, device identifiers, and sometimes credentials or tokens sent in payloads.',
    'The attacker publishes forged commands or readings on the topics devices listen to, switching equipment or feeding false data into downstream systems.',
    'The attacker floods the broker with retained messages or large payloads until clients on {host} are starved.',
  ],
  remediation: {
    summary:
      'Turn off anonymous access on the MQTT broker at {endpoint}, require per-client credentials and ACLs, and use TLS.',
    steps: [
      'Set `allow_anonymous false` (Mosquitto; other brokers such as EMQX, HiveMQ or VerneMQ have an equivalent setting).',
      'Create a user per device or service in a password file and give each only the topics it needs in an ACL file.',
      'Serve clients on a TLS listener (8883) and close the plaintext port {port}/tcp to untrusted networks.',
      'Restart the broker and confirm that an anonymous `mosquitto_sub -h {host} -p {port} -t "#"` is refused.',
    ],
    code_example: `# /etc/mosquitto/conf.d/secure.conf
allow_anonymous false
password_file /etc/mosquitto/passwd
acl_file /etc/mosquitto/acl

listener 8883
certfile /etc/mosquitto/certs/server.crt
keyfile /etc/mosquitto/certs/server.key

# add a client (prompts for its password; -c creates the file)
mosquitto_passwd -c /etc/mosquitto/passwd sensor01

# /etc/mosquitto/acl
user sensor01
topic write sensors/sensor01/#`,
    references: [
      'https://mosquitto.org/documentation/authentication-methods/',
      'https://mosquitto.org/man/mosquitto-conf-5.html',
      cwePage(306),
    ],
  },
};

export const natsNoAuth: KnowledgeEntry = {
  id: 'nats-no-auth',
  aliases: ['nats-unauth', 'nats-server-unauth', 'exposed-nats'],
  category: 'unauthenticated-access',
  cwe_ids: ['CWE-306'],
  defaultPort: 4222,
  recognise: (f, c) => isService(f, c, ['nats'], [4222], /\bnats\b/i) && isMissingAuth(f),
  impact:
    'accepts clients without authentication, so anyone who can reach it can subscribe to any subject (including `>`, everything) and publish messages that services consume as trusted.',
  scenarios: [
    'An attacker connects to {endpoint}, subscribes to `>` and reads every message flowing between services, including request/reply traffic that carries data or tokens.',
    'The attacker publishes forged messages or replies on service subjects, triggering actions in consumers that trust the bus.',
    'If JetStream is enabled, the attacker reads or purges streams and key-value buckets.',
  ],
  remediation: {
    summary:
      'Require authentication on the NATS server at {endpoint} (users, tokens or NKeys/JWT), restrict subjects per user, and enable TLS.',
    steps: [
      'Add an `authorization` block with users (passwords stored as bcrypt hashes from `nats server passwd`) or switch to NKeys/decentralised JWT auth.',
      'Give each user `permissions` limited to the subjects it publishes and subscribes to.',
      'Enable `tls` for client connections and keep the monitoring port (8222) off untrusted networks.',
      'Reload the server (`nats-server --signal reload`) and confirm that an anonymous client is refused with "Authorization Violation".',
    ],
    code_example: `# nats-server.conf
authorization {
  users = [
    {
      user: "orders"
      password: "$2a$11$<bcrypt hash from 'nats server passwd'>"
      permissions: { publish: "orders.>", subscribe: "_INBOX.>" }
    }
  ]
}

tls {
  cert_file: "/etc/nats/server.crt"
  key_file: "/etc/nats/server.key"
}`,
    references: [
      'https://docs.nats.io/running-a-nats-service/configuration/securing_nats/auth_intro',
      'https://docs.nats.io/running-a-nats-service/configuration/securing_nats/authorization',
      'https://docs.nats.io/running-a-nats-service/configuration/securing_nats/tls',
      cwePage(306),
    ],
  },
};

export const amqpGuest: KnowledgeEntry = {
  id: 'amqp-default-guest',
  aliases: [
    'rabbitmq-default-login',
    'rabbitmq-default-guest-amqp',
    'rabbitmq-default-guest-management',
    'rabbitmq-guest-login',
    'amqp-guest',
    'amqp-default-credentials',
    'rabbitmq-default-admin',
  ],
  category: 'default-credentials',
  cwe_ids: ['CWE-1392', 'CWE-798'],
  defaultPort: 5672,
  recognise: (f, c) =>
    isService(f, c, ['amqp', 'amqps'], [5672, 15672], /\bamqp\b|rabbitmq/i) &&
    (mentions(f, /guest|default/i) || hasCwe(f, 798, 1391, 1392) || isMissingAuth(f)),
  impact:
    'accepts the well-known `guest`/`guest` login from the network, so anyone who can reach it can read and delete messages on every queue and publish messages that consumers trust.',
  scenarios: [
    'An attacker logs in to {endpoint} as guest/guest, binds a queue to the busiest exchanges and copies every message that passes.',
    'The attacker publishes forged messages (orders, jobs, events) that consumers process as if they came from internal services.',
    'Through the management interface (15672) the attacker creates an administrator account for themselves or purges queues.',
  ],
  remediation: {
    summary:
      'Delete or lock down the default `guest` account on the AMQP broker at {endpoint} and keep the broker off untrusted networks.',
    steps: [
      'Create named administrator and application users with strong passwords and the least permissions they need.',
      'Delete the `guest` user (`rabbitmqctl delete_user guest`), or at least keep `loopback_users.guest = true` so it only works from localhost.',
      'Serve AMQP over TLS (5671) and firewall {port}/tcp and the management port 15672 from untrusted networks.',
      'Confirm that logging in to {endpoint} as guest/guest now fails.',
    ],
    code_example: `rabbitmqctl add_user ops '<strong password>'
rabbitmqctl set_user_tags ops administrator
rabbitmqctl set_permissions -p / ops ".*" ".*" ".*"
rabbitmqctl delete_user guest

# /etc/rabbitmq/rabbitmq.conf
loopback_users.guest = true
listeners.tcp = none
listeners.ssl.default = 5671
ssl_options.cacertfile = /etc/rabbitmq/ca.pem
ssl_options.certfile = /etc/rabbitmq/server.pem
ssl_options.keyfile = /etc/rabbitmq/server.key`,
    references: [
      'https://www.rabbitmq.com/docs/access-control',
      'https://www.rabbitmq.com/docs/production-checklist',
      cwePage(1392),
    ],
  },
};

export const memcachedExposed: KnowledgeEntry = {
  id: 'memcached-exposed',
  aliases: ['memcached-stats', 'memcached-unauth', 'exposed-memcached'],
  category: 'exposed-service',
  cwe_ids: ['CWE-306', 'CWE-200'],
  defaultPort: 11211,
  recognise: (f, c) => isService(f, c, ['memcached'], [11211], /memcache/i),
  impact:
    'has no authentication and is reachable from untrusted networks: anyone can read and overwrite cached entries, and over UDP it can be abused to amplify denial-of-service attacks against third parties.',
  scenarios: [
    'An attacker lists slabs and keys on {endpoint} (`stats items`, `lru_crawler metadump all`) and reads cached sessions, tokens or page fragments.',
    'The attacker overwrites a cached value, for example a session or a rendered page, so the application serves attacker-chosen content.',
    'If UDP is enabled, spoofed requests to {host} make it send responses tens of thousands of times larger to a victim, as in the 2018 memcached amplification attacks.',
  ],
  remediation: {
    summary:
      'Bind Memcached at {endpoint} to localhost or a private interface, disable UDP, and firewall its port.',
    steps: [
      'Start memcached with `-l 127.0.0.1` (or the private address its clients use) and `-U 0` to disable UDP.',
      'Firewall {port}/tcp and udp from untrusted networks.',
      'If clients must connect over a network, enable SASL authentication (`-S`) or put memcached behind a TLS-terminating proxy.',
      'Restart memcached and confirm `echo stats | nc {host} {port}` no longer answers from outside.',
    ],
    code_example: `# Debian/Ubuntu: /etc/memcached.conf
-l 127.0.0.1
-U 0

# RHEL/Fedora: /etc/sysconfig/memcached
OPTIONS="-l 127.0.0.1 -U 0"`,
    references: [
      'https://github.com/memcached/memcached/wiki/ConfiguringServer',
      'https://github.com/memcached/memcached/wiki/SASLHowto',
      'https://www.cisa.gov/news-events/alerts/2014/01/17/udp-based-amplification-attacks',
      cwePage(306),
    ],
  },
};

export const mongodbNoAuth: KnowledgeEntry = {
  id: 'mongodb-no-auth',
  aliases: ['mongodb-unauth', 'mongodb-unauthenticated', 'exposed-mongodb'],
  category: 'unauthenticated-access',
  cwe_ids: ['CWE-306'],
  defaultPort: 27017,
  recognise: (f, c) => isService(f, c, ['mongodb'], [27017], /mongo/i) && isMissingAuth(f),
  impact:
    'runs without access control: anyone who can reach it can list, read, modify and drop every database.',
  scenarios: [
    'An attacker connects to {endpoint} with mongosh, runs `show dbs` and exports collections with mongodump.',
    'Ransom groups that scan for open MongoDB servers drop every collection and leave a ransom note database behind.',
    'The attacker edits application documents (user roles, password reset tokens) to take over accounts in the application.',
  ],
  remediation: {
    summary:
      'Enable authorization on MongoDB at {endpoint}, create users with least privilege, and bind it to private interfaces.',
    steps: [
      'Create an administrative user first (connect locally, `use admin`, `db.createUser(...)`).',
      'Set `security.authorization: enabled` and restrict `net.bindIp` to localhost and the private addresses clients use.',
      'Firewall {port}/tcp from untrusted networks and enable TLS (`net.tls.mode: requireTLS`) for remote clients.',
      'Restart mongod and confirm an unauthenticated `show dbs` on {endpoint} fails with an authorization error.',
    ],
    code_example: `// once, connected locally: mongosh --port {port}
use admin
db.createUser({ user: "admin", pwd: passwordPrompt(), roles: [ { role: "userAdminAnyDatabase", db: "admin" }, "readWriteAnyDatabase" ] })

# /etc/mongod.conf
net:
  port: {port}
  bindIp: 127.0.0.1,10.0.0.5
security:
  authorization: enabled`,
    references: [
      'https://www.mongodb.com/docs/manual/administration/security-checklist/',
      'https://www.mongodb.com/docs/manual/tutorial/enable-authentication/',
      cwePage(306),
    ],
  },
};

export const elasticsearchNoAuth: KnowledgeEntry = {
  id: 'elasticsearch-no-auth',
  aliases: [
    'elasticsearch',
    'elasticsearch-unauth',
    'exposed-elasticsearch',
    'elasticsearch-unauthenticated',
  ],
  category: 'unauthenticated-access',
  cwe_ids: ['CWE-306'],
  defaultPort: 9200,
  recognise: (f, c) =>
    isService(f, c, ['elasticsearch'], [9200], /elasticsearch|opensearch/i) && isMissingAuth(f),
  impact:
    'answers its REST API without authentication: anyone who can reach it can search and export every index, change documents and delete indices.',
  scenarios: [
    'An attacker lists indices at {endpoint}/_cat/indices and pages through them with the scroll API, exporting logs and customer records.',
    'Automated wipers delete every index and leave a ransom note index, as in repeated waves of attacks on open clusters.',
    'The attacker changes documents the application reads (for example search results or product data) or fills the disk until the cluster blocks writes.',
  ],
  remediation: {
    summary:
      'Turn on Elasticsearch security for the cluster at {endpoint}: authentication, TLS on HTTP, and private network binding.',
    steps: [
      'Set `xpack.security.enabled: true` (the default since 8.0; older or hand-edited configurations turn it off) and set passwords for the built-in users.',
      'Enable TLS on the HTTP layer (`xpack.security.http.ssl.*`) and create role-limited users or API keys for applications.',
      'Bind `network.host` to private addresses and firewall {port}/tcp (and 9300) from untrusted networks.',
      'Restart the nodes and confirm `curl -k https://{host}:{port}/_cat/indices` answers 401 without credentials.',
    ],
    code_example: `# elasticsearch.yml
network.host: 10.0.0.5
xpack.security.enabled: true
xpack.security.http.ssl.enabled: true
xpack.security.http.ssl.keystore.path: certs/http.p12

# set the password of the built-in superuser
bin/elasticsearch-reset-password -u elastic`,
    references: [
      'https://www.elastic.co/guide/en/elasticsearch/reference/current/security-minimal-setup.html',
      'https://www.elastic.co/guide/en/elasticsearch/reference/current/security-basic-setup-https.html',
      cwePage(306),
    ],
  },
};

export const sshWeakAlgorithms: KnowledgeEntry = {
  id: 'ssh-weak-algorithms',
  aliases: [
    'ssh-weak-algo-supported',
    'ssh-weakkey-exchange-algo',
    'ssh-weak-mac-algo',
    'ssh-cbc-mode-ciphers',
    'ssh-weak-public-key',
    'ssh-weak-ciphers',
  ],
  category: 'weak-crypto',
  cwe_ids: ['CWE-327'],
  defaultPort: 22,
  recognise: (f, c) =>
    isService(f, c, ['ssh'], [22], /\bssh\b/i) &&
    mentions(f, /weak|cbc|sha1|md5|diffie-hellman-group1|algorithm|cipher|\bmac\b/i),
  impact:
    'still offers outdated key-exchange, cipher or MAC algorithms (such as SHA-1 Diffie-Hellman groups, CBC ciphers or MD5/SHA-1 MACs) that weaken the protection of administrative sessions.',
  scenarios: [
    'An attacker in a position to intercept traffic to {endpoint} steers a client towards the weakest algorithms both sides share, reducing the security margin of the session.',
    'Old algorithms such as CBC-mode ciphers and SHA-1 key exchange have known weaknesses (plaintext recovery, Terrapin-style prefix truncation with some modes) that make interception easier.',
  ],
  remediation: {
    summary:
      'Restrict the SSH server at {endpoint} to modern key-exchange, cipher, MAC and host-key algorithms.',
    steps: [
      'Check what the server offers with `sshd -T | grep -Ei "^(kexalgorithms|ciphers|macs|hostkeyalgorithms)"` or an external audit tool such as ssh-audit.',
      'Put explicit `KexAlgorithms`, `Ciphers`, `MACs` and `HostKeyAlgorithms` lines in a drop-in file that sshd reads before its defaults.',
      'Validate with `sshd -t`, keep an existing session open, reload sshd, and test a new login before closing the old session.',
    ],
    code_example: `# /etc/ssh/sshd_config.d/50-hardening.conf  (read first on Debian 11+, Ubuntu 20.04+, RHEL 9)
KexAlgorithms curve25519-sha256,curve25519-sha256@libssh.org,diffie-hellman-group16-sha512,diffie-hellman-group18-sha512
Ciphers chacha20-poly1305@openssh.com,aes256-gcm@openssh.com,aes128-gcm@openssh.com,aes256-ctr,aes192-ctr,aes128-ctr
MACs hmac-sha2-512-etm@openssh.com,hmac-sha2-256-etm@openssh.com,umac-128-etm@openssh.com
HostKeyAlgorithms ssh-ed25519,rsa-sha2-512,rsa-sha2-256

# check, then reload (the unit is "ssh" on Debian/Ubuntu, "sshd" on RHEL)
sshd -t && systemctl reload ssh`,
    references: [
      'https://man.openbsd.org/sshd_config',
      'https://www.ssh-audit.com/hardening_guides.html',
      cwePage(327),
    ],
  },
};

export const sshOutdated: KnowledgeEntry = {
  id: 'ssh-outdated-version',
  aliases: [
    'eol-openssh-debian',
    'openssh-outdated',
    'ssh-old-version',
    'outdated-openssh',
    'ssh-eol',
    'ssh-protocol-version-1',
    'obsolete-ssh-version',
  ],
  category: 'outdated-software',
  cwe_ids: ['CWE-1104'],
  defaultPort: 22,
  recognise: (f, c) =>
    isService(f, c, ['ssh'], [22], /\bssh\b/i) &&
    mentions(f, /outdated|old|end[- ]of[- ]life|\beol\b|version/i),
  impact:
    'announces an old OpenSSH release that no longer receives fixes for the vulnerabilities found since, on the service administrators use to control the host.',
  scenarios: [
    'An attacker reads the version banner of {endpoint}, looks up the vulnerabilities fixed in later releases and tries the public exploits for them.',
    'Even without a working exploit, the old release lacks newer protections (such as removal of legacy algorithms and defences against prefix-truncation attacks).',
  ],
  remediation: {
    summary:
      'Upgrade the SSH server at {endpoint} to a release that your distribution still supports with security updates.',
    steps: [
      'Check the installed package (`dpkg -l openssh-server` or `rpm -q openssh-server`) against your distribution’s security tracker.',
      'Install the latest openssh-server from the distribution’s security repository; if the distribution itself is end of life, plan an upgrade of the operating system.',
      'Restart sshd from an existing session, confirm a new login works, then rescan {endpoint} to see the new banner.',
      'Until patched, allow {port}/tcp only from administrative networks or a VPN/bastion host.',
    ],
    code_example: `# Debian/Ubuntu
sudo apt-get update && sudo apt-get install --only-upgrade openssh-server
# RHEL/Fedora/Alma/Rocky
sudo dnf upgrade --refresh openssh-server

# confirm the running version
ssh -V; sudo sshd -t && sudo systemctl restart ssh   # "sshd" on RHEL`,
    references: [
      'https://www.openssh.com/security.html',
      'https://www.openssh.com/releasenotes.html',
      cwePage(1104),
    ],
  },
};

export const ftpAnonymous: KnowledgeEntry = {
  id: 'ftp-anonymous-login',
  aliases: ['ftp-anonymous', 'anonymous-ftp', 'ftp-anon-login'],
  category: 'unauthenticated-access',
  cwe_ids: ['CWE-287', 'CWE-319'],
  defaultPort: 21,
  recognise: (f, c) => isService(f, c, ['ftp'], [21], /\bftp\b/i) && mentions(f, /anonymous|anon\b|unauth/i),
  impact:
    'accepts anonymous logins, so anyone can list and download what it serves, and if the anonymous account can write, use it to host malware or stolen data; FTP also sends every credential in cleartext.',
  scenarios: [
    'An attacker logs in to {endpoint} as `anonymous` and mirrors every readable directory, looking for backups, configuration exports and credentials.',
    'If anonymous uploads are allowed, the attacker stores malware or illegal content on {host} and uses it as a distribution point.',
    'Anyone on the network path captures the usernames and passwords of real FTP users, which travel unencrypted.',
  ],
  remediation: {
    summary: 'Disable anonymous FTP on {endpoint}; better, replace FTP with SFTP or FTPS.',
    steps: [
      'Turn off anonymous access in the FTP server configuration (vsftpd `anonymous_enable=NO`, ProFTPD: remove the `<Anonymous>` section, Pure-FTPd `NoAnonymous yes`).',
      'Review what the anonymous area exposed and treat any credentials or personal data found there as disclosed.',
      'Move users to SFTP (part of OpenSSH) or require TLS for FTP (`ssl_enable=YES` in vsftpd).',
      'Restart the service and confirm an anonymous login to {endpoint} is refused.',
    ],
    code_example: `# vsftpd: /etc/vsftpd.conf  (RHEL: /etc/vsftpd/vsftpd.conf)
anonymous_enable=NO
local_enable=YES
ssl_enable=YES
force_local_logins_ssl=YES
force_local_data_ssl=YES

# Pure-FTPd
echo yes > /etc/pure-ftpd/conf/NoAnonymous`,
    references: ['https://security.appspot.com/vsftpd/vsftpd_conf.html', cwePage(287), cwePage(319)],
  },
};

export const smtpOpenRelay: KnowledgeEntry = {
  id: 'smtp-open-relay',
  aliases: ['open-relay', 'smtp-relay', 'smtp-open-relay-detect'],
  category: 'misconfiguration',
  cwe_ids: ['CWE-16', 'CWE-284'],
  defaultPort: 25,
  recognise: (f, c) =>
    isService(f, c, ['smtp', 'smtps'], [25, 465, 587], /\bsmtp\b|mail server/i) && mentions(f, /relay/i),
  impact:
    'may relay mail for anyone to anywhere, letting spammers and phishers send through it under your addresses and reputation until your IP addresses land on block lists.',
  scenarios: [
    'A spammer connects to {endpoint} and hands it mail for outside domains, which it delivers; your IP addresses are soon block-listed and legitimate mail bounces.',
    'A phisher sends mail that passes SPF for your domain because it leaves from your own server, making the phishing far more convincing.',
  ],
  remediation: {
    summary:
      'Configure the mail server at {endpoint} to relay only for your own networks and authenticated users.',
    steps: [
      'Confirm the behaviour from an outside address: a message from and to external domains must be refused (Postfix answers `554 5.7.1 Relay access denied`).',
      'Postfix: keep `mynetworks` to the hosts that really submit mail and set `smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination`.',
      'Exim: keep `relay_from_hosts` to your own hosts; Microsoft Exchange: remove anonymous relay permissions from receive connectors.',
      'Have users submit mail on port 587 with authentication and TLS, and check the queue and logs for relayed spam.',
    ],
    code_example: `# /etc/postfix/main.cf
mynetworks = 127.0.0.0/8 [::1]/128
smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination

# check and apply
postfix check && systemctl reload postfix`,
    references: [
      'https://www.postfix.org/SMTPD_ACCESS_README.html',
      'https://www.postfix.org/postconf.5.html#smtpd_relay_restrictions',
      cwePage(284),
    ],
  },
};

export const SERVICE_ENTRIES: readonly KnowledgeEntry[] = [
  redisNoAuth,
  postgresTrustAuth,
  mysqlExposed,
  mqttAnonymous,
  natsNoAuth,
  amqpGuest,
  memcachedExposed,
  mongodbNoAuth,
  elasticsearchNoAuth,
  sshWeakAlgorithms,
  sshOutdated,
  ftpAnonymous,
  smtpOpenRelay,
];
