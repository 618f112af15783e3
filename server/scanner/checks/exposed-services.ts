import { natsAnonymousConnect } from '../net/logins/nats.ts';
import { isService, type ServiceRule } from '../net/service-rules.ts';
import { componentUrl, type ServiceIdentification } from '../net/services.ts';
import type { Severity } from '../../scoring/severity.ts';
import { defineCheck, type DeclaredCheck, type PhaseContext } from '../check.ts';

/**
 * Data services that let an unauthenticated client in. The service probes
 * already learned this without credentials and without changing anything
 * (`anonymousAccess`); these checks turn it into findings with the probe's
 * exchange as evidence. Each rule's behaviour is the probe named for its protocol in
 * net/probes/ (redis.ts, postgresql.ts, mongodb.ts, mqtt.ts, nats.ts, memcached.ts;
 * Elasticsearch: http.ts); see README.md in this folder. NATS greets before the client
 * speaks, so its probe sent nothing: its rule proves the access with an exchange of its own
 * (net/logins/nats.ts: CONNECT without credentials, PING, PONG).
 */

interface ExposureRule {
  id: string;
  upstreamIds: string[];
  service: ServiceRule;
  title: string;
  severity: Severity;
  cvssVector: string;
  cweIds: string[];
  /** The knowledge entry with the remediation (server/remediation/knowledge/services.ts). */
  remediation: string;
  description: string;
  impact: string;
  /** Proves the access with an exchange of the check's own, when the probe's sent nothing. */
  prove?(
    ctx: PhaseContext,
    service: ServiceIdentification,
  ): Promise<{ request: string; response: string } | undefined>;
}

const NETWORK = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U';

const RULES: ExposureRule[] = [
  {
    id: 'redis-unauthenticated',
    upstreamIds: ['exposed-redis', 'redis-default-logins'],
    service: isService('redis', [6379]),
    remediation: 'redis-no-auth',
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
    service: isService('postgresql', [5432]),
    remediation: 'postgres-trust-auth',
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
    service: isService('mongodb', [27017]),
    remediation: 'mongodb-no-auth',
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
    service: isService('elasticsearch', [9200]),
    remediation: 'elasticsearch-no-auth',
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
    service: isService('mqtt', [1883, 8883]),
    remediation: 'mqtt-anonymous',
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
    service: isService('nats', [4222]),
    remediation: 'nats-no-auth',
    title: 'NATS server does not require authentication',
    severity: 'high',
    cvssVector: `${NETWORK}/C:H/I:L/A:N`,
    cweIds: ['CWE-306'],
    description:
      'The NATS server INFO said auth_required is false, and a CONNECT without credentials was answered ' +
      'with PONG: any client may connect.',
    impact: 'Anyone reaching the port can subscribe to subjects to read messages and publish forged ones.',
    prove: async (ctx, service) => {
      const result = await natsAnonymousConnect({
        address: service.address,
        port: service.port,
        assertAllowed: ctx.assertAllowed,
        signal: ctx.signal,
      });
      return result.accepted ? { request: result.request, response: result.response } : undefined;
    },
  },
  {
    id: 'memcached-exposed',
    upstreamIds: ['memcached-stats', 'exposed-memcached'],
    service: isService('memcached', [11211]),
    remediation: 'memcached-exposed',
    title: 'Memcached reachable without authentication',
    severity: 'medium',
    cvssVector: `${NETWORK}/C:L/I:L/A:N`,
    cweIds: ['CWE-306'],
    description: 'The Memcached server answered the version and stats commands to an unauthenticated client.',
    impact:
      'Cached data can be read and poisoned; exposed UDP memcached has been abused for large reflection attacks.',
  },
];

function exposureCheck(rule: ExposureRule): DeclaredCheck {
  return defineCheck({
    meta: {
      id: rule.id,
      title: rule.title,
      severity: rule.severity,
      cvssVector: rule.cvssVector,
      cweIds: rule.cweIds,
      category: 'unauthenticated-access',
      remediation: rule.remediation,
      impact: rule.impact,
      upstreamIds: rule.upstreamIds,
    },
    phase: 'vulnerability_scanning',
    quick: true,
    appliesTo: rule.service,
    detect: async (ctx, service) => {
      if (service.anonymousAccess !== true) return [];
      const proof = rule.prove
        ? await rule.prove(ctx, service)
        : { request: service.evidence.request, response: readable(service) + service.evidence.response };
      if (!proof) return [];
      const version = service.version ? ` ${service.version}` : '';
      return [
        {
          description: `${rule.description} Seen on ${componentUrl(service)} (${service.product ?? service.service}${version}).`,
          evidence: proof,
        },
      ];
    },
  });
}

export const exposedServiceChecks: DeclaredCheck[] = RULES.map(exposureCheck);

/** What the unauthenticated read showed, in words, above the raw exchange (binary protocols). */
function readable(service: ServiceIdentification): string {
  const databases = service.details?.databases;
  return typeof databases === 'string' && databases !== ''
    ? `databases listed without authentication: ${databases}\n\n`
    : '';
}
