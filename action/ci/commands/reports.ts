import type { OptionGroup } from './group.ts';

/** The report files (`--sarif`, `--junit`, `--json`); GitHub's upload and comment are the Action's only. */
export const reportOptions: OptionGroup = {
  options: { sarif: { type: 'string' }, junit: { type: 'string' }, json: { type: 'string' } },
  help: `  --sarif FILE                 write SARIF 2.1.0
  --junit FILE                 write JUnit XML: one test case per reported finding
  --json FILE                  write the scan, gate and findings as JSON
`,
  input: (name) => (name === 'upload-sarif' || name === 'comment' ? 'false' : undefined),
};
