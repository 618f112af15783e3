import { stringOptions, type OptionGroup } from './group.ts';

/** How to gate the build and what to report: `--fail-on`, `--gate`, `--report-severity`. */
export const gateOptions: OptionGroup = {
  options: stringOptions('fail-on', 'gate', 'report-severity'),
  help: `  --fail-on SEVERITY           critical, high (default), medium, low, info, none
  --gate all|new               count every open finding (all, default) or only new/reopened ones
  --report-severity SEVERITY   least severe finding in the reports (default info)
`,
};
