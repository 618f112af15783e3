import { apiClientRef, useApi } from '../../api/context';
import { useLoad } from '../../data';
import { useSession } from '../../session';
import { Problem, when } from '../../ui';
import { Section } from './section';

/** The organization and plan, the scan quota of the month and the request rate limit's window. */
export function Quota() {
  const api = useApi(apiClientRef);
  const { session } = useSession();
  const quota = useLoad(async () => {
    const result = await api.GET('/api/v1/scans/quota');
    const h = result.response.headers;
    return result.data
      ? {
          data: {
            quota: result.data,
            limit: h.get('X-RateLimit-Limit'),
            remaining: h.get('X-RateLimit-Remaining'),
            reset: h.get('X-RateLimit-Reset'),
          },
        }
      : { error: result.error };
  }, 'settings/quota');
  const q = quota.data;
  return (
    <Section id="quota" title="Organization, quota and rate limit">
      <Problem message={quota.error} />
      <dl className="facts">
        <dt>Organization</dt>
        <dd>
          {session.organization.name} ({session.organization.plan} plan)
        </dd>
        <dt>Signed in as</dt>
        <dd>
          {session.user.email} ({session.user.role})
        </dd>
        {q && (
          <>
            <dt>Scans this month</dt>
            <dd>
              {q.quota.used_this_month} of {q.quota.monthly_limit < 0 ? 'unlimited' : q.quota.monthly_limit} (
              {q.quota.remaining < 0 ? 'unlimited' : q.quota.remaining} left, resets {when(q.quota.resets_at)}
              )
            </dd>
            <dt>API requests</dt>
            <dd>
              {q.limit
                ? `${q.remaining} of ${q.limit} left in this window (resets ${when(
                    new Date(Number(q.reset) * 1000).toISOString(),
                  )})`
                : 'unlimited'}
            </dd>
          </>
        )}
      </dl>
    </Section>
  );
}
