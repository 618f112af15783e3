import * as evidence from '../../controls/control-evidence.repository.ts';
import * as tally from '../../controls/findings-control-status.repository.ts';
import { repositorySamples } from '../sql-generator.ts';
import { EMAIL, ORG, SCAN } from './fixture.ts';

/** Samples of server/controls/. */

export const controlsSamples = [
  repositorySamples('server/controls/control-evidence.repository.ts', evidence, {
    listControlEvidence: [[ORG, 'ctrl_soc2_cc6_1', 20]],
    insertEvidence: [
      [
        ORG,
        {
          id: 'evid_sample',
          control_id: 'ctrl_soc2_cc6_1',
          kind: 'user',
          title: 'Access review',
          description: 'Quarterly review',
          url: 'https://wiki.example.com/review',
          created_by: EMAIL,
        },
      ],
    ],
    insertScanEvidence: [
      [ORG, [{ id: 'evid_scan', control_id: 'ctrl_soc2_cc6_1', scan_id: SCAN, title: 'Scan' }]],
    ],
    evidenceTallies: [
      { name: 'every control', args: [ORG] },
      { name: 'one control', args: [ORG, 'ctrl_soc2_cc6_1'] },
    ],
  }),
  repositorySamples('server/controls/findings-control-status.repository.ts', tally, {
    findingsPerControl: [
      { name: 'every control', args: [ORG, ['open', 'in_progress']] },
      { name: 'one control', args: [ORG, ['open', 'in_progress'], 'ctrl_soc2_cc6_1'] },
    ],
  }),
];
