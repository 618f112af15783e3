import { useEffect, useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/contract';
import { apiClientRef, useApi } from '../../api/context';
import { useAction, useLoad } from '../../data';
import { qrCodeImage } from '../../qr-code';
import { useSession } from '../../session';
import { CodeInput, Notice, Problem } from '../../ui';
import { Section } from './section';

/** The file recovery codes are downloaded as: one code a line, with what they are for. */
export function recoveryCodesText(codes: readonly string[], account: string): string {
  return [
    `Scanward recovery codes for ${account}`,
    'Each code signs you in once in place of a code from your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/** Recovery codes as handed out: shown once, in a grid of whole codes, to copy or download. */
function RecoveryCodes({ codes, account }: { codes: readonly string[]; account: string }) {
  const [copied, setCopied] = useState<string>();
  const text = recoveryCodesText(codes, account);
  const copy = () => {
    navigator.clipboard.writeText(codes.join('\n')).then(
      () => setCopied('Copied the recovery codes.'),
      () => setCopied('Copying is not allowed here: select the codes or download them.'),
    );
  };
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
      <div className="row">
        <button type="button" onClick={copy}>
          Copy codes
        </button>
        <a
          className="button"
          download="scanward-recovery-codes.txt"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
        >
          Download (.txt)
        </a>
        <span className="sub">{copied}</span>
      </div>
    </div>
  );
}

/** The `otpauth://` URI as a QR code for an authenticator app to scan, drawn here (../../qr-code.ts). */
function OtpQrCode({ uri }: { uri: string }) {
  const [image, setImage] = useState<string>();
  useEffect(() => {
    let current = true;
    qrCodeImage(uri).then(
      (url) => current && setImage(url),
      () => current && setImage(undefined),
    );
    return () => {
      current = false;
    };
  }, [uri]);
  if (!image) return null;
  return (
    <img
      className="qr-code"
      src={image}
      width={192}
      height={192}
      alt="QR code of the authenticator set-up link: scan it with your authenticator app"
    />
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
      // The section's first line says MFA is on; this says what to do now.
      return 'Done. Save your recovery codes below: they are not shown again.';
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
      {codes && <RecoveryCodes codes={codes} account={session.user.email} />}
      {!on && !setup && (
        <button type="button" onClick={start}>
          Set up MFA
        </button>
      )}
      {!on && setup && (
        <>
          <div className="secret mfa-setup">
            <p>Scan this QR code with your authenticator app, then enter the code it shows:</p>
            <OtpQrCode uri={setup.otpauth_uri} />
            <details>
              <summary>Cannot scan it? Enter the secret by hand</summary>
              <code data-testid="mfa-secret">{setup.secret}</code>
              <p className="sub">{setup.otpauth_uri}</p>
            </details>
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
