import { describe, expect, it } from 'vitest';
import {
  hostThenPort,
  secondOpinionBudget,
  secondOpinionPorts,
} from '../../../../server/scanner/phases/enumeration.ts';
import { serviceAt } from '../../../helpers/phase-context.ts';

describe("nmap's second opinion", () => {
  it('is asked about the ports our probes could not name or date, per host', () => {
    const ports = secondOpinionPorts([
      serviceAt('127.0.0.1', 6379, 'redis', { version: '7.2.4' }),
      serviceAt('127.0.0.1', 22, 'ssh'),
      serviceAt('127.0.0.1', 2024, 'unknown'),
      serviceAt('127.0.0.2', 9000, 'unknown'),
    ]);
    expect(Object.fromEntries(ports)).toEqual({ '127.0.0.1': [22, 2024], '127.0.0.2': [9000] });
  });

  it('is not asked about HTTP or HTTPS our probes spoke, dated or not: nmap would see the same answer', () => {
    const ports = secondOpinionPorts([
      serviceAt('127.0.0.1', 8080, 'http'),
      serviceAt('127.0.0.1', 8443, 'https'),
      serviceAt('127.0.0.1', 2024, 'unknown'),
    ]);
    expect(Object.fromEntries(ports)).toEqual({ '127.0.0.1': [2024] });
  });

  it('gets as long as the sweep and identification took, within 8 and 60 seconds', () => {
    expect(secondOpinionBudget(1_200)).toBe(8_000);
    expect(secondOpinionBudget(21_500)).toBe(21_500);
    expect(secondOpinionBudget(600_000)).toBe(60_000);
  });

  it('is not asked about the Erlang distribution port, whose probes it only waits out', () => {
    expect(secondOpinionPorts([serviceAt('127.0.0.1', 25672, 'erlang-dist')]).size).toBe(0);
  });

  it('is not asked about an epmd our probe read (it states no version), but is about an unnamed 4369', () => {
    expect(secondOpinionPorts([serviceAt('127.0.0.1', 4369, 'epmd')]).size).toBe(0);
    expect(Object.fromEntries(secondOpinionPorts([serviceAt('127.0.0.1', 4369, 'unknown')]))).toEqual({
      '127.0.0.1': [4369],
    });
  });
});

describe('the order of open ports and services', () => {
  it("follows the range's order of hosts, numeric, then the port", () => {
    const hosts = ['127.0.0.8', '127.0.0.9', '127.0.0.10'].map((address) => ({ address }));
    const found = [
      { address: '127.0.0.10', port: 22 },
      { address: '127.0.0.9', port: 443 },
      { address: '127.0.0.10', port: 8 },
      { address: '127.0.0.8', port: 80 },
      { address: '127.0.0.9', port: 80 },
    ];
    expect(found.sort(hostThenPort(hosts)).map((p) => `${p.address}:${p.port}`)).toEqual([
      '127.0.0.8:80',
      '127.0.0.9:80',
      '127.0.0.9:443',
      '127.0.0.10:8',
      '127.0.0.10:22',
    ]);
  });
});
