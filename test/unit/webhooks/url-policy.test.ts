import { describe, expect, it } from 'vitest';
import { AppError } from '../../../server/errors.ts';
import { isPublicAddress } from '../../../server/scans/public-addresses.ts';
import { ScopePolicy } from '../../../server/scans/scope.ts';
import { checkWebhookUrl, type Resolver } from '../../../server/webhooks/url-policy.ts';
import { METADATA_FORMS } from '../../fixtures/address-forms.ts';

/**
 * Where a webhook may point (issue 19, item 5): only public unicast addresses, by the rule
 * the scan scope uses. Names resolve through a fixed table; nothing here opens a connection.
 */

const DNS: Record<string, string[]> = {
  'hooks.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'compat.example': ['::7f00:1'],
  'nat64.example': ['64:ff9b::a00:1'],
  'mapped.example': ['::ffff:192.168.1.1'],
  'mixed.example': ['93.184.215.14', '10.0.0.7'],
  'metadata.example': ['169.254.169.254'],
  'internal.example': ['10.1.2.3'],
  localhost: ['127.0.0.1', '::1'],
};

const resolver: Resolver = async (host) => {
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answer;
};

async function outcome(url: string, allowPrivate = false): Promise<string> {
  try {
    await checkWebhookUrl(url, allowPrivate, resolver);
    return 'accepted';
  } catch (err) {
    if (err instanceof AppError) return `${err.status} ${err.code} ${err.field}`;
    throw err;
  }
}

const REFUSED = '422 VALIDATION_ERROR url';

