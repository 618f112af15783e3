import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Framework, ScanType } from '../../../server/schemas/scans.ts';
import { hasChromium } from '../../helpers/browser.ts';
import { ADMIN_SESSION, useHarness } from '../../helpers/console-components.ts';

/**
 * The scan options every form that makes a scan shows (`ScanOptionsFields`: starting a scan,
 * adding a schedule), rendered alone in Chromium in a small form of the harness's
 * (console/test/components.tsx) that shows what the options add to the request it would send.
 * The two forms themselves are tested where they are: the schedules section in
 * settings-sections.test.ts, starting a scan in test/integration/console/browser.test.ts.
 */

if (!hasChromium) console.warn('scan options: skipped; /usr/bin/chromium is absent');

describe.skipIf(!hasChromium)('the scan options of a form', () => {
  const suite = useHarness();

  /**
   * The form, and `sends(expected)`: sends it and waits until it shows `expected`, the request's
   * options part (or the message shown instead); each call expects other than the one before.
   */
  const mount = async () => {
    const { page, calls } = await suite.mountComponent('scan-options', { session: ADMIN_SESSION, api: {} });
    const form = page.getByRole('form', { name: 'Scan options' });
    const shown = async () => {
      const text = (await form.getByTestId('request').textContent()) ?? '';
      return text.startsWith('{') ? (JSON.parse(text) as unknown) : text;
    };
    const sends = async (expected: unknown) => {
      await form.getByRole('button', { name: 'Send' }).click();
      await expect.poll(shown).toEqual(expected);
    };
    return { form, sends, calls, frameworks: form.getByRole('group', { name: 'Frameworks' }) };
  };
  const attributes = async (elements: Locator, name: string) =>
    Promise.all((await elements.all()).map((e) => e.getAttribute(name)));

  it("offers the schema's scan types and frameworks in the console's words, a quick scan of the default ports to start with", async () => {
    const { form, frameworks } = await mount();
    const scanType = form.getByLabel('Scan type');
    expect(await attributes(scanType.locator('option'), 'value')).toEqual(ScanType.options);
    expect(await scanType.locator('option').allTextContents()).toEqual(['Quick', 'Full', 'Compliance']);
    expect(await scanType.inputValue()).toBe('quick');
    expect(await form.getByLabel('Ports (optional)').inputValue()).toBe('');

    const boxes = frameworks.getByRole('checkbox');
    expect(await boxes.count()).toBe(Framework.options.length);
    expect((await frameworks.locator('label').allTextContents()).map((t) => t.trim())).toEqual([
      'SOC 2',
      'PCI DSS 4.0',
      'ISO/IEC 27001:2022',
    ]);
    for (const box of await boxes.all()) expect(await box.isChecked()).toBe(false);
    expect(await form.getByLabel('I am authorized to scan this target').isChecked()).toBe(false);

    // The form's own fields come first on the options' row; the options' names carry its prefix.
    expect(await attributes(form.locator('.row :is(input, select)'), 'name')).toEqual([
      'harness_target',
      'harness_scan_type',
      'harness_ports',
    ]);
  });

  it('sends nothing until the authorization box is ticked, then the chosen options with blank ones left out', async () => {
    const { form, sends, calls, frameworks } = await mount();
    await sends('Confirm that you are authorized to scan this target.');

    await form.getByLabel('I am authorized to scan this target').check();
    await sends({ scan_type: 'quick', authorized: true });

    // Every option: the type, the ports without the spaces around them, the ticked frameworks
    // (a box ticked and unticked again is not sent).
    await form.getByLabel('Scan type').selectOption('compliance');
    await form.getByLabel('Ports (optional)').fill(' 22,443 ');
    await frameworks.getByLabel('SOC 2').check();
    await frameworks.getByLabel('PCI DSS 4.0').check();
    await frameworks.getByLabel('SOC 2').uncheck();
    await sends({ scan_type: 'compliance', authorized: true, ports: '22,443', frameworks: ['pci-dss'] });

    // Each framework's words stand for the schema's value, in the order they are ticked.
    await frameworks.getByLabel('ISO/IEC 27001:2022').check();
    await frameworks.getByLabel('SOC 2').check();
    await sends({
      scan_type: 'compliance',
      authorized: true,
      ports: '22,443',
      frameworks: ['pci-dss', 'iso27001', 'soc2'],
    });

    // Ports of only spaces and no framework: the API's defaults, so neither is sent.
    await form.getByLabel('Ports (optional)').fill('   ');
    for (const box of await frameworks.getByRole('checkbox').all()) await box.uncheck();
    await form.getByLabel('Scan type').selectOption('full');
    await sends({ scan_type: 'full', authorized: true });
    expect(calls).toEqual([]);
  });
});
