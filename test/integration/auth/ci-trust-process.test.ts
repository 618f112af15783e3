import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditEventsRoute } from '../../../server/routes/audit-events.ts';
import { postCiToken } from '../../../server/routes/auth.ts';
import { getCiAudience, postCiTrust } from '../../../server/routes/ci-trust.ts';
import { githubClaims, startOidcIssuer, type OidcIssuer } from '../../fixtures/ci-oidc-issuer.ts';
import { apiClient, expectError, okBody } from '../../helpers/api-client.ts';
import { createTestDatabase, testEngine, type TestDatabase } from '../../helpers/database.ts';
import { logIn } from '../../helpers/factory.ts';
import { type ServerProcess, spawnServer } from '../../helpers/server-process.ts';
import { listScansRoute } from '../../../server/routes/scans.ts';

/**
 * Keyless CI sign-in in a real server process (`node server/main.js`) that trusts the local
 * OpenID issuer's private CA the way an operator would: NODE_EXTRA_CA_CERTS, read by Node at
 * start-up. A second process without it refuses the issuer's certificate (503, nothing issued):
 * the TLS to the issuer is verified. Everything goes through the child's HTTP API.
 */

const ADMIN = { email: 'admin@localhost', password: 'ci-trust-process-password' };

describe(
  `keyless CI sign-in in a server process, CA from NODE_EXTRA_CA_CERTS (${testEngine})`,
  { timeout: 120_000 },
  () => {
    let issuer: OidcIssuer;
    let root: string;
    const databases: TestDatabase[] = [];
    const started: ServerProcess[] = [];

    beforeAll(async () => {
      issuer = await startOidcIssuer();
      root = mkdtempSync(path.join(tmpdir(), 'scanward-ci-trust-'));
      writeFileSync(path.join(root, 'issuer-ca.pem'), issuer.ca);
    });
    afterAll(async () => {
      for (const server of started) {
        server.kill();
        await server.exited;
      }
      for (const database of databases) await database.drop();
      await issuer?.close();
      if (root) rmSync(root, { recursive: true, force: true });
    });

    async function start(name: string, extra: Record<string, string>): Promise<ServerProcess> {
      const env: Record<string, string> = {
        SCANWARD_ADMIN_PASSWORD: ADMIN.password,
        SCANWARD_ADMIN_PLAN: 'professional',
        SCANWARD_NMAP: 'off',
        SCANWARD_CI_OIDC_ISSUERS: issuer.issuer,
        ...extra,
      };
      if (testEngine === 'postgres') {
        const database = await createTestDatabase();
        databases.push(database);
        env.DATABASE_URL = database.url!;
      } else {
        env.SCANWARD_DATA_DIR = path.join(root, name);
      }
      const server = await spawnServer(env);
      started.push(server);
      await server.ready();
      return server;
    }

    /** Logs the bootstrap admin in, adds a policy for acme/web and answers an exchange of a matching token. */
    async function exchangeOn(server: ServerProcess) {
      const login = await logIn(server, ADMIN);
      expect(login.status).toBe(200);
      const admin = apiClient(server, { token: login.body.access_token });
      okBody(
        await admin.call(postCiTrust, {
          body: {
            name: 'acme/web',
            issuer: issuer.issuer,
            conditions: { repository: 'acme/web' },
            permissions: ['read:scans'],
          },
        }),
        201,
      );
      const { audience } = okBody(await admin.call(getCiAudience));
      const idToken = await issuer.sign(githubClaims(), { aud: audience });
      return {
        admin,
        answer: await apiClient(server).call(postCiToken, { body: { id_token: idToken } }),
      };
    }

    it('trusts the issuer through NODE_EXTRA_CA_CERTS, and refuses its certificate without it', async () => {
      const trusting = await start('trusting', { NODE_EXTRA_CA_CERTS: path.join(root, 'issuer-ca.pem') });
      const { answer } = await exchangeOn(trusting);
      const token = okBody(answer, 200).access_token;
      okBody(await apiClient(trusting, { token }).call(listScansRoute), 200);

      const distrusting = await start('distrusting', {});
      const refused = await exchangeOn(distrusting);
      await expectError(refused.answer, 503, 'SERVICE_UNAVAILABLE');
      const events = okBody(
        await refused.admin.call(listAuditEventsRoute, { query: { action: 'ci.token_issued' } }),
      );
      expect(events.items).toEqual([]);
    });
  },
);
