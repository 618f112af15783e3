import type { ComponentType } from 'react';
import { Page } from '../../ui';
import { ApiKeys } from './api-keys';
import { Mfa } from './mfa';
import { Quota } from './quota';
import { Schedules } from './schedules';
import { Sessions } from './sessions';
import { Webhooks } from './webhooks';

/**
 * The settings page: its sections in order, one file each in this folder. A section is a
 * component that takes no props, gets the API client from context (`useApi(apiClientRef)`)
 * and the session from `useSession()`, and is built of `Section` and, for a list, an
 * `ItemTable` over `useCollection` (../../data.ts). Adding one is a new file and a line here.
 */
export const SETTINGS_SECTIONS: ReadonlyArray<{ id: string; Component: ComponentType }> = [
  { id: 'quota', Component: Quota },
  { id: 'schedules', Component: Schedules },
  { id: 'webhooks', Component: Webhooks },
  { id: 'api-keys', Component: ApiKeys },
  { id: 'sessions', Component: Sessions },
  { id: 'mfa', Component: Mfa },
];

export function Settings() {
  return (
    <Page title="Settings">
      {SETTINGS_SECTIONS.map(({ id, Component }) => (
        <Component key={id} />
      ))}
    </Page>
  );
}
