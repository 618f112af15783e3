import { describe, expect, it } from 'vitest';
import { AppError } from '../../../server/errors.ts';
import { ScopePolicy, type Resolver } from '../../../server/scans/scope.ts';
import { METADATA_FORMS } from '../../fixtures/address-forms.ts';

/**
 * Every name here is resolved by an injected resolver (a fixed table), except
 * `localhost`, which the system resolver answers from /etc/hosts. Nothing in
 * this file opens a connection.
 */

const CEILING = { maxCidrV4: 16, maxCidrV6: 112 };

const DNS: Record<string, string[]> = {
  'public.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'private.example': ['10.0.0.5'],
  'mixed.example': ['93.184.215.14', '192.168.1.10'],
  'metadata.example': ['169.254.169.254'],
  'loop.example': ['127.0.0.1', '::1'],
  'mapped.example': ['::ffff:10.0.0.5'],
  'app.corp.internal': ['10.20.0.7'],
  'db.corp.internal': ['10.99.0.1'],
  'home.lab': ['192.168.1.2'],
  localhost: ['127.0.0.1', '::1'],
};

const fakeResolver: Resolver = async (name) => {
  const answer = DNS[name];
  if (!answer) throw Object.assign(new Error(`queryA ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return answer;
};

const publicOnly = new ScopePolicy({ allow: undefined, deny: [] }, CEILING, fakeResolver);

async function outcome(policy: ScopePolicy, target: string): Promise<string> {
  try {
    await policy.checkTarget(target);
    return 'allowed';
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
}

describe('scope policy without an allow list (public addresses only)', () => {
  it.each([
    '8.8.8.8',
    '93.184.215.14',
    '2606:4700:4700::1111',
    '1.1.1.0/24',
    'public.example',
    '100.63.255.255',
    '172.32.0.1',
  ])('allows %s', async (target) => {
    expect(await outcome(publicOnly, target)).toBe('allowed');
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'IPv6 loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'IPv6 link-local'],
    ['fc00::1', 'IPv6 unique local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'IPv6 unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['2002:a00:1::1', '6to4 (embeds 10.0.0.1)'],
    ['64:ff9b::a00:1', 'NAT64 (embeds 10.0.0.1)'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['192.0.0.0/16', 'range containing special-purpose /24s'],
    ['private.example', 'name resolving to a private address'],
    ['mixed.example', 'name with one private address among public ones'],
    ['mapped.example', 'name resolving to a mapped private address'],
    ['localhost', 'localhost'],
  ])('refuses %s (%s) with TARGET_NOT_ALLOWED', async (target) => {
    expect(await outcome(publicOnly, target)).toBe('TARGET_NOT_ALLOWED');
  });

  it('names the address a refused name resolves to', async () => {
    await expect(publicOnly.checkTarget('mixed.example')).rejects.toMatchObject({
      code: 'TARGET_NOT_ALLOWED',
      field: 'target',
      detail: expect.stringContaining('192.168.1.10'),
    });
  });

  it('answers VALIDATION_ERROR for a name that does not resolve, and for a malformed target', async () => {
    expect(await outcome(publicOnly, 'nowhere.example')).toBe('VALIDATION_ERROR');
    expect(await outcome(publicOnly, 'http://public.example')).toBe('VALIDATION_ERROR');
  });

  it('answers every address a name resolves to, for the engine to connect to', async () => {
    const check = await publicOnly.checkTarget('PUBLIC.example.');
    expect(check).toMatchObject({ kind: 'domain', target: 'public.example', allowedByName: false });
    expect(check.addresses).toEqual(DNS['public.example']);
  });
});

describe('scope policy with an allow list', () => {
  const policy = new ScopePolicy(
    {
      allow: ['127.0.0.0/8', '::1', 'localhost', '10.20.0.0/16', '*.corp.internal', '192.168.1.2'],
      deny: ['127.0.0.66', 'db.corp.internal', '10.20.9.0/24'],
    },
    CEILING,
    fakeResolver,
  );

  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '::1',
    '127.0.1.0/24',
    '127.0.0.64/31',
    '10.20.16.0/20',
    'loop.example',
    'app.corp.internal',
    'localhost',
    '192.168.1.2',
    'home.lab',
  ])('allows %s', async (target) => {
    expect(await outcome(policy, target)).toBe('allowed');
  });

  it.each([
    ['8.8.8.8', 'public but not listed'],
    ['public.example', 'resolves outside the list'],
    ['127.0.0.66', 'denied address'],
    ['127.0.0.64/30', 'range containing a denied address'],
    ['10.20.9.7', 'inside a denied range'],
    ['10.20.0.0/16', 'range overlapping a denied range'],
    ['10.19.255.0/23', 'range reaching outside the list'],
    ['db.corp.internal', 'denied name'],
    ['metadata.example', 'cloud metadata'],
    ['::2', 'IPv6 address not listed'],
  ])('refuses %s (%s)', async (target) => {
    expect(await outcome(policy, target)).toBe('TARGET_NOT_ALLOWED');
  });

  it('lets a listed domain suffix vouch for the addresses its names resolve to', async () => {
    const check = await policy.checkTarget('app.corp.internal');
    expect(check).toMatchObject({ addresses: ['10.20.0.7'], allowedByName: true });
    // The same address is allowed at connect time through the check, not on its own.
    expect(() => policy.assertAddressAllowed('10.20.0.7', check)).not.toThrow();
  });

  it('refuses names the list cannot reach without asking DNS', async () => {
    let asked = 0;
    const suffixOnly = new ScopePolicy({ allow: ['corp.internal'], deny: [] }, CEILING, async (name) => {
      asked++;
      return fakeResolver(name);
    });
    expect(await outcome(suffixOnly, 'public.example')).toBe('TARGET_NOT_ALLOWED');
    expect(asked).toBe(0);
    expect(await outcome(suffixOnly, 'app.corp.internal')).toBe('allowed');
    expect(asked).toBe(1);
  });

  it('refuses a denied name before resolving it', async () => {
    let asked = 0;
    const denying = new ScopePolicy(
      { allow: ['localhost'], deny: ['blocked.localhost'] },
      CEILING,
      async () => {
        asked++;
        return ['127.0.0.1'];
      },
    );
    expect(await outcome(denying, 'x.blocked.localhost')).toBe('TARGET_NOT_ALLOWED');
    expect(asked).toBe(0);
  });
});

describe('link-local and cloud metadata addresses', () => {
  const everything = new ScopePolicy(
    { allow: ['0.0.0.0/0', '::/0'], deny: [] },
    { maxCidrV4: 0, maxCidrV6: 0 },
    fakeResolver,
  );

  it.each([
    ...METADATA_FORMS,
    '169.254.169.0/24',
    'metadata.example',
    '169.254.169.253',
    'fe80::1',
    '169.254.0.0/16',
  ])('are refused even when the allow list covers everything: %s', async (target) => {
    expect(await outcome(everything, target)).toBe('TARGET_NOT_ALLOWED');
    expect(await outcome(publicOnly, target)).toBe('TARGET_NOT_ALLOWED');
  });

  it('are scanned when SCANWARD_SCAN_ALLOW names the exact address, and only that one', async () => {
    const named = new ScopePolicy(
      { allow: ['169.254.10.5', 'fe80::5', '100.100.100.200'], deny: [] },
      CEILING,
      fakeResolver,
    );
    expect(await outcome(named, '169.254.10.5')).toBe('allowed');
    expect(await outcome(named, 'fe80::5')).toBe('allowed');
    expect(await outcome(named, '100.100.100.200')).toBe('allowed');
    expect(await outcome(named, '169.254.10.6')).toBe('TARGET_NOT_ALLOWED');
    // The IPv6 forms carrying a named IPv4 address are not that name.
    expect(await outcome(named, '::ffff:0:a9fe:a05')).toBe('TARGET_NOT_ALLOWED');
    expect(await outcome(named, '64:ff9b::a9fe:a05')).toBe('TARGET_NOT_ALLOWED');
    // A range holding them is not named exactly.
    const ranged = new ScopePolicy({ allow: ['169.254.0.0/16'], deny: [] }, CEILING, fakeResolver);
    expect(await outcome(ranged, '169.254.10.5')).toBe('TARGET_NOT_ALLOWED');
  });

  it('judge an IPv6 address carrying an IPv4 address as that address too', async () => {
    const loopback = new ScopePolicy(
      { allow: ['127.0.0.0/8', '::/0'], deny: ['127.0.0.99'] },
      CEILING,
      fakeResolver,
    );
    expect(await outcome(loopback, '64:ff9b::7f00:5')).toBe('allowed');
    expect(await outcome(loopback, '64:ff9b::7f00:63')).toBe('TARGET_NOT_ALLOWED'); // 127.0.0.99, denied
    expect(await outcome(loopback, '2002:7f00:63::1')).toBe('TARGET_NOT_ALLOWED');
    expect(await outcome(loopback, '64:ff9b::a00:1')).toBe('TARGET_NOT_ALLOWED'); // 10.0.0.1, outside
    expect(await outcome(loopback, '64:ff9b::/120')).toBe('TARGET_NOT_ALLOWED'); // a range of them
    expect(await outcome(publicOnly, '2002:808:808::1')).toBe('TARGET_NOT_ALLOWED'); // 6to4 is not public
  });

  it('leave public neighbours alone', async () => {
    expect(await outcome(everything, '169.255.0.1')).toBe('allowed');
    expect(await outcome(everything, '100.100.100.201')).toBe('allowed');
    expect(await outcome(publicOnly, '2001:4860:4860::8888')).toBe('allowed');
  });

  it('are refused at connect time, to a name allowed by suffix too', async () => {
    const bySuffix = new ScopePolicy({ allow: ['example'], deny: [] }, CEILING, fakeResolver);
    expect(await outcome(bySuffix, 'metadata.example')).toBe('TARGET_NOT_ALLOWED');
    const check = {
      kind: 'domain' as const,
      target: 'x.example',
      addresses: ['::a9fe:a9fe'],
      allowedByName: true,
    };
    expect(() => bySuffix.assertAddressAllowed('::a9fe:a9fe', check)).toThrow(AppError);
  });
});

describe('connect-time checks', () => {
  const policy = new ScopePolicy(
    { allow: ['127.0.0.0/8', '::1'], deny: ['127.0.0.99'] },
    CEILING,
    fakeResolver,
  );

  it('allows an address inside the scope and refuses one outside, without DNS', () => {
    expect(() => policy.assertAddressAllowed('127.0.0.5')).not.toThrow();
    expect(() => policy.assertAddressAllowed('::ffff:127.0.0.5')).not.toThrow();
    expect(() => policy.assertAddressAllowed('127.0.0.99')).toThrow(AppError);
    expect(() => policy.assertAddressAllowed('10.0.0.1')).toThrow(AppError);
    expect(() => policy.assertAddressAllowed('localhost')).toThrow(AppError);
  });

  it('with the target’s check, allows only the addresses that check approved (no rebinding)', async () => {
    const check = await policy.checkTarget('loop.example');
    expect(() => policy.assertAddressAllowed('127.0.0.1', check)).not.toThrow();
    expect(() => policy.assertAddressAllowed('0:0:0:0:0:0:0:1', check)).not.toThrow();
    // In scope, but not what the name resolved to when it was checked.
    expect(() => policy.assertAddressAllowed('127.0.0.2', check)).toThrow(AppError);
  });

  it('with a range check, allows the range’s addresses only', async () => {
    const check = await policy.checkTarget('127.0.0.0/30');
    expect(check.kind).toBe('cidr');
    expect(() => policy.assertAddressAllowed('127.0.0.3', check)).not.toThrow();
    expect(() => policy.assertAddressAllowed('127.0.0.4', check)).toThrow(AppError);
  });
});

describe('the public entry of SCANWARD_SCAN_ALLOW', () => {
  const publicAndLoopback = new ScopePolicy(
    { allow: ['public', '127.0.0.0/8', '::1', 'localhost'], deny: [] },
    CEILING,
    fakeResolver,
  );

  it('keeps public addresses next to the listed ranges', async () => {
    expect(await outcome(publicAndLoopback, '8.8.8.8')).toBe('allowed');
    expect(await outcome(publicAndLoopback, 'public.example')).toBe('allowed');
    expect(await outcome(publicAndLoopback, '127.0.0.1')).toBe('allowed');
    expect(await outcome(publicAndLoopback, 'localhost')).toBe('allowed');
  });

  it('still refuses private and metadata addresses it does not list', async () => {
    expect(await outcome(publicAndLoopback, '10.0.0.1')).toBe('TARGET_NOT_ALLOWED');
    expect(await outcome(publicAndLoopback, 'mixed.example')).toBe('TARGET_NOT_ALLOWED');
    expect(await outcome(publicAndLoopback, '169.254.169.254')).toBe('TARGET_NOT_ALLOWED');
  });

  it('is refused in SCANWARD_SCAN_DENY, where it would mean nothing sensible', () => {
    expect(() => new ScopePolicy({ allow: undefined, deny: ['public'] }, CEILING)).toThrow(
      /SCANWARD_SCAN_DENY: "public"/,
    );
  });
});

describe('a refusal names the policy in force and how to widen it', () => {
  async function refusal(policy: ScopePolicy, target: string): Promise<string> {
    try {
      await policy.checkTarget(target);
    } catch (err) {
      if (err instanceof AppError) return err.message;
      throw err;
    }
    throw new Error(`${target} was allowed`);
  }

  it('with a loopback allow list, says it replaced the default and how to allow public targets', async () => {
    const lab = new ScopePolicy({ allow: ['10.20.0.0/16', 'corp.internal'], deny: [] }, CEILING);
    const detail = await refusal(lab, '8.8.8.8');
    expect(detail).toContain('SCANWARD_SCAN_ALLOW');
    expect(detail).toMatch(/replaces the default/);
    expect(detail).toMatch(/adds `public` to SCANWARD_SCAN_ALLOW/);
    expect(detail).not.toContain('10.20.0.0/16'); // the operator's networks are not told to callers
  });

  it('without an allow list, names the default and the variable that widens it', async () => {
    const detail = await refusal(publicOnly, '10.0.0.1');
    expect(detail).toMatch(/default, public addresses only/);
    expect(detail).toContain('SCANWARD_SCAN_ALLOW');
  });

  it('names the deny list or the metadata rule when that is what refused it', async () => {
    const denying = new ScopePolicy({ allow: ['public'], deny: ['8.8.8.0/24'] }, CEILING);
    expect(await refusal(denying, '8.8.8.8')).toMatch(/SCANWARD_SCAN_DENY excludes it/);
    expect(await refusal(publicOnly, '169.254.169.254')).toMatch(
      /a cloud metadata address: refused unless SCANWARD_SCAN_ALLOW names that exact address/,
    );
    expect(await refusal(publicOnly, '169.254.10.1')).toMatch(/a link-local address: refused unless/);
  });
});

describe('scope configuration', () => {
  it('refuses an entry that is neither a CIDR, an address nor a domain suffix', () => {
    expect(() => new ScopePolicy({ allow: ['10.0.0.0/8', 'not a host!'], deny: [] }, CEILING)).toThrow(
      /SCANWARD_SCAN_ALLOW: "not a host!"/,
    );
    expect(() => new ScopePolicy({ allow: undefined, deny: ['10.0.0.0/40'] }, CEILING)).toThrow(
      /SCANWARD_SCAN_DENY/,
    );
  });

  it('resolves localhost with the system resolver to loopback addresses only', async () => {
    const policy = new ScopePolicy({ allow: ['127.0.0.0/8', '::1', 'localhost'], deny: [] }, CEILING);
    const check = await policy.checkTarget('localhost');
    expect(check.addresses.length).toBeGreaterThan(0);
    for (const address of check.addresses)
      expect(['::1'].includes(address) || address.startsWith('127.')).toBe(true);
  });
});
