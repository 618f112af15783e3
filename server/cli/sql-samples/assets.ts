import * as assets from '../../assets/assets.repository.ts';
import * as listing from '../../assets/assets-listing.repository.ts';
import * as services from '../../assets/asset-services.repository.ts';
import * as findingPlaces from '../../assets/findings-assets.repository.ts';
import { repositorySamples } from '../sql-generator.ts';
import { ASSET, FINDING, NOW, ORG, PAGE, SCAN } from './fixture.ts';

/** Samples of server/assets/: the inventory's writes, every filter of the list. */

export const assetsSamples = [
  repositorySamples('server/assets/assets.repository.ts', assets, {
    lockAssetsAt: [[ORG, ['127.0.0.1', '::1']]],
    insertAsset: [
      [
        {
          id: 'asset_other',
          org_id: ORG,
          address: '::1',
          names: ['localhost'],
          first_seen_at: NOW,
          last_seen_at: NOW,
          last_scan_id: SCAN,
        },
      ],
    ],
    updateAssetSeen: [[ORG, ASSET, { names: ['localhost'], last_seen_at: NOW, last_scan_id: SCAN }]],
    removeNameElsewhere: [[ORG, 'localhost', ['127.0.0.1', '::1'], NOW]],
    selectAssetsNamed: [[ORG, ['127.0.0.1', 'localhost']]],
  }),
  repositorySamples('server/assets/asset-services.repository.ts', services, {
    upsertAssetServices: [
      [
        [
          {
            asset_id: ASSET,
            org_id: ORG,
            protocol: 'tcp',
            port: 6379,
            service: 'redis',
            product: 'Redis',
            version: '7.0.15',
            cpe: 'cpe:/a:redislabs:redis:7.0.15',
            fact_source: 'scan',
            fact_specificity: 3,
            tls: false,
            eol_status: 'end_of_life',
            eol_product: 'Redis',
            eol_cycle: '7.0',
            eol_date: '2024-07-29',
            first_seen_at: NOW,
            last_seen_at: NOW,
            last_scan_id: SCAN,
          },
        ],
      ],
    ],
    selectServicesOfAsset: [[ORG, ASSET]],
  }),
  repositorySamples('server/assets/findings-assets.repository.ts', findingPlaces, {
    selectFindingPlacesOfScan: [[ORG, SCAN]],
    linkFindingsToAsset: [[ORG, 'asset_sample', [FINDING]]],
    linkUnplacedFindingsByTarget: [[ORG, 'asset_sample', ['127.0.0.1', 'localhost']]],
  }),
  repositorySamples('server/assets/assets-listing.repository.ts', listing, {
    selectAssetsPage: [
      { name: 'no filter', args: [ORG, {}, PAGE] },
      {
        name: 'every filter',
        args: [ORG, { q: '127.0.', has_open_findings: true, severity: 'high', eol: true }, PAGE],
      },
      {
        name: 'without open findings or end of life',
        args: [ORG, { has_open_findings: false, eol: false }, PAGE],
      },
    ],
    countAssets: [[ORG, { q: '127.0.' }]],
    selectAsset: [[ORG, ASSET]],
    countOpenFindingsOfAssets: [[ORG, [ASSET]]],
    selectAssetLabels: [[ORG, [ASSET]]],
  }),
];
