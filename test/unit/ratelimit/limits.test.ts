import { describe, expect, it } from 'vitest';
import { rateVerdict, type WindowState } from '../../../server/ratelimit/request-rate.ts';

const HOUR_END = new Date('2026-03-01T13:00:00.000Z');
const DAY_END = new Date('2026-03-02T00:00:00.000Z');

const hour = (max: number, used: number): WindowState => ({ name: 'hour', max, used, reset: HOUR_END });
const day = (max: number, used: number): WindowState => ({ name: 'day', max, used, reset: DAY_END });

describe('which window the rate headers describe', () => {
  it('describes the window with the fewest requests left', () => {
    expect(rateVerdict([hour(100, 10), day(1000, 950)]).headers).toEqual({
      'X-RateLimit-Limit': '1000',
      'X-RateLimit-Remaining': '50',
      'X-RateLimit-Reset': String(DAY_END.getTime() / 1000),
    });
    expect(rateVerdict([hour(100, 99), day(1000, 950)]).headers['X-RateLimit-Limit']).toBe('100');
  });

  it('prefers the window that resets sooner when both have as many left', () => {
    expect(rateVerdict([day(1000, 990), hour(100, 90)]).headers['X-RateLimit-Reset']).toBe(
      String(HOUR_END.getTime() / 1000),
    );
  });

  it('lets the request that uses the last allowance through, with nothing remaining', () => {
    const verdict = rateVerdict([hour(3, 3), day(100, 3)]);
    expect(verdict.exceeded).toBeUndefined();
    expect(verdict.headers['X-RateLimit-Remaining']).toBe('0');
  });

  it('refuses past a limit and reports the window that reopens last', () => {
    const both = rateVerdict([hour(3, 4), day(4, 5)]);
    expect(both.exceeded?.name).toBe('day');
    expect(both.headers).toMatchObject({ 'X-RateLimit-Limit': '4', 'X-RateLimit-Remaining': '0' });

    const hourly = rateVerdict([hour(3, 4), day(100, 4)]);
    expect(hourly.exceeded?.name).toBe('hour');
    expect(hourly.headers['X-RateLimit-Reset']).toBe(String(HOUR_END.getTime() / 1000));
  });
});
