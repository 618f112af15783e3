import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/index.ts';
import { bootstrapIfEmpty } from '../../../server/people/bootstrap.ts';
import { addFindingCommentRoute, listFindingsRoute } from '../../../server/routes/findings.ts';
import { listSchedulesRoute } from '../../../server/routes/schedules.ts';
import { runDueSchedules } from '../../../server/scans/scheduler.ts';
import { deliverDue } from '../../../server/webhooks/delivery.ts';
import { type TestApp } from '../../helpers/app.ts';
import { runCliCaptured } from '../../helpers/cli.ts';
import { apiClient, expectError, okBody } from '../../helpers/api-client.ts';
import { logIn } from '../../helpers/factory.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';
import { createPostgresDatabase, LOCAL_POSTGRES_URL, type TestDatabase } from '../../helpers/database.ts';
import { listMySessions } from '../../../server/routes/auth.ts';

/**
 * `scanward db copy`: a team that started on the embedded database moves to
 * PostgreSQL and loses nothing. An embedded database in a real data directory is
 * seeded through the API (findings are recorded the way the finding tests do,
 * without running the scan engine), copied with the command line, and served
 * from PostgreSQL, where every table must hold exactly the rows of the embedded
 * one and credentials, secrets and schedules keep working.
 *
 * The copy always goes from PGlite to PostgreSQL, whatever engine the suite runs
 * on, so this file needs a PostgreSQL server in both runs: DATABASE_URL's, or
 * else the local one CI always runs (LOCAL_POSTGRES_URL). The copy it tests is
 * the same in both runs.
 */

import { ADMIN, SLOW, seedEmbedded, serve, snapshot, type Seeded } from './copy-seed.ts';

