/**
 * Default and empty credentials, under the policy in docs/checks.md ("Credential policy"):
 * only when the scan's `credential_checks` is `defaults`, only the one vendor-default or
 * empty credential listed here per protocol, one login attempt per service and scan (never
 * a password list, never an account that locks out), and a successful login proven by a
 * harmless read (server version, databases, virtual hosts) before the session is closed.
 * The evidence names the password for what it is ("empty", "the vendor default guest").
 */
import { parseHttpResponse, httpResponseComplete } from '../net/probes/http.ts';
import { amqpGuestLogin } from '../net/logins/amqp.ts';
import { ftpAnonymousLogin } from '../net/logins/ftp.ts';
import { mysqlEmptyRootLogin } from '../net/logins/mysql.ts';
import { postgresDefaultLogin } from '../net/logins/postgresql.ts';
import type { LoginResult, LoginTarget } from '../net/logins/session.ts';
import { componentUrl, type ServiceIdentification } from '../net/services.ts';
import { isHttp, isService, narrowed, type ServiceRule } from '../net/service-rules.ts';
import { urlHost } from '../net/target-address.ts';
import { credentialChecksFor } from '../../schemas/scans.ts';
import type { Severity } from '../../scoring/severity.ts';
import { defineCheck, type DeclaredCheck, type PhaseContext } from '../check.ts';
import { exchangeHttp } from '../net/http-exchange.ts';

const NETWORK = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U';

interface CredentialRule {
  id: string;
  upstreamIds: string[];
  appliesTo: ServiceRule;
  /** The knowledge entry with the remediation (server/remediation/knowledge/services.ts). */
  remediation: string;
  /** The account and the password, in words, for titles and evidence. */
  credential: string;
  title: string;
  severity: Severity;
  cvssVector: string;
  cweIds: string[];
  impact: string;
  login(target: LoginTarget, ctx: PhaseContext, service: ServiceIdentification): Promise<LoginResult>;
}

const RULES: CredentialRule[] = [
  {
    id: 'mysql-empty-root-password',
    upstreamIds: ['mysql-empty-password', 'mysql-default-login'],
    appliesTo: isService('mysql', [3306]),
    remediation: 'mysql-exposed',
    credential: 'user root with an empty password',
    title: 'MySQL/MariaDB lets root log in with an empty password',
    severity: 'critical',
    cvssVector: `${NETWORK}/C:H/I:H/A:H`,
    cweIds: ['CWE-521', 'CWE-1392'],
    impact:
      'Anyone who reaches the port is the database superuser: every database can be read, changed or dropped, ' +
      'and files on the host read or written (LOAD DATA / SELECT … INTO OUTFILE, plugins).',
    login: (target) => mysqlEmptyRootLogin(target),
  },
  {
    id: 'postgresql-default-password',
    upstreamIds: ['postgres-default-logins', 'pgsql-default-db'],
    appliesTo: narrowed(
      isService('postgresql', [5432]),
      'that asks for a password',
      (s) => s.anonymousAccess !== true,
    ),
    remediation: 'postgres-trust-auth',
    credential: 'user postgres with the common default password postgres',
    title: 'PostgreSQL accepts the superuser postgres with the password postgres',
    severity: 'critical',
    cvssVector: `${NETWORK}/C:H/I:H/A:H`,
    cweIds: ['CWE-521', 'CWE-1393'],
    impact:
      'Anyone who reaches the port is the database superuser: all data can be read and changed, and programs ' +
      'run on the host (COPY … PROGRAM).',
    login: (target) => postgresDefaultLogin(target),
  },
  {
    id: 'rabbitmq-default-guest-amqp',
    upstreamIds: [],
    appliesTo: narrowed(isService('amqp', [5672, 5671]), 'RabbitMQ', (s) =>
      /rabbitmq/i.test(s.product ?? ''),
    ),
    remediation: 'amqp-default-guest',
    credential: 'user guest with the vendor default password guest',
    title: 'RabbitMQ accepts the default guest/guest login over AMQP',
    severity: 'high',
    // Messages of one virtual host, not the broker's administration: integrity limited (docs/checks.md).
    cvssVector: `${NETWORK}/C:H/I:L/A:L`,
    cweIds: ['CWE-1392', 'CWE-1393'],
    impact:
      'Anyone who reaches the port can read, publish and delete messages on the default virtual host, ' +
      'and with them the work of every application that uses the broker.',
    login: (target) => amqpGuestLogin(target),
  },
  {
    id: 'rabbitmq-default-guest-management',
    upstreamIds: ['rabbitmq-default-login'],
    appliesTo: narrowed(
      isHttp,
      'the RabbitMQ management UI',
      (s) => /RabbitMQ Management/i.test(String(s.details?.title ?? '')),
      [15672],
    ),
    remediation: 'amqp-default-guest',
    credential: 'user guest with the vendor default password guest',
    title: 'RabbitMQ management API accepts the default guest/guest login',
    severity: 'critical',
    cvssVector: `${NETWORK}/C:H/I:H/A:H`,
    cweIds: ['CWE-1392', 'CWE-1393'],
    impact:
      'The guest account is an administrator: anyone who reaches the API can read every queue, create users ' +
      'and permissions, and shut the broker’s work down.',
    login: (_target, ctx, service) => rabbitmqManagementLogin(ctx, service),
  },
  {
    id: 'ftp-anonymous-login',
    upstreamIds: ['ftp-anonymous-login'],
    appliesTo: isService('ftp', [21]),
    remediation: 'ftp-anonymous-login',
    credential: 'anonymous login (user anonymous, the conventional password anonymous@)',
    title: 'FTP server allows anonymous login',
    severity: 'medium',
    cvssVector: `${NETWORK}/C:L/I:L/A:N`,
    cweIds: ['CWE-284'],
    impact:
      'Anyone can browse and download the files the anonymous area exposes, and upload where it is writable ' +
      '(a common malware and warez drop).',
    login: (target) => ftpAnonymousLogin(target),
  },
];

