import type { Db } from '../db/index.ts';
import { newId } from '../identity/ids.ts';
import {
  linkFindingsToAsset,
  linkUnplacedFindingsByTarget,
  selectFindingPlacesOfScan,
} from './findings-assets.repository.ts';
import {
  insertAsset,
  lockAssetsAt,
  removeNameElsewhere,
  selectAssetsNamed,
  updateAssetSeen,
} from './assets.repository.ts';
import { serviceFact } from './service-facts.ts';
import { upsertAssetServices, type AssetServiceRow, type EolStatus } from './asset-services.repository.ts';

/**
 * The asset inventory's one writer (docs/assets.md). A completed scan or import hands it the
 * hosts it saw, in the scan's completing transaction, after the findings are recorded:
 *
 * - an asset is a host **address** within the organization; the same address is the same
 *   asset whatever name it was scanned as;
 * - the names it was scanned as accumulate on it, and a name seen at another address moves
 *   there (a name belongs to the address it last resolved to);
 * - a service is a (protocol, port) of the asset: its product, version and CPE are a fact with a
 *   source and a specificity (service-facts.ts); a later sighting replaces the fact (and the
 *   end-of-life state judged from it) only when it is at least as specific, so an nmap range
 *   (`9.6.0 or later`) never replaces the version a scan read; its first sighting stays; a port
 *   a scan did not see is kept with its `last_seen_at` (the scan may not have probed it);
 * - the findings the scan observed are linked to the asset of their host (the host of their
 *   component URL, else their target), and earlier findings with no asset whose target is
 *   one of the asset's names or its address are linked too.
 *
 * What the engine or an import saw is engine-neutral input, like the findings lifecycle's.
 */

export interface ObservedEndOfLife {
  status: Exclude<EolStatus, 'unknown'>;
  /** The product the release cycle is of (`Redis`). */
  product: string;
  cycle: string;
  /** `YYYY-MM-DD` the cycle ended (or ends); null when the source gives no date. */
  date: string | null;
}

export interface ObservedService {
  port: number;
  protocol: 'tcp' | 'udp';
  /** The service's name as the tool named it (`redis`, `https`, `unknown`). */
  service: string;
  product?: string | null | undefined;
  version?: string | null | undefined;
  /** The CPE the tool gave, when it gave one (nmap). */
  cpe?: string | null | undefined;
  tls: boolean;
  /** Where the product and version are known to the end-of-life data; absent: unknown. */
  eol?: ObservedEndOfLife | undefined;
}

export interface ObservedHost {
  address: string;
  /** The names the host was scanned as (DNS names; the address itself is left out). */
  names: string[];
  services: ObservedService[];
}

export interface InventoryInput {
  orgId: string;
  scanId: string;
  hosts: readonly ObservedHost[];
  /** Who saw them: `scan` (Scanward's engine) or `import:<tool>`; absent: `scan`. */
  source?: string;
  now: Date;
}

/** An address as the inventory keys it: trimmed, lower case, without IPv6 brackets. */
export function normalAddress(address: string): string {
  return address
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
}

