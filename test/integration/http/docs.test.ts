import { beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from '../../helpers/database.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, mintApiKey, mintBearerToken, type Tenant } from '../../helpers/factory.ts';

const PAGES = ['/openapi.json', '/docs', '/redoc'];

const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

/** Every script src and link href of a page. */
function assetUrls(html: string): string[] {
  return [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
}

const EXPECTED_TYPES: Record<string, RegExp> = {
  '.js': /^(text|application)\/javascript/,
  '.css': /^text\/css/,
  '.png': /^image\/png/,
};

describe(`documentation pages (${testEngine})`, () => {
  let app: TestApp;
  let tenant: Tenant;
  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'professional' });
  });

  it('asks for a login with a Basic challenge when no credentials are sent', async () => {
    for (const page of PAGES) {
      const res = await app.request(page);
      expect(res.status, page).toBe(401);
      expect(res.headers.get('www-authenticate'), page).toBe('Basic realm="Scanward"');
      expect(res.headers.get('content-type'), page).toMatch(/^application\/json/);
      expect(((await res.json()) as { error_code: string }).error_code).toBe('AUTHENTICATION_REQUIRED');
    }
  });

  it('opens with HTTP Basic e-mail and password, and refuses a wrong password', async () => {
    for (const page of PAGES) {
      const res = await app.request(page, { headers: basic(tenant.admin.email, tenant.admin.password) });
      expect(res.status, page).toBe(200);
    }
    const wrong = await app.request('/docs', { headers: basic(tenant.admin.email, 'not-the-password') });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Basic realm="Scanward"');
    expect(((await wrong.json()) as { error_code: string }).error_code).toBe('INVALID_CREDENTIALS');
  });

  it('opens with HTTP Basic carrying an API key as the password, whatever the user name', async () => {
    const key = await mintApiKey(app.services.db, { id: tenant.admin.id, orgId: tenant.orgId }, [
      'read:scans',
    ]);
    for (const page of PAGES) {
      const res = await app.request(page, { headers: basic('anything', key) });
      expect(res.status, page).toBe(200);
    }
    expect((await app.request('/openapi.json', { headers: { 'x-api-key': key } })).status).toBe(200);
    const revoked = await app.request('/docs', { headers: basic('anything', `${key}x`) });
    expect(revoked.status).toBe(401);
  });

  it('opens with a bearer token', async () => {
    const token = await mintBearerToken(app.services.db, app.services.keys.jwtSecret, {
      id: tenant.admin.id,
      orgId: tenant.orgId,
    });
    for (const page of PAGES) {
      const res = await app.request(page, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, page).toBe(200);
    }
  });

  for (const page of ['/docs', '/redoc']) {
    it(`serves every asset of ${page} from this server, with a fitting content type`, async () => {
      const res = await app.request(page, { headers: basic(tenant.admin.email, tenant.admin.password) });
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      const html = await res.text();
      expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
      const urls = assetUrls(html);
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) {
        expect(url, 'a path on this server').toMatch(/^\/[^/]/);
        // Assets are public static files: the browser fetches them like any page resource.
        const asset = await app.request(url);
        expect(asset.status, url).toBe(200);
        const ext = url.slice(url.lastIndexOf('.'));
        expect(asset.headers.get('content-type'), url).toMatch(EXPECTED_TYPES[ext]!);
        expect((await asset.arrayBuffer()).byteLength, url).toBeGreaterThan(0);
      }
    });
  }

  it('points Swagger UI at the local document and keeps it from calling the public validator', async () => {
    const init = await (await app.request('/docs/assets/init.js')).text();
    expect(init).toContain("url: '/openapi.json'");
    expect(init).toContain('validatorUrl: null');
    expect(init).not.toMatch(/https?:\/\//);
  });
});

describe(`documentation pages with SCANWARD_DOCS_PUBLIC=true (${testEngine})`, () => {
  let app: TestApp;
  const suite = useTestApp({ env: { SCANWARD_DOCS_PUBLIC: 'true' } });
  beforeAll(() => {
    app = suite.app;
  });

  it('serves the pages and the document without credentials', async () => {
    for (const page of PAGES) {
      const res = await app.request(page);
      expect(res.status, page).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });
});
