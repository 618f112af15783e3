import { Command, CommanderError, Option } from 'commander';
import type { Db } from '../db/index.ts';
import { Plan } from '../schemas/common.ts';
import { VERSION } from '../version.ts';
import type { CliContext } from './context.ts';
import { withOperatorDatabase } from './database.ts';
import { CliError, EXIT } from './errors.ts';
import { registerTemplatesCommand } from './templates-command.ts';
import {
  copyCommand,
  DEFAULT_BATCH_SIZE,
  formatCopy,
  parseBatchSize,
  parseTargetUrl,
} from './db-commands.ts';
import {
  createOrganizationCommand,
  listOrganizationsCommand,
  parseLimitFlags,
  parseOrganizationName,
  parsePlan,
  setLimitsCommand,
  setPlanCommand,
  type LimitFlags,
} from './org-commands.ts';
import { emit, formatOrganization, formatOrganizations, formatUsers } from './output.ts';
import {
  createUserCommand,
  deleteUserCommand,
  disableUserCommand,
  enableUserCommand,
  listUsersCommand,
  MIN_PASSWORD_LENGTH,
  parseEmail,
  parsePassword,
  parseRole,
  resetMfaCommand,
  resetPasswordCommand,
  revokeSessionsCommand,
} from './user-commands.ts';

interface JsonFlag {
  json?: boolean;
}

/** What a command prints: the --json document and the text for people. */
interface Printable {
  data: unknown;
  text: () => string;
}

/** The database work of a command whose input has been checked. */
type Work = (db: Db) => Promise<Printable>;

const PASSWORD_HELP = `at least ${MIN_PASSWORD_LENGTH} characters; "-" reads it from standard input`;
const LIMIT_HELP = 'a whole number, -1 for unlimited, or "default" for the plan\'s default';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The operator command line (decisions.md, "Running it"). Each command checks its
 * input first, then opens the server's database, does one thing through the
 * identity functions, and closes it.
 */
