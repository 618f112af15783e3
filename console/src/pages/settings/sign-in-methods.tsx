import { apiClientRef, useApi } from '../../api/context';
import { useAction, useLoad } from '../../data';
import { Notice, Problem } from '../../ui';
import { Section } from './section';

/**
 * How the organization's people sign in (admins): password log-in on or off. Off needs the
 * instance's single sign-on (SCANWARD_OIDC_ISSUER); the API refuses it otherwise.
 */
export function SignInMethods() {
  const api = useApi(apiClientRef);
  const action = useAction();
  const settings = useLoad(async () => api.GET('/api/v1/settings/authentication'), 'settings/authentication');
  const s = settings.data;

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

  return (
    <Section id="sign-in-methods" title="Sign-in methods">
      <Problem message={settings.error ?? action.error} />
      <Notice message={action.notice} />
      {s && (
        <>
          <dl className="facts">
            <dt>Single sign-on (OpenID Connect)</dt>
            <dd>{s.sso_configured ? 'Configured on this instance' : 'Not configured on this instance'}</dd>
            <dt>Password sign-in</dt>
            <dd>{s.password_login ? 'On' : 'Off: single sign-on only'}</dd>
          </dl>
          {s.password_login ? (
            <button type="button" disabled={!s.sso_configured} onClick={() => change(false)}>
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