describe('webhook URLs reach public unicast addresses only', () => {
  it.each([
    ['http://[::127.0.0.1]/', 'IPv4-compatible loopback (the report: stored as [::7f00:1])'],
    ['http://[::7f00:1]/', 'IPv4-compatible loopback, hex'],
    ['http://[::10.0.0.1]/', 'IPv4-compatible private'],
    ['http://[::8.8.8.8]/', 'IPv4-compatible, even of a public IPv4 (deprecated, outside 2000::/3)'],
    ['http://[::ffff:127.0.0.1]/', 'IPv4-mapped loopback'],
    ['http://[::ffff:7f00:1]/', 'IPv4-mapped loopback, hex'],
    ['http://[::ffff:0:7f00:1]/', 'IPv4-translated (RFC 6145)'],
    ['http://[64:ff9b::7f00:1]/', 'NAT64 well-known prefix'],
    ['http://[64:ff9b:1::a00:1]/', 'NAT64 local-use prefix'],
    ['http://[2002:7f00:1::1]/', '6to4 embedding 127.0.0.1'],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'Teredo'],
    ['http://[2001:20::1]/', 'ORCHIDv2'],
    ['http://[100::1]/', 'discard-only'],
    ['http://[::1]/', 'IPv6 loopback'],
    ['http://[::]/', 'IPv6 unspecified'],
    ['http://[fe80::1]/', 'IPv6 link-local'],
    ['http://[fc00::1]/', 'IPv6 unique local'],
    ['http://[ff02::1]/', 'IPv6 multicast'],
    ['http://[2001:db8::1]/', 'IPv6 documentation'],
    ['http://[3fff::1]/', 'IPv6 documentation (RFC 9637)'],
    ['http://[2620:4f:8000::1]/', 'AS112 direct delegation'],
    ['http://127.0.0.1/', 'loopback'],
    ['http://2130706433/', 'loopback, decimal'],
    ['http://0177.0.0.1/', 'loopback, octal'],
    ['http://0x7f000001/', 'loopback, hex'],
    ['http://127.1/', 'loopback, short form'],
    ['http://0.0.0.0/', 'this network'],
    ['http://10.0.0.1/', 'private'],
    ['http://172.16.0.1/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://169.254.1.1/', 'link-local'],
    ['http://192.0.0.8/', 'IETF protocol assignments'],
    ['http://192.0.2.1/', 'documentation'],
    ['http://192.31.196.1/', 'AS112-v4'],
    ['http://192.52.193.1/', 'AMT'],
    ['http://192.88.99.1/', '6to4 relay anycast'],
    ['http://192.175.48.1/', 'AS112 direct delegation'],
    ['http://198.18.0.1/', 'benchmarking'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://240.0.0.1/', 'reserved'],
    ['http://255.255.255.255/', 'limited broadcast'],
    ['http://localhost/', 'localhost'],
    ['https://compat.example/', 'a name resolving to an IPv4-compatible address'],
    ['https://nat64.example/', 'a name resolving to NAT64'],
    ['https://mapped.example/', 'a name resolving to an IPv4-mapped private address'],
    ['https://mixed.example/', 'a name with one private address among public ones'],
    ['https://internal.example/', 'a name resolving to a private address'],
  ])('refuses %s (%s)', async (url) => {
    expect(await outcome(url)).toBe(REFUSED);
  });

  it.each([
    'https://93.184.215.14/hook',
    'https://[2606:4700:4700::1111]/hook',
    'https://hooks.example/scanward',
    'http://1.1.1.1:8080/',
    'http://100.63.255.255/',
    'http://172.32.0.1/',
  ])('accepts %s', async (url) => {
    expect(await outcome(url)).toBe('accepted');
  });

  it('names the address a refused name resolves to', async () => {
    await expect(checkWebhookUrl('https://mixed.example/', false, resolver)).rejects.toMatchObject({
      detail: expect.stringContaining('mixed.example resolves to 10.0.0.7'),
    });
  });

  it('refuses cloud metadata addresses even when private receivers are allowed', async () => {
    expect(await outcome('http://169.254.169.254/latest/meta-data/', true)).toBe(REFUSED);
    expect(await outcome('http://[fd00:ec2::254]/', true)).toBe(REFUSED);
    expect(await outcome('https://metadata.example/', true)).toBe(REFUSED);
    expect(await outcome('http://[::ffff:169.254.169.254]/', true)).toBe(REFUSED);
    expect(await outcome('http://127.0.0.1:9000/hook', true)).toBe('accepted');
    expect(await outcome('https://internal.example/', true)).toBe('accepted');
  });

  it.each([...METADATA_FORMS, '169.254.1.1', 'fe80::1', 'fe80::a9fe:a9fe'])(
    'refuses %s (link-local or cloud metadata, in any form) even when private receivers are allowed',
    async (address) => {
      const url = address.includes(':') ? `http://[${address}]/hook` : `http://${address}/hook`;
      expect(await outcome(url, true)).toBe(REFUSED);
      expect(await outcome(url, false)).toBe(REFUSED);
      await expect(checkWebhookUrl(url, true, resolver)).rejects.toMatchObject({
        detail: expect.stringMatching(/may not receive webhooks \((a cloud metadata|a link-local) address/),
      });
    },
  );

  it('refuses a name resolving to a metadata address in an IPv6 form, private receivers allowed', async () => {
    const forms: Resolver = async (host) =>
      host === 'forms.example' ? ['64:ff9b::a9fe:aa02'] : resolver(host);
    await expect(checkWebhookUrl('https://forms.example/', true, forms)).rejects.toMatchObject({
      detail: expect.stringContaining(
        'forms.example resolves to 64:ff9b::a9fe:aa02, which may not receive webhooks',
      ),
    });
  });

  it('refuses URLs that are not http(s), carry credentials, or do not resolve', async () => {
    expect(await outcome('ftp://93.184.215.14/')).toBe(REFUSED);
    expect(await outcome('https://user:pw@93.184.215.14/')).toBe(REFUSED);
    expect(await outcome('https://nowhere.example/')).toBe(REFUSED);
    expect(await outcome('not a url')).toBe(REFUSED);
  });
});

describe('webhooks and the scan scope share one meaning of public', () => {
  const scope = new ScopePolicy({ allow: undefined, deny: [] }, { maxCidrV4: 16, maxCidrV6: 112 });

  it.each([
    '::127.0.0.1',
    '::8.8.8.8',
    '::ffff:10.0.0.1',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2001::1',
    '2001:4860:4860::8888',
    '2606:4700:4700::1111',
    '192.31.196.1',
    '192.0.0.9',
    '8.8.8.8',
    '100.64.0.1',
    'fe80::1',
    '3fff::1',
  ])('%s: the same verdict from both', (address) => {
    expect(scope.isAddressAllowed(address)).toBe(isPublicAddress(address));
  });

  it('treats an IPv4-mapped address as the IPv4 address it carries', () => {
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
    expect(isPublicAddress('::ffff:127.0.0.1')).toBe(false);
  });
});
