import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFtpFixture,
  startMysqlFixture,
  type CredentialFixture,
} from '../../fixtures/credential-services.ts';
import { randomLoopbackAddress } from '../../fixtures/listeners.ts';
import { listFindingsRoute } from '../../../server/routes/findings.ts';
import { okBody } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { runScanToEnd, startScanApp, type ScanApp } from '../../helpers/scanner.ts';

describe(`the credential policy through the scan runner (${testEngine})`, () => {
  let scanner: ScanApp;
  let mysql: CredentialFixture;
  let ftp: CredentialFixture;
  const host = randomLoopbackAddress();

  beforeAll(async () => {
    scanner = await startScanApp({ env: { SCANWARD_NMAP: 'off' } });
    mysql = await startMysqlFixture({ weak: true, host });
    ftp = await startFtpFixture({ weak: true, host });
  });
  afterAll(async () => {
    await scanner?.close();
    await Promise.all([mysql?.close(), ftp?.close()]);
  });

  /** The default-credential findings the scan observed, through the API. */
  const credentialFindings = async (scanId: string) => {
    const api = await scanner.tenant.client();
    const query = { scan_id: scanId, tool: 'scanward-credentials', per_page: 100 };
    const { items } = okBody(await api.call(listFindingsRoute, { query }));
    return items
      .map(({ template_id, severity, affected_component }) => ({ template_id, severity, affected_component }))
      .sort((a, b) => (a.template_id < b.template_id ? -1 : 1));
  };

  /** What the fixtures saw from here on: each test reads only its own scan's attempts, in any order. */
  const attemptsFrom = () => {
    const mysqlSeen = mysql.attempts.length;
    const ftpSeen = ftp.attempts.length;
    const connections = mysql.connections;
    return () => ({
      mysql: mysql.attempts.slice(mysqlSeen),
      ftp: ftp.attempts.slice(ftpSeen),
      mysqlConnections: mysql.connections - connections,
    });
  };

  it('a full scan with credential_checks: none identifies the services but sends no login', async () => {
    const seen = attemptsFrom();
    const scan = await runScanToEnd(scanner, {
      target: host,
      ports: `${mysql.port},${ftp.port}`,
      credentialChecks: 'none',
    });
    expect(scan).toMatchObject({ status: 'completed', credential_checks: 'none' });
    expect(scan.state.services.map((s) => s.service).sort()).toEqual(['ftp', 'mysql']);
    expect(seen().mysqlConnections).toBeGreaterThan(0);
    expect(seen().mysql).toEqual([]);
    expect(seen().ftp).toEqual([]);
    expect(await credentialFindings(scan.id)).toEqual([]);
  }, 60_000);

  it('a full scan by default tries each default credential once and records the findings', async () => {
    const seen = attemptsFrom();
    const scan = await runScanToEnd(scanner, {
      target: host,
      ports: `${mysql.port},${ftp.port}`,
    });
    expect(scan).toMatchObject({ status: 'completed', credential_checks: 'defaults' });
    expect(seen().mysql).toEqual([{ user: 'root', password: '' }]);
    expect(seen().ftp).toEqual([{ user: 'anonymous', password: 'anonymous@' }]);
    expect(await credentialFindings(scan.id)).toEqual([
      {
        template_id: 'ftp-anonymous-login',
        severity: 'medium',
        affected_component: `ftp://${host}:${ftp.port}`,
      },
      {
        template_id: 'mysql-empty-root-password',
        severity: 'critical',
        affected_component: `mysql://${host}:${mysql.port}`,
      },
    ]);
  }, 60_000);
});
