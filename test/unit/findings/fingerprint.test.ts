import { describe, expect, it } from 'vitest';
import { findingFingerprint, normalizeComponent } from '../../../server/findings/fingerprint.ts';

const base = {
  orgId: 'org_a',
  target: 'app.example.test',
  affectedComponent: 'https://app.example.test:443/login',
  checkId: 'missing-hsts',
};

describe('finding fingerprint', () => {
  it('is the same for the same organization, target, component and check', () => {
    expect(findingFingerprint({ ...base })).toBe(findingFingerprint({ ...base }));
    expect(findingFingerprint(base)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs when any of its four parts differs', () => {
    const one = findingFingerprint(base);
    expect(findingFingerprint({ ...base, orgId: 'org_b' })).not.toBe(one);
    expect(findingFingerprint({ ...base, target: 'api.example.test' })).not.toBe(one);
    expect(
      findingFingerprint({ ...base, affectedComponent: 'https://app.example.test:8443/login' }),
    ).not.toBe(one);
    expect(findingFingerprint({ ...base, checkId: 'weak-tls' })).not.toBe(one);
  });

  it('ignores the case of host names and URL schemes, but not of paths', () => {
    const one = findingFingerprint(base);
    expect(
      findingFingerprint({
        ...base,
        target: 'APP.Example.TEST',
        affectedComponent: 'HTTPS://App.Example.Test:443/login',
      }),
    ).toBe(one);
    expect(findingFingerprint({ ...base, affectedComponent: 'https://app.example.test:443/LOGIN' })).not.toBe(
      one,
    );
  });

  it('cannot be confused by separators inside the parts', () => {
    expect(findingFingerprint({ ...base, target: 'a|b', checkId: 'c' })).not.toBe(
      findingFingerprint({ ...base, target: 'a', checkId: 'b|c' }),
    );
  });
});

describe('normalizeComponent', () => {
  it('lower-cases scheme and authority of URLs and leaves other text alone', () => {
    expect(normalizeComponent(' Redis://Cache.Example:6379 ')).toBe('redis://cache.example:6379');
    expect(normalizeComponent('https://[2001:DB8::1]:443/A?Q=1')).toBe('https://[2001:db8::1]:443/A?Q=1');
    expect(normalizeComponent('OpenSSH 7.4')).toBe('OpenSSH 7.4');
  });
});
