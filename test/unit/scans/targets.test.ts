import { describe, expect, it } from 'vitest';
import { AppError } from '../../../server/errors.ts';
import { parseDateParam, portSpecProblem } from '../../../server/schemas/scans.ts';
import { addressesOf, coveredBy, rangeOf, sizeOf } from '../../../server/scans/ip-ranges.ts';
import { parseTarget } from '../../../server/scans/targets.ts';

const CEILING = { maxCidrV4: 16, maxCidrV6: 112 };

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('scan targets', () => {
  it.each([
    ['127.0.0.1', { kind: 'ip', address: '127.0.0.1', family: 4 }],
    ['  10.1.2.3 ', { kind: 'ip', address: '10.1.2.3', family: 4 }],
    ['::1', { kind: 'ip', address: '::1', family: 6 }],
    ['2001:DB8:0:0::1', { kind: 'ip', address: '2001:db8::1', family: 6 }],
    ['::ffff:127.0.0.1', { kind: 'ip', address: '127.0.0.1', family: 4 }],
  ])('reads %j as an address', (text, expected) => {
    expect(parseTarget(text, CEILING)).toEqual(expected);
  });

  it.each([
    ['localhost', 'localhost'],
    ['App.Example.COM', 'app.example.com'],
    ['example.com.', 'example.com'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['a-b.c1.example', 'a-b.c1.example'],
  ])('reads %j as the host name %j', (text, name) => {
    expect(parseTarget(text, CEILING)).toEqual({ kind: 'domain', name });
  });

  it('reads a CIDR as its network, whatever host bits it was written with', () => {
    const target = parseTarget('127.0.0.9/24', CEILING);
    expect(target).toMatchObject({ kind: 'cidr', network: '127.0.0.0/24', prefix: 24, family: 4 });
    if (target.kind !== 'cidr') throw new Error('not a range');
    expect(sizeOf(target.range)).toBe(256n);
    const addresses = [...addressesOf(target.range)];
    expect(addresses[0]).toBe('127.0.0.0');
    expect(addresses.at(-1)).toBe('127.0.0.255');
  });

  it('accepts ranges up to the ceiling and refuses larger ones naming target', () => {
    expect(parseTarget('10.0.0.0/16', CEILING).kind).toBe('cidr');
    expect(parseTarget('2001:db8::/112', CEILING).kind).toBe('cidr');
    const v4 = refusal(() => parseTarget('10.0.0.0/15', CEILING));
    expect(v4).toMatchObject({ status: 422, code: 'VALIDATION_ERROR', field: 'target' });
    expect(v4.detail).toContain('/16');
    expect(refusal(() => parseTarget('2001:db8::/111', CEILING)).field).toBe('target');
    expect(parseTarget('10.0.0.0/8', { maxCidrV4: 8, maxCidrV6: 112 }).kind).toBe('cidr');
  });

  it.each([
    '',
    'https://example.com',
    'example.com:8080',
    'example.com/path',
    '10.0.0.1/33',
    '10.0.0.1/',
    '10.0.0.1/x',
    '127.1',
    '1.2.3.999',
    '010.0.0.1',
    'fe80::1%eth0',
    '-bad.example',
    'bad-.example',
    'a..example',
    'under_score.example',
    'has space.example',
    'user@example.com',
    `${'a'.repeat(64)}.example`,
    `${'abcdefghi.'.repeat(26)}com`,
  ])('refuses %j as a target with VALIDATION_ERROR on target', (text) => {
    expect(refusal(() => parseTarget(text, CEILING))).toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'target',
    });
  });
});

describe('address ranges', () => {
  it('knows when a union of smaller ranges covers a larger one', () => {
    const target = rangeOf('10.0.0.0/24')!;
    expect(coveredBy(target, [rangeOf('10.0.0.0/25')!, rangeOf('10.0.0.128/25')!])).toBe(true);
    expect(coveredBy(target, [rangeOf('10.0.0.0/25')!, rangeOf('10.0.0.192/26')!])).toBe(false);
    expect(coveredBy(target, [rangeOf('10.0.0.0/8')!])).toBe(true);
    expect(coveredBy(target, [rangeOf('::/0')!])).toBe(false);
  });
});

describe('ports', () => {
  it.each(['80', '1-1024', '22,80,443', '1-65535', '22, 80 ,8000-8100', '443-443', '65535'])(
    'accepts %j',
    (spec) => {
      expect(portSpecProblem(spec)).toBeUndefined();
    },
  );

  it.each([
    ['', 'at least one port'],
    ['0', 'outside'],
    ['65536', 'outside'],
    ['1024-1', 'reversed'],
    ['80,,443', 'not a port'],
    ['http', 'not a port'],
    ['1-2-3', 'not a port'],
    ['-5', 'not a port'],
    ['123456', 'not a port'],
  ])('refuses %j (%s)', (spec, reason) => {
    expect(portSpecProblem(spec)).toContain(reason);
  });
});

describe('date query parameters', () => {
  it('reads a date alone as 00:00Z and a date-time without offset as UTC', () => {
    expect(parseDateParam('2026-01-31')?.toISOString()).toBe('2026-01-31T00:00:00.000Z');
    expect(parseDateParam('2026-01-31T10:20')?.toISOString()).toBe('2026-01-31T10:20:00.000Z');
    expect(parseDateParam('2026-01-31T10:20:30.5+02:00')?.toISOString()).toBe('2026-01-31T08:20:30.500Z');
  });

  it.each(['2026-02-30', '2026-13-01', '2026-1-1', 'yesterday', '2026-01-31T24:00:00Z', '1706659200'])(
    'refuses %j',
    (text) => {
      expect(parseDateParam(text)).toBeUndefined();
    },
  );
});