describe('scanward db copy: the embedded database into PostgreSQL', () => {
  let root: string;
  let dataDir: string;
  let target: TestDatabase & { url: string };
  let embedded: TestApp;
  let onPostgres: TestApp | undefined;
  let receiver: WebhookReceiver;

  let seeded: Seeded;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'scanward-db-copy-'));
    dataDir = path.join(root, 'data');
    try {
      target = await createPostgresDatabase();
    } catch (err) {
      throw new Error(
        `this test copies into PostgreSQL even when the suite runs on PGlite: set DATABASE_URL or run one at ${LOCAL_POSTGRES_URL} (${String(err)})`,
        { cause: err },
      );
    }
    receiver = await startWebhookReceiver();
    embedded = await serve({ SCANWARD_DATA_DIR: dataDir });
    seeded = await seedEmbedded(embedded, receiver);
  }, SLOW);

  afterAll(async () => {
    await onPostgres?.close();
    await embedded?.close();
    await receiver?.close();
    await target?.drop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('leaves no table of the migrated schema empty in the seed, so a table the copy skipped could not go unnoticed', () => {
    const empty = [...seeded.before].filter(([, rows]) => rows.length === 0).map(([table]) => table);
    // A new table? Seed rows into it above, so the comparison below proves it is copied.
    expect(empty).toEqual([]);
    expect(seeded.before.size).toBeGreaterThanOrEqual(19);
  });

  // One story, in steps: each reads what the step before it left (the server it closes, the copy it
  // made, the data the service added on PostgreSQL). Apart, each would need its own seeded embedded
  // database and copy, the most expensive set-up of the suite.
  it(
    'copies the embedded database into PostgreSQL once, serves the same data from it, and copies again only with --force',
    async () => {
      // 1. Refused while a server holds the embedded database, touching neither side.
      {
        const refused = await runCliCaptured(['db', 'copy', '--to', target.url], {
          SCANWARD_DATA_DIR: dataDir,
        });
        expect(refused.code).toBe(3);
        expect(refused.stdout).toBe('');
        expect(refused.stderr).toContain(
          `the embedded database in ${dataDir} is in use by another Scanward process`,
        );
        // The target was not even migrated.
        const pg = await openDatabase({ databaseUrl: target.url, poolMax: 1 });
        try {
          const { rows } = (await pg.db.raw(
            "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
          )) as { rows: Array<{ n: number }> };
          expect(rows[0]!.n).toBe(0);
        } finally {
          await pg.close();
        }
        await embedded.close();
      }

      // 2. Copied: every table row for row, in dependency order, with a line per table and the counts of both sides.
      {
        // Small batches, so the bigger tables take several round trips.
        const copy = await runCliCaptured(['db', 'copy', '--to', target.url, '--batch-size', '2', '--json'], {
          SCANWARD_DATA_DIR: dataDir,
        });
        expect(copy.code, copy.stderr).toBe(0);
        const report = JSON.parse(copy.stdout) as {
          source: string;
          target: string;
          tables: Array<{ name: string; source_rows: number; target_rows: number }>;
        };
        expect(report.source).toBe(dataDir);
        expect(report.target).not.toContain('@');
        expect(report.tables.map((t) => t.name).sort()).toEqual([...seeded.before.keys()].sort());
        for (const t of report.tables) {
          expect(t.target_rows, t.name).toBe(seeded.before.get(t.name)!.length);
          expect(t.source_rows, t.name).toBe(t.target_rows);
          expect(copy.stderr).toContain(`copied ${t.name}: ${t.source_rows} row`);
        }
        // Parents before children.
        const position = (name: string) => report.tables.findIndex((t) => t.name === name);
        expect(position('organizations')).toBeLessThan(position('users'));
        expect(position('scans')).toBeLessThan(position('findings'));
        expect(position('findings')).toBeLessThan(position('finding_comments'));
        expect(position('webhooks')).toBeLessThan(position('webhook_deliveries'));

        const pg = await openDatabase({ databaseUrl: target.url, poolMax: 1 });
        try {
          const copied = await snapshot(pg.db);
          expect([...copied.keys()]).toEqual([...seeded.before.keys()]);
          for (const [table, rows] of seeded.before) expect(copied.get(table), table).toEqual(rows);
        } finally {
          await pg.close();
        }
      }

      // 3. Served from PostgreSQL: sign-in, existing tokens and API keys, MFA codes, webhook signatures, schedules.
      {
        onPostgres = await serve({
          DATABASE_URL: target.url,
          SCANWARD_ADMIN_PASSWORD: 'a-different-bootstrap-password',
        });
        const app = onPostgres;
        // No second bootstrap: the copied admin is the admin.
        expect(await bootstrapIfEmpty(app.services.db, app.config)).toBeUndefined();

        // The same admin signs in with the same password, and a token issued by the embedded server still works.
        const adminToken = String(okBody(await logIn(app, ADMIN), 200).access_token);
        okBody(await apiClient(app, { token: adminToken }).call(listMySessions), 200);
        okBody(await apiClient(app, { token: seeded.adminToken }).call(listMySessions), 200);

        // The API key created on the embedded database.
        const byKey = await apiClient(app, { apiKey: seeded.apiKey }).call(listFindingsRoute);
        expect(okBody(byKey, 200).total).toBe(4);

        // MFA: a code from the same authenticator is accepted, no code is not.
        const mfaUser = seeded.mfaUser!;
        await expectError(await logIn(app, mfaUser), 401, 'MFA_REQUIRED');
        okBody(await logIn(app, mfaUser, { mfa_code: seeded.totp!.generate() }), 200);

        // Deliveries queued on the embedded database are sent with the same secret.
        const before = receiver.received.length;
        while ((await deliverDue(app.services)) > 0) {
          /* until the outbox is empty */
        }
        const sent = receiver.received.slice(before);
        expect(sent.map((r) => r.headers['webhook-id']).sort()).toEqual([...seeded.pendingDeliveries].sort());
        const signer = new Webhook(seeded.webhookSecret);
        expect(sent.every((r) => r.url === '/hook/0')).toBe(true);
        for (const r of sent) {
          expect(() => signer.verify(r.body, r.headers as Record<string, string>)).not.toThrow();
        }

        // Schedules keep their next run, and the scheduler runs them then.
        const schedules = okBody(await apiClient(app, { token: adminToken }).call(listSchedulesRoute), 200);
        expect(schedules.items).toEqual(seeded.schedules);
        const next = seeded.schedules[0]!;
        const due = new Date(String(next.next_run_at));
        expect(await runDueSchedules(app.services, new Date(due.getTime() - 1000))).toEqual([]);
        const ran = await runDueSchedules(app.services, due);
        expect(ran).toEqual([expect.objectContaining({ scheduleId: next.id, scanId: expect.any(String) })]);

        // Identity sequences continue after the copied rows.
        const { max } = (await app.services.db('finding_comments').max({ max: 'seq' }).first()) as {
          max: number;
        };
        const own = okBody(await apiClient(app, { token: adminToken }).call(listFindingsRoute), 200);
        okBody(
          await apiClient(app, { token: adminToken }).call(addFindingCommentRoute, {
            params: { finding_id: own.items[0]!.id },
            body: {
              text: 'after the move',
            },
          }),
          201,
        );
        const added = (await app.services
          .db('finding_comments')
          .where({ text: 'after the move' })
          .first('seq')) as {
          seq: number;
        };
        expect(Number(added.seq)).toBeGreaterThan(Number(max));
      }

      // 4. A second copy into the same target is refused; --force replaces what it holds after a warning; the embedded data never changes.
      {
        await onPostgres?.close();
        const again = await runCliCaptured(['db', 'copy', '--to', target.url], {
          SCANWARD_DATA_DIR: dataDir,
        });
        expect(again.code).toBe(1);
        expect(again.stdout).toBe('');
        expect(again.stderr).toMatch(
          /already holds Scanward data \(.*users: \d+ rows.*\); nothing was copied/,
        );
        expect(again.stderr).toContain('--force');

        const forced = await runCliCaptured(['db', 'copy', '--to', target.url, '--force'], {
          SCANWARD_DATA_DIR: dataDir,
        });
        expect(forced.code, forced.stderr).toBe(0);
        expect(forced.stderr).toMatch(
          /warning: --force: deleting everything .* holds \(.*\) and replacing it/,
        );
        expect(forced.stdout).toMatch(/^TABLE +EMBEDDED +POSTGRESQL$/m);
        expect(forced.stdout).toMatch(/^findings +10 +10$/m);

        // What PostgreSQL gained since (the scheduled scan, the comment) is gone: it holds the embedded data
        // again; and the embedded database itself was never changed by the copies.
        const pg = await openDatabase({ databaseUrl: target.url, poolMax: 1 });
        const source = await openDatabase({ dataDir });
        try {
          const copied = await snapshot(pg.db);
          const embeddedNow = await snapshot(source.db);
          for (const [table, rows] of seeded.before) {
            expect(copied.get(table), table).toEqual(rows);
            expect(embeddedNow.get(table), table).toEqual(rows);
          }
        } finally {
          await source.close();
          await pg.close();
        }
      }
    },
    4 * SLOW,
  );
});
