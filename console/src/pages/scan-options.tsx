import type { ReactNode } from 'react';
import type { Schemas } from '../api/contract';
import { FRAMEWORKS, SCAN_TYPES } from '../api/vocabulary';
import { Choices, Options } from '../ui';
import {
  DEFAULT_WEB_OPTIONS,
  WebApplicationFields,
  webRequestOf,
  type WebOptions,
} from './web-application-fields';

/** What a form asks of every scan, whether it starts one now or on a schedule. */
export interface ScanOptions {
  scanType: Schemas['ScanType'];
  /** As typed: blank for the scanner's default ports. */
  ports: string;
  frameworks: Schemas['Framework'][];
  /** The "Web application" section (web-application-fields.tsx). */
  web: WebOptions;
  authorized: boolean;
}

export const DEFAULT_SCAN_OPTIONS: ScanOptions = {
  scanType: 'quick',
  ports: '',
  frameworks: [],
  web: DEFAULT_WEB_OPTIONS,
  authorized: false,
};

/** What a form says when it is sent without the authorization box ticked; it sends nothing then. */
export const NOT_AUTHORIZED = 'Confirm that you are authorized to scan this target.';

/**
 * The options' part of a scan or schedule request: blank ports and no frameworks are left out
 * (the API's defaults). Only for ticked options: the form checks `authorized` first.
 */
export function scanRequestOf(options: ScanOptions): {
  scan_type: Schemas['ScanType'];
  authorized: true;
  ports?: string;
  frameworks?: Schemas['Framework'][];
  web?: Schemas['WebTestingOptions'];
} {
  const ports = options.ports.trim();
  const web = webRequestOf(options.web);
  return {
    scan_type: options.scanType,
    authorized: true,
    ...(ports ? { ports } : {}),
    ...(options.frameworks.length ? { frameworks: options.frameworks } : {}),
    ...(web ? { web } : {}),
  };
}

/**
 * The fields of a scan's options: its type and ports on one row (after `children`, the form's
 * own fields before them: a target, a schedule's time), the frameworks, and the box that says
 * the user may scan the target. Choices and their words come from the schema's vocabularies.
 * `namePrefix` keeps the fields' names apart where another form shares the page.
 */
export function ScanOptionsFields(props: {
  value: ScanOptions;
  onChange: (value: ScanOptions) => void;
  namePrefix?: string;
  children?: ReactNode;
}) {
  const { value, onChange, namePrefix = '' } = props;
  const set = (change: Partial<ScanOptions>) => onChange({ ...value, ...change });
  return (
    <>
      <div className="row">
        {props.children}
        <label>
          Scan type
          <select
            name={`${namePrefix}scan_type`}
            value={value.scanType}
            onChange={(e) => set({ scanType: e.target.value as Schemas['ScanType'] })}
          >
            <Options of={SCAN_TYPES} />
          </select>
        </label>
        <label>
          Ports (optional)
          <input
            name={`${namePrefix}ports`}
            placeholder="22,80,443 or 1-1024"
            value={value.ports}
            onChange={(e) => set({ ports: e.target.value })}
          />
        </label>
      </div>
      <Choices
        legend="Frameworks"
        of={FRAMEWORKS}
        chosen={value.frameworks}
        onChange={(frameworks) => set({ frameworks })}
      />
      <WebApplicationFields value={value.web} onChange={(web) => set({ web })} namePrefix={namePrefix} />
      <label className="inline">
        <input
          type="checkbox"
          checked={value.authorized}
          onChange={(e) => set({ authorized: e.target.checked })}
        />{' '}
        I am authorized to scan this target
      </label>
    </>
  );
}
