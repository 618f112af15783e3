import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Detection } from '../../../../server/scanner/types.ts';
import { csrfCheck, sqlInjectionCheck, webAttackChecks } from '../../../../server/scanner/web/checks.ts';
import { checkContext, serviceAt } from '../../../helpers/phase-context.ts';
import { LAB_PASSWORD, LAB_USER, startWebLab, type WebLab } from '../../../fixtures/web-lab.ts';

/**
 * The attack checks against the lab (test/fixtures/web-lab.ts), driven directly as the
 * web_analysis phase runs them: signed in through the lab's form (anti-CSRF token), with a
 * session the lab drops once mid-scan.
 */
describe('web attack checks against the lab', () => {
  let lab: WebLab;
  let detections: Detection[];
  let notes: string[];

  beforeAll(async () => {
    lab = await startWebLab({ dropSessionAfter: 150 });
    const ctx = checkContext(lab.address, {
      scan: {
        web: {
          active: true,
          authentication: {
            type: 'form',
            login_url: `${lab.url}/login`,
            username: LAB_USER,
            password: LAB_PASSWORD,
          },
          exclude_paths: ['/excluded', '/admin/*/delete-me'],
        },
      },
    });
    const service = serviceAt(lab.address, lab.port, 'http');
    const results = await Promise.all(webAttackChecks.map((check) => check.run(ctx, service)));
    detections = results.flat();
    notes = ctx.state.notes;
  }, 120_000);
  afterAll(async () => {
    await lab?.close();
  });

  const found = (checkId: string) => detections.filter((d) => d.check_id === checkId);

  it.each([
    ['web-sql-injection', '/sqli/vuln?id=', 'CWE-89'],
    ['web-sql-injection', '/blind/vuln?id=', 'CWE-89'],
    ['web-xss-reflected', '/xss/vuln?name=', 'CWE-79'],
    ['web-xss-stored', '/guestbook/vuln#form:message', 'CWE-79'],
    ['web-command-injection', '/exec/vuln#form:host', 'CWE-78'],
    ['web-command-injection', '/blindexec/vuln#form:host', 'CWE-78'],
    ['web-path-traversal', '/file/vuln?page=', 'CWE-22'],
    ['web-open-redirect', '/redirect/vuln?to=', 'CWE-601'],
    ['web-csrf', '/csrf/vuln#form', 'CWE-352'],
    ['web-template-injection', '/ssti/vuln?name=', 'CWE-1336'],
  ])('finds %s at %s once, with the request and the answer that prove it', (checkId, path, cwe) => {
    // A fuzzing template that stands for the same check reports the same place: correlation folds them into one finding.
    const hits = found(checkId).filter((d) => d.affected_component === `${lab.url}${path}`);
    expect(
      hits.length,
      JSON.stringify(detections.map((d) => [d.check_id, d.affected_component])),
    ).toBeGreaterThanOrEqual(1);
    expect(
      hits.filter((d) => d.tool === 'scanward-web' && !d.description.includes('nuclei template')),
    ).toHaveLength(1);
    const [hit] = hits as [Detection];
    expect(hit.cwe_ids).toContain(cwe);
    expect(hit.cvss_vector).toMatch(/^CVSS:3\.1\//);
    expect(hit.remediation?.steps.length).toBeGreaterThan(0);
    expect(hit.evidence.request).toMatch(/^(GET|POST) \/[a-z]+\/vuln/);
    expect(hit.evidence.response).toMatch(/^HTTP\/1\.1 \d{3}/);
  });

  it('proves a blind command injection by its delay, twice, against a baseline', () => {
    const hit = found('web-command-injection').find((d) =>
      d.affected_component.endsWith('/blindexec/vuln#form:host'),
    );
    expect(hit?.title).toMatch(/time-based/);
    expect(hit?.evidence.response).toMatch(/answered after \d+ ms/);
  });

  it('grades SQL and command injection critical', () => {
    for (const d of [...found('web-sql-injection'), ...found('web-command-injection')])
      expect(d.severity).toBe('critical');
  });

  it('gives no finding on the fixed variants', () => {
    expect(detections.filter((d) => d.affected_component.includes('/fixed'))).toEqual([]);
  });

  it('never follows the log-out link, an excluded path, or a link or redirect to another port', () => {
    expect(lab.requests.filter((r) => r.path.startsWith('/logout'))).toEqual([]);
    expect(
      lab.requests.filter((r) => r.path.startsWith('/excluded') || r.path.startsWith('/admin/')),
    ).toEqual([]);
    expect(lab.elsewhere).toEqual([]);
    // The crawl reached what a signed-in user reaches: robots.txt's and a script's URLs too.
    expect(lab.requests.some((r) => r.path.startsWith('/from-robots'))).toBe(true);
    expect(lab.requests.some((r) => r.path.startsWith('/from-script'))).toBe(true);
  });

  it('signs in again when the session is lost mid-scan', () => {
    expect(lab.signIns).toBeGreaterThanOrEqual(2);
    expect(notes.filter((n) => /sign/i.test(n))).toEqual([]);
  });

  it('never stores the password or the session cookie', () => {
    const stored = JSON.stringify(detections);
    expect(stored).not.toContain(LAB_PASSWORD);
    expect(stored).not.toContain(encodeURIComponent(LAB_PASSWORD));
    expect(stored).not.toMatch(/labsid=[a-f0-9]/);
    expect(JSON.stringify(notes)).not.toContain(LAB_PASSWORD);
  });
});

describe('web attack checks signed in with headers', () => {
  let lab: WebLab;

  beforeAll(async () => {
    lab = await startWebLab();
  });
  afterAll(async () => {
    await lab?.close();
  });

  it('sends the configured cookie, finds what is behind it, and stores the cookie nowhere', async () => {
    // A session of the lab's, obtained as a person would: sign in, copy the cookie.
    const page = await fetch(`${lab.url}/login`);
    const token = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    const signed = await fetch(`${lab.url}/login`, {
      method: 'POST',
      body: new URLSearchParams({ csrf_token: token, login: LAB_USER, pass: LAB_PASSWORD }),
      redirect: 'manual',
    });
    const cookie = (signed.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/^labsid=[a-f0-9]+$/);
    const ctx = checkContext(lab.address, {
      scan: {
        web: {
          active: true,
          authentication: { type: 'headers', headers: { Cookie: cookie } },
          exclude_paths: [],
        },
      },
    });
    const service = serviceAt(lab.address, lab.port, 'http');
    const detections = await sqlInjectionCheck.run(ctx, service);
    expect(detections.map((d) => d.affected_component).sort()).toEqual([
      `${lab.url}/blind/vuln?id=`,
      `${lab.url}/sqli/vuln?id=`,
    ]);
    // The configured cookie is the session: without SameSite, the token-less form is forgeable.
    const csrf = await csrfCheck.run(ctx, service);
    expect(csrf.map((d) => d.affected_component)).toEqual([`${lab.url}/csrf/vuln#form`]);
    detections.push(...csrf);
    expect(JSON.stringify(detections)).not.toContain(cookie.split('=')[1]);
    expect(lab.requests.filter((r) => r.path.startsWith('/logout'))).toEqual([]);
  }, 120_000);
});
