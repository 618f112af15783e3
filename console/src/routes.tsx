import type { ReactNode } from 'react';
import { AssetDetail } from './pages/asset-detail';
import { AssetList } from './pages/assets';
import { ComplianceList } from './pages/compliance';
import { ControlDetail } from './pages/control-detail';
import { FindingDetail } from './pages/finding/page';
import { FindingList } from './pages/findings/page';
import { Overview } from './pages/overview';
import { ScanDetail } from './pages/scan/page';
import { ScanList } from './pages/scans';
import { ImportReport } from './pages/import';
import { Settings } from './pages/settings';
import { People } from './pages/settings/people';
import { SetPassword } from './pages/set-password';
import { Link, match } from './router';

/**
 * The signed-in console's pages: a path (`:name` segments become the page's params) and the
 * page it shows; `nav` names the top pages in the main navigation, in this order. A new page
 * is a file in pages/ and a line here (and its path in server/routes/console.ts's
 * CONSOLE_PAGES, which answer index.html).
 */
export interface ConsoleRoute {
  path: string;
  page(params: Record<string, string>): ReactNode;
  nav?: string;
}

/** Where the console opens: after signing in without a page to return to, and at `/`. */
export const HOME = '/overview';

export const ROUTES: readonly ConsoleRoute[] = [
  { path: '/overview', nav: 'Overview', page: () => <Overview /> },
  { path: '/scans', nav: 'Scans', page: () => <ScanList /> },
  { path: '/scans/:id', page: ({ id }) => <ScanDetail key={id} id={id!} /> },
  { path: '/import', nav: 'Import', page: () => <ImportReport /> },
  { path: '/findings', nav: 'Findings', page: () => <FindingList /> },
  { path: '/findings/:id', page: ({ id }) => <FindingDetail key={id} id={id!} /> },
  // Assets live under /inventory: /assets/:name serves the console's built files.
  { path: '/inventory', nav: 'Assets', page: () => <AssetList /> },
  { path: '/inventory/:id', page: ({ id }) => <AssetDetail key={id} id={id!} /> },
  { path: '/compliance', nav: 'Compliance', page: () => <ComplianceList /> },
  { path: '/compliance/:id', page: ({ id }) => <ControlDetail key={id} id={id!} /> },
  { path: '/settings', nav: 'Settings', page: () => <Settings /> },
  { path: '/settings/people', page: () => <People /> },
  // An invitation's link opened in a browser already signed in (as someone else, say).
  { path: '/set-password', page: () => <SetPassword /> },
];

export function pageOf(path: string): ReactNode {
  for (const route of ROUTES) {
    const params = match(route.path, path);
    if (params) return route.page(params);
  }
  return (
    <section className="page">
      <h1>Page not found</h1>
      <p>
        <Link href={HOME}>Go to the overview</Link>
      </p>
    </section>
  );
}
