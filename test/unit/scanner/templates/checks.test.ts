import { describe, expect, it } from 'vitest';
import { builtInForTemplate, CHECKS } from '../../../../server/scanner/check-registry.ts';
import { asBuiltIn } from '../../../../server/scanner/templates/checks.ts';
import type { Check } from '../../../../server/scanner/check.ts';
import type { Detection } from '../../../../server/scanner/types.ts';
import { serviceAt } from '../../../helpers/phase-context.ts';

const detection = (check_id: string, upstream: string): Detection =>
  ({ check_id, upstream_ids: [upstream] }) as Detection;

const registered = (id: string): Check => {
  const check = CHECKS.find((c) => c.id === id);
  if (!check) throw new Error(`${id} is not registered`);
  return check;
};

describe('template checks beside the built-in ones', () => {
  it('are registered: network templates on any service, ssl templates on TLS services', () => {
    const networkTemplatesCheck = registered('nuclei-network-templates');
    const sslTemplatesCheck = registered('nuclei-ssl-templates');
    expect(networkTemplatesCheck.phase).toBe('vulnerability_scanning');
    expect(sslTemplatesCheck.appliesTo(serviceAt('127.0.0.1', 443, 'https'))).toBe(true);
    expect(sslTemplatesCheck.appliesTo(serviceAt('127.0.0.1', 6379, 'redis'))).toBe(false);
  });

  it('report a weakness a built-in check also sees under the built-in id: one weakness, one finding', () => {
    const run = asBuiltIn(
      {
        detections: [
          detection('redis-no-auth', 'exposed-redis'),
          detection('tls-certificate-self-signed', 'self-signed-ssl'),
          detection('aws-credentials', 'aws-credentials'),
        ],
        coverage: [{ target: 'h', port: 6379, check_id: 'redis-no-auth' }],
      },
      builtInForTemplate,
    );
    expect(run.detections.map((d) => d.check_id)).toEqual([
      'redis-unauthenticated',
      'tls-certificate-self-signed',
      'aws-credentials',
    ]);
    expect(run.coverage.map((c) => c.check_id)).toEqual(['redis-unauthenticated']);
  });
});
