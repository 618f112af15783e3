import type { ReactNode } from 'react';
import type { Schemas } from '../../api/contract';
import { apiClientRef, useApi } from '../../api/context';
import { SCAN_PHASES, SEVERITIES } from '../../api/vocabulary';
import { useLoad } from '../../data';
import { Link } from '../../router';
import { Page, Problem, Severity, queryString } from '../../ui';
import { BarList, WeeklyChart } from './charts';

/**
 * The console's home (docs/overview.md): one GET /api/v1/overview, drawn as cards. Every
 * number and bar links to the findings list its `filter` names, so a click shows exactly
 * the findings counted.
 */

type Overview = Schemas['Overview'];
type Filter = Record<string, string>;

const findingsHref = (filter: Filter) => `/findings${queryString(filter)}`;

function Card(props: { id: string; title: string; children: ReactNode; wide?: boolean }) {
  return (
    <section className={`card overview-card${props.wide ? ' wide' : ''}`} aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

function Headline(props: { label: string; value: number; href: string; tone?: string }) {
  return (
    <Link
      href={props.href}
      className={`headline ${props.tone ?? ''}`}
      aria-label={`${props.label}: ${props.value}`}
    >
      <span className="headline-value">{props.value}</span>
      <span className="headline-label">{props.label}</span>
    </Link>
  );
}

const shortDate = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });

function OverviewCards({ o }: { o: Overview }) {
  return (
    <div className="overview">
      <div className="headlines" role="group" aria-label="Headline figures">
        <Headline label="Open findings" value={o.open.total} href={findingsHref(o.open.filter)} />
        <Headline
          label="Overdue"
          value={o.overdue.total}
          href={findingsHref(o.overdue.filter)}
          tone="tone-danger"
        />
        <Headline label="Known exploited (KEV)" value={o.kev.total} href={findingsHref(o.kev.filter)} />
        <Headline label="Scans running" value={o.running_scans?.total ?? 0} href="/scans" />
      </div>
      <Card id="by-severity" title="Open findings by severity">
        <BarList
          empty="No open findings."
          bars={SEVERITIES.values.map((s) => ({
            key: s,
            label: <Severity value={s} />,
            name: `${SEVERITIES.label(s)}: ${o.open.by_severity[s]} open`,
            value: o.open.by_severity[s],
            href: findingsHref({ ...o.open.filter, severity: s }),
            tone: `bar-${s}`,
          }))}
        />
      </Card>
      <Card id="by-age" title="Open findings by age">
        <BarList
          empty="No open findings."
          bars={o.open_by_age.map((b) => ({
            key: b.label,
            label: b.label,
            name: `${b.label} old: ${b.count} open`,
            value: b.count,
            href: findingsHref(b.filter),
          }))}
        />
      </Card>
      <Card id="trend" title="New and resolved, last 12 weeks" wide>
        <WeeklyChart
          weeks={o.trend.map((w) => ({
            key: w.week_start,
            label: shortDate(w.week_start),
            name: `Week of ${shortDate(w.week_start)}`,
            created: w.new,
            resolved: w.resolved,
            createdHref: findingsHref(w.filter),
            resolvedHref: findingsHref(w.resolved_filter),
          }))}
        />
      </Card>
      <Card id="top-targets" title="Targets with the most open findings">
        <BarList
          empty="No open findings."
          bars={o.top_targets.map((t) => ({
            key: t.target,
            label: t.target,
            name: `${t.target}: ${t.open} open`,
            value: t.open,
            href: findingsHref(t.filter),
          }))}
        />
      </Card>
      <Card id="top-cves" title="CVEs with the most open findings">
        <BarList
          empty="No open findings with a CVE."
          bars={o.top_cves.map((c) => ({
            key: c.cve,
            label: (
              <>
                {c.cve}
                {c.kev ? <span className="kev"> KEV</span> : null}
              </>
            ),
            name: `${c.cve}${c.kev ? ', known exploited' : ''}: ${c.open} open`,
            value: c.open,
            href: findingsHref(c.filter),
            tone: `bar-${c.severity}`,
          }))}
        />
      </Card>
      <Card id="running" title="Scans running now">
        {o.running_scans === null ? (
          <p className="muted">Not shown: this key may not read scans.</p>
        ) : o.running_scans.items.length === 0 ? (
          <p className="muted">No scan is running.</p>
        ) : (
          <ul className="running">
            {o.running_scans.items.map((s) => (
              <li key={s.id}>
                <Link href={`/scans/${s.id}`}>{s.target}</Link>{' '}
                <span className="sub">
                  {SCAN_PHASES.label(s.phase)} · {s.progress}%
                </span>
                <progress max={100} value={s.progress} aria-label={`Progress of the scan of ${s.target}`} />
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

/** Nothing found and nothing running yet: an organization that has not scanned. */
export function isEmptyOverview(o: Overview): boolean {
  return (
    o.open.total === 0 &&
    o.trend.every((w) => w.new === 0 && w.resolved === 0) &&
    (o.running_scans?.total ?? 0) === 0
  );
}

/** What an empty overview says: how to start a first scan. */
function FirstScan() {
  return (
    <section className="card first-scan" aria-labelledby="first-scan">
      <h2 id="first-scan">Start with a first scan</h2>
      <p>Nothing has been scanned or found yet. To see your first findings here:</p>
      <ol>
        <li>
          Open <Link href="/scans#start-scan">Scans</Link> and, under “Start a scan”, enter a host you own (an
          address, a name or a CIDR range), pick a scan type (quick takes about a minute) and confirm you are
          authorized to scan it.
        </li>
        <li>
          The server scans only what its scan scope policy allows: public addresses by default. To scan this
          machine or your private network, the operator sets <code>SCANWARD_SCAN_ALLOW</code> (add{' '}
          <code>public</code> to keep public addresses too).
        </li>
        <li>Findings show here, on the scan and under Findings as the scan finds them.</li>
      </ol>
    </section>
  );
}

export function Overview() {
  const api = useApi(apiClientRef);
  const overview = useLoad(() => api.GET('/api/v1/overview'), 'overview');
  return (
    <Page title="Overview">
      <Problem message={overview.error} />
      {overview.data && isEmptyOverview(overview.data) && <FirstScan />}
      {overview.data && <OverviewCards o={overview.data} />}
    </Page>
  );
}
