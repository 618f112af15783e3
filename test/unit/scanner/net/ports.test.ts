import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { topTcpPorts } from '../../../../server/scanner/net/generate-top-tcp-ports.ts';
import { TOP_TCP_PORTS } from '../../../../server/scanner/net/top-tcp-ports.ts';
import { BUILT_IN_CHECKS, CHECK_PORTS, DEFAULT_PORTS } from '../../../../server/scanner/check-registry.ts';
import {
  SERVICE_PORTS,
  defaultPortList,
  formatPortSpec,
  parsePortSpec,
  PortSpecError,
  resolvePorts,
} from '../../../../server/scanner/net/ports.ts';

const NMAP_SERVICES = '/usr/share/nmap/nmap-services';

describe('parsePortSpec', () => {
  it('parses a single port, a range, a list and the full range', () => {
    expect(parsePortSpec('80')).toEqual([80]);
    expect(parsePortSpec('1-1024')).toHaveLength(1024);
    expect(parsePortSpec('1-1024').at(-1)).toBe(1024);
    expect(parsePortSpec('22,80,443')).toEqual([22, 80, 443]);
    const all = parsePortSpec('1-65535');
    expect(all).toHaveLength(65535);
    expect([all[0], all.at(-1)]).toEqual([1, 65535]);
  });

  it('parses mixes of ports and ranges, sorted and without duplicates', () => {
    expect(parsePortSpec('443,20-22,80,21,79-81')).toEqual([20, 21, 22, 79, 80, 81, 443]);
  });

  it('tolerates whitespace around numbers, dashes and commas', () => {
    expect(parsePortSpec('  22 , 80 - 82,\t443 ')).toEqual([22, 80, 81, 82, 443]);
  });

  it('accepts a single-port range', () => {
    expect(parsePortSpec('8080-8080')).toEqual([8080]);
  });

  it.each([
    ['', /at least one port/],
    ['   ', /at least one port/],
    ['0', /out of range/],
    ['65536', /out of range/],
    ['1-65536', /out of range/],
    ['0-10', /out of range/],
    ['99999999999999999999', /out of range/],
    ['1024-1', /reversed.*"1-1024"/],
    ['http', /not a port number/],
    ['80,abc', /"abc" is not a port number/],
    ['1-', /not a port number/],
    ['-5', /not a port number/],
    ['1-2-3', /not a port number/],
    ['22,,80', /empty entry/],
    ['22,', /empty entry/],
    ['80.5', /not a port number/],
    ['+80', /not a port number/],
  ])('rejects %j with a PortSpecError for the ports field', (spec, message) => {
    let caught: unknown;
    try {
      parsePortSpec(spec);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PortSpecError);
    expect((caught as PortSpecError).field).toBe('ports');
    expect((caught as PortSpecError).message).toMatch(message);
  });
});

describe('formatPortSpec', () => {
  it('writes runs as ranges and round-trips through parsePortSpec', () => {
    expect(formatPortSpec([443, 80, 81, 82, 22, 80])).toBe('22,80-82,443');
    const ports = parsePortSpec('1-10,12,14-20,65535');
    expect(parsePortSpec(formatPortSpec(ports))).toEqual(ports);
  });
});

describe('the default ports (DEFAULT_PORTS)', () => {
  it('lists 1,000 distinct valid ports, the most common first', () => {
    expect(DEFAULT_PORTS).toHaveLength(1000);
    expect(new Set(DEFAULT_PORTS).size).toBe(1000);
    expect(DEFAULT_PORTS.every((port) => Number.isInteger(port) && port >= 1 && port <= 65535)).toBe(true);
    expect(DEFAULT_PORTS.slice(0, 3)).toEqual([80, 23, 443]);
    for (const port of [21, 22, 25, 3306, 5432, 8080]) expect(DEFAULT_PORTS).toContain(port);
  });

  it('contains every port a check declares', () => {
    const declared = BUILT_IN_CHECKS.flatMap((check) =>
      check.ports.map((port) => ({ check: check.id, port })),
    );
    expect(declared.length).toBeGreaterThan(0);
    const missing = declared.filter(({ port }) => !DEFAULT_PORTS.includes(port));
    expect(missing).toEqual([]);
    for (const port of CHECK_PORTS) expect(DEFAULT_PORTS).toContain(port);
  });

  it('reaches the services the checks know that nmap ranks below its top 1,000', () => {
    // epmd, Erlang distribution (RabbitMQ), Memcached, Elasticsearch, MongoDB, RabbitMQ management, NATS, MQTT.
    for (const port of [4369, 25672, 11211, 9200, 27017, 15672, 4222, 1883, 6379, 5672]) {
      expect(CHECK_PORTS, String(port)).toContain(port);
      expect(DEFAULT_PORTS, String(port)).toContain(port);
    }
  });

  it("includes the control planes nmap ranks lower, and gives way only at the end of nmap's list", () => {
    for (const port of SERVICE_PORTS) expect(DEFAULT_PORTS).toContain(port);
    expect(DEFAULT_PORTS.slice(0, 900)).toEqual(TOP_TCP_PORTS.slice(0, 900));
  });

  it('is built from any declared ports by defaultPortList', () => {
    const list = defaultPortList([65001, 80]);
    expect(list).toHaveLength(1000);
    expect(list).toContain(65001);
    expect(list.filter((port) => port === 80)).toHaveLength(1);
  });

  it('is what a scan without ports uses', () => {
    expect(resolvePorts(undefined, DEFAULT_PORTS)).toBe(DEFAULT_PORTS);
    expect(resolvePorts(null, DEFAULT_PORTS)).toBe(DEFAULT_PORTS);
    expect(resolvePorts('22', DEFAULT_PORTS)).toEqual([22]);
  });

  it('matches a fresh generation from nmap-services', (context) => {
    context.skip(
      !existsSync(NMAP_SERVICES),
      `${NMAP_SERVICES} is absent (apt-get install nmap to check the list)`,
    );
    expect(topTcpPorts(readFileSync(NMAP_SERVICES, 'utf8'))).toEqual([...TOP_TCP_PORTS]);
  });
});

describe('topTcpPorts', () => {
  it('orders TCP entries by open-frequency, ties by port, ignoring UDP and comments', () => {
    const table = [
      '# comment',
      'http\t80/tcp\t0.484143\t# World Wide Web HTTP',
      'domain\t53/udp\t0.9\t# not TCP',
      'b\t9/tcp\t0.1',
      'a\t8/tcp\t0.1',
      'ssh\t22/tcp\t0.182286',
    ].join('\n');
    expect(topTcpPorts(table, 3)).toEqual([80, 22, 8]);
  });
});
