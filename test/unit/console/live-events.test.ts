import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createLiveEvents,
  type EventSourceClass,
  type LiveEvent,
  type StreamState,
} from '../../../console/src/api/events.ts';

/**
 * The console's shared event stream (console/src/api/events.ts) over a fake EventSource: it
 * opens once when started, hands every named event to its subscribers, says when it is open
 * or down (pages poll slowly only then), tries again after a refused stream, and closes when
 * stopped. The browser tests (test/integration/console/live-browser.test.ts) run it for real.
 */

class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static made: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  readonly listeners = new Map<string, (message: { type: string; data: string }) => void>();
  closed = false;

  constructor(
    readonly url: string,
    readonly init: { withCredentials?: boolean },
  ) {
    FakeEventSource.made.push(this);
  }
  addEventListener(type: string, listener: (message: { type: string; data: string }) => void) {
    this.listeners.set(type, listener);
  }
  close() {
    this.closed = true;
    this.readyState = FakeEventSource.CLOSED;
  }
  open() {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.();
  }
  send(type: string, data: unknown) {
    this.listeners.get(type)?.({ type, data: JSON.stringify({ type, timestamp: 'now', data }) });
  }
  fail(readyState: number) {
    this.readyState = readyState;
    this.onerror?.();
  }
}

describe('the console event stream', () => {
  beforeEach(() => {
    FakeEventSource.made = [];
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  const make = () => {
    const live = createLiveEvents({
      EventSource: FakeEventSource satisfies EventSourceClass,
      retryMs: 60_000,
    });
    const states: StreamState[] = [];
    const events: LiveEvent[] = [];
    live.watch((s) => states.push(s));
    live.subscribe((e) => events.push(e));
    return { live, states, events };
  };

  it('opens one stream with the session cookie when started and hands its events on in order', () => {
    const { live, states, events } = make();
    live.start();
    live.start();
    expect(FakeEventSource.made).toHaveLength(1);
    const [source] = FakeEventSource.made;
    expect(source!.url).toBe('/api/v1/events');
    expect(source!.init).toEqual({ withCredentials: true });
    source!.open();
    source!.send('scan.progress', { id: 'scan_1', progress: 40 });
    source!.send('finding.updated', { id: 'finding_1', status: 'resolved' });
    expect(states).toEqual(['connecting', 'open']);
    expect(events).toEqual([
      { type: 'scan.progress', data: { id: 'scan_1', progress: 40 } },
      { type: 'finding.updated', data: { id: 'finding_1', status: 'resolved' } },
    ]);
  });

  it('is down when the stream is refused, tries again after a while, and is open again when that works', () => {
    const { live, states } = make();
    live.start();
    FakeEventSource.made[0]!.fail(FakeEventSource.CLOSED);
    expect(live.state()).toBe('down');
    expect(FakeEventSource.made[0]!.closed).toBe(true);
    vi.advanceTimersByTime(59_999);
    expect(FakeEventSource.made).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.made).toHaveLength(2);
    expect(live.state()).toBe('down');
    FakeEventSource.made[1]!.open();
    expect(states).toEqual(['connecting', 'down', 'open']);
  });

  it('stays open while EventSource reconnects by itself, and is down only if that takes long', () => {
    const { live } = make();
    live.start();
    const [source] = FakeEventSource.made;
    source!.open();
    source!.fail(FakeEventSource.CONNECTING);
    expect(live.state()).toBe('open');
    source!.open();
    vi.advanceTimersByTime(60_000);
    expect(live.state()).toBe('open');
    source!.fail(FakeEventSource.CONNECTING);
    vi.advanceTimersByTime(10_000);
    expect(live.state()).toBe('down');
    expect(FakeEventSource.made).toHaveLength(1);
  });

  it('closes the stream when stopped and delivers nothing after', () => {
    const { live, events } = make();
    live.start();
    const [source] = FakeEventSource.made;
    source!.open();
    live.stop();
    expect(source!.closed).toBe(true);
    expect(live.state()).toBe('off');
    source!.send('scan.queued', { id: 'scan_2' });
    vi.advanceTimersByTime(120_000);
    expect(FakeEventSource.made).toHaveLength(1);
    expect(events).toEqual([]);
  });
});
