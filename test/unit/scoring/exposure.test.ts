import { describe, expect, it } from 'vitest';
import { targetExposure } from '../../../server/scoring/exposure.ts';

describe('targetExposure', () => {
  it.each([
    ['127.0.0.1', 'internal'],
    ['10.1.2.3', 'internal'],
    ['192.168.0.0/24', 'internal'],
    ['172.16.5.4', 'internal'],
    ['100.64.0.9', 'internal'],
    ['169.254.10.10', 'internal'],
    ['::1', 'internal'],
    ['[fd00::1]', 'internal'],
    ['localhost', 'internal'],
    ['203.0.113.7', 'internet'],
    ['8.8.8.8', 'internet'],
    ['2001:4860:4860::8888', 'internet'],
    ['shop.example.com', 'unknown'],
    ['', 'unknown'],
  ])('judges %j as %s', (target, exposure) => {
    expect(targetExposure(target)).toBe(exposure);
  });
});
