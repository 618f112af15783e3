import { useEffect, useState, type FormEvent } from 'react';
import { apiClientRef, useApi } from '../../api/context';
import { useAction, useLoad } from '../../data';
import { Notice, Problem } from '../../ui';
import { Section } from './section';

/**
 * How the organization's people sign in (admins): single sign-on for the organization (on or
 * off, its e-mail domains, whether the provider's MFA stands in for the local one) and password
 * log-in on or off. SSO needs the instance's provider (SCANWARD_OIDC_ISSUER); password off needs
 * SSO on; the API refuses otherwise.
 */
export function SignInMethods() {
  const api = useApi(apiClientRef);
  const action = useAction();
  const settings = useLoad(async () => api.GET('/api/v1/settings/authentication'), 'settings/authentication');
  const s = settings.data;
  const [domains, setDomains] = useState('');
  const [trustMfa, setTrustMfa] = useState(false);
  useEffect(() => {
    if (!s) return;
    setDomains(s.sso_domains.join(', '));
    setTrustMfa(s.sso_trusts_idp_mfa);
  }, [s]);

  const change = (passwordLogin: boolean) =>
    void action.act(
      api.PUT('/api/v1/settings/authentication', { body: { password_login: passwordLogin } }),
      () => {
        void settings.reload();
        return passwordLogin
          ? 'Password sign-in is on.'
          : 'Password sign-in is off: people sign in with single sign-on.';
      },
    );

  const saveSso = (enabled: boolean) => (event?: FormEvent) => {
    event?.preventDefault();
    const list = domains
      .split(/[\s,]+/)
      .map((d) => d.trim())
      .filter((d) => d !== '');
    void action.act(
      api.PUT('/api/v1/settings/authentication', {
        body: { sso_enabled: enabled, sso_domains: list, sso_trusts_idp_mfa: trustMfa },
      }),
      () => {
        void settings.reload();
        return enabled ? 'Single sign-on is on for these domains.' : 'Single sign-on is off.';
      },
    );
  };

  return (
    <Section id="sign-in-methods" title="Sign-in methods">
      <Problem message={settings.error ?? action.error} />
      <Notice message={action.notice} />
      {s && (
        <>
          <dl className="facts">
            <dt>Single sign-on (OpenID Connect)</dt>
            <dd>{s.sso_configured ? 'Configured on this instance' : 'Not configured on this instance'}</dd>
            <dt>Single sign-on for this organization</dt>
            <dd>{s.sso_enabled ? `On for ${s.sso_domains.join(', ')}` : 'Off'}</dd>
            <dt>Password sign-in</dt>
            <dd>{s.password_login ? 'On' : 'Off: single sign-on only'}</dd>
          </dl>
          {s.sso_configured && (
            <form onSubmit={saveSso(true)}>
              <label>
                E-mail domains single sign-on covers
                <input
                  name="sso_domains"
                  placeholder="acme.example, acme.example.org"
                  value={domains}
                  onChange={(e) => setDomains(e.target.value)}
                />
              </label>
              <label>
                <input type="checkbox" checked={trustMfa} onChange={(e) => setTrustMfa(e.target.checked)} />
                Trust the provider&apos;s MFA: people with MFA here give no code when the provider says it
                checked a second factor
              </label>
              <button type="submit">
                {s.sso_enabled ? 'Save single sign-on' : 'Turn single sign-on on'}
              </button>
              {s.sso_enabled && (
                <button type="button" disabled={!s.password_login} onClick={() => saveSso(false)()}>
                  Turn single sign-on off
                </button>
              )}
            </form>
          )}
          {s.password_login ? (
            <button type="button" disabled={!s.sso_enabled} onClick={() => change(false)}>
              Switch password sign-in off
            </button>
          ) : (
            <button type="button" onClick={() => change(true)}>
              Switch password sign-in on
            </button>
          )}
        </>
      )}
    </Section>
  );
}