/** GET `path` with HTTP Basic guest:guest; the status and JSON body. */
async function managementGet(
  ctx: PhaseContext,
  service: ServiceIdentification,
  path: string,
): Promise<{ status: number; json: unknown }> {
  const host = `${urlHost(service.address)}:${service.port}`;
  const raw = await exchangeHttp(
    ctx,
    service,
    `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: scanward-credentials\r\n` +
      `Authorization: Basic ${Buffer.from('guest:guest').toString('base64')}\r\nAccept: application/json\r\n` +
      'Connection: close\r\n\r\n',
    { maxBytes: 256 * 1024, timeoutMs: 10_000, complete: httpResponseComplete },
  );
  const response = parseHttpResponse(raw.data);
  if (!response) return { status: 0, json: undefined };
  let json: unknown;
  try {
    json = JSON.parse(response.body.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: response.status, json };
}

/** One authenticated request (`/api/overview`), and on success the list of virtual hosts. */
async function rabbitmqManagementLogin(
  ctx: PhaseContext,
  service: ServiceIdentification,
): Promise<LoginResult> {
  const request = ['GET /api/overview with HTTP Basic guest:guest (the vendor default; 1 attempt)'];
  const overview = await managementGet(ctx, service, '/api/overview');
  if (overview.status !== 200 || typeof overview.json !== 'object' || overview.json === null) {
    return { accepted: false, request: request[0] as string, response: `HTTP ${overview.status}` };
  }
  const info = overview.json as Record<string, unknown>;
  request.push('GET /api/vhosts');
  const vhosts = await managementGet(ctx, service, '/api/vhosts');
  const names = Array.isArray(vhosts.json)
    ? vhosts.json.map((v) => String((v as Record<string, unknown>).name)).join(', ')
    : `HTTP ${vhosts.status}`;
  return {
    accepted: true,
    request: request.join('\n'),
    response: [
      'HTTP 200: logged in',
      `rabbitmq_version: ${String(info.rabbitmq_version ?? 'unknown')}`,
      `cluster_name: ${String(info.cluster_name ?? 'unknown')}`,
      `virtual hosts: ${names}`,
    ].join('\n'),
  };
}

function credentialCheck(rule: CredentialRule): DeclaredCheck {
  return defineCheck({
    meta: {
      id: rule.id,
      title: rule.title,
      severity: rule.severity,
      cvssVector: rule.cvssVector,
      cweIds: rule.cweIds,
      category: 'default-credentials',
      remediation: rule.remediation,
      impact: rule.impact,
      upstreamIds: rule.upstreamIds,
      tool: 'scanward-credentials',
    },
    phase: 'vulnerability_scanning',
    quick: true,
    sendsCredentials: true,
    appliesTo: rule.appliesTo,
    detect: async (ctx, service) => {
      // `checksFor` already leaves these checks out; this guards any other caller.
      if (credentialChecksFor(ctx.scan.scan_type, ctx.scan.credential_checks) !== 'defaults') return [];
      const result = await rule.login(
        {
          address: service.address,
          port: service.port,
          tls: service.tls === true && service.service !== 'https',
          assertAllowed: ctx.assertAllowed,
          signal: ctx.signal,
        },
        ctx,
        service,
      );
      if (!result.accepted) return [];
      return [
        {
          description:
            `${componentUrl(service)} accepted a login with ${rule.credential}. The scan tried this one credential once ` +
            '(credential_checks: defaults) and proved the login with a harmless read shown in the evidence.',
          evidence: { request: result.request, response: result.response },
        },
      ];
    },
  });
}

export const defaultCredentialChecks: DeclaredCheck[] = RULES.map(credentialCheck);
