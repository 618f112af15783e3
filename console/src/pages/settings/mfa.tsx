import { useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/contract';
import { apiClientRef, useApi } from '../../api/context';
import { useAction } from '../../data';
import { useSession } from '../../session';
import { Notice, Problem } from '../../ui';
import { Section } from './section';

/** Two-factor authentication of the signed-in user: set it up and turn it on, or turn it off. */
export function Mfa() {
  const api = useApi(apiClientRef);
  const { session, refresh } = useSession();
  const action = useAction();
  const [setup, setSetup] = useState<Schemas['MfaSetup']>();
  const [code, setCode] = useState('');
  const on = session.user.mfa_enabled;

  const start = () => void action.act(api.POST('/api/v1/auth/mfa/setup'), setSetup);
  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    const call = on
      ? api.DELETE('/api/v1/auth/mfa', { body: { code } })
      : api.POST('/api/v1/auth/mfa/verify', { body: { code } });
    const done = await action.act(call, (state) => {
      setSetup(undefined);
      setCode('');
      return state.mfa_enabled ? 'MFA is on.' : 'MFA is off.';
    });
    if (done) await refresh();
  };

  return (
    <Section id="mfa" title="Two-factor authentication (MFA)">
      <p>MFA is {on ? 'on' : 'off'} for your account.</p>
      <Notice message={action.notice} />
      <Problem message={action.error} />
      {!on && !setup && (
        <button type="button" onClick={start}>
          Set up MFA
        </button>
      )}
      {setup && (
        <div className="secret">
          <p>Add this secret to your authenticator app, then enter the code it shows:</p>
          <code>{setup.secret}</code>
          <p className="sub">{setup.otpauth_uri}</p>
        </div>
      )}
      {(setup || on) && (
        <form onSubmit={(e) => void confirm(e)} className="row">
          <label>
            {on ? 'Current code, to turn MFA off' : 'Code from the app'}
            <input
              name="mfa_code"
              inputMode="numeric"
              pattern="[0-9]{6}"
              required
              value={code}
              onChange={(e) => setCode(e.target.value.trim())}
            />
          </label>
          <button type="submit">{on ? 'Turn MFA off' : 'Turn MFA on'}</button>
        </form>
      )}
    </Section>
  );
}
