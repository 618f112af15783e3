import { useLayoutEffect, useRef, useState, type ComponentType } from 'react';
import type { Role } from '../../api/vocabulary';
import { Link } from '../../router';
import { useSession } from '../../session';
import { Page } from '../../ui';
import { Password } from './password';
import { ApiKeys } from './api-keys';
import { CiTrust } from './ci-trust';
import { Mfa } from './mfa';
import { Quota } from './quota';
import { Schedules } from './schedules';
import { Sessions } from './sessions';
import { SignInMethods } from './sign-in-methods';
import { Sla } from './sla';
import { Webhooks } from './webhooks';
import { Integrations } from './integrations';
import { EmailDigest } from './email-digest';

/**
 * The settings page: its sections in order, one file each in this folder. A section is a
 * component that takes no props, gets the API client from context (`useApi(apiClientRef)`)
 * and the session from `useSession()`, and is built of `Section` and, for a list, an
 * `ItemTable` over `useCollection` (../../data.ts). Adding one is a new file and a line here.
 */
export const SETTINGS_SECTIONS: ReadonlyArray<{
  id: string;
  Component: ComponentType;
  roles?: readonly Role[];
}> = [
  { id: 'quota', Component: Quota },
  { id: 'sla', Component: Sla },
  { id: 'schedules', Component: Schedules },
  { id: 'webhooks', Component: Webhooks, roles: ['admin'] },
  { id: 'integrations', Component: Integrations, roles: ['admin'] },
  { id: 'api-keys', Component: ApiKeys, roles: ['admin', 'member'] },
  { id: 'ci-trust', Component: CiTrust, roles: ['admin'] },
  { id: 'sessions', Component: Sessions },
  { id: 'mfa', Component: Mfa },
  { id: 'password', Component: Password },
  { id: 'email-digest', Component: EmailDigest },
  { id: 'sign-in-methods', Component: SignInMethods, roles: ['admin'] },
];

/**
 * Jump links to the page's sections, read from their headings once they are on the page (so a
 * section added to SETTINGS_SECTIONS gets its link without an edit here).
 */
function SectionNav() {
  const ref = useRef<HTMLElement>(null);
  const [links, setLinks] = useState<{ id: string; title: string }[]>([]);
  useLayoutEffect(() => {
    const page = ref.current?.parentElement;
    if (!page) return;
    const headings = page.querySelectorAll<HTMLHeadingElement>('.settings-section > h2[id]');
    setLinks([...headings].map((h) => ({ id: h.id, title: h.textContent ?? h.id })));
  }, []);
  return (
    <nav ref={ref} aria-label="Settings sections" className="card section-nav">
      <ul>
        {links.map((link) => (
          <li key={link.id}>
            <a href={`#${link.id}`}>{link.title}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The settings sections the signed-in role may use (the API's policy decides; this only hides what it would refuse). */
export function Settings() {
  const { session } = useSession();
  const role = session.user.role;
  return (
    <Page
      title="Settings"
      actions={role === 'admin' ? <Link href="/settings/people">People</Link> : undefined}
    >
      <SectionNav />
      {SETTINGS_SECTIONS.filter((s) => !s.roles || s.roles.includes(role)).map(({ id, Component }) => (
        <Component key={id} />
      ))}
    </Page>
  );
}
