/**
 * Service identification on an open TCP port: banner grabbing plus protocol probes (see
 * `probes/catalogue.ts` for the order), inside TLS too when the port speaks it. The answer
 * names the service, and what the service itself revealed of its product and version,
 * with the exchange that shows it as evidence.
 */
import { ProbeConnectError, ProbeSession, type TlsDetails } from './probe-session.ts';
import { BANNER_PROTOCOLS, GENERIC_ORDER, greetingComplete, portHint } from './probes/catalogue.ts';
import {
  compact,
  firstLine,
  type ClientFirstProbe,
  type ProbeContext,
  type ProbeFinding,
} from './probes/probe.ts';
import type { ServiceDetails, ServiceIdentification } from './services.ts';
import { approveTarget, type AssertAllowed, type IpFamily } from './target-address.ts';

export interface IdentifyServiceOptions {
  /** A literal IP address (names are rejected). */
  address: string;
  port: number;
  /** The scope policy: called before any connection; a throw means no connection is made. */
  assertAllowed: AssertAllowed;
  /** Aborting closes the open connection and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Budget for the whole identification (default 20 s). */
  timeoutMs?: number;
  /** Longest wait for one answer to a probe (default 3 s). */
  replyWaitMs?: number;
  /** Longest passive wait for a server greeting (default 2 s). */
  greetingWaitMs?: number;
}

const DEFAULTS = { timeoutMs: 20_000, replyWaitMs: 3000, greetingWaitMs: 2000 };

type Step = 'greeting' | 'tls' | ClientFirstProbe;

/** What one step learned. */
interface StepOutcome {
  finding?: ProbeFinding;
  session?: ProbeSession;
  /** The finding was made inside TLS. */
  insideTls?: boolean;
  /** The port refused the connection or never completed it: no later step can do better. */
  unreachable?: string;
  /** The finding is the server's greeting, read on a probe's connection rather than the greeting's. */
  greeted?: boolean;
}

/** Resolves after `turns` turns of the event loop: I/O that has already arrived is read first. */
function afterLoopTurns(turns: number): Promise<void> {
  return new Promise((resolve) => {
    const turn = (left: number): void => {
      if (left === 0) resolve();
      else setImmediate(() => turn(left - 1));
    };
    turn(turns);
  });
}

/** A greeting's outcome; `decided`: a greeting came that nothing here recognises, so the service is unknown. */
type GreetingOutcome = StepOutcome & { decided?: boolean };

/**
 * A greeting no protocol here recognises is a server-speaks-first protocol we do not know,
 * which the client-first probes would not identify either.
 */
function decideByGreeting(outcome: StepOutcome): GreetingOutcome {
  const spoke = outcome.session !== undefined && outcome.session.received.length > 0;
  return !outcome.finding && !outcome.unreachable && spoke ? { ...outcome, decided: true } : outcome;
}

export async function identifyService(options: IdentifyServiceOptions): Promise<ServiceIdentification> {
  if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65535) {
    throw new RangeError(`port ${options.port} is not between 1 and 65535`);
  }
  const family = await approveTarget(options.address, options.assertAllowed, options.signal);
  return new Identification(options, family).run();
}

class Identification {
  private readonly deadline: number;
  private readonly replyWaitMs: number;
  private readonly greetingWaitMs: number;
  private greetingSession: ProbeSession | undefined;
  private firstAnswer: ProbeSession | undefined;
  private tlsDetails: TlsDetails | undefined;

  constructor(
    private readonly options: IdentifyServiceOptions,
    private readonly family: IpFamily,
  ) {
    this.deadline = performance.now() + (options.timeoutMs ?? DEFAULTS.timeoutMs);
    this.replyWaitMs = options.replyWaitMs ?? DEFAULTS.replyWaitMs;
    this.greetingWaitMs = options.greetingWaitMs ?? DEFAULTS.greetingWaitMs;
  }

  async run(): Promise<ServiceIdentification> {
    const outcome = await this.identifyLayer(false, this.options.signal);
    if (outcome?.finding) {
      return this.identification(outcome.finding, outcome.session, outcome.insideTls === true);
    }
    if (outcome?.unreachable) {
      return this.identification(
        { service: 'unknown', details: { error: outcome.unreachable } },
        undefined,
        false,
      );
    }
    const evidence = this.greetingSession?.received.length ? this.greetingSession : this.firstAnswer;
    const banner = evidence ? firstLine(evidence.received, 200) : '';
    return this.identification(
      compact({ service: 'unknown' as const, banner: banner === '' ? undefined : banner }),
      evidence,
      this.tlsDetails !== undefined,
    );
  }

