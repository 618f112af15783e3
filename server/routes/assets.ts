import { defineRoute, type AnyRoute } from '../http/contract.ts';
import { getAssetDetail, listAssets } from '../assets/listing.ts';
import { AssetDetail, AssetIdParams, AssetList, ListAssetsQuery } from '../schemas/assets.ts';

/**
 * The asset inventory (docs/assets.md). Read with `read:findings`: an asset's worth is its open
 * findings by severity, which only a caller who may read findings may see.
 */
const tags = ['Assets'];

const flag = (value: 'true' | 'false' | undefined) => (value === undefined ? undefined : value === 'true');

export const listAssetsRoute = defineRoute({
  method: 'get',
  path: '/api/v1/assets',
  operationId: 'listAssets',
  summary: 'List assets',
  description:
    'The hosts the organization’s completed scans and imports saw, most recently seen first (ties by id), each with its open findings by severity and whether a service on it is past its end of life.',
  tags,
  access: { permission: 'read:findings' },
  query: ListAssetsQuery,
  responses: { 200: { description: 'One page of assets', schema: AssetList } },
  handler: async ({ query, principal, services }) => ({
    body: await listAssets(services.db, principal.org.id, {
      q: query.q,
      has_open_findings: flag(query.has_open_findings),
      severity: query.severity,
      eol: flag(query.eol),
      page: query.page,
      perPage: query.per_page,
    }),
  }),
});

export const getAssetRoute = defineRoute({
  method: 'get',
  path: '/api/v1/assets/{asset_id}',
  operationId: 'getAsset',
  summary: 'Asset details',
  description: 'The asset with its services (port, protocol, product, version, TLS, end of life).',
  tags,
  access: { permission: 'read:findings' },
  params: AssetIdParams,
  responses: { 200: { description: 'The asset and its services', schema: AssetDetail } },
  errors: ['NOT_FOUND'],
  handler: async ({ params, principal, services }) => ({
    body: await getAssetDetail(services.db, principal.org.id, params.asset_id),
  }),
});

export const assetRoutes: AnyRoute[] = [listAssetsRoute, getAssetRoute];
