import { describe, expect, it } from 'vitest';
import { builtInForTemplate } from '../../../../server/scanner/check-registry.ts';
import { vendorCveCheck } from '../../../../server/scanner/checks/vendor-cves.ts';
import { softwareOf } from '../../../../server/intel/software.ts';
import type { ServiceIdentification } from '../../../../server/scanner/net/services.ts';
import { completeDetection, correlate } from '../../../../server/scanner/phases/correlation.ts';
import { templatesIn } from '../../../../server/scanner/templates/corpus.ts';
import { asBuiltIn } from '../../../../server/scanner/templates/checks.ts';
import { templateDetection } from '../../../../server/scanner/templates/execute.ts';
import { DEFAULT_TEMPLATES_DIR } from '../../../../server/scanner/templates/sources.ts';
import type { Detection } from '../../../../server/scanner/types.ts';
import { tryCvssScore } from '../../../../server/scoring/cvss.ts';
import { DEFAULT_VECTOR_BY_SEVERITY } from '../../../../server/scoring/defaults.ts';
import { checkContext } from '../../../helpers/phase-context.ts';

const service = (port: number, extra: Partial<ServiceIdentification> = {}): ServiceIdentification => ({
  address: '127.0.0.1',
  port,
  service: 'http',
  evidence: { request: 'GET / HTTP/1.1', response: 'HTTP/1.1 200 OK' },
  tool: 'scanward-probe',
  ...extra,
});

/** A finding kind as the scan records it: the detection, folded and completed as correlation does. */
function recorded(detection: Detection): Detection {
  const [merged] = correlate([detection]);
  return completeDetection(merged!);
}

function expectComplete(finding: Detection, kind: string): void {
  const score = tryCvssScore(finding.cvss_vector);
  expect(score, `${kind}: vector ${finding.cvss_vector}`).toBeDefined();
  if (finding.severity !== 'info') expect(score!.baseScore, `${kind}: score`).toBeGreaterThan(0);
  expect(finding.cwe_ids.length, `${kind}: CWE`).toBeGreaterThan(0);
  for (const cwe of finding.cwe_ids) expect(cwe, kind).toMatch(/^CWE-\d+$/);
  expect(finding.evidence.request, `${kind}: evidence request`).not.toBe('');
  expect(finding.evidence.response, `${kind}: evidence response`).not.toBe('');
  expect(finding.evidence.established, kind).toMatch(/^(confirmed|inferred from version)$/);
  expect(finding.remediation?.summary, `${kind}: remediation`).toBeTruthy();
}

describe('every finding kind is complete: vector, score, CWE, evidence, remediation', () => {
  it('for every template of the default set (the table is the set itself)', async () => {
    const set = await templatesIn(DEFAULT_TEMPLATES_DIR);
    const templates = [...set.templates, ...set.network, ...set.ssl];
    expect(templates.length).toBeGreaterThan(100);
    let defaulted = 0;
    for (const template of templates) {
      const detection = templateDetection(template, service(8080), '127.0.0.1', {
        component: 'http://127.0.0.1:8080/probe',
        evidence: { request: `template ${template.id} request`, response: 'matched response' },
      });
      const run = asBuiltIn({ detections: [detection], coverage: [] }, builtInForTemplate);
      const finding = recorded(run.detections[0]!);
      expectComplete(finding, template.id);
      const own = tryCvssScore(template.info.cvssVector);
      if (!own || (own.baseScore === 0 && template.info.severity !== 'info')) {
        defaulted++;
        expect(finding.cvss_vector).toBe(DEFAULT_VECTOR_BY_SEVERITY[template.info.severity]);
      } else {
        // The template's own classification wins; the score is computed from it.
        expect(finding.cvss_vector).toBe(template.info.cvssVector);
      }
      if (template.info.cweIds.length > 0) expect(finding.cwe_ids).toEqual(template.info.cweIds);
    }
    // Some templates of the set carry no classification: the defaults are exercised.
    expect(defaulted).toBeGreaterThan(0);
  }, 120_000);

  it('for every vendor CVE of an old release of each product', async () => {
    for (const header of ['nginx/0.7.0', 'Apache/2.4.0 (Unix) OpenSSL/1.0.2']) {
      const web = service(80, {
        product: header.split('/')[0],
        version: header.split('/')[1]!.split(' ')[0],
        details: { server: header },
      });
      const vendors = softwareOf(web).map((s) => s.product.vendor);
      const detections = await vendorCveCheck.run(checkContext('127.0.0.1'), web);
      // Every product the header names has CVEs at such an old release.
      expect(new Set(detections.map((d) => d.title.split(' in ')[1]!.split(' ')[0])).size, header).toBe(
        vendors.length,
      );
      for (const detection of detections) {
        const finding = recorded(detection);
        expectComplete(finding, detection.check_id);
        expect(finding.evidence.established).toBe('inferred from version');
        expect(finding.check_id).toMatch(/^CVE-\d{4}-\d+$/);
      }
    }
  });
});
