import type { Logger } from 'pino';
import type { ServiceIdentification } from './net/services.ts';
import type { Services } from '../services.ts';

/**
 * The engine's vocabulary. A scan runs the phases of its type in order; each
 * phase reads what earlier phases learned from the scan state and adds to it.
 * The state is plain JSON, saved after every phase, so a runner that takes over
 * a scan resumes after the last completed phase.
 */

export type { Coverage, Detection } from '../findings/lifecycle.ts';
import type { Coverage, Detection } from '../findings/lifecycle.ts';

/** A host to scan: the name the user gave (or the address) and the address checked against the scope. */
export interface ScanHost {
  /** What findings name as their target: the DNS name, or the address. */
  target: string;
  address: string;
  alive?: boolean;
}

export interface OpenPort {
  address: string;
  port: number;
}

export interface ScanState {
  hosts: ScanHost[];
  openPorts: OpenPort[];
  services: ServiceIdentification[];
  /** Which tool learned what, e.g. `{ 'nmap': 3, 'scanward-probe': 5 }`. */
  toolsUsed: Record<string, number>;
  detections: Detection[];
  coverage: Coverage[];
  /** Controls this scan assessed, and which of them its findings fail (compliance_mapping). */
  compliance?: { assessed: string[]; failing: string[] };
  notes: string[];
}

/** What findings on `address` name as their target: the host's DNS name or range address, else the address. */
export function targetOf(state: ScanState, address: string): string {
  return state.hosts.find((h) => h.address === address)?.target ?? address;
}

export function emptyState(): ScanState {
  return { hosts: [], openPorts: [], services: [], toolsUsed: {}, detections: [], coverage: [], notes: [] };
}

export interface ScanRecord {
  id: string;
  org_id: string;
  target: string;
  scan_type: 'quick' | 'full' | 'compliance';
  frameworks: string[];
  ports: string | null;
  /** Whether default-credential logins may be tried (absent: by scan type, see `credentialChecksFor`). */
  credential_checks?: 'defaults' | 'none';
  attempts: number;
  created_by: string | null;
}

/** Reports progress inside a phase: `done` units of the phase's declared `total`. */
export interface PhaseProgress {
  setTotal(units: number): void;
  advance(units?: number): void;
  tool(name: string): void;
}

export interface PhaseContext {
  scan: ScanRecord;
  state: ScanState;
  signal: AbortSignal;
  services: Services;
  log: Logger;
  progress: PhaseProgress;
  /** Throws when the address is outside the scan scope policy; called before every connection. */
  assertAllowed(address: string): void;
}

export interface Phase {
  name: string;
  /** Relative share of a scan's duration, for progress weighting. */
  weight: number;
  run(ctx: PhaseContext): Promise<void>;
}

/** A reason a scan cannot go on, shown to the user as the failed scan's `error`. */
export class ScanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScanError';
  }
}

/** Raised when a scan's work must stop because it was cancelled or its lease was lost. */
export class ScanAborted extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ScanAborted';
  }
}
