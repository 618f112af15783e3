import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../../../server/scanner/checks/index.ts';
import {
  asBuiltIn,
  networkTemplatesCheck,
  sslTemplatesCheck,
} from '../../../../server/scanner/checks/template-protocols.ts';
import type { Detection } from '../../../../server/scanner/types.ts';
import { serviceAt } from '../../../helpers/phase-context.ts';

const detection = (check_id: string, upstream: string): Detection =>
  ({ check_id, upstream_ids: [upstream] }) as Detection;

describe('template checks beside the built-in ones', () => {
  it('are registered: network templates on any service, ssl templates on TLS services', () => {
    expect(CHECKS).toEqual(expect.arrayContaining([networkTemplatesCheck, sslTemplatesCheck]));
    expect(networkTemplatesCheck.phase).toBe('vulnerability_scanning');
    expect(sslTemplatesCheck.appliesTo(serviceAt('127.0.0.1', 443, 'https'))).toBe(true);
    expect(sslTemplatesCheck.appliesTo(serviceAt('127.0.0.1', 6379, 'redis'))).toBe(false);
  });

  it('report a weakness a built-in check also sees under the built-in id: one weakness, one finding', () => {
    const run = asBuiltIn({
      detections: [
        detection('redis-no-auth', 'exposed-redis'),
        detection('tls-certificate-self-signed', 'self-signed-ssl'),
        detection('aws-credentials', 'aws-credentials'),
      ],
      coverage: [{ target: 'h', port: 6379, check_id: 'redis-no-auth' }],
    });
    expect(run.detections.map((d) => d.check_id)).toEqual([
      'redis-unauthenticated',
      'tls-certificate-self-signed',
      'aws-credentials',
    ]);
    expect(run.coverage.map((c) => c.check_id)).toEqual(['redis-unauthenticated']);
  });
});