  /**
   * One layer (plain TCP, or inside TLS): first, one after the other, the greeting wait and
   * the probes the port suggests (the TLS layer first on TLS ports); then the generic probes,
   * concurrently, each on its own connection, the first to recognise the service winning. On
   * a port without a hint the greeting wait runs alongside the generic probes.
   */
  private async identifyLayer(
    insideTls: boolean,
    signal: AbortSignal | undefined,
  ): Promise<StepOutcome | undefined> {
    const hint = portHint(this.options.port);
    const hinted = hint.probes ?? [];
    const sequence: Step[] = hint.greeting ? ['greeting', ...hinted] : [...hinted, 'greeting'];
    if (hint.tls && !insideTls) sequence.unshift('tls');
    const generic = GENERIC_ORDER.filter((step) =>
      step === 'tls' ? !insideTls && !hint.tls : !hinted.includes(step),
    );

    if (hinted.length === 0 && hint.greeting && !hint.tls)
      return this.greetingThenRace(generic, insideTls, signal);

    for (const step of sequence) {
      if (this.expired()) return undefined;
      const outcome = await this.runStep(step, insideTls, signal);
      if (outcome.finding || outcome.unreachable) return outcome;
      // The port speaks TLS but nothing inside was recognised: plain probes cannot do better.
      if (step === 'tls' && this.tlsDetails) return undefined;
      // A greeting no protocol here recognises: a server-speaks-first protocol we do not
      // know, which the client-first probes would not identify either.
      if (step === 'greeting' && outcome.session && outcome.session.received.length > 0) return undefined;
    }
    return this.expired() ? undefined : this.race(generic, insideTls, signal);
  }

  /**
   * A port nothing is known about. A server that speaks first greets at once, so when no
   * greeting has begun within a fifth of the greeting wait after the connection opened (and
   * two more turns of the event loop, so that bytes already waiting are read first), the
   * generic probes start alongside the rest of the wait instead of after it: an HTTP API on an
   * unusual port is named in a round trip, not after the whole wait. A service that greets in
   * time gets no generic probe (some, such as MySQL, count a stray client packet as a failed
   * login). Once the probes run, the greeting still decides when it comes: its own step has the
   * follow-up exchange (a neutral `220` is SMTP or FTP only after EHLO), so a greeting read on a
   * probe's connection does not.
   */
  private async greetingThenRace(
    generic: Step[],
    insideTls: boolean,
    outer: AbortSignal | undefined,
  ): Promise<StepOutcome | undefined> {
    const batch = new AbortController();
    const signal = outer ? AbortSignal.any([outer, batch.signal]) : batch.signal;
    let timer: NodeJS.Timeout | undefined;
    let session: ProbeSession | undefined;
    let graceOver!: () => void;
    const grace = new Promise<'waiting'>((resolve) => (graceOver = () => resolve('waiting')));
    const greeting = this.probe('greeting', insideTls, signal, (opened) => {
      session = opened;
      const wait = Math.ceil(this.greetingWaitMs / 5);
      timer = setTimeout(() => void afterLoopTurns(2).then(graceOver), wait);
    }).then(decideByGreeting);
    try {
      let early = await Promise.race([greeting, grace]);
      // A greeting has begun: it decides, and no generic probe is sent.
      if (early === 'waiting' && session && session.received.length > 0) early = await greeting;
      if (early !== 'waiting') {
        if (early.finding || early.unreachable || early.decided) return early.decided ? undefined : early;
        return this.expired() ? undefined : await this.race(generic, insideTls, outer);
      }
      return await this.race(generic, insideTls, outer, greeting);
    } finally {
      clearTimeout(timer);
      batch.abort();
    }
  }

  /**
   * The steps at once, each on its own connection; the first to recognise the service wins.
   * With `greeting` (the greeting's step, already running) a greeting decides, and a probe
   * that only read a greeting does not.
   */
  private async race(
    steps: Step[],
    insideTls: boolean,
    outer: AbortSignal | undefined,
    greeting?: Promise<GreetingOutcome>,
  ): Promise<StepOutcome | undefined> {
    if (steps.length === 0 && !greeting) return undefined;
    const batch = new AbortController();
    const signal = outer ? AbortSignal.any([outer, batch.signal]) : batch.signal;
    try {
      return await new Promise<StepOutcome | undefined>((resolve, reject) => {
        let pending = steps.length + (greeting ? 1 : 0);
        let unreachable: StepOutcome | undefined;
        const settle = (outcome: GreetingOutcome) => {
          if (outcome.decided) resolve(undefined);
          else if (outcome.finding && !(greeting && outcome.greeted)) resolve(outcome);
          else if (outcome.unreachable) unreachable ??= outcome;
          if (--pending === 0) resolve(unreachable);
        };
        greeting?.then(settle, reject);
        for (const step of steps) this.runStep(step, insideTls, signal).then(settle, reject);
      });
    } finally {
      batch.abort();
    }
  }

  private runStep(step: Step, insideTls: boolean, signal: AbortSignal | undefined): Promise<StepOutcome> {
    return step === 'tls' ? this.tlsLayer(signal) : this.probe(step, insideTls, signal);
  }

