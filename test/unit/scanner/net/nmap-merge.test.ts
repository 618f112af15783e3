import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseNmapXml } from '../../../../server/scanner/net/nmap.ts';
import { mergeNmapResults, serviceNameFromNmap } from '../../../../server/scanner/net/nmap-merge.ts';
import type { ServiceIdentification } from '../../../../server/scanner/net/services.ts';

// Captured from `nmap -n -Pn -sT -sV -T4 -p 1883,3306,4222,5432,5672,6379 -oX - 127.0.0.1`.
const report = parseNmapXml(
  readFileSync(new URL('../../../fixtures/nmap-sv-loopback.xml', import.meta.url), 'utf8'),
);

function service(port: number, overrides: Partial<ServiceIdentification> = {}): ServiceIdentification {
  return {
    address: '127.0.0.1',
    port,
    service: 'unknown',
    evidence: { request: '', response: '' },
    tool: 'scanward-probe',
    ...overrides,
  };
}

describe('mergeNmapResults', () => {
  it('names a service our probes left unknown, and says nmap did', () => {
    const services = [service(6379)];
    expect(mergeNmapResults(services, report)).toBe(1);
    expect(services[0]).toMatchObject({
      service: 'redis',
      product: 'Redis key-value store',
      version: '7.0.15',
      tool: 'nmap',
      details: { nmap_service: 'redis', nmap_cpe: 'cpe:/a:redislabs:redis:7.0.15' },
    });
  });

  it('fills in a version our probe did not learn, keeping our name and tool', () => {
    const services = [service(5672, { service: 'amqp', product: 'RabbitMQ' })];
    expect(mergeNmapResults(services, report)).toBe(1);
    expect(services[0]).toMatchObject({
      service: 'amqp',
      product: 'RabbitMQ',
      version: '3.10.8',
      tool: 'scanward-probe',
    });
  });

  it('never overrides what our probes identified, nor trusts nmap port-table guesses', () => {
    const ours = service(6379, { service: 'redis', product: 'Redis', version: '7.2.0' });
    const nats = service(4222); // nmap only guessed `vrml-multi-use` from the port number
    expect(mergeNmapResults([ours, nats], report)).toBe(0);
    expect(ours).toMatchObject({ product: 'Redis', version: '7.2.0', tool: 'scanward-probe' });
    expect(nats.service).toBe('unknown');
  });

  it('maps nmap names onto ours, TLS-wrapped HTTP as https', () => {
    const base = { port: 1, protocol: 'tcp', state: 'open', tool: 'nmap' as const };
    expect(serviceNameFromNmap({ ...base, service: 'http', tunnel: 'ssl' })).toBe('https');
    expect(serviceNameFromNmap({ ...base, service: 'http-proxy' })).toBe('http');
    expect(serviceNameFromNmap({ ...base, service: 'mongod' })).toBe('mongodb');
    expect(serviceNameFromNmap({ ...base, service: 'vrml-multi-use' })).toBeUndefined();
  });
});
