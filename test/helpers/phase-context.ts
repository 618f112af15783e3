import { pino } from 'pino';
import type { ScanRecord } from '../../server/scanner/types.ts';
import type { ServiceIdentification, ServiceName } from '../../server/scanner/net/services.ts';
import { emptyState, type PhaseContext } from '../../server/scanner/types.ts';
import type { Services } from '../../server/services.ts';

/** A phase context for running checks directly: loopback-only scope, a scan of `address`. */
export function checkContext(
  address: string,
  options: {
    target?: string;
    signal?: AbortSignal;
    scan?: Partial<ScanRecord>;
    assertAllowed?: (address: string) => void;
  } = {},
): PhaseContext {
  const target = options.target ?? address;
  return {
    scan: {
      id: 'scan_test',
      org_id: 'org_test',
      target,
      scan_type: 'full',
      frameworks: [],
      ports: null,
      attempts: 0,
      created_by: null,
      ...options.scan,
    },
    state: { ...emptyState(), hosts: [{ target, address, alive: true }] },
    signal: options.signal ?? new AbortController().signal,
    services: {} as Services,
    log: pino({ enabled: false }),
    progress: { setTotal: () => undefined, advance: () => undefined, tool: () => undefined },
    assertAllowed:
      options.assertAllowed ??
      ((a) => {
        if (!a.startsWith('127.') && a !== '::1') throw new Error(`${a} is outside the scan scope`);
      }),
  };
}

/** An identified service as the enumeration phase would hand it to the checks. */
export function serviceAt(
  address: string,
  port: number,
  service: ServiceName,
  extra: Partial<ServiceIdentification> = {},
): ServiceIdentification {
  return {
    address,
    port,
    service,
    evidence: { request: '', response: '' },
    tool: 'scanward-probe',
    ...extra,
  };
}
