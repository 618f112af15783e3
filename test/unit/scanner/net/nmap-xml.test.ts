import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nmapArguments, NmapError, parseNmapXml } from '../../../../server/scanner/net/nmap.ts';

// Captured from `nmap -n -Pn -sT -sV -T4 -p 1883,3306,4222,5432,5672,6379 -oX - 127.0.0.1`.
const sample = readFileSync(new URL('../../../fixtures/nmap-sv-loopback.xml', import.meta.url), 'utf8');

describe('parseNmapXml', () => {
  it('reads one result per port with state, service, product and version', () => {
    const results = parseNmapXml(sample);
    expect(results.map((result) => result.port)).toEqual([1883, 3306, 4222, 5432, 5672, 6379]);
    expect(results.every((result) => result.state === 'open' && result.tool === 'nmap')).toBe(true);
    expect(results.find((result) => result.port === 6379)).toEqual({
      port: 6379,
      protocol: 'tcp',
      state: 'open',
      service: 'redis',
      product: 'Redis key-value store',
      version: '7.0.15',
      method: 'probed',
      confidence: 10,
      cpe: ['cpe:/a:redislabs:redis:7.0.15'],
      tool: 'nmap',
    });
    expect(results.find((result) => result.port === 5672)).toMatchObject({
      service: 'amqp',
      product: 'RabbitMQ',
      version: '3.10.8',
      extraInfo: '0-9',
    });
  });

  it('keeps nmap guesses from the port table as such', () => {
    const nats = parseNmapXml(sample).find((result) => result.port === 4222);
    expect(nats).toMatchObject({ service: 'vrml-multi-use', method: 'table', confidence: 3 });
    expect(nats?.version).toBeUndefined();
  });

  it('rejects documents that are not nmap reports', () => {
    expect(() => parseNmapXml('<html><body>hi</body></html>')).toThrow(NmapError);
  });

  it('returns nothing for a host with no ports', () => {
    const empty = '<?xml version="1.0"?><nmaprun><host><status state="up"/></host></nmaprun>';
    expect(parseNmapXml(empty)).toEqual([]);
  });
});

describe('nmapArguments', () => {
  it('asks for a connect scan with version detection, no DNS and no host discovery', () => {
    const args = nmapArguments('127.0.0.1', 4, [22, 80, 81, 82]);
    expect(args).toEqual(expect.arrayContaining(['-sT', '--unprivileged', '-sV', '-Pn', '-n', '-oX', '-']));
    expect(args.slice(-1)).toEqual(['127.0.0.1']);
    expect(args[args.indexOf('-p') + 1]).toBe('22,80-82');
    expect(args.some((arg) => ['-sS', '-O', '-sU', '--privileged'].includes(arg))).toBe(false);
    expect(nmapArguments('::1', 6, [22])).toContain('-6');
  });
});
