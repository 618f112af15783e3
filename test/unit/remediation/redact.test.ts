import { describe, expect, it } from 'vitest';
import { excerpt, redactSecrets } from '../../../server/remediation/redact.ts';

describe('redactSecrets', () => {
  it('masks the values of secret-looking settings and keeps the rest', () => {
    const out = redactSecrets(
      'DB_HOST=db.internal\nDB_PASSWORD=hunter2\nAPP_KEY=base64:xyz\naws_secret_access_key = "abc/def"\nredis_version:7.2.4',
    );
    expect(out).toContain('DB_HOST=db.internal');
    expect(out).toContain('redis_version:7.2.4');
    expect(out).toContain('DB_PASSWORD=[redacted]');
    expect(out).not.toMatch(/hunter2|base64:xyz|abc\/def/);
  });

  it('masks JSON secrets, bearer tokens, URL credentials and private keys', () => {
    const out = redactSecrets(
      [
        '{"api_key":"k-123","user":"bob"}',
        'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXZhbHVl',
        'DATABASE_URL=postgres://app:s3cret@db:5432/app',
        'remote: https://deploy:tok3n@git.example.com/repo.git',
        '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----',
        'AKIAIOSFODNN7EXAMPLE',
      ].join('\n'),
    );
    expect(out).toContain('"user":"bob"');
    expect(out).not.toMatch(/k-123|eyJzdWIi|s3cret|tok3n|AAAA|AKIAIOSFODNN7EXAMPLE/);
  });
});

describe('excerpt', () => {
  it('flattens whitespace, redacts and shortens with an ellipsis', () => {
    const text = `password=swordfish\n${'x'.repeat(300)}`;
    const out = excerpt(text, 40);
    expect(out.length).toBeLessThanOrEqual(40);
    expect(out.endsWith('…')).toBe(true);
    expect(out).not.toContain('swordfish');
    expect(excerpt(undefined, 10)).toBe('');
  });
});
