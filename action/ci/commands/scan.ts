import { stringOptions, type OptionGroup } from './group.ts';

/** What to scan (`scanward-ci scan`, the default command): the target and how to scan it. */
export const scanOptions: OptionGroup = {
  options: stringOptions('target', 'scan-type', 'ports', 'frameworks', 'credential-checks'),
  help: `  --target HOST                domain, IP or CIDR to scan      (SCANWARD_TARGET)
  --scan-type TYPE             quick (default), full, compliance
  --ports PORTS                e.g. 80,443 or 1-1024
  --frameworks LIST            soc2, pci-dss, iso27001
  --credential-checks MODE     defaults or none (default: the service's, by scan type)
`,
};
