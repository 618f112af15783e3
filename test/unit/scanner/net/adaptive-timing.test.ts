import { describe, expect, it } from 'vitest';
import { ConcurrencyWindow } from '../../../../server/scanner/net/concurrency-window.ts';
import { RttEstimator } from '../../../../server/scanner/net/rtt-estimator.ts';

describe('RttEstimator', () => {
  const options = { initialTimeoutMs: 1000, minTimeoutMs: 100, maxTimeoutMs: 1250 };

  it('waits the initial timeout until the first answer', () => {
    expect(new RttEstimator(options).timeoutMs()).toBe(1000);
  });

  it('shrinks to the floor for a host that answers in microseconds', () => {
    const rtt = new RttEstimator(options);
    for (let i = 0; i < 20; i++) rtt.sample(0.05);
    expect(rtt.timeoutMs()).toBe(100);
    expect(rtt.smoothedRttMs).toBeCloseTo(0.05);
  });

  it('follows a slow, jittery host with srtt + 4 rttvar', () => {
    const rtt = new RttEstimator(options);
    const samples = [200, 260, 180, 240, 220];
    for (const sample of samples) rtt.sample(sample);
    const timeout = rtt.timeoutMs();
    expect(timeout).toBeGreaterThan(Math.max(...samples));
    expect(timeout).toBeLessThanOrEqual(1250);
  });

  it('never exceeds the ceiling, and backs off per try', () => {
    const rtt = new RttEstimator(options);
    rtt.sample(5000);
    expect(rtt.timeoutMs()).toBe(1250);
    const fast = new RttEstimator(options);
    for (let i = 0; i < 10; i++) fast.sample(60);
    expect(fast.timeoutMs(2)).toBe(2 * fast.timeoutMs(1));
  });

  it('tells when answers queue: the smoothed RTT well above the quickest answer', () => {
    const rtt = new RttEstimator(options);
    expect(rtt.isQueueing()).toBe(false);
    for (let i = 0; i < 10; i++) rtt.sample(20);
    expect(rtt.isQueueing()).toBe(false);
    for (let i = 0; i < 30; i++) rtt.sample(60);
    expect(rtt.isQueueing()).toBe(true);
  });

  it('ignores nonsense samples', () => {
    const rtt = new RttEstimator(options);
    rtt.sample(Number.NaN);
    rtt.sample(-1);
    expect(rtt.smoothedRttMs).toBeUndefined();
  });
});

describe('ConcurrencyWindow', () => {
  it('grows quickly with answers up to the ceiling', () => {
    const window = new ConcurrencyWindow({ initial: 8, min: 4, max: 100 });
    for (let i = 0; i < 50; i++) window.onAnswer();
    expect(window.limit).toBe(58);
    for (let i = 0; i < 500; i++) window.onAnswer();
    expect(window.limit).toBe(100);
    expect(window.peakLimit).toBe(100);
  });

  it('holds still while answers are queueing', () => {
    const window = new ConcurrencyWindow({ initial: 16, min: 4, max: 512 });
    for (let i = 0; i < 100; i++) window.onAnswer(true);
    expect(window.limit).toBe(16);
    window.onAnswer(false);
    expect(window.limit).toBe(17);
  });

  it('halves on a loss, once per episode, and then grows slowly', () => {
    const window = new ConcurrencyWindow({ initial: 64, min: 4, max: 512 });
    expect(window.onLoss(10, 20)).toBe(true);
    expect(window.limit).toBe(32);
    // Attempts that were in flight before the cut belong to the same episode.
    expect(window.onLoss(15, 21)).toBe(false);
    expect(window.limit).toBe(32);
    for (let i = 0; i < 32; i++) window.onAnswer();
    expect(window.limit).toBe(32); // under one more per window of answers
    for (let i = 0; i < 40; i++) window.onAnswer();
    expect(window.limit).toBe(34);
    expect(window.onLoss(25, 30)).toBe(true);
    expect(window.limit).toBe(17);
  });

  it('shrinks below what was in flight when the machine runs out of sockets, but not below the floor', () => {
    const window = new ConcurrencyWindow({ initial: 200, min: 4, max: 512 });
    window.onResourceShortage(120, 1);
    expect(window.limit).toBe(60);
    window.onResourceShortage(1, 2);
    expect(window.limit).toBe(4);
  });
});
