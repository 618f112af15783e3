import type { Schemas } from '../api/contract';
import { apiClientRef, useApi } from '../api/context';
import { EOL_STATUSES, SEVERITIES } from '../api/vocabulary';
import { useLoad } from '../data';
import { Link } from '../router';
import { Severity, queryString } from '../ui';

/**
 * Pieces the asset pages share with each other and with the finding page: the end-of-life
 * badge, the open-findings counts, and a link to an asset by its id.
 */

type Eol = Schemas['AssetService']['eol'];

/** A service's end-of-life state as a badge with words: the colour only repeats what it says. */
export function EolBadge({ eol }: { eol: Eol }) {
  const detail =
    eol.status === 'unknown'
      ? ''
      : `${[eol.product, eol.cycle].filter(Boolean).join(' ')}${eol.date ? `, ${eol.status === 'end_of_life' ? 'ended' : 'ends'} ${eol.date}` : ''}`;
  return (
    <>
      <span className={`eol eol-${eol.status}`}>{EOL_STATUSES.label(eol.status)}</span>
      {detail && <div className="sub">{detail}</div>}
    </>
  );
}

/** What an asset's `open_findings` counts, as the findings list's status filter. */
export const OPEN_STATUSES = 'open,in_progress';

/** The asset's open findings by severity, each a link to the findings list of exactly them (open or in progress). */
export function OpenFindings({ assetId, open }: { assetId: string; open: Schemas['AssetOpenFindings'] }) {
  if (open.total === 0) return <span>None open</span>;
  return (
    <ul className="counts" aria-label="Open findings by severity">
      {SEVERITIES.values
        .filter((s) => open[s] > 0)
        .map((s) => (
          <li key={s}>
            <Link href={`/findings${queryString({ asset_id: assetId, severity: s, status: OPEN_STATUSES })}`}>
              <Severity value={s} /> {open[s]}
              <span className="visually-hidden"> open {SEVERITIES.label(s).toLowerCase()} findings</span>
            </Link>
          </li>
        ))}
    </ul>
  );
}

/**
 * A link to the asset's page, named by its address (its names beside it) once the asset is
 * read; its id until then, or should it not be readable.
 */
export function AssetLink({ id }: { id: string }) {
  const api = useApi(apiClientRef);
  const { data: asset } = useLoad(
    () => api.GET('/api/v1/assets/{asset_id}', { params: { path: { asset_id: id } } }),
    `asset/${id}`,
  );
  return (
    <>
      <Link href={`/inventory/${encodeURIComponent(id)}`}>{asset ? asset.address : id}</Link>
      {asset && asset.names.length > 0 && <span className="sub names"> ({asset.names.join(', ')})</span>}
    </>
  );
}
