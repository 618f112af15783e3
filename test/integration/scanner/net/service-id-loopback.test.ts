/**
 * Service identification against the real services of this machine on loopback. Each case
 * skips, saying so, when its port is closed (the service is not installed or not running).
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { identifyService } from '../../../../server/scanner/net/service-id.ts';
import type { ServiceName } from '../../../../server/scanner/net/services.ts';

function isOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (open: boolean): void => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

interface RealService {
  name: string;
  port: number;
  service: ServiceName;
  product: RegExp;
  /** Whether the service reveals its version to an anonymous client here. */
  versionRevealed: boolean;
}

const SERVICES: RealService[] = [
  { name: 'PostgreSQL', port: 5432, service: 'postgresql', product: /^PostgreSQL$/, versionRevealed: false },
  { name: 'MariaDB', port: 3306, service: 'mysql', product: /^(MariaDB|MySQL)$/, versionRevealed: true },
  { name: 'Redis', port: 6379, service: 'redis', product: /^(Redis|Valkey)$/, versionRevealed: false },
  { name: 'RabbitMQ', port: 5672, service: 'amqp', product: /^RabbitMQ$/, versionRevealed: true },
  { name: 'Mosquitto', port: 1883, service: 'mqtt', product: /./, versionRevealed: false },
  { name: 'NATS', port: 4222, service: 'nats', product: /^nats-server$/, versionRevealed: true },
];

describe('identifyService on the loopback services of this machine', () => {
  it.for(SERVICES)(
    'identifies $name on 127.0.0.1:$port',
    async ({ name, port, service, product, versionRevealed }, context) => {
      context.skip(!(await isOpen(port)), `${name} is not listening on 127.0.0.1:${port}`);
      const result = await identifyService({ address: '127.0.0.1', port, assertAllowed: () => {} });

      expect(result.service).toBe(service);
      expect(result.tool).toBe('scanward-probe');
      expect(result.evidence.response.length).toBeGreaterThan(0);
      if (result.product !== undefined || versionRevealed) expect(result.product).toMatch(product);
      if (versionRevealed) expect(result.version).toMatch(/^\d+\.\d+/);

      // Where the service only reveals its version to a client it lets in, a version is
      // reported exactly when it let us in.
      if (service === 'redis' || service === 'postgresql') {
        expect(result.anonymousAccess).toBeTypeOf('boolean');
        if (result.anonymousAccess) expect(result.version).toMatch(/^\d+\.\d+/);
        else expect(result.version).toBeUndefined();
      }
      if (service === 'mqtt') {
        expect(result.anonymousAccess).toBeTypeOf('boolean');
        if (result.version !== undefined) expect(result.version).toMatch(/^\d+\.\d+/);
      }
    },
  );
});
