import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../../server/identity/passwords.ts';
import { countActiveSessions, insertSession } from '../../../server/auth/sessions.repository.ts';
import { findUser } from '../../../server/identity/users.repository.ts';
import { openDatabase, type Database } from '../../../server/db/index.ts';
import { migrateLatest } from '../../../server/db/migrate.ts';
import { newId } from '../../../server/identity/ids.ts';
import { PLAN_LIMITS } from '../../../server/identity/plans.ts';
import type { OpenOperatorDatabase } from '../../../server/cli/database.ts';
import { runCliCaptured } from '../../helpers/cli.ts';
import { createTestDatabase, testEngine, type TestDatabase } from '../../helpers/database.ts';

/**
 * The operator command line, run in-process through runCli (the code the binary
 * runs: commander, checks, identity functions, output) against a database of
 * its own, a PGlite data directory or a fresh PostgreSQL database, shared by the
 * commands to stay fast. Opening that database from the environment for every
 * command, as the binary does: admin-environment.test.ts.
 * cli-process.test.ts covers the real binary beside a real server.
 */

interface OrgJson {
  id: string;
  name: string;
  plan: string;
  limits: Record<string, number>;
  overrides: Record<string, number>;
  created_at: string;
  updated_at: string;
}

interface UserJson {
  id: string;
  email: string;
  role: string;
  org_id: string;
  org_name: string;
  mfa_enabled: boolean;
  disabled_at: string | null;
  created_at: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A command line split on spaces (no value in these tests contains one unless passed separately). */
const args = (line: string) => line.split(' ');

describe(`operator command line (${testEngine})`, () => {
  let env: Record<string, string>;
  let dataDir: string | undefined;
  let pg: TestDatabase | undefined;

  beforeAll(async () => {
    if (testEngine === 'postgres') {
      pg = await createTestDatabase();
      env = { DATABASE_URL: pg.url! };
    } else {
      dataDir = mkdtempSync(path.join(tmpdir(), 'scanward-cli-'));
      env = { SCANWARD_DATA_DIR: dataDir };
    }
  });
  afterAll(async () => {
    await pg?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  describe('commands', () => {
    let shared: Database;
    /** Hands every command the one open database and keeps it open across commands. */
    const openShared: OpenOperatorDatabase = async () => ({
      database: { ...shared, close: async () => undefined },
      applied: [],
    });

    beforeAll(async () => {
      shared = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
      await migrateLatest(shared.db);
    });
    afterAll(async () => {
      await shared?.close();
    });

    const cli = (argv: string[], stdin?: string) =>
      runCliCaptured(argv, env, { stdin, openDatabase: openShared });

    /** Runs a command with --json, expecting success, one JSON document and a quiet stderr. */
    async function json<T>(argv: string[], stdin?: string): Promise<T> {
      const result = await cli([...argv, '--json'], stdin);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      return JSON.parse(result.stdout) as T;
    }

    const createOrg = (name: string, plan = 'professional') =>
      json<OrgJson>([...args(`admin org create --plan ${plan} --name`), name]);
    const createUser = (orgId: string, email: string, password = 'correct-horse-battery', extra = '') =>
      json<UserJson>(
        args(`admin user create --org ${orgId} --email ${email} --password ${password}${extra}`),
      );
    const orgCount = async () => (await json<{ total: number }>(args('admin org list'))).total;

    async function addSessions(userId: string, orgId: string, active: number, revoked = 0): Promise<void> {
      const expires = new Date(Date.now() + 86_400_000);
      for (let i = 0; i < active + revoked; i++) {
        await insertSession(shared.db, {
          id: newId('sess'),
          org_id: orgId,
          user_id: userId,
          expires_at: expires,
          revoked_at: i < active ? null : new Date(Date.now() - 60_000),
        });
      }
    }

    const activeSessions = (orgId: string, userId: string) =>
      countActiveSessions(shared.db, orgId, userId, new Date());

    /** The stored hash (no command shows it): to prove the password verifies and is not kept as such. */
    const passwordHash = async (orgId: string, userId: string) =>
      (await findUser(shared.db, orgId, userId))!.password_hash;

    describe('admin org', () => {
      it('create --json answers the organization with the limits of its plan and no overrides', async () => {
        const org = await createOrg('Acme Security', 'professional');
        const plan = PLAN_LIMITS.professional;
        expect(org).toMatchObject({
          name: 'Acme Security',
          plan: 'professional',
          limits: {
            hourly: plan.hourlyRequests,
            daily: plan.dailyRequests,
            scans_per_month: plan.monthlyScans,
            concurrent: plan.concurrentScans,
            ai_credits: plan.monthlyAiCredits,
          },
          overrides: {},
        });
        expect(org.id).toMatch(/^org_[0-9a-z]{24}$/);
        expect(org.created_at).toMatch(ISO);
      });

      it('create refuses an unknown plan, a missing or blank name, and creates nothing', async () => {
        const before = await orgCount();
        const badPlan = await cli(args('admin org create --name Gold --plan gold'));
        expect(badPlan.code).toBe(2);
        expect(badPlan.stdout).toBe('');
        expect(badPlan.stderr).toContain('Allowed choices are startup, professional, enterprise');

        const noName = await cli(args('admin org create --plan startup'));
        expect(noName.code).toBe(2);
        expect(noName.stderr).toContain("required option '--name <name>' not specified");

        const blank = await cli([...args('admin org create --plan startup --name'), '   ']);
        expect(blank.code).toBe(2);
        expect(blank.stderr).toContain('must not be empty');
        expect(await orgCount()).toBe(before);
      });

      it('set-plan moves an organization to another plan and its default limits', async () => {
        const org = await createOrg('Growing Co', 'startup');
        const changed = await json<OrgJson>(args(`admin org set-plan --org ${org.id} --plan enterprise`));
        expect(changed.plan).toBe('enterprise');
        expect(changed.limits.hourly).toBe(PLAN_LIMITS.enterprise.hourlyRequests);
        expect(changed.limits.scans_per_month).toBe(-1);

        const text = await cli(args(`admin org set-plan --org ${org.id} --plan professional`));
        expect(text.code).toBe(0);
        expect(text.stdout).toContain('(plan: professional)');
        expect(text.stdout).toMatch(/scans per month\s+150\s+\(plan default\)/);
      });

      it('set-plan on an unknown organization fails and names it', async () => {
        const result = await cli(args('admin org set-plan --org org_doesnotexist --plan startup'));
        expect(result.code).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr).toBe('scanward: error: organization org_doesnotexist not found\n');
      });

      it('set-limits overrides chosen limits, -1 meaning unlimited, and "default" returns to the plan', async () => {
        const org = await createOrg('Custom Limits GmbH', 'professional');
        const custom = await json<OrgJson>(
          args(
            `admin org set-limits --org ${org.id} --hourly 2000 --daily -1 --scans-per-month 0 --concurrent 7 --ai-credits -1`,
          ),
        );
        expect(custom.limits).toEqual({
          hourly: 2000,
          daily: -1,
          scans_per_month: 0,
          concurrent: 7,
          ai_credits: -1,
        });
        expect(custom.overrides).toEqual(custom.limits);

        const partlyBack = await json<OrgJson>(args(`admin org set-limits --org ${org.id} --hourly default`));
        expect(partlyBack.limits.hourly).toBe(PLAN_LIMITS.professional.hourlyRequests);
        expect(partlyBack.limits.daily).toBe(-1);
        expect(partlyBack.overrides).not.toHaveProperty('hourly');

        const text = await cli(args(`admin org set-limits --org ${org.id} --concurrent -1`));
        expect(text.stdout).toMatch(/concurrent scans\s+unlimited\s+\(set for this organization\)/);
      });

      it('set-limits refuses no limits, words and values below -1, leaving the organization unchanged', async () => {
        const org = await createOrg('Strict Input BV', 'startup');
        const none = await cli(args(`admin org set-limits --org ${org.id}`));
        expect(none.code).toBe(2);
        expect(none.stderr).toContain('give at least one limit');

        const word = await cli(args(`admin org set-limits --org ${org.id} --daily lots`));
        expect(word.code).toBe(2);
        expect(word.stderr).toContain('--daily must be a whole number');

        const below = await cli(args(`admin org set-limits --org ${org.id} --hourly -2`));
        expect(below.code).toBe(2);
        expect(below.stderr).toContain('--hourly must be -1 (unlimited) or more');

        const unknown = await cli(args('admin org set-limits --org org_missing --hourly 5'));
        expect(unknown.code).toBe(1);
        expect(unknown.stderr).toContain('organization org_missing not found');

        const listed = await json<{ items: OrgJson[] }>(args('admin org list'));
        expect(listed.items.find((o) => o.id === org.id)?.overrides).toEqual({});
      });

      it('list shows every organization with its plan', async () => {
        const org = await createOrg('Listed Ltd', 'enterprise');
        const text = await cli(args('admin org list'));
        expect(text.stdout.split('\n')[0]).toMatch(/^ID\s+PLAN\s+CREATED\s+NAME$/);
        expect(text.stdout).toMatch(new RegExp(`${org.id}\\s+enterprise\\s+\\S+\\s+Listed Ltd`));
      });
    });

    describe('admin user', () => {
      it('create adds a member by default whose password verifies, and prints only the id', async () => {
        const org = await createOrg('Members Org');
        const created = await cli(
          args(
            `admin user create --org ${org.id} --email member@members.example --password a-long-enough-secret`,
          ),
        );
        expect(created.code).toBe(0);
        expect(created.stdout).toMatch(/^user_[0-9a-z]{24}\n$/);
        const userId = created.stdout.trim();

        const users = await json<{ items: UserJson[] }>(args(`admin user list --org ${org.id}`));
        expect(users.items).toEqual([
          expect.objectContaining({
            id: userId,
            email: 'member@members.example',
            role: 'member',
            org_id: org.id,
          }),
        ]);
        const hash = await passwordHash(org.id, userId);
        expect(hash).not.toContain('a-long-enough-secret');
        expect(await verifyPassword('a-long-enough-secret', hash)).toBe(true);
      });

      it('create --json with --role admin answers the user record', async () => {
        const org = await createOrg('Admins Org');
        const user = await createUser(org.id, 'boss@admins.example', 'twelve-chars', ' --role admin');
        expect(user).toEqual({
          id: expect.stringMatching(/^user_[0-9a-z]{24}$/),
          email: 'boss@admins.example',
          role: 'admin',
          org_id: org.id,
          org_name: 'Admins Org',
          mfa_enabled: false,
          disabled_at: null,
          created_at: expect.stringMatching(ISO),
        });
      });

      it('create reads the password from standard input when given "-", and refuses an empty one', async () => {
        const org = await createOrg('Stdin Org');
        const piped = await json<UserJson>(
          args(`admin user create --org ${org.id} --email piped@stdin.example --password -`),
          'from standard input\n',
        );
        expect(await verifyPassword('from standard input', await passwordHash(org.id, piped.id))).toBe(true);

        const empty = await cli(
          args(`admin user create --org ${org.id} --email empty@stdin.example --password -`),
          '',
        );
        expect(empty.code).toBe(2);
        expect(empty.stderr).toContain('at least 12 characters');
      });

      it('create refuses a taken e-mail in any letter case, a short password, a bad address, role or org', async () => {
        const org = await createOrg('Refusals Org');
        await createUser(org.id, 'taken@refusals.example');
        const attempt = (options: string) =>
          cli(args(`admin user create --org ${org.id} --password long-enough-pw ${options}`));

        const taken = await attempt('--email TAKEN@Refusals.example');
        expect(taken.code).toBe(1);
        expect(taken.stderr).toBe(
          'scanward: error: a user with the e-mail TAKEN@Refusals.example already exists\n',
        );

        const short = await cli(
          args(`admin user create --org ${org.id} --email short@refusals.example --password elevenchars`),
        );
        expect(short.code).toBe(2);
        expect(short.stderr).toContain('at least 12 characters');

        const address = await attempt('--email not-an-address');
        expect(address.code).toBe(2);
        expect(address.stderr).toContain('"not-an-address" is not an e-mail address');

        const role = await attempt('--email role@refusals.example --role owner');
        expect(role.code).toBe(2);
        expect(role.stderr).toContain('Allowed choices are admin, member');

        const noOrg = await cli(
          args(
            'admin user create --org org_nothere --email orphan@refusals.example --password long-enough-pw',
          ),
        );
        expect(noOrg.code).toBe(1);
        expect(noOrg.stderr).toContain('organization org_nothere not found');

        const users = await json<{ items: UserJson[] }>(args(`admin user list --org ${org.id}`));
        expect(users.items.map((u) => u.email)).toEqual(['taken@refusals.example']);
      });

      it('reset-password sets the new password and revokes every session of that user only', async () => {
        const org = await createOrg('Reset Org');
        const user = await createUser(org.id, 'forgetful@reset.example', 'old-password-here');
        const bystander = await createUser(org.id, 'bystander@reset.example');
        await addSessions(user.id, org.id, 2);
        await addSessions(bystander.id, org.id, 1);

        const reset = await json<Record<string, unknown>>(
          args('admin user reset-password --email Forgetful@reset.example --password new-password-here'),
        );
        expect(reset).toEqual({
          id: user.id,
          email: 'forgetful@reset.example',
          password_reset: true,
          sessions_revoked: true,
          revoked_sessions: 2,
          revoked_api_keys: 0,
          api_keys_kept: false,
        });
        const hash = await passwordHash(org.id, user.id);
        expect(await verifyPassword('new-password-here', hash)).toBe(true);
        expect(await verifyPassword('old-password-here', hash)).toBe(false);
        expect(await activeSessions(org.id, user.id)).toBe(0);
        expect(await activeSessions(org.id, bystander.id)).toBe(1);
      });

      it('reset-password refuses an unknown e-mail and a short password, changing nothing', async () => {
        const unknown = await cli(
          args('admin user reset-password --email nobody@nowhere.example --password long-enough-pw'),
        );
        expect(unknown.code).toBe(1);
        expect(unknown.stderr).toContain('no user with the e-mail nobody@nowhere.example');

        const org = await createOrg('Short Reset Org');
        const user = await createUser(org.id, 'keeps@short.example', 'the-original-one');
        const short = await cli(args(`admin user reset-password --email ${user.email} --password short`));
        expect(short.code).toBe(2);
        expect(await verifyPassword('the-original-one', await passwordHash(org.id, user.id))).toBe(true);
      });

      it('list shows the users of every organization, or of one with --org', async () => {
        const a = await createOrg('List A');
        const b = await createOrg('List B');
        const ua = await createUser(a.id, 'one@list-a.example');
        const ub = await createUser(b.id, 'two@list-b.example', undefined, ' --role admin');

        const all = await json<{ items: UserJson[]; total: number }>(args('admin user list'));
        expect(all.total).toBe(all.items.length);
        expect(all.items.map((u) => u.id)).toEqual(expect.arrayContaining([ua.id, ub.id]));

        const onlyB = await json<{ items: UserJson[]; total: number }>(args(`admin user list --org ${b.id}`));
        expect(onlyB).toEqual({ items: [ub], total: 1 });

        const text = await cli(args(`admin user list --org ${b.id}`));
        expect(text.stdout.split('\n')[0]).toMatch(
          /^ID\s+EMAIL\s+ROLE\s+MFA\s+STATUS\s+ORGANIZATION\s+CREATED$/,
        );
        expect(text.stdout).toContain('two@list-b.example');
        expect(text.stdout).not.toContain('one@list-a.example');

        const missing = await cli(args('admin user list --org org_gone'));
        expect(missing.code).toBe(1);
        expect(missing.stderr).toContain('organization org_gone not found');
      });
    });

    describe('admin sessions', () => {
      it('revoke ends every active session of the user, and only that user, and reports how many', async () => {
        const org = await createOrg('Sessions Org');
        const user = await createUser(org.id, 'leaked@sessions.example');
        const other = await createUser(org.id, 'safe@sessions.example');
        await addSessions(user.id, org.id, 3, 1);
        await addSessions(other.id, org.id, 1);

        const revoked = await json<Record<string, unknown>>(
          args(`admin sessions revoke --email ${user.email}`),
        );
        expect(revoked).toEqual({ id: user.id, email: user.email, revoked_sessions: 3 });
        expect(await activeSessions(org.id, user.id)).toBe(0);
        expect(await activeSessions(org.id, other.id)).toBe(1);

        const again = await cli(args(`admin sessions revoke --email ${user.email}`));
        expect(again.stdout).toBe(`revoked 0 sessions of ${user.email}\n`);
      });

      it('revoke on an unknown e-mail fails', async () => {
        const result = await cli(args('admin sessions revoke --email ghost@sessions.example'));
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('no user with the e-mail ghost@sessions.example');
      });
    });

    describe('usage', () => {
      it('an unknown command or flag is a usage error with a hint', async () => {
        const command = await cli(args('admin org delete --org org_x'));
        expect(command.code).toBe(2);
        expect(command.stderr).toContain('--help');

        const flag = await cli(args('admin user list --everything'));
        expect(flag.code).toBe(2);
        expect(flag.stderr).toContain("unknown option '--everything'");
      });

      it('--help prints usage to stdout and succeeds', async () => {
        const help = await cli(args('admin org set-limits --help'));
        expect(help.code).toBe(0);
        expect(help.stdout).toContain('--scans-per-month <n>');
      });
    });
  });
});
