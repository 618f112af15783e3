import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, type Tenant } from '../../helpers/factory.ts';
import { hasChromium, seriousViolations, signIn, useBrowser, visitAs } from '../../helpers/browser.ts';
import { testEngine } from '../../helpers/database.ts';

/**
 * A person's whole life in the console, in Chromium against the real server (issue 22):
 * an admin invites them on Settings › People, they set their password through the link
 * and sign in, change their password, a role change shows on their next page, disabling
 * ends their open console session and their API key at once, deleting removes them, and
 * the audit trail on the People page shows each step. Every page fails the test on a
 * console error, a failed request or an unexpected error answer.
 */

if (!hasChromium) console.warn('people-browser: skipped; /usr/bin/chromium is absent');

const T = 60_000;

describe.skipIf(!hasChromium)(`people in the web console (${testEngine})`, () => {
  let app: TestApp;
  let tenant: Tenant;

  const suite = useTestApp();
  const web = useBrowser(() => suite.app.url);
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'enterprise' });
  }, 60_000);

  it(
    'invites, lets them set a password and sign in, changes their role, cuts them off and deletes them',
    async () => {
      // A browser's e-mail field refuses `_` in a domain, so not the organization id.
      const email = `colleague-${tenant.orgId.slice(4)}@people.example.test`;
      const admin = await web.open();
      const a = admin.page;
      await visitAs(a, tenant.admin, '/settings');
      await a.getByRole('link', { name: 'People' }).click();
      await a.waitForURL((url) => url.pathname === '/settings/people');
      await a.getByRole('heading', { level: 1, name: 'People' }).waitFor();

      // Invite as a viewer; the one-time link is shown once.
      await a.getByLabel('E-mail').fill(email);
      await a.locator('select[name="invite_role"]').selectOption('viewer');
      await a.getByRole('button', { name: 'Invite' }).click();
      const inviteUrl = (await a.getByTestId('invite-url').textContent())!;
      expect(inviteUrl.startsWith(`${app.url}/set-password#token=`)).toBe(true);
      const list = a.locator('section[aria-labelledby="people"]');
      await list.getByRole('cell', { name: email, exact: true }).waitFor();
      expect(await seriousViolations(a)).toEqual([]);

      // The person follows the link, sets a password and signs in.
      const person = await web.open();
      const p = person.page;
      const password = 'my-own-secret-password';
      await p.goto(inviteUrl.slice(app.url.length));
      await p.getByRole('heading', { name: 'Choose your password' }).waitFor();
      expect(await seriousViolations(p)).toEqual([]);
      await p.getByLabel('New password').fill(password);
      await p.getByRole('button', { name: 'Set password' }).click();
      await p.getByRole('heading', { name: 'Password set' }).waitFor();
      await p.getByRole('link', { name: 'Sign in' }).click();
      await signIn(p, { email, password });
      await p.waitForURL((url) => url.pathname === '/overview');

      // A viewer's settings: no API keys; their own password they change.
      await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
      await p.getByRole('heading', { level: 2, name: 'Password' }).waitFor();
      expect(await p.getByRole('heading', { level: 2, name: 'API keys' }).count()).toBe(0);
      const newPassword = 'my-newer-secret-password';
      await p.getByLabel('Current password').fill(password);
      await p.getByLabel('New password').fill(newPassword);
      await p.getByRole('button', { name: 'Change password' }).click();
      await p.getByText('Password changed').waitFor();

      // Made a member by the admin: their next page shows what a member may do.
      await a.getByLabel(`Role of ${email}`).selectOption('member');
      await a
        .getByRole('cell', { name: 'Member' })
        .or(a.getByLabel(`Role of ${email}`))
        .first()
        .waitFor();
      await expect.poll(() => a.getByLabel(`Role of ${email}`).inputValue()).toBe('member');
      await p.reload();
      await p.getByRole('heading', { level: 2, name: 'API keys' }).waitFor();
      await p.getByLabel('Key name').fill('colleague-ci');
      await p.getByRole('button', { name: 'Create API key' }).click();
      const key = (await p.getByTestId('secret').textContent())!;
      expect((await app.request('/api/v1/findings', { headers: { 'x-api-key': key } })).status).toBe(200);

      // Disabled: their open console session and their key stop working at once.
      await a.getByRole('button', { name: `Disable ${email}` }).click();
      await a.getByRole('button', { name: `Enable ${email}` }).waitFor();
      expect((await app.request('/api/v1/findings', { headers: { 'x-api-key': key } })).status).toBe(401);
      person.expect(401, '/api/v1/');
      await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Findings' }).click();
      await p.waitForURL(/\/sign-in/);

      // Deleted: gone from the list; the audit trail shows every step.
      a.once('dialog', (dialog) => void dialog.accept());
      await a.getByRole('button', { name: `Delete ${email}` }).click();
      await expect.poll(() => list.getByRole('cell', { name: email, exact: true }).count()).toBe(0);
      const trail = a.getByRole('region', { name: 'Audit events' });
      for (const action of [
        'Invited',
        'Accepted the invitation',
        'Signed in',
        'Password changed',
        'Role changed',
        'Disabled',
        'Deleted',
      ]) {
        await trail.getByRole('cell', { name: action, exact: true }).first().waitFor();
      }
      await a.locator('select[name="audit_action"]').selectOption('user.deleted');
      await expect.poll(() => trail.getByRole('row').count()).toBe(2);
      await trail.getByRole('cell', { name: email, exact: true }).waitFor();
      expect(await seriousViolations(a)).toEqual([]);
    },
    T * 2,
  );
});
