/**
 * How many connection attempts may be in flight at once: a congestion window in the style
 * of TCP and nmap. It starts moderate, grows with every answer (doubling per round trip
 * until it has once been cut, then by about one per round trip) unless answers are
 * queueing (the round-trip time has inflated, as in TCP Vegas: a bigger window would not
 * be faster), and halves when there is evidence of trouble:
 *
 * - a lost attempt: a port whose first try timed out but whose retry was answered, so the
 *   first try was dropped (a port that never answers is simply filtered and is no sign of
 *   congestion, so a firewalled host does not drag the scan down to a crawl);
 * - a local resource shortage (EMFILE, EAGAIN, ENOBUFS, EADDRNOTAVAIL, ...).
 *
 * Losses of attempts that were already in flight when the window was last cut belong to
 * the same episode and do not cut it again.
 */
export interface ConcurrencyWindowOptions {
  initial: number;
  min: number;
  max: number;
}

export class ConcurrencyWindow {
  private cwnd: number;
  private ssthresh: number;
  private lastCutAt = -Infinity;
  private peak: number;

  constructor(private readonly options: ConcurrencyWindowOptions) {
    this.cwnd = Math.min(options.max, Math.max(options.min, options.initial));
    this.ssthresh = options.max;
    this.peak = this.limit;
  }

  /** Attempts allowed in flight now. */
  get limit(): number {
    return Math.floor(this.cwnd);
  }

  /** The largest limit reached so far. */
  get peakLimit(): number {
    return this.peak;
  }

  /** An attempt was answered (open or closed); `queueing`: answers are waiting longer than the path needs. */
  onAnswer(queueing = false): void {
    if (queueing) return;
    this.cwnd += this.cwnd < this.ssthresh ? 1 : 1 / this.cwnd;
    if (this.cwnd > this.options.max) this.cwnd = this.options.max;
    if (this.limit > this.peak) this.peak = this.limit;
  }

  /** An attempt started at `startedAt` was lost in the network; returns whether the window was cut. */
  onLoss(startedAt: number, now: number): boolean {
    if (startedAt <= this.lastCutAt) return false;
    this.cut(this.cwnd, now);
    return true;
  }

  /** This machine refused to open another socket while `inFlight` attempts were running. */
  onResourceShortage(inFlight: number, now: number): void {
    this.cut(Math.min(this.cwnd, Math.max(inFlight, 1)), now);
  }

  private cut(from: number, now: number): void {
    this.ssthresh = Math.max(this.options.min, from / 2);
    this.cwnd = this.ssthresh;
    this.lastCutAt = now;
  }
}
