/**
 * How long to wait for a connection before calling the port filtered: the retransmission
 * timeout of RFC 6298 (the rule nmap's timing engine also follows), computed from the
 * round-trip times of the answers seen so far and clamped to a floor and a ceiling.
 *
 *   srtt    ← 7/8 · srtt + 1/8 · rtt
 *   rttvar  ← 3/4 · rttvar + 1/4 · |srtt − rtt|
 *   timeout = clamp(srtt + 4 · rttvar, min, max)
 *
 * A host that answers in 0.1 ms is given the floor (nmap's -T4 uses 100 ms); one that
 * answers in 200 ms with jitter gets a proportionally longer wait.
 */
export interface RttEstimatorOptions {
  /** Used until the first answer arrives. */
  initialTimeoutMs: number;
  minTimeoutMs: number;
  maxTimeoutMs: number;
}

export class RttEstimator {
  private srtt: number | undefined;
  private min = Infinity;
  private rttvar = 0;
  private current: number;

  constructor(private readonly options: RttEstimatorOptions) {
    this.current = clamp(options.initialTimeoutMs, options.minTimeoutMs, options.maxTimeoutMs);
  }

  /** Records the round-trip time of one answered attempt. */
  sample(rttMs: number): void {
    if (!(rttMs >= 0) || !Number.isFinite(rttMs)) return;
    if (rttMs < this.min) this.min = rttMs;
    if (this.srtt === undefined) {
      this.srtt = rttMs;
      this.rttvar = rttMs / 2;
    } else {
      this.rttvar = 0.75 * this.rttvar + 0.25 * Math.abs(this.srtt - rttMs);
      this.srtt = 0.875 * this.srtt + 0.125 * rttMs;
    }
    this.current = clamp(this.srtt + 4 * this.rttvar, this.options.minTimeoutMs, this.options.maxTimeoutMs);
  }

  /** The time to wait for an attempt; `tries` > 1 doubles it per earlier try (exponential backoff). */
  timeoutMs(tries = 1): number {
    return Math.min(this.current * 2 ** (tries - 1), this.options.maxTimeoutMs * 2);
  }

  /**
   * Whether answers are queueing: the smoothed round-trip time is more than twice the
   * quickest answer seen, plus 1 ms. More attempts in flight would then only wait longer,
   * in the network, at the host, or (on loopback) in our own event loop.
   */
  isQueueing(): boolean {
    return this.srtt !== undefined && this.srtt > 2 * this.min + 1;
  }

  /** The smoothed round-trip time, once an answer has been seen. */
  get smoothedRttMs(): number | undefined {
    return this.srtt;
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