export function buildProgram(context: CliContext): Command {
  const program = new Command('scanward')
    .description(
      'Scanward operator command line: organizations, users, sessions, migrations and moving to PostgreSQL.',
    )
    .version(VERSION, '-V, --version')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => context.stdout(text),
      writeErr: (text) => context.stderr(text),
      outputError: (text, write) => write(`scanward: ${text}`),
    })
    .showHelpAfterError('(run with --help for usage)');

  /** A command with --json: `prepare` checks the options and returns the database work. */
  const leaf = <O extends JsonFlag>(
    parent: Command,
    name: string,
    description: string,
    options: (command: Command) => Command,
    prepare: (opts: O) => Work | Promise<Work>,
  ) =>
    options(parent.command(name).description(description))
      .option('--json', 'print machine-readable JSON')
      .action(async (opts: O) => {
        const work = await prepare(opts);
        const { data, text } = await withOperatorDatabase(context.env, work, context.openDatabase);
        emit(context, opts.json === true, data, text);
      });

  const password = async (value: string): Promise<string> =>
    parsePassword(value === '-' ? (await context.readStdin()).replace(/\r?\n$/, '') : value);

  const admin = program.command('admin').description('manage organizations, users and sessions');

  const org = admin.command('org').description('organizations, their plans and limits');
  leaf<JsonFlag & { name: string; plan: string }>(
    org,
    'create',
    'create an organization and print its id',
    (c) =>
      c
        .requiredOption('--name <name>', 'organization name')
        .addOption(new Option('--plan <plan>', 'plan').choices(Plan.options).makeOptionMandatory()),
    (opts) => {
      const input = { name: parseOrganizationName(opts.name), plan: parsePlan(opts.plan) };
      return async (db) => {
        const created = await createOrganizationCommand(db, input);
        return { data: created, text: () => created.id };
      };
    },
  );
  leaf<JsonFlag & { org: string; plan: string }>(
    org,
    'set-plan',
    "change an organization's plan (limits set for it stay)",
    (c) =>
      c
        .requiredOption('--org <org_id>', 'organization id')
        .addOption(new Option('--plan <plan>', 'plan').choices(Plan.options).makeOptionMandatory()),
    (opts) => {
      const input = { orgId: opts.org, plan: parsePlan(opts.plan) };
      return async (db) => {
        const changed = await setPlanCommand(db, input);
        return { data: changed, text: () => formatOrganization(changed) };
      };
    },
  );
  leaf<JsonFlag & LimitFlags & { org: string }>(
    org,
    'set-limits',
    "override an organization's plan limits",
    (c) =>
      c
        .requiredOption('--org <org_id>', 'organization id')
        .option('--hourly <n>', `requests per hour: ${LIMIT_HELP}`)
        .option('--daily <n>', `requests per day: ${LIMIT_HELP}`)
        .option('--scans-per-month <n>', `scans per calendar month: ${LIMIT_HELP}`)
        .option('--concurrent <n>', `pending + running scans at once: ${LIMIT_HELP}`)
        .option('--ai-credits <n>', `AI analysis credits per month: ${LIMIT_HELP}`),
    (opts) => {
      const input = { orgId: opts.org, limits: parseLimitFlags(opts) };
      return async (db) => {
        const changed = await setLimitsCommand(db, input);
        return { data: changed, text: () => formatOrganization(changed) };
      };
    },
  );
  leaf<JsonFlag>(
    org,
    'list',
    'list organizations with their plans',
    (c) => c,
    () => async (db) => {
      const items = await listOrganizationsCommand(db);
      return { data: { items, total: items.length }, text: () => formatOrganizations(items) };
    },
  );

  const user = admin.command('user').description('user accounts');
  leaf<JsonFlag & { org: string; email: string; password: string; role: string }>(
    user,
    'create',
    'create a user in an organization and print its id',
    (c) =>
      c
        .requiredOption('--org <org_id>', 'organization id')
        .requiredOption('--email <email>', 'e-mail address, used to log in')
        .requiredOption('--password <password>', PASSWORD_HELP)
        .addOption(
          new Option('--role <role>', 'role').choices(['admin', 'member', 'viewer']).default('member'),
        ),
    async (opts) => {
      const input = {
        orgId: opts.org,
        email: parseEmail(opts.email),
        role: parseRole(opts.role),
        password: await password(opts.password),
      };
      return async (db) => {
        const created = await createUserCommand(db, input);
        return { data: created, text: () => created.id };
      };
    },
  );
  leaf<JsonFlag & { email: string; password: string; keepApiKeys?: boolean }>(
    user,
    'reset-password',
    "set a user's password and revoke all of the user's sessions and API keys",
    (c) =>
      c
        .requiredOption('--email <email>', 'e-mail address of the user')
        .requiredOption('--password <password>', PASSWORD_HELP)
        .option('--keep-api-keys', "keep the user's API keys working (they are revoked by default)"),
    async (opts) => {
      const input = {
        email: opts.email,
        password: await password(opts.password),
        keepApiKeys: opts.keepApiKeys === true,
      };
      return async (db) => {
        const reset = await resetPasswordCommand(db, input);
        return {
          data: reset,
          text: () =>
            `password of ${reset.email} reset; revoked ${plural(reset.revoked_sessions, 'session')} and ` +
            (reset.api_keys_kept ? 'kept the API keys' : `${plural(reset.revoked_api_keys, 'API key')}`),
        };
      };
    },
  );
  leaf<JsonFlag & { email: string }>(
    user,
    'disable',
    'disable a user: no log-in, and every session and API key of the user is revoked at once',
    (c) => c.requiredOption('--email <email>', 'e-mail address of the user'),
    (opts) => {
      const email = parseEmail(opts.email);
      return async (db) => {
        const disabled = await disableUserCommand(db, { email });
        return {
          data: disabled,
          text: () =>
            `disabled ${disabled.email}; revoked ${plural(disabled.revoked_sessions, 'session')} and ` +
            plural(disabled.revoked_api_keys, 'API key'),
        };
      };
    },
  );
  leaf<JsonFlag & { email: string }>(
    user,
    'enable',
    'let a disabled user log in again (revoked sessions and keys stay revoked)',
    (c) => c.requiredOption('--email <email>', 'e-mail address of the user'),
    (opts) => {
      const email = parseEmail(opts.email);
      return async (db) => {
        const enabled = await enableUserCommand(db, { email });
        return { data: enabled, text: () => `enabled ${enabled.email}; the user can log in again` };
      };
    },
  );
  leaf<JsonFlag & { email: string }>(
    user,
    'delete',
    'delete a user with their sessions and API keys (their comments and history keep the e-mail)',
    (c) => c.requiredOption('--email <email>', 'e-mail address of the user'),
    (opts) => {
      const email = parseEmail(opts.email);
      return async (db) => {
        const deleted = await deleteUserCommand(db, { email });
        return {
          data: deleted,
          text: () =>
            `deleted ${deleted.email}; revoked ${plural(deleted.revoked_sessions, 'session')} and ` +
            plural(deleted.revoked_api_keys, 'API key'),
        };
      };
    },
  );
  leaf<JsonFlag & { email: string }>(
    user,
    'reset-mfa',
    "turn a user's MFA off and delete their recovery codes (lost authenticator); they may set it up again",
    (c) => c.requiredOption('--email <email>', 'e-mail address of the user'),
    (opts) => {
      const email = parseEmail(opts.email);
      return async (db) => {
        const reset = await resetMfaCommand(db, { email });
        return {
          data: reset,
          text: () =>
            reset.mfa_was_enabled
              ? `MFA of ${reset.email} reset; the password alone logs in until MFA is set up again`
              : `${reset.email} had no MFA; nothing to reset`,
        };
      };
    },
  );
  leaf<JsonFlag & { org?: string }>(
    user,
    'list',
    'list users, of every organization or of one',
    (c) => c.option('--org <org_id>', 'only the users of this organization'),
    (opts) => async (db) => {
      const items = await listUsersCommand(db, { orgId: opts.org });
      return { data: { items, total: items.length }, text: () => formatUsers(items) };
    },
  );

  const sessions = admin.command('sessions').description('log-in sessions');
  leaf<JsonFlag & { email: string }>(
    sessions,
    'revoke',
    "revoke every active session of a user (the user's tokens stop working at once)",
    (c) => c.requiredOption('--email <email>', 'e-mail address of the user'),
    (opts) => async (db) => {
      const revoked = await revokeSessionsCommand(db, { email: opts.email });
      return {
        data: revoked,
        text: () => `revoked ${plural(revoked.revoked_sessions, 'session')} of ${revoked.email}`,
      };
    },
  );

  program
    .command('migrate')
    .description('bring the database schema up to date and exit')
    .option('--json', 'print machine-readable JSON')
    .action(async (opts: JsonFlag) => {
      const result = await withOperatorDatabase(
        context.env,
        async (_db, opened) => ({
          applied: opened.applied,
          engine: opened.database.engine,
          location: opened.database.location,
        }),
        context.openDatabase,
      );
      emit(context, opts.json === true, result, () =>
        result.applied.length === 0
          ? `${result.location}: the schema is up to date`
          : `${result.location}: applied ${plural(result.applied.length, 'migration')}: ${result.applied.join(', ')}`,
      );
    });

  const db = program.command('db').description('the database as a whole');
  db.command('copy')
    .description(
      'copy everything from the embedded database (SCANWARD_DATA_DIR, server stopped) into an empty PostgreSQL database',
    )
    .requiredOption(
      '--to <postgres-url>',
      'the PostgreSQL database to copy into (migrated first; must hold no Scanward data)',
    )
    .option('--force', 'DELETE whatever Scanward data the target holds and replace it with the embedded data')
    .option('--batch-size <n>', `rows read and written at a time (default ${DEFAULT_BATCH_SIZE})`)
    .option('--json', 'print machine-readable JSON')
    .action(async (opts: JsonFlag & { to: string; force?: boolean; batchSize?: string }) => {
      const input = {
        to: parseTargetUrl(opts.to),
        force: opts.force === true,
        batchSize: opts.batchSize === undefined ? DEFAULT_BATCH_SIZE : parseBatchSize(opts.batchSize),
      };
      const copied = await copyCommand(context.env, input, context);
      emit(context, opts.json === true, copied, () => formatCopy(copied));
    });

  registerTemplatesCommand(program, context);
  return program;
}

/** A readable one-line reason, including the causes Node packs into an AggregateError (e.g. ECONNREFUSED). */
function reasonOf(err: unknown): string {
  if (err instanceof AggregateError && !err.message) return err.errors.map(reasonOf).join('; ');
  if (err instanceof Error) return err.message || String((err as NodeJS.ErrnoException).code ?? err.name);
  return String(err);
}

/** Runs the command line on `argv` (without node and script) and returns the exit code. */
export async function runCli(argv: readonly string[], context: CliContext): Promise<number> {
  const program = buildProgram(context);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    // commander has printed its own message (or the help) already.
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    const failure = err instanceof CliError ? err : undefined;
    context.stderr(`scanward: error: ${failure ? failure.message : reasonOf(err)}\n`);
    return failure?.exitCode ?? EXIT.failed;
  }
}
