import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../helpers/browser.ts';
import { ADMIN_SESSION, listOf, useHarness, type ApiSchemas } from '../../helpers/console-components.ts';

/**
 * The Import page (/import, console/src/pages/import.tsx; docs/imports.md) alone in Chromium
 * with a stub API: the report goes up as a multipart form with the target and format, and the
 * answer is shown as the scan it became (its label, linking to it, and what it changed).
 */

if (!hasChromium) console.warn('import page: skipped; /usr/bin/chromium is absent');

const REPORT = '{"template-id":"exposed-git","host":"http://127.0.0.1:8080","info":{"severity":"high"}}\n';

const RESULT = {
  id: 'scan_imported00000000000000',
  target: '127.0.0.1',
  scan_type: 'quick',
  status: 'completed',
  progress: 100,
  phase: 'complete',
  created_at: '2026-11-27T09:00:00.000Z',
  completed_at: '2026-11-27T09:00:01.000Z',
  vulnerabilities_found: 3,
  critical_count: 0,
  high_count: 2,
  medium_count: 1,
  low_count: 0,
  info_count: 4,
  source: 'import',
  tool: 'nuclei',
  report_name: 'nuclei.jsonl',
  ci_run: null,
  results_read: 9,
  label: 'Imported from a nuclei report (nuclei.jsonl), 9 results, 7 findings',
  changes: { new: 5, unchanged: 1, reopened: 1, resolved: 0 },
  format: 'nuclei',
} as unknown as ApiSchemas['ImportResult'];

const ASSETS = [
  { id: 'asset_loopback000000000000', address: '127.0.0.1', names: ['shop.local'] },
] as unknown as ApiSchemas['AssetListItem'][];

describe.skipIf(!hasChromium)('the import page', () => {
  const suite = useHarness();

  it('uploads the report with its target and format, and shows the scan it became', async () => {
    const uploads: unknown[] = [];
    const { page, calls } = await suite.mountComponent('import', {
      session: ADMIN_SESSION,
      api: {
        'GET /api/v1/assets': () => ({ status: 200, body: listOf(ASSETS) }),
        'POST /api/v1/imports': ({ body }) => {
          uploads.push(body);
          return { status: 201, body: RESULT };
        },
      },
    });
    const form = page.getByRole('form', { name: 'Report' });
    const target = form.getByLabel('Target or asset');
    // The organization's assets are offered for the target.
    await expect
      .poll(() =>
        target.evaluate((input) =>
          Array.from(
            (input as unknown as { list: { options: ArrayLike<{ value: string }> } | null }).list?.options ??
              [],
          ).map((o) => o.value),
        ),
      )
      .toEqual(['127.0.0.1']);
    await form.getByLabel('Report file').setInputFiles({
      name: 'nuclei.jsonl',
      mimeType: 'application/jsonl',
      buffer: Buffer.from(REPORT),
    });
    await target.fill(' 127.0.0.1 ');
    await form.getByLabel('Format').selectOption('nuclei');
    await form.getByRole('button', { name: 'Import' }).click();

    const result = page.getByRole('region', { name: 'Imported' });
    const link = result.getByRole('link', { name: RESULT.label });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('/scans/scan_imported00000000000000');
    const text = (await result.textContent()) ?? '';
    expect(text).toContain('5 new · 1 already known · 1 reopened · 0 resolved');
    expect(text).toMatch(/H\s*2/);

    expect(uploads).toEqual([
      { target: '127.0.0.1', format: 'nuclei', file: { filename: 'nuclei.jsonl', text: REPORT } },
    ]);
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(post.headers['x-csrf-token']).toBe(ADMIN_SESSION.csrf_token);
  });

  it('leaves the format out for detection and shows why the API refused a report', async () => {
    const uploads: unknown[] = [];
    const { page } = await suite.mountComponent('import', {
      session: ADMIN_SESSION,
      api: {
        'GET /api/v1/assets': () => ({ status: 200, body: listOf([]) }),
        'POST /api/v1/imports': ({ body }) => {
          uploads.push(body);
          return {
            status: 422,
            body: {
              detail: 'the report is not in a format Scanward reads',
              error_code: 'VALIDATION_ERROR',
              field: 'file',
            },
          };
        },
      },
    });
    const form = page.getByRole('form', { name: 'Report' });
    await form.getByLabel('Report file').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a report'),
    });
    await form.getByLabel('Target or asset').fill('127.0.0.1');
    await form.getByRole('button', { name: 'Import' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('not in a format Scanward reads');
    expect(uploads).toEqual([{ target: '127.0.0.1', file: { filename: 'notes.txt', text: 'not a report' } }]);
    expect(await page.getByRole('region', { name: 'Imported' }).count()).toBe(0);
  });

  it('tells a viewer that importing needs another role instead of offering a form the API refuses', async () => {
    const { page } = await suite.mountComponent('import', {
      session: { ...ADMIN_SESSION, user: { ...ADMIN_SESSION.user, role: 'viewer' } },
      api: { 'GET /api/v1/assets': () => ({ status: 200, body: listOf(ASSETS) }) },
    });
    await page.getByText('Importing a report needs the member or admin role').waitFor();
    expect(await page.getByRole('form', { name: 'Report' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Import' }).count()).toBe(0);
  });
});
