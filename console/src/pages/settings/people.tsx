import { apiClientRef, useApi } from '../../api/context';
import { useCollection } from '../../data';
import { Link } from '../../router';
import { useMayChange } from '../../session';
import { Page } from '../../ui';
import { AuditEvents } from './audit-events';
import { Invite } from './invite';
import { PeopleList } from './people-list';

/**
 * Settings › People (admins; docs/roles.md): anyone else who opens its address is told so, and
 * is shown no form and asks for nothing the API would refuse.
 */
export function People() {
  if (useMayChange('settings')) return <PeopleOfTheOrganization />;
  return (
    <Page title="People" actions={<Link href="/settings">Back to settings</Link>}>
      <p className="card">Managing people needs the admin role.</p>
    </Page>
  );
}

/**
 * The organization's people, an invitation form and the audit trail, one component per
 * section in this folder. The list is loaded here because the invitation adds to it; the
 * trail reloads after every change of either.
 */
function PeopleOfTheOrganization() {
  const api = useApi(apiClientRef);
  const people = useCollection('settings/people', () =>
    api.GET('/api/v1/users', { params: { query: { per_page: 100 } } }),
  );
  return (
    <Page title="People" actions={<Link href="/settings">Back to settings</Link>}>
      <PeopleList people={people} />
      <Invite people={people} />
      <AuditEvents changes={JSON.stringify(people.items ?? [])} />
    </Page>
  );
}
