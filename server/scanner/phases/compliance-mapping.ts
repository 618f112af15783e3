import { isFrameworkSlug } from '../../controls/catalogue.ts';
import { controlsAssessedBy } from '../../controls/mapping.ts';
import type { Phase, ScanRecord } from '../types.ts';

/** The controls a scan assesses (restricted to a compliance scan's chosen frameworks). */
export function assessedControls(scan: ScanRecord): string[] {
  const frameworks = scan.scan_type === 'compliance' ? scan.frameworks.filter(isFrameworkSlug) : [];
  return controlsAssessedBy(scan.scan_type, frameworks, { target: scan.target });
}

/**
 * Works out which controls this scan assessed and which of them its findings
 * fail. The evidence records are written when the scan completes, so a scan
 * that fails or is cancelled assesses nothing.
 */
export const complianceMapping: Phase = {
  name: 'compliance_mapping',
  weight: 2,
  async run(ctx) {
    ctx.progress.tool('compliance-mapping');
    const assessed = assessedControls(ctx.scan);
    const failing = new Set(
      ctx.state.detections.flatMap((d) => d.frameworks?.flatMap((f) => f.controls) ?? []),
    );
    ctx.state.compliance = { assessed, failing: assessed.filter((c) => failing.has(c)) };
    ctx.progress.setTotal(1);
    ctx.progress.advance();
  },
};
