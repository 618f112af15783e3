import { describe, expect, it } from 'vitest';
import { hostOfFinding, normalAddress } from '../../../server/assets/inventory.ts';
import { nmapReport } from '../../../server/imports/formats/nmap.ts';
import { endOfLifeOfProduct, inventoryOf } from '../../../server/scanner/inventory.ts';
import type { ServiceIdentification } from '../../../server/scanner/net/services.ts';
import { emptyState } from '../../../server/scanner/types.ts';

const TODAY = '2026-11-26';

const redis = (address: string, port: number, version: string): ServiceIdentification => ({
  address,
  port,
  service: 'redis',
  product: 'Redis',
  version,
  evidence: { request: 'INFO', response: `redis_version:${version}` },
  tool: 'scanward-probe',
});

describe('what a scan saw, for the asset inventory', () => {
  it('keeps each host that answered, its names and services, with the end-of-life state', () => {
    const state = {
      ...emptyState(),
      hosts: [
        { target: 'cache.internal.test', address: '127.0.0.1', alive: true },
        { target: '127.0.0.9', address: '127.0.0.9', alive: true },
      ],
      openPorts: [
        { address: '127.0.0.1', port: 6379 },
        { address: '127.0.0.1', port: 8081 },
      ],
      services: [
        redis('127.0.0.1', 6379, '5.0.14'),
        { ...redis('127.0.0.1', 443, '7.4.1'), service: 'https' as const },
      ],
    };
    const [host, ...others] = inventoryOf(state, TODAY);
    // 127.0.0.9 did not answer: no asset.
    expect(others).toEqual([]);
    expect(host).toMatchObject({ address: '127.0.0.1', names: ['cache.internal.test'] });
    expect(host!.services).toEqual([
      {
        port: 6379,
        protocol: 'tcp',
        service: 'redis',
        product: 'Redis',
        version: '5.0.14',
        tls: false,
        eol: { status: 'end_of_life', product: 'Redis', cycle: '5.0', date: expect.any(String) },
      },
      expect.objectContaining({
        port: 443,
        tls: true,
        eol: expect.objectContaining({ status: 'supported', cycle: '7.4' }),
      }),
      { port: 8081, protocol: 'tcp', service: 'unknown', tls: false },
    ]);
  });

  it('judges another tool’s product only when the end-of-life data knows its name and version', () => {
    expect(endOfLifeOfProduct('127.0.0.1', 6379, 'Redis', '5.0.14', TODAY)).toMatchObject({
      status: 'end_of_life',
    });
    // nmap's name for it.
    expect(endOfLifeOfProduct('127.0.0.1', 6379, 'Redis key-value store', '7.0.15', TODAY)).toMatchObject({
      status: 'end_of_life',
      cycle: '7.0',
    });
    expect(endOfLifeOfProduct('127.0.0.1', 1883, 'Some broker', '2.0.11', TODAY)).toBeUndefined();
    expect(endOfLifeOfProduct('127.0.0.1', 6379, 'Redis', null, TODAY)).toBeUndefined();
  });

  it('reads the hosts of an nmap report: address, names, open ports, TLS, CPE', () => {
    const { hosts } = nmapReport({
      nmaprun: {
        host: [
          {
            address: [{ '@addr': '::1', '@addrtype': 'ipv6' }],
            hostnames: { hostname: [{ '@name': 'a.test' }, { '@name': 'b.test' }] },
            ports: {
              port: [
                {
                  '@portid': '443',
                  '@protocol': 'tcp',
                  state: { '@state': 'open' },
                  service: {
                    '@name': 'http',
                    '@tunnel': 'ssl',
                    '@product': 'nginx',
                    '@version': '1.27.3',
                    cpe: ['cpe:/a:f5:nginx:1.27.3'],
                  },
                },
                {
                  '@portid': '53',
                  '@protocol': 'udp',
                  state: { '@state': 'open' },
                  service: { '@name': 'domain' },
                },
                { '@portid': '22', '@protocol': 'tcp', state: { '@state': 'closed' } },
              ],
            },
          },
          { address: [{ '@addr': '127.0.0.5', '@addrtype': 'ipv4' }], ports: { port: [] } },
        ],
      },
    });
    expect(hosts).toEqual([
      {
        address: '::1',
        names: ['a.test', 'b.test'],
        services: [
          {
            port: 443,
            protocol: 'tcp',
            service: 'http',
            product: 'nginx',
            version: '1.27.3',
            cpe: 'cpe:/a:f5:nginx:1.27.3',
            tls: true,
          },
          {
            port: 53,
            protocol: 'udp',
            service: 'domain',
            product: null,
            version: null,
            cpe: null,
            tls: false,
          },
        ],
      },
    ]);
  });

  it('places a finding on the host of its component, else its target', () => {
    expect(hostOfFinding('cache.internal.test', 'redis://127.0.0.1:6379')).toBe('127.0.0.1');
    expect(hostOfFinding('x', 'https://[::1]:443/')).toBe('::1');
    expect(hostOfFinding('Web.Internal.Test', '')).toBe('web.internal.test');
    expect(normalAddress(' [::1] ')).toBe('::1');
  });
});
