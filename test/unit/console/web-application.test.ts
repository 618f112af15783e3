import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../helpers/browser.ts';
import { ADMIN_SESSION, useHarness } from '../../helpers/console-components.ts';

/**
 * The "Web application" section of the scan and schedule forms (WebApplicationFields, in
 * `ScanOptionsFields`), rendered in the harness's scan-options form, which shows the request's
 * options part it would send (docs/web-testing.md).
 */

if (!hasChromium) console.warn('web application section: skipped; /usr/bin/chromium is absent');

describe.skipIf(!hasChromium)('the web application section of the scan forms', () => {
  const suite = useHarness();

  const mount = async () => {
    const { page, calls } = await suite.mountComponent('scan-options', { session: ADMIN_SESSION, api: {} });
    const form = page.getByRole('form', { name: 'Scan options' });
    const section = form.getByRole('group', { name: 'Web application' });
    const shown = async () => {
      const text = (await form.getByTestId('request').textContent()) ?? '';
      return text.startsWith('{') ? (JSON.parse(text) as unknown) : text;
    };
    const sends = async (expected: unknown) => {
      await form.getByRole('button', { name: 'Send' }).click();
      await expect.poll(shown).toEqual(expected);
    };
    await form.getByLabel('I am authorized to scan this target').check();
    return { form, section, sends, calls };
  };

  it('starts passive, without a log-in, and sends no web options until something is chosen', async () => {
    const { section, sends, calls } = await mount();
    expect(await section.getByLabel('Active testing (attack checks)').isChecked()).toBe(false);
    expect(await section.getByLabel('Authentication').inputValue()).toBe('none');
    expect(await section.getByRole('alert').count()).toBe(0);
    await sends({ scan_type: 'quick', authorized: true });
    expect(calls).toEqual([]);
  });

  it('warns that active testing submits forms, and sends it with the excluded paths', async () => {
    const { section, sends } = await mount();
    await section.getByLabel('Active testing (attack checks)').check();
    await expect.poll(() => section.getByRole('alert').textContent()).toContain('submits those forms');
    await section.getByLabel('Excluded paths (one per line)').fill('/logout\n\n /admin/*/delete ');
    await sends({
      scan_type: 'quick',
      authorized: true,
      web: { active: true, exclude_paths: ['/logout', '/admin/*/delete'] },
    });
  });

  it('sends a form log-in, the password typed in a password field', async () => {
    const { section, sends } = await mount();
    await section.getByLabel('Authentication').selectOption('form');
    await section.getByLabel('Log-in page URL').fill('http://127.0.0.1:8080/login');
    await section.getByLabel('User name').fill('admin');
    const password = section.getByLabel('Password');
    expect(await password.getAttribute('type')).toBe('password');
    await password.fill('s3cret');
    await sends({
      scan_type: 'quick',
      authorized: true,
      web: {
        active: false,
        authentication: {
          type: 'form',
          login_url: 'http://127.0.0.1:8080/login',
          username: 'admin',
          password: 's3cret',
        },
        exclude_paths: [],
      },
    });
  });

  it('sends headers as name and value rows, rows added and removed, nameless rows left out', async () => {
    const { section, sends } = await mount();
    await section.getByLabel('Authentication').selectOption('headers');
    const headers = section.getByRole('group', { name: 'Headers' });
    await headers.getByLabel('Header name 1').fill('Authorization');
    await headers.getByLabel('Header value 1').fill('Bearer abc');
    await headers.getByRole('button', { name: 'Add header' }).click();
    await headers.getByLabel('Header name 2').fill('X-Drop');
    await headers.getByLabel('Header value 2').fill('gone');
    await headers.getByRole('button', { name: 'Add header' }).click();
    await headers.getByLabel('Header name 3').fill('Cookie');
    await headers.getByLabel('Header value 3').fill('session=1');
    await headers.getByRole('button', { name: 'Remove header 2' }).click();
    await headers.getByRole('button', { name: 'Add header' }).click();
    await sends({
      scan_type: 'quick',
      authorized: true,
      web: {
        active: false,
        authentication: { type: 'headers', headers: { Authorization: 'Bearer abc', Cookie: 'session=1' } },
        exclude_paths: [],
      },
    });
  });
});
