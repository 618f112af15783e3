import { componentUrl, type ServiceIdentification, type ServiceName } from '../net/services.ts';
import type { Severity } from '../../scoring/severity.ts';
import { targetOf } from '../types.ts';
import type { Check } from '../check.ts';

/**
 * Data services that let an unauthenticated client in. The service probes
 * already learned this without credentials and without changing anything
 * (`anonymousAccess`); these checks turn it into findings with the probe's
 * exchange as evidence. Each rule's behaviour is the probe named for its protocol in
 * net/probes/ (redis.ts, postgresql.ts, mongodb.ts, mqtt.ts, nats.ts, memcached.ts;
 * Elasticsearch: http.ts); see README.md in this folder.
 */

interface ExposureRule {
  id: string;
  upstreamIds: string[];
  service: ServiceName;
  title: string;
  severity: Severity;
  cvssVector: string;
  cweIds: string[];
  description: string;
  impact: string;
}

const NETWORK = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U';

const RULES: ExposureRule[] = [
  {
    id: 'redis-unauthenticated',
    upstreamIds: ['exposed-redis', 'redis-default-logins'],
    service: 'redis',
    title: 'Redis accepts commands without authentication',
    severity: 'critical',
    cvssVector: `${NETWORK}/C:H/I:H/A:H`,
    cweIds: ['CWE-306'],
    description: 'The Redis server answered PING without asking for a password (no requirepass or ACL user).',
    impact:
      'Anyone who can reach the port can read and overwrite every key, and commonly turn write access into code ' +
      'execution on the host (CONFIG SET dir/dbfilename, module loading, replication abuse).',
  },
  {
    id: 'postgresql-trust-auth',
    upstreamIds: ['unauth-psql', 'pgsql-empty-password', 'pgsql-default-db'],
    service: 'postgresql',
    title: 'PostgreSQL lets clients in without a password (trust authentication)',
    severity: 'critical',
    cvssVector: `${NETWORK}/C:H/I:H/A:H`,
    cweIds: ['CWE-287', 'CWE-306'],
    description:
      'The PostgreSQL server completed a startup exchange without asking for a password (pg_hba.conf trust).',
    impact:
      'Any client that can reach the port can log in as the named role, read and change data, and as a superuser ' +
      'run programs on the host (COPY … PROGRAM).',
  },
  {
    id: 'mongodb-unauthenticated',
    upstreamIds: ['mongodb-unauth'],
    service: 'mongodb',
    title: 'MongoDB answers database commands without authentication',
    severity: 'critical',
    cvssVector: `${NETWORK}/C:H/I:H/A:H`,
    cweIds: ['CWE-306'],
    description: 'The MongoDB server listed its databases to a client that did not authenticate.',
    impact: 'All stored documents can be read, changed or deleted by anyone who reaches the port.',
  },
  {
    id: 'elasticsearch-unauthenticated',
    upstreamIds: ['elasticsearch-unauth', 'exposed-elasticsearch'],
    service: 'elasticsearch',
    title: 'Elasticsearch API open without authentication',
    severity: 'high',
    cvssVector: `${NETWORK}/C:H/I:L/A:L`,
    cweIds: ['CWE-306'],
    description: 'The Elasticsearch HTTP API answered a request that carried no credentials.',
    impact:
      'Indexed data can be searched and exported, and indices changed or deleted, by anyone reaching the port.',
  },
  {
    id: 'mqtt-anonymous-access',
    upstreamIds: ['mqtt-uauth-broker', 'mqtt-unauth'],
    service: 'mqtt',
    title: 'MQTT broker accepts anonymous clients',
    severity: 'high',
    cvssVector: `${NETWORK}/C:H/I:L/A:N`,
    cweIds: ['CWE-306'],
    description: 'The MQTT broker accepted a CONNECT without credentials (CONNACK return code 0).',
    impact:
      'Anonymous clients can subscribe to topics (often including `#`) to read device and application messages, ' +
      'and publish forged messages.',
  },
  {
    id: 'nats-no-auth',
    upstreamIds: ['nats-unauth'],
    service: 'nats',
    title: 'NATS server does not require authentication',
    severity: 'high',
    cvssVector: `${NETWORK}/C:H/I:L/A:N`,
    cweIds: ['CWE-306'],
    description: 'The NATS server INFO said auth_required is false: any client may connect.',
    impact: 'Anyone reaching the port can subscribe to subjects to read messages and publish forged ones.',
  },
  {
    id: 'memcached-exposed',
    upstreamIds: ['memcached-stats', 'exposed-memcached'],
    service: 'memcached',
    title: 'Memcached reachable without authentication',
    severity: 'medium',
    cvssVector: `${NETWORK}/C:L/I:L/A:L`,
    cweIds: ['CWE-306'],
    description: 'The Memcached server answered the version and stats commands to an unauthenticated client.',
    impact:
      'Cached data can be read and poisoned; exposed UDP memcached has been abused for large reflection attacks.',
  },
];

function exposureCheck(rule: ExposureRule): Check {
  return {
    id: rule.id,
    upstreamIds: rule.upstreamIds,
    phase: 'vulnerability_scanning',
    quick: true,
    category: 'unauthenticated-access',
    cweIds: rule.cweIds,
    appliesTo: (service) => service.service === rule.service,
    run: async (ctx, service) => {
      if (service.anonymousAccess !== true) return [];
      const version = service.version ? ` ${service.version}` : '';
      return [
        {
          check_id: rule.id,
          upstream_ids: rule.upstreamIds,
          title: rule.title,
          severity: rule.severity,
          cvss_vector: rule.cvssVector,
          target: targetOf(ctx.state, service.address),
          affected_component: componentUrl(service),
          port: service.port,
          tool: service.tool,
          category: 'unauthenticated-access',
          cve_ids: [],
          cwe_ids: rule.cweIds,
          description: `${rule.description} Seen on ${componentUrl(service)} (${service.product ?? service.service}${version}).`,
          impact: rule.impact,
          evidence: {
            request: service.evidence.request,
            response: readable(service) + service.evidence.response,
            screenshot_url: null,
          },
        },
      ];
    },
  };
}

export const exposedServiceChecks: Check[] = RULES.map(exposureCheck);

/** What the unauthenticated read showed, in words, above the raw exchange (binary protocols). */
function readable(service: ServiceIdentification): string {
  const databases = service.details?.databases;
  return typeof databases === 'string' && databases !== ''
    ? `databases listed without authentication: ${databases}\n\n`
    : '';
}