/** The host a finding is on: its component URL's host, else its target (lower case). */
export function hostOfFinding(target: string, component: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/(\[[^\]]*\]|[^/:?#]*)/i.exec(component);
  const host = match?.[1]?.replace(/^\[|\]$/g, '');
  return normalAddress(host || target);
}

/** Merges what one scan saw of each address (a host may be listed twice, e.g. under two names). */
function byAddress(hosts: readonly ObservedHost[]): Map<string, ObservedHost> {
  const merged = new Map<string, ObservedHost>();
  for (const host of hosts) {
    const address = normalAddress(host.address);
    if (!address) continue;
    const entry = merged.get(address) ?? { address, names: [], services: [] };
    for (const name of host.names) {
      const n = normalAddress(name);
      if (n && n !== address && !entry.names.includes(n)) entry.names.push(n);
    }
    for (const service of host.services) {
      const at = entry.services.findIndex((s) => s.port === service.port && s.protocol === service.protocol);
      if (at === -1) entry.services.push(service);
      else entry.services[at] = service;
    }
    merged.set(address, entry);
  }
  return merged;
}

/** Records what the scan saw of its hosts, and places the findings it observed on them. */
export async function recordScanAssets(trx: Db, input: InventoryInput): Promise<void> {
  const { orgId, scanId, now } = input;
  const hosts = byAddress(input.hosts);
  const addresses = [...hosts.keys()].sort();
  const existing = new Map((await lockAssetsAt(trx, orgId, addresses)).map((a) => [a.address, a]));
  for (const address of addresses) {
    const host = hosts.get(address)!;
    const known = existing.get(address);
    let assetId: string;
    if (known) {
      assetId = known.id;
      const names = [...new Set([...known.names, ...host.names])].sort();
      await updateAssetSeen(trx, orgId, known.id, { names, last_seen_at: now, last_scan_id: scanId });
    } else {
      assetId = newId('asset');
      await insertAsset(trx, {
        id: assetId,
        org_id: orgId,
        address,
        names: [...host.names].sort(),
        first_seen_at: now,
        last_seen_at: now,
        last_scan_id: scanId,
        created_at: now,
        updated_at: now,
      });
    }
    for (const name of host.names) {
      const seenAt = addresses.filter((a) => hosts.get(a)?.names.includes(name));
      await removeNameElsewhere(trx, orgId, name, seenAt, now);
    }
    await upsertAssetServices(
      trx,
      host.services.map((s) => serviceRow(orgId, assetId, scanId, s, input.source ?? 'scan', now)),
    );
    await linkUnplacedFindingsByTarget(trx, orgId, assetId, [address, ...host.names]);
  }
  await placeFindingsOfScan(trx, orgId, scanId);
}

function serviceRow(
  orgId: string,
  assetId: string,
  scanId: string,
  s: ObservedService,
  source: string,
  now: Date,
): AssetServiceRow {
  const fact = serviceFact(s.service, s.product, s.version, s.cpe);
  return {
    asset_id: assetId,
    org_id: orgId,
    protocol: s.protocol,
    port: s.port,
    service: s.service,
    product: fact.product,
    version: fact.version,
    cpe: fact.cpe,
    fact_source: source,
    fact_specificity: fact.specificity,
    tls: s.tls,
    eol_status: s.eol?.status ?? 'unknown',
    eol_product: s.eol?.product ?? null,
    eol_cycle: s.eol?.cycle ?? null,
    eol_date: s.eol?.date ?? null,
    first_seen_at: now,
    last_seen_at: now,
    last_scan_id: scanId,
  };
}

/** Links each finding the scan observed to the asset of its host, where the organization has one. */
async function placeFindingsOfScan(trx: Db, orgId: string, scanId: string): Promise<void> {
  const places = await selectFindingPlacesOfScan(trx, orgId, scanId);
  if (places.length === 0) return;
  const hostOf = new Map(places.map((f) => [f.id, hostOfFinding(f.target, f.affected_component)]));
  const targets = new Map(places.map((f) => [f.id, normalAddress(f.target)]));
  const assets = await selectAssetsNamed(trx, orgId, [...new Set([...hostOf.values(), ...targets.values()])]);
  const byAddressOrName = new Map<string, string>();
  // An address wins over a name that another asset carries.
  for (const a of assets) for (const n of a.names) byAddressOrName.set(n, a.id);
  for (const a of assets) byAddressOrName.set(a.address, a.id);
  const toLink = new Map<string, string[]>();
  for (const f of places) {
    const assetId = byAddressOrName.get(hostOf.get(f.id)!) ?? byAddressOrName.get(targets.get(f.id)!);
    if (!assetId || assetId === f.asset_id) continue;
    toLink.set(assetId, [...(toLink.get(assetId) ?? []), f.id]);
  }
  for (const [assetId, ids] of toLink) await linkFindingsToAsset(trx, orgId, assetId, ids);
}
