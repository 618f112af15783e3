import { useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/contract';
import { apiClientRef, useApi } from '../../api/context';
import { useAction, useLoad } from '../../data';
import { useSession } from '../../session';
import { CodeInput, Notice, Problem } from '../../ui';
import { Section } from './section';

/** Recovery codes as handed out: shown once, with what they are for. */
function RecoveryCodes({ codes }: { codes: readonly string[] }) {
  return (
    <div className="secret" role="status">
      <p>
        <strong>Your recovery codes.</strong> Keep them somewhere safe now: they are not shown again. Each one
        signs you in once in place of a code from the app, if you lose it.
      </p>
      <ul aria-label="Recovery codes" className="codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Two-factor authentication of the signed-in user: set it up and turn it on (which hands out
 * the recovery codes), replace the recovery codes, or turn it off.
 */
export function Mfa() {
  const api = useApi(apiClientRef);
  const { session, refresh } = useSession();
  const action = useAction();
  const on = session.user.mfa_enabled;
  const state = useLoad(() => api.GET('/api/v1/auth/mfa'), `settings/mfa/${on}`);
  const [setup, setSetup] = useState<Schemas['MfaSetup']>();
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<readonly string[]>();

  const start = () => {
    setCodes(undefined);
    void action.act(api.POST('/api/v1/auth/mfa/setup'), setSetup);
  };
  const turnOn = async (event: FormEvent) => {
    event.preventDefault();
    const done = await action.act(api.POST('/api/v1/auth/mfa/verify', { body: { code } }), (enrolled) => {
      setSetup(undefined);
      setCode('');
      setCodes(enrolled.recovery_codes);
      return 'MFA is on.';
    });
    if (done) await refresh();
  };
  const turnOff = async () => {
    setCodes(undefined);
    const done = await action.act(api.DELETE('/api/v1/auth/mfa', { body: { code } }), () => {
      setCode('');
      return 'MFA is off.';
    });
    if (done) await refresh();
  };
  const renew = async () => {
    const done = await action.act(
      api.POST('/api/v1/auth/mfa/recovery-codes', { body: { code } }),
      (renewed) => {
        setCode('');
        setCodes(renewed.recovery_codes);
        return 'New recovery codes: the earlier ones no longer work.';
      },
    );
    if (done) await state.reload();
  };
  const offOrRenew = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    void (submitter?.value === 'renew' ? renew() : turnOff());
  };

  return (
    <Section id="mfa" title="Two-factor authentication (MFA)">
      <p>
        MFA is {on ? 'on' : 'off'} for your account.
        {on && state.data && ` Recovery codes left: ${state.data.recovery_codes_remaining} of 10.`}
      </p>
      <Notice message={action.notice} />
      <Problem message={action.error ?? state.error} />
      {codes && <RecoveryCodes codes={codes} />}
      {!on && !setup && (
        <button type="button" onClick={start}>
          Set up MFA
        </button>
      )}
      {!on && setup && (
        <>
          <div className="secret">
            <p>Add this secret to your authenticator app, then enter the code it shows:</p>
            <code>{setup.secret}</code>
            <p className="sub">{setup.otpauth_uri}</p>
          </div>
          <form onSubmit={(e) => void turnOn(e)} className="row">
            <CodeInput label="Code from the app" value={code} onChange={setCode} />
            <button type="submit">Turn MFA on</button>
          </form>
        </>
      )}
      {on && (
        <form onSubmit={offOrRenew} className="row">
          <CodeInput label="Current code" value={code} onChange={setCode} />
          <button type="submit" value="renew">
            New recovery codes
          </button>
          <button type="submit" value="off">
            Turn MFA off
          </button>
        </form>
      )}
    </Section>
  );
}
