import { useState, type ComponentType } from 'react';
import type { Schemas } from '../src/api/contract';
import { ControlDetail } from '../src/pages/control-detail';
import { AssignmentCard } from '../src/pages/finding/assignment-card';
import { FindingDetail } from '../src/pages/finding/page';
import { FindingList } from '../src/pages/findings/page';
import { ScanDetail } from '../src/pages/scan/page';
import { SourcesCard } from '../src/pages/finding/sources-card';
import { TicketsCard } from '../src/pages/finding/tickets-card';
import { ImportReport } from '../src/pages/import';
import {
  DEFAULT_SCAN_OPTIONS,
  NOT_AUTHORIZED,
  scanRequestOf,
  ScanOptionsFields,
} from '../src/pages/scan-options';
import { Settings } from '../src/pages/settings';
import { AuditEvents } from '../src/pages/settings/audit-events';
import { People } from '../src/pages/settings/people';

/**
 * Console components that are a part of a form rather than a page or a settings section,
 * each in the smallest form that uses it as the console's forms do, by the name the harness
 * mounts it under (`mountComponent` in test/helpers/console-components.ts).
 */

/**
 * The scan options in a form of their own: sending it shows, in `request`, the options' part
 * of the request the console would send, or the message it would show instead.
 */
function ScanOptionsForm() {
  const [options, setOptions] = useState(DEFAULT_SCAN_OPTIONS);
  const [target, setTarget] = useState('');
  const [sent, setSent] = useState<string>();
  return (
    <form
      aria-label="Scan options"
      onSubmit={(e) => {
        e.preventDefault();
        setSent(options.authorized ? JSON.stringify(scanRequestOf(options)) : NOT_AUTHORIZED);
      }}
    >
      <ScanOptionsFields value={options} onChange={setOptions} namePrefix="harness_">
        <label>
          Target
          <input name="harness_target" value={target} onChange={(e) => setTarget(e.target.value)} />
        </label>
      </ScanOptionsFields>
      <button type="submit">Send</button>
      <output data-testid="request">{sent}</output>
    </form>
  );
}

/** The audit trail of the People page, as it shows there (reloaded when the people change: never, here). */
function AuditTrail() {
  return <AuditEvents changes="" />;
}

/** The finding page's assignment form over a finding nobody is assigned to yet. */
function AssignmentForm() {
  const [changes, setChanges] = useState(0);
  return (
    <>
      <AssignmentCard finding={UNASSIGNED_FINDING} onChanged={() => setChanges((n) => n + 1)} />
      <output data-testid="changes">{changes}</output>
    </>
  );
}

const UNASSIGNED_FINDING = {
  id: 'finding_harness000000000000000',
  assignee: null,
  priority: null,
  due_date: null,
} as unknown as Schemas['FindingDetail'];

/** The finding page's "Seen by" card for a finding two sources saw: Scanward's scan (the headline) and a nuclei import that no longer reports it. */
function SeenByCard() {
  return <SourcesCard sources={TWO_SOURCES} />;
}

const TWO_SOURCES: Schemas['FindingSource'][] = [
  {
    source: 'scan',
    tool: 'scanward-probe',
    headline: true,
    status: 'active',
    established: 'confirmed',
    severity: 'high',
    cvss_score: 7.5,
    cvss_vector: null,
    first_scan_id: 'scan_harnessfirst0000000000',
    last_scan_id: 'scan_harnesslast00000000000',
    first_seen_at: '2026-11-20T09:00:00.000Z',
    last_seen_at: '2026-11-27T09:00:00.000Z',
  },
  {
    source: 'import',
    tool: 'nuclei',
    headline: false,
    status: 'resolved',
    established: 'inferred from version',
    severity: 'medium',
    cvss_score: 0,
    cvss_vector: null,
    first_scan_id: 'scan_harnessimport000000000',
    last_scan_id: 'scan_harnessimport000000000',
    first_seen_at: '2026-11-21T09:00:00.000Z',
    last_seen_at: '2026-11-21T09:00:00.000Z',
  },
] as Schemas['FindingSource'][];

/** The finding page's Tickets card over a finding with one GitHub issue; `changes` counts the reloads it asks for. */
function TicketedFinding() {
  const [changes, setChanges] = useState(0);
  return (
    <>
      <TicketsCard finding={TICKETED_FINDING} onChanged={() => setChanges((n) => n + 1)} />
      <output data-testid="changes">{changes}</output>
    </>
  );
}

const TICKETED_FINDING = {
  id: 'finding_harnesstickets0000000',
  tickets: [
    {
      integration_id: 'int_github00000000000000000',
      key: 'acme/shop#42',
      url: 'https://github.com/acme/shop/issues/42',
      state: 'open',
    },
  ],
} as unknown as Schemas['FindingDetail'];

/**
 * Whole pages by the id the test's stub API answers for: the finding, scan and control of
 * `HARNESS_IDS`, and the findings list (the harness page's URL has no query: the first page,
 * ungrouped).
 */
export const HARNESS_IDS = {
  finding: 'finding_harnesspage0000000000',
  scan: 'scan_harnesspage000000000000',
  control: 'ctrl_harness_page',
} as const;

function FindingPage() {
  return <FindingDetail id={HARNESS_IDS.finding} />;
}

function ScanPage() {
  return <ScanDetail id={HARNESS_IDS.scan} />;
}

function ControlPage() {
  return <ControlDetail id={HARNESS_IDS.control} />;
}

export const COMPONENTS: Record<string, ComponentType> = {
  'scan-options': ScanOptionsForm,
  'audit-events': AuditTrail,
  assignment: AssignmentForm,
  'seen-by': SeenByCard,
  'finding-tickets': TicketedFinding,
  import: ImportReport,
  'finding-page': FindingPage,
  'findings-page': FindingList,
  'scan-page': ScanPage,
  'control-page': ControlPage,
  'people-page': People,
  /** The whole Settings page: the sections the session's role may use. */
  settings: Settings,
};
