import type { Schemas } from '../api/contract';
import { EOL_STATUSES, SEVERITIES } from '../api/vocabulary';
import { Link } from '../router';
import { Severity, queryString } from '../ui';

/** Pieces the asset list and the asset page share: the end-of-life badge and the open-findings counts. */

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

/** The asset's open findings by severity, each a link to the findings list filtered to them. */
export function OpenFindings({ assetId, open }: { assetId: string; open: Schemas['AssetOpenFindings'] }) {
  if (open.total === 0) return <span>None open</span>;
  return (
    <ul className="counts" aria-label="Open findings by severity">
      {SEVERITIES.values
        .filter((s) => open[s] > 0)
        .map((s) => (
          <li key={s}>
            <Link href={`/findings${queryString({ asset_id: assetId, severity: s })}`}>
              <Severity value={s} /> {open[s]}
              <span className="visually-hidden"> open {SEVERITIES.label(s).toLowerCase()} findings</span>
            </Link>
          </li>
        ))}
    </ul>
  );
}
