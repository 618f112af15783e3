import { z } from 'zod';
import { IdParam, PaginationQuery, Timestamp, paginated } from './common.ts';
import { FINDING_SEVERITIES, FindingSeverity } from './findings.ts';

/**
 * Wire shapes of the asset inventory (docs/assets.md): hosts the organization's completed
 * scans and imports saw, their services, and their open findings by severity. Pure zod.
 */

export const EOL_STATUSES = ['end_of_life', 'supported', 'unknown'] as const;
export const EolStatus = z.enum(EOL_STATUSES).meta({
  id: 'EolStatus',
  description:
    '`end_of_life`: the release cycle of the product and version the service announced has ended; `supported`: it has not; `unknown`: no product and version the end-of-life data knows',
});
export type EolStatus = z.infer<typeof EolStatus>;

export const SERVICE_PROTOCOLS = ['tcp', 'udp'] as const;

const OpenFindings = z
  .object({
    total: z.number().int(),
    ...(Object.fromEntries(FINDING_SEVERITIES.map((s) => [s, z.number().int()])) as Record<
      (typeof FINDING_SEVERITIES)[number],
      z.ZodNumber
    >),
  })
  .meta({
    id: 'AssetOpenFindings',
    description: 'Findings on the asset that are `open` or `in_progress`, by severity',
  });

const assetFields = {
  id: z.string().meta({ example: 'asset_3k9x0c2m4q8w1e5r7t6y2u0i' }),
  address: z.string().meta({ description: 'The host address (the asset’s identity)', example: '127.0.0.1' }),
  names: z
    .array(z.string())
    .meta({ description: 'Names the host was scanned as (lower case)', example: ['localhost'] }),
  first_seen_at: Timestamp,
  last_seen_at: Timestamp,
  last_scan_id: z.string().nullable().meta({ description: 'The latest scan or import that saw it' }),
  service_count: z.number().int(),
  end_of_life: z.boolean().meta({ description: 'A service on it runs software past its end of life' }),
  open_findings: OpenFindings,
};

export const AssetListItem = z.object(assetFields).meta({ id: 'AssetListItem' });
export type AssetListItem = z.infer<typeof AssetListItem>;

export const AssetService = z
  .object({
    port: z.number().int(),
    protocol: z.enum(SERVICE_PROTOCOLS),
    service: z
      .string()
      .meta({ description: 'The service as the tool named it (`redis`, `https`, `unknown`)' }),
    product: z.string().nullable(),
    version: z.string().nullable().meta({
      description:
        'Only what the service itself revealed: one release, never a range (docs/assets.md, "Facts and provenance")',
    }),
    cpe: z
      .string()
      .nullable()
      .meta({ description: 'The CPE of the product (and version), when a tool named one' }),
    fact_source: z.string().nullable().meta({
      description:
        'Who established product and version: `scan` (Scanward) or `import:<tool>`; a less specific fact never replaces a more specific one',
      example: 'scan',
    }),
    tls: z.boolean(),
    eol: z.object({
      status: EolStatus,
      product: z.string().nullable().meta({ description: 'The product the release cycle is of' }),
      cycle: z.string().nullable(),
      date: z
        .string()
        .nullable()
        .meta({ description: 'When the cycle ended or ends (`YYYY-MM-DD`), when known' }),
    }),
    first_seen_at: Timestamp,
    last_seen_at: Timestamp,
  })
  .meta({ id: 'AssetService' });
export type AssetService = z.infer<typeof AssetService>;

export const AssetDetail = z
  .object({ ...assetFields, services: z.array(AssetService) })
  .meta({ id: 'AssetDetail' });
export type AssetDetail = z.infer<typeof AssetDetail>;

export const AssetList = paginated(AssetListItem, 'AssetList');

const Flag = z.enum(['true', 'false'], { error: 'must be true or false' });

export const ListAssetsQuery = PaginationQuery.extend({
  q: z.string().trim().min(1, { error: 'must not be empty' }).max(253).optional().meta({
    description: 'An address prefix (`127.0.`), or part of a name, ignoring case',
    example: '127.0.',
  }),
  has_open_findings: Flag.optional().meta({
    description: '`true`: only assets with an open or in-progress finding; `false`: only those without',
  }),
  severity: FindingSeverity.optional().meta({
    description: 'Only assets with an open or in-progress finding of this severity',
  }),
  eol: Flag.optional().meta({
    description: '`true`: only assets with a service past its end of life; `false`: only those without',
  }),
});
export type ListAssetsQuery = z.infer<typeof ListAssetsQuery>;

export const AssetIdParams = z.object({
  asset_id: IdParam('asset', 'asset_3k9x0c2m4q8w1e5r7t6y2u0i'),
});
