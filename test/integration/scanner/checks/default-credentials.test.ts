import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { checksFor } from '../../../../server/scanner/check-registry.ts';
import { defaultCredentialChecks } from '../../../../server/scanner/checks/default-credentials.ts';
import type { Check } from '../../../../server/scanner/check.ts';
import { amqpGuestLogin } from '../../../../server/scanner/net/logins/amqp.ts';
import { mysqlEmptyRootLogin } from '../../../../server/scanner/net/logins/mysql.ts';
import { postgresDefaultLogin, scramClientFinal } from '../../../../server/scanner/net/logins/postgresql.ts';
import { identifyService } from '../../../../server/scanner/net/service-id.ts';
import {
  startFtpFixture,
  startMysqlFixture,
  startPostgresFixture,
  startRabbitManagementFixture,
  type CredentialFixture,
} from '../../../fixtures/credential-services.ts';
import { randomLoopbackAddress } from '../../../fixtures/listeners.ts';
import { checkContext, serviceAt } from '../../../helpers/phase-context.ts';

const check = (id: string): Check => {
  const found = defaultCredentialChecks.find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
};

/** Whether something listens on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const noSignal = new AbortController().signal;
const allowLoopback = (a: string): void => {
  if (!a.startsWith('127.')) throw new Error('outside scope');
};

describe('default-credential checks against this machine’s real services', () => {
  it('logs in to the real MariaDB as root with an empty password and proves it with a harmless read', async (ctx) => {
    if (!(await listening(3306))) return ctx.skip('no MariaDB/MySQL listens on 127.0.0.1:3306 here');
    const probe = await mysqlEmptyRootLogin({
      address: '127.0.0.1',
      port: 3306,
      assertAllowed: allowLoopback,
      signal: noSignal,
    });
    if (!probe.accepted) {
      return ctx.skip(
        `MariaDB on 127.0.0.1:3306 refuses root with an empty password here: ${probe.response}`,
      );
    }
    const service = await identifyService({ address: '127.0.0.1', port: 3306, assertAllowed: allowLoopback });
    expect(service.service).toBe('mysql');
    const [finding, ...rest] = await check('mysql-empty-root-password').run(
      checkContext('127.0.0.1'),
      service,
    );
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      check_id: 'mysql-empty-root-password',
      affected_component: 'mysql://127.0.0.1:3306',
    });
    expect(finding!.description).toContain('user root with an empty password');
    expect(finding!.evidence.request).toContain('with an empty password (1 attempt)');
    expect(finding!.evidence.response).toMatch(/^OK: logged in\nVERSION\(\): \d+\.\d+/);
    expect(finding!.evidence.response).toMatch(/SHOW DATABASES: .*information_schema/);
  });

  it('logs in to the real RabbitMQ over AMQP as guest/guest and opens the default virtual host', async (ctx) => {
    if (!(await listening(5672))) return ctx.skip('no AMQP broker listens on 127.0.0.1:5672 here');
    const probe = await amqpGuestLogin({
      address: '127.0.0.1',
      port: 5672,
      assertAllowed: allowLoopback,
      signal: noSignal,
    });
    if (!probe.accepted)
      return ctx.skip(`RabbitMQ on 127.0.0.1:5672 refuses guest/guest here: ${probe.response}`);
    const service = await identifyService({ address: '127.0.0.1', port: 5672, assertAllowed: allowLoopback });
    expect(service).toMatchObject({ service: 'amqp', product: 'RabbitMQ' });
    const [finding] = await check('rabbitmq-default-guest-amqp').run(checkContext('127.0.0.1'), service);
    expect(finding).toMatchObject({ severity: 'high', affected_component: 'amqp://127.0.0.1:5672' });
    expect(finding!.description).toContain('the vendor default password guest');
    expect(finding!.evidence.response).toContain('Connection.OpenOk: virtual host "/" opened');
  });

  it('sends the real PostgreSQL no password when it trusts the client, leaving that to the trust check', async (ctx) => {
    if (!(await listening(5432))) return ctx.skip('no PostgreSQL listens on 127.0.0.1:5432 here');
    const target = { address: '127.0.0.1', port: 5432, assertAllowed: allowLoopback, signal: noSignal };
    const probe = await postgresDefaultLogin(target);
    const service = serviceAt('127.0.0.1', 5432, 'postgresql');
    if (probe.response.startsWith('trust authentication')) {
      expect(probe.accepted).toBe(false);
      expect(probe.request).not.toContain('password');
      expect(await check('postgresql-default-password').run(checkContext('127.0.0.1'), service)).toEqual([]);
      return;
    }
    if (!probe.accepted)
      return ctx.skip(`PostgreSQL on 127.0.0.1:5432 refuses postgres/postgres here: ${probe.response}`);
    const [finding] = await check('postgresql-default-password').run(checkContext('127.0.0.1'), service);
    expect(finding!.evidence.response).toMatch(/^AuthenticationOk/);
  });

  it('logs in to the real RabbitMQ management API as guest/guest where it is enabled', async (ctx) => {
    if (!(await listening(15672))) {
      return ctx.skip(
        'the RabbitMQ management plugin is not enabled here (nothing on 127.0.0.1:15672); the fixture tests cover the check',
      );
    }
    const service = await identifyService({
      address: '127.0.0.1',
      port: 15672,
      assertAllowed: allowLoopback,
    });
    const findings = await check('rabbitmq-default-guest-management').run(checkContext('127.0.0.1'), service);
    if (findings.length === 0)
      return ctx.skip('the management API on 127.0.0.1:15672 refuses guest/guest here');
    expect(findings[0]!.evidence.response).toContain('rabbitmq_version');
  });
});

describe('default-credential checks against protocol fixtures', () => {
  const host = randomLoopbackAddress();
  const fixtures: CredentialFixture[] = [];
  const start = async <T extends CredentialFixture>(fixture: Promise<T>): Promise<T> => {
    const started = await fixture;
    fixtures.push(started);
    return started;
  };
  afterAll(async () => {
    await Promise.all(fixtures.map((f) => f.close()));
  });

  const cases: {
    id: string;
    service: Parameters<typeof serviceAt>[2];
    extra?: Parameters<typeof serviceAt>[3];
    start: (weak: boolean) => Promise<CredentialFixture>;
    evidence: RegExp;
    attempt: { user: string; password: string };
    /** Which exchange, where one check has several. */
    variant?: string;
    /** Requests carrying the credential once it worked (HTTP sends it with each read). */
    requestsWhenAccepted?: number;
  }[] = [
    {
      id: 'mysql-empty-root-password',
      service: 'mysql',
      start: (weak) => startMysqlFixture({ weak, host }),
      evidence: /CURRENT_USER\(\): root@localhost\nSHOW DATABASES: information_schema, mysql, shop/,
      attempt: { user: 'root', password: '' },
    },
    {
      id: 'ftp-anonymous-login',
      service: 'ftp',
      start: (weak) => startFtpFixture({ weak, host }),
      evidence: /PASS → 230 Login successful\.\nSYST → 215 UNIX Type: L8\nPWD → 257/,
      attempt: { user: 'anonymous', password: 'anonymous@' },
    },
    {
      id: 'postgresql-default-password',
      service: 'postgresql',
      variant: 'MD5',
      start: (weak) => startPostgresFixture({ weak, host }),
      evidence:
        /AuthenticationOk \(MD5\)\nversion\(\): PostgreSQL 16\.4 \(fixture\)\ndatabases: postgres, shop/,
      attempt: {
        user: 'postgres',
        password: expect.stringMatching(/^md5[0-9a-f]{32}$/) as unknown as string,
      },
    },
    {
      id: 'postgresql-default-password',
      service: 'postgresql',
      variant: 'SCRAM-SHA-256',
      start: (weak) => startPostgresFixture({ weak, host, scram: true }),
      evidence: /AuthenticationOk \(SCRAM-SHA-256\)\nversion\(\): PostgreSQL 16\.4 \(fixture\)/,
      attempt: { user: 'postgres', password: 'SCRAM-SHA-256 proof' },
    },
    {
      id: 'rabbitmq-default-guest-management',
      service: 'http',
      extra: { details: { title: 'RabbitMQ Management' } },
      start: (weak) => startRabbitManagementFixture({ weak, host }),
      evidence: /rabbitmq_version: 3\.12\.1\ncluster_name: rabbit@fixture\nvirtual hosts: \/, orders/,
      attempt: { user: 'guest', password: 'guest' },
      requestsWhenAccepted: 2,
    },
  ];

  for (const c of cases) {
    it(`${c.id}${c.variant ? ` (${c.variant})` : ''}: reports the planted default login with one attempt, and nothing on the hardened twin`, async () => {
      const weak = await start(c.start(true));
      const hardened = await start(c.start(false));
      const [finding, ...rest] = await check(c.id).run(
        checkContext(host),
        serviceAt(host, weak.port, c.service, c.extra),
      );
      expect(rest).toEqual([]);
      expect(finding).toMatchObject({ check_id: c.id, port: weak.port });
      expect(finding!.evidence.response).toMatch(c.evidence);
      expect(weak.attempts).toEqual(Array(c.requestsWhenAccepted ?? 1).fill(c.attempt));

      expect(
        await check(c.id).run(checkContext(host), serviceAt(host, hardened.port, c.service, c.extra)),
      ).toEqual([]);
      expect(hardened.attempts).toEqual([c.attempt]);
    });
  }

  it('sends no login attempt at all when the scan says credential_checks: none', async () => {
    const mysql = await start(startMysqlFixture({ weak: true, host }));
    const ftp = await start(startFtpFixture({ weak: true, host }));
    const none = checkContext(host, { scan: { credential_checks: 'none' } });
    // The phase leaves every login check out…
    for (const phase of ['vulnerability_scanning', 'web_analysis', 'cloud_analysis'] as const) {
      expect(checksFor(none.scan, phase).filter((c) => c.sendsCredentials)).toEqual([]);
    }
    expect(
      checksFor(checkContext(host).scan, 'vulnerability_scanning').filter((c) => c.sendsCredentials),
    ).toHaveLength(defaultCredentialChecks.length);
    // …and a check called anyway does not log in either.
    for (const c of defaultCredentialChecks) {
      expect(
        await c.run(none, serviceAt(host, c.id.startsWith('ftp') ? ftp.port : mysql.port, 'mysql')),
      ).toEqual([]);
    }
    expect(mysql.attempts).toEqual([]);
    expect(ftp.attempts).toEqual([]);
    expect(mysql.connections + ftp.connections).toBe(0);
  });

  it('leaves quick scans without logins unless they ask for them', () => {
    const quick = checkContext(host, { scan: { scan_type: 'quick' } }).scan;
    expect(checksFor(quick, 'vulnerability_scanning').filter((c) => c.sendsCredentials)).toEqual([]);
    const asked = checkContext(host, { scan: { scan_type: 'quick', credential_checks: 'defaults' } }).scan;
    expect(checksFor(asked, 'vulnerability_scanning').filter((c) => c.sendsCredentials)).toHaveLength(
      defaultCredentialChecks.length,
    );
  });
});

describe('the SCRAM-SHA-256 answer of the PostgreSQL login', () => {
  it('computes the proof and server signature of RFC 7677’s example', () => {
    const { clientFinal, serverSignature } = scramClientFinal(
      'pencil',
      'n=user,r=rOprNGfwEbeRWgbNEkqO',
      'r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096',
    );
    expect(clientFinal).toBe(
      'c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=',
    );
    expect(serverSignature).toBe('6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=');
  });
});
