import { apiClientRef, useApi } from '../../api/context';
import { useAction, useLoad } from '../../data';
import { Problem } from '../../ui';
import { Section } from './section';

/** E-mail: the caller's own daily digest of overdue and soon-due findings, on or off (docs/email.md). */
export function EmailDigest() {
  const api = useApi(apiClientRef);
  const preference = useLoad(() => api.GET('/api/v1/auth/notification-preferences'), 'settings/email-digest');
  const action = useAction();
  const set = (wanted: boolean) =>
    void action
      .act(api.PATCH('/api/v1/auth/notification-preferences', { body: { email_digest: wanted } }))
      .then(() => preference.reload());
  return (
    <Section id="email-digest" title="E-mail">
      <Problem message={preference.error ?? action.error} />
      <label className="checkbox">
        <input
          type="checkbox"
          checked={preference.data?.email_digest ?? true}
          disabled={!preference.data}
          onChange={(e) => set(e.target.checked)}
        />
        Send me a daily digest of my overdue and soon-due findings
      </label>
    </Section>
  );
}