  /** Negotiates TLS once to learn whether the port speaks it, then identifies the protocol inside. */
  private async tlsLayer(signal: AbortSignal | undefined): Promise<StepOutcome> {
    const session = await this.open(true, signal);
    if (!(session instanceof ProbeSession)) return session;
    this.tlsDetails = session.tls;
    session.close();
    const inside = await this.identifyLayer(true, signal);
    return inside?.finding ? { ...inside, insideTls: true } : {};
  }

  private async probe(
    step: 'greeting' | ClientFirstProbe,
    tls: boolean,
    signal: AbortSignal | undefined,
    onOpen?: (session: ProbeSession) => void,
  ): Promise<StepOutcome> {
    const session = await this.open(tls, signal);
    if (!(session instanceof ProbeSession)) return session;
    onOpen?.(session);
    if (step === 'greeting' && !tls) this.greetingSession = session;
    const context: ProbeContext = {
      address: this.options.address,
      port: this.options.port,
      tls,
      replyWaitMs: this.replyWaitMs,
    };
    try {
      const finding =
        step === 'greeting' ? await this.greeting(session, context) : await step.run(session, context);
      // A server-speaks-first service on a port where another protocol was expected greets
      // before the probe's question is even read.
      if (finding) return { finding, session };
      const greeted = recognizeGreeting(session.received);
      return greeted ? { finding: greeted, session, greeted: true } : { session };
    } catch {
      // Whatever the peer sent that made the probe fail (a closed connection, bytes that
      // do not parse), it did not speak this protocol. Only our own abort ends the search.
      this.options.signal?.throwIfAborted();
      return { session };
    } finally {
      session.close();
      if (!this.firstAnswer && session.received.length > 0) this.firstAnswer = session;
    }
  }

  /** Waits for the server to speak first; a greeting a banner protocol recognises may lead to a short exchange. */
  private async greeting(session: ProbeSession, context: ProbeContext): Promise<ProbeFinding | null> {
    const banner = await session.read(greetingComplete, this.greetingWaitMs);
    if (banner.length === 0) return null;
    for (const protocol of BANNER_PROTOCOLS) {
      const finding = protocol.recognize(banner);
      if (finding) return protocol.followUp ? protocol.followUp(session, finding, context) : finding;
    }
    return null;
  }

  /** A session, or why none could be had. */
  private async open(tls: boolean, signal: AbortSignal | undefined): Promise<ProbeSession | StepOutcome> {
    const now = performance.now();
    // Connecting (and a TLS handshake) gets one reply wait; the whole exchange, a greeting
    // wait and a couple of questions, more.
    const budget = this.greetingWaitMs + 2 * this.replyWaitMs;
    try {
      return await ProbeSession.open({
        address: this.options.address,
        family: this.family,
        port: this.options.port,
        tls,
        signal,
        deadline: Math.min(this.deadline, now + budget),
        handshakeDeadline: Math.min(this.deadline, now + this.replyWaitMs),
      });
    } catch (error) {
      this.options.signal?.throwIfAborted();
      if (signal?.aborted) return {};
      if (!(error instanceof ProbeConnectError)) throw error;
      // A refused or unanswered connection means the port is gone; a failed TLS handshake
      // only means the port does not speak TLS.
      return error.stage === 'tls' ? {} : { unreachable: error.code };
    }
  }

  private expired(): boolean {
    return performance.now() >= this.deadline;
  }

  private identification(
    finding: ProbeFinding,
    session: ProbeSession | undefined,
    tls: boolean,
  ): ServiceIdentification {
    const tlsDetails = tls ? this.tlsDetails : undefined;
    const details: ServiceDetails = {
      ...finding.details,
      ...(tlsDetails ? describeTlsDetails(tlsDetails) : {}),
    };
    return compact({
      address: this.options.address,
      port: this.options.port,
      service: finding.service === 'http' && tls ? 'https' : finding.service,
      product: finding.product,
      version: finding.version,
      banner: finding.banner,
      tls: tls || undefined,
      anonymousAccess: finding.anonymousAccess,
      details: Object.keys(details).length > 0 ? details : undefined,
      evidence: session?.transcript() ?? { request: '', response: '' },
      tool: 'scanward-probe' as const,
    });
  }
}

function recognizeGreeting(data: Buffer): ProbeFinding | null {
  if (data.length === 0) return null;
  for (const protocol of BANNER_PROTOCOLS) {
    const finding = protocol.recognize(data);
    if (finding) return finding;
  }
  return null;
}

function describeTlsDetails(tls: TlsDetails): ServiceDetails {
  return compact({
    tls_protocol: tls.protocol ?? undefined,
    tls_cipher: tls.cipher,
    tls_alpn: tls.alpn || undefined,
    cert_subject: tls.certSubject,
    cert_issuer: tls.certIssuer,
    cert_not_after: tls.certNotAfter,
  });
}
