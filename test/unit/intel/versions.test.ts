import { describe, expect, it } from 'vitest';
import { schemeForKevProduct, type KevRange } from '../../../server/intel/build-kev.ts';
import { kevSnapshot } from '../../../server/intel/snapshots.ts';
import { compareVersions, inRange, parseVersion } from '../../../server/intel/versions.ts';

describe('version comparison', () => {
  it.each([
    ['2.4.49', '2.4.50', -1],
    ['2.4.9', '2.4.10', -1],
    ['2.4', '2.4.0', 0],
    ['10.11.6', '10.2.1', 1],
    ['8.9p1', '8.9', 1],
    ['8.9p1', '8.9p2', -1],
    ['9.1R9', '9.1R10', -1],
    ['9.1R9', '9.1R9.1', -1],
    ['22.7R2.4', '22.7R2', 1],
    ['2.3m', '2.3', 1],
    ['2.3c', '2.3m', -1],
    ['9.8(4)48', '9.8.4.48', 0],
    ['v1.2.3', '1.2.3', 0],
    ['1.0.0-rc1', '1.0.0', -1],
    ['1.0.0-beta2', '1.0.0-rc1', -1],
  ] as const)('%s against %s is %i', (a, b, order) => {
    expect(compareVersions(a, b)).toBe(order);
    expect(compareVersions(b, a)).toBe(order === 0 ? 0 : -order);
  });

  it('orders Tomcat milestones and release candidates before the release', () => {
    expect(compareVersions('9.0.0.M1', '9.0.0.M12', 'tomcat')).toBe(-1);
    expect(compareVersions('9.0.0.M27', '9.0.0', 'tomcat')).toBe(-1);
    expect(compareVersions('8.0.0.RC1', '8.0.0', 'tomcat')).toBe(-1);
    expect(compareVersions('11.0.0-M1', '11.0.0.M1', 'tomcat')).toBe(0);
    expect(compareVersions('9.0.0.M1', '8.5.99', 'tomcat')).toBe(1);
  });

  it('reads Erlang/OTP release names without their prefix', () => {
    expect(compareVersions('OTP-27.3.3', '27.3.2', 'erlang-otp')).toBe(1);
    expect(compareVersions('OTP-27.0-rc1', 'OTP-27.0', 'erlang-otp')).toBe(-1);
  });

  it('reads nothing that is not a version', () => {
    expect(parseVersion('unknown')).toBeUndefined();
    expect(parseVersion('')).toBeUndefined();
    expect(compareVersions('latest', '1.0')).toBeUndefined();
    expect(inRange('n/a', { introduced: '0', fixed: '1.0' })).toBeUndefined();
    expect(inRange('n/a', { introduced: '0', fixed: null })).toBeUndefined();
  });

  it('puts a branch label lower bound at the start of the line, milestones included', () => {
    expect(inRange('9.0.0.M5', { introduced: '9', fixed: '9.0.0.M12' }, 'tomcat')).toBe(true);
    expect(inRange('2.4.10', { introduced: '2.4', last_affected: '2.4.48' })).toBe(true);
    expect(inRange('2.2.34', { introduced: '2.4', last_affected: '2.4.48' })).toBe(false);
  });
});

/** A version just above `v` (under every scheme): one more numeric component. */
const above = (v: string): string => `${v}.1`;

/** A version just below `v`: its last non-zero number less one, what follows dropped; undefined for 0.0. */
function below(v: string): string | undefined {
  const runs = [...v.matchAll(/\d+/g)];
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i] as RegExpMatchArray;
    const value = Number(run[0]);
    if (value > 0) return `${v.slice(0, run.index)}${value - 1}`;
  }
  return undefined;
}

describe('every usable range of the KEV snapshot', () => {
  const ranges: [string, KevRange][] = kevSnapshot().entries.flatMap((e) =>
    e.ranges.map((r): [string, KevRange] => [e.cve, r]),
  );

  it('holds ranges to test', () => {
    expect(ranges.length).toBeGreaterThan(500);
  });

  it.each(ranges.map(([cve, r]) => [cve, r.product, JSON.stringify(r), r] as const))(
    '%s %s %s: inside, on each bound, outside',
    (_cve, product, _json, range) => {
      const scheme = schemeForKevProduct(product);
      const check = (version: string, expected: boolean) =>
        expect(inRange(version, range, scheme), `${version} in ${JSON.stringify(range)}`).toBe(expected);
      const ordered = (a: string, b: string) => (compareVersions(a, b, scheme) ?? 1) <= 0;

      if (range.exact !== undefined) {
        check(range.exact, true);
        check(above(range.exact), false);
        const under = below(range.exact);
        if (under) check(under, false);
        return;
      }
      const lower = range.introduced && range.introduced !== '0' ? range.introduced : undefined;
      if (lower) {
        const upper = range.last_affected ?? range.fixed;
        // The lower bound is inside unless the range is empty.
        if (!upper || (range.last_affected ? ordered(lower, upper) : !ordered(upper, lower)))
          check(lower, true);
        const under = below(lower);
        if (under) check(under, false);
      }
      if (range.last_affected !== undefined) {
        check(range.last_affected, true);
        check(above(range.last_affected), false);
      } else if (range.fixed) {
        check(range.fixed, false);
        check(above(range.fixed), false);
        const under = below(range.fixed);
        if (under && (!lower || ordered(lower, under))) check(under, true);
      } else {
        // No fix stated: every later version is inside.
        check(above(lower ?? '1.0'), true);
        check(`${lower?.split(/[.R]/)[0] ?? '1'}99.0`, true);
      }
    },
  );
});
