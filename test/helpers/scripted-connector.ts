/**
 * A scripted connect engine for the scanner's scheduling tests (scan, sweep, lanes): it
 * opens no sockets, answers each attempt as the test says, and records what the scanner
 * asked of it.
 */
import type {
  ConnectAttempt,
  ConnectListener,
  ConnectOutcome,
  Connector,
} from '../../server/scanner/net/connectors.ts';
import type { IpFamily } from '../../server/scanner/net/target-address.ts';

/**
 * What one attempt does, decided by the test from its address, port and try number (1 for
 * the first attempt on that address and port): answer with an outcome after the delay, or
 * stay `silent` until the scanner cancels it. It is asked once per attempt.
 */
export type ScriptedBehaviour = (address: string, port: number, tries: number) => ConnectOutcome | 'silent';

/**
 * A {@link Connector} whose attempts answer as `behaviour` says, after `delayMs`. Attempts
 * are recorded as `address:port`, in the order they were started or cancelled.
 */
export class ScriptedConnector implements Connector {
  readonly name = 'scripted';
  /** Every attempt started, as `address:port`. */
  readonly started: string[] = [];
  /** Every attempt the scanner cancelled before it answered, as `address:port`. */
  readonly cancelled: string[] = [];
  /** Attempts started and neither answered nor cancelled yet, and the most at once. */
  inFlight = 0;
  maxInFlight = 0;
  /** Hosts with an attempt in flight, at most at once. */
  maxHostsInFlight = 0;

  private readonly behaviour: ScriptedBehaviour;
  private readonly delayMs: number;
  private readonly tries = new Map<string, number>();
  private readonly inFlightByHost = new Map<string, number>();

  /** `delayMs`: how long an answer takes (Node waits at least 1 ms anyway). */
  constructor(behaviour: ScriptedBehaviour, { delayMs = 1 }: { delayMs?: number } = {}) {
    this.behaviour = behaviour;
    this.delayMs = delayMs;
  }

  start(address: string, _family: IpFamily, port: number, listener: ConnectListener): ConnectAttempt {
    const key = `${address}:${port}`;
    const tries = (this.tries.get(key) ?? 0) + 1;
    this.tries.set(key, tries);
    this.started.push(key);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    this.inFlightByHost.set(address, (this.inFlightByHost.get(address) ?? 0) + 1);
    this.maxHostsInFlight = Math.max(this.maxHostsInFlight, this.inFlightByHost.size);
    const outcome = this.behaviour(address, port, tries);
    let live = true;
    const end = (): void => {
      live = false;
      this.inFlight--;
      const left = this.inFlightByHost.get(address)! - 1;
      if (left === 0) this.inFlightByHost.delete(address);
      else this.inFlightByHost.set(address, left);
    };
    const timer =
      outcome === 'silent'
        ? undefined
        : setTimeout(() => {
            if (!live) return;
            end();
            listener.onConnectResult(outcome, outcome === 'resource' ? 'EMFILE' : undefined);
          }, this.delayMs);
    return {
      cancel: () => {
        if (!live) return;
        clearTimeout(timer);
        end();
        this.cancelled.push(key);
      },
    };
  }

  /** Hosts with an attempt in flight now. */
  get hostsInFlight(): number {
    return this.inFlightByHost.size;
  }

  /** How many attempts were started on this port (of this address, when given). */
  triesOf(port: number, address?: string): number {
    if (address !== undefined) return this.tries.get(`${address}:${port}`) ?? 0;
    return this.startedPorts().filter((started) => started === port).length;
  }

  /** The ports of the attempts started (on this address, when given), in the order they were started. */
  startedPorts(address?: string): number[] {
    return portsOf(this.started, address);
  }

  /** The ports of the attempts cancelled (on this address, when given), in the order they were cancelled. */
  cancelledPorts(address?: string): number[] {
    return portsOf(this.cancelled, address);
  }
}

/** The ports of `address:port` keys, of one address when given. IPv6 keys split at their last colon. */
function portsOf(keys: readonly string[], address: string | undefined): number[] {
  const ports: number[] = [];
  for (const key of keys) {
    const colon = key.lastIndexOf(':');
    if (address === undefined || key.slice(0, colon) === address) ports.push(Number(key.slice(colon + 1)));
  }
  return ports;
}
