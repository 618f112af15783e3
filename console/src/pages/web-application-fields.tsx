import type { Schemas } from '../api/contract';

/**
 * The "Web application" part of the scan and schedule forms (docs/web-testing.md): whether the
 * attack checks run, how the scanner signs in (a log-in form, or headers sent with every
 * request), and the paths it never requests. The password and header values are sent once and
 * never shown again: the service seals them and answers only that they are set.
 */

export type WebAuthenticationType = 'none' | 'form' | 'headers';

export interface WebOptions {
  active: boolean;
  authType: WebAuthenticationType;
  loginUrl: string;
  username: string;
  password: string;
  headers: { name: string; value: string }[];
  /** As typed: one path per line. */
  excludePaths: string;
}

export const DEFAULT_WEB_OPTIONS: WebOptions = {
  active: false,
  authType: 'none',
  loginUrl: '',
  username: '',
  password: '',
  headers: [{ name: '', value: '' }],
  excludePaths: '',
};

/**
 * The request's `web`, or undefined when the section is left as it starts (no attack checks,
 * no log-in, no exclusion: the API's defaults). Header rows without a name are left out.
 */
export function webRequestOf(web: WebOptions): Schemas['WebTestingOptions'] | undefined {
  const excludePaths = web.excludePaths
    .split('\n')
    .map((p) => p.trim())
    .filter(Boolean);
  const headers = Object.fromEntries(
    web.headers.filter((h) => h.name.trim() !== '').map((h) => [h.name.trim(), h.value]),
  );
  const authentication: Schemas['WebTestingOptions']['authentication'] =
    web.authType === 'form'
      ? { type: 'form', login_url: web.loginUrl.trim(), username: web.username, password: web.password }
      : web.authType === 'headers' && Object.keys(headers).length > 0
        ? { type: 'headers', headers }
        : undefined;
  if (!web.active && !authentication && excludePaths.length === 0) return undefined;
  return {
    active: web.active,
    ...(authentication ? { authentication } : {}),
    exclude_paths: excludePaths,
  };
}

const AUTH_TYPES: { value: WebAuthenticationType; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'form', label: 'Log-in form' },
  { value: 'headers', label: 'Headers' },
];

export function WebApplicationFields(props: {
  value: WebOptions;
  onChange: (value: WebOptions) => void;
  namePrefix?: string;
}) {
  const { value, onChange, namePrefix = '' } = props;
  const set = (change: Partial<WebOptions>) => onChange({ ...value, ...change });
  const setHeader = (index: number, change: Partial<{ name: string; value: string }>) =>
    set({ headers: value.headers.map((h, i) => (i === index ? { ...h, ...change } : h)) });
  return (
    <fieldset className="web-application">
      <legend>Web application</legend>
      <label className="inline">
        <input
          type="checkbox"
          name={`${namePrefix}web_active`}
          checked={value.active}
          onChange={(e) => set({ active: e.target.checked })}
        />{' '}
        Active testing (attack checks)
      </label>
      <p className={value.active ? 'warning' : 'hint'} role={value.active ? 'alert' : undefined}>
        Active testing sends attack input (SQL injection, XSS, command injection, …) to every page and form it
        reaches, and submits those forms: it may create, change or delete data. Scan a test deployment, and
        exclude paths that must not be requested.
      </p>
      <label>
        Authentication
        <select
          name={`${namePrefix}web_auth_type`}
          value={value.authType}
          onChange={(e) => set({ authType: e.target.value as WebAuthenticationType })}
        >
          {AUTH_TYPES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </select>
      </label>
      {value.authType === 'form' && (
        <div className="web-login">
          <label>
            Log-in page URL
            <input
              name={`${namePrefix}web_login_url`}
              type="url"
              placeholder="https://app.example.com/login"
              value={value.loginUrl}
              onChange={(e) => set({ loginUrl: e.target.value })}
            />
          </label>
          <label>
            User name
            <input
              name={`${namePrefix}web_username`}
              autoComplete="off"
              value={value.username}
              onChange={(e) => set({ username: e.target.value })}
            />
          </label>
          <label>
            Password
            <input
              name={`${namePrefix}web_password`}
              type="password"
              autoComplete="new-password"
              value={value.password}
              onChange={(e) => set({ password: e.target.value })}
            />
          </label>
        </div>
      )}
      {value.authType === 'headers' && (
        <div className="web-headers" role="group" aria-label="Headers">
          {value.headers.map((header, i) => (
            <div key={i} className="web-header">
              <label>
                Header name {i + 1}
                <input
                  name={`${namePrefix}web_header_name_${i}`}
                  placeholder="Authorization"
                  value={header.name}
                  onChange={(e) => setHeader(i, { name: e.target.value })}
                />
              </label>
              <label>
                Header value {i + 1}
                <input
                  name={`${namePrefix}web_header_value_${i}`}
                  type="password"
                  autoComplete="off"
                  placeholder="Bearer …"
                  value={header.value}
                  onChange={(e) => setHeader(i, { value: e.target.value })}
                />
              </label>
              {value.headers.length > 1 && (
                <button
                  type="button"
                  className="secondary"
                  onClick={() => set({ headers: value.headers.filter((_, j) => j !== i) })}
                >
                  Remove header {i + 1}
                </button>
              )}
            </div>
          ))}
          <button
            type="button"
            className="secondary"
            onClick={() => set({ headers: [...value.headers, { name: '', value: '' }] })}
          >
            Add header
          </button>
        </div>
      )}
      {value.authType !== 'none' && (
        <p className="hint">The password and header values are stored encrypted and never shown again.</p>
      )}
      <label>
        Excluded paths (one per line)
        <textarea
          name={`${namePrefix}web_exclude_paths`}
          rows={2}
          placeholder={'/logout\n/admin/*/delete'}
          value={value.excludePaths}
          onChange={(e) => set({ excludePaths: e.target.value })}
        />
      </label>
    </fieldset>
  );
}

/** What a scan or schedule shows of its web options: never a secret (the API answers none). */
export function WebOptionsFacts({ web }: { web: Schemas['WebTestingView'] | undefined }) {
  if (!web) return null;
  const auth = web.authentication;
  return (
    <>
      <dt>Active testing</dt>
      <dd>{web.active ? 'On (attack checks)' : 'Off'}</dd>
      <dt>Web log-in</dt>
      <dd>
        {auth === null
          ? 'None'
          : auth.type === 'form'
            ? `Form at ${auth.login_url} as ${auth.username} (password set)`
            : `Headers: ${auth.header_names.join(', ')} (values hidden)`}
      </dd>
      {web.exclude_paths.length > 0 && (
        <>
          <dt>Excluded paths</dt>
          <dd>{web.exclude_paths.join(', ')}</dd>
        </>
      )}
    </>
  );
}
