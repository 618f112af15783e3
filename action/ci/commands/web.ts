import { fromVariable, stringOptions, type OptionGroup } from './group.ts';

/** Web application testing: `--active`, a form log-in, `--header`s and `--exclude`d paths. */
export const webOptions: OptionGroup = {
  options: {
    ...stringOptions('login-url', 'username', 'password-env'),
    active: { type: 'boolean' },
    header: { type: 'string', multiple: true },
    exclude: { type: 'string', multiple: true },
  },
  help: `
Web application testing (docs/web-testing.md), locally and remotely:
  --active                     run the attack checks (SQL injection, XSS, command
                               injection, ...): they submit forms and may write data,
                               so scan a test deployment       (SCANWARD_ACTIVE=true)
  --login-url URL              sign in through this log-in form first (on the target)
  --username USER              the user name for the form log-in
  --password-env VAR           the password, read from the variable VAR (never a flag)
  --header 'Name: value'       a header sent with every request instead of a form
                               log-in (Authorization, Cookie); repeatable
                               (SCANWARD_AUTH_HEADERS, one per line)
  --exclude PATH               a path never requested: a prefix (/logout) or a glob
                               (/api/*/delete); repeatable     (SCANWARD_EXCLUDE_PATHS)
`,
  input: (name, values, env, get) => {
    if (name === 'active' && values.active) return 'true';
    // Repeatable flags become the Action's one-per-line inputs.
    if (name === 'auth-headers' && Array.isArray(values.header)) return values.header.join('\n');
    if (name === 'exclude-paths' && Array.isArray(values.exclude)) return values.exclude.join('\n');
    // The password, read from the variable --password-env names (never a flag: it is a secret).
    if (name === 'password') return fromVariable(get('password-env'), env);
    return undefined;
  },
};
