import { describe, expect, it } from 'vitest';
import { excluded } from '../../../../server/scanner/web/exclusions.ts';
import { executesMarker, parsePage, reflectionContexts } from '../../../../server/scanner/web/html.ts';
import { SQL_ERRORS, PASSWD_SIGNATURE } from '../../../../server/scanner/web/payloads.ts';
import { difference } from '../../../../server/scanner/web/attacks.ts';
import { WebClient } from '../../../../server/scanner/web/client.ts';
import { buildRequest, targetFromForm } from '../../../../server/scanner/web/parameters.ts';
import { checkContext, serviceAt } from '../../../helpers/phase-context.ts';

describe('exclude_paths', () => {
  it('treats an entry without * as a prefix and one with * as a glob over the whole path', () => {
    expect(excluded('/admin/users?x=1', ['/admin'])).toBe(true);
    expect(excluded('/public', ['/admin'])).toBe(false);
    expect(excluded('/api/7/delete', ['/api/*/delete'])).toBe(true);
    expect(excluded('/api/7/delete?confirm=1', ['/api/*/delete'])).toBe(true);
    expect(excluded('/api/7/8/delete', ['/api/*/delete'])).toBe(false);
    expect(excluded('/api/7/8/delete', ['/api/**/delete'])).toBe(true);
  });
});

describe('reading pages', () => {
  it('finds forms with every field, the selected option and hidden tokens', () => {
    const { forms, links, scripts } = parsePage(
      '<a href="/a?x=1">a</a><script src="/app.js"></script><script>fetch("/api/items?id=2")</script>' +
        '<form method="POST" action="/save"><input type="hidden" name="csrf_token" value="t0k">' +
        '<select name="level"><option value="low">low</option><option value="high" selected>high</option></select>' +
        '<textarea name="msg">hi</textarea><input type="submit" name="go" value="Save"><input type="submit" name="clear" value="Clear"></form>',
    );
    expect(links).toEqual(['/a?x=1']);
    expect(scripts).toEqual(['/app.js', '/api/items?id=2']);
    const target = targetFromForm(forms[0]!, '/page', '/save', undefined);
    expect(target.form?.tokens).toEqual(['csrf_token']);
    // Choices, tokens and buttons are submitted as given, never attacked; only the first button is sent.
    expect(target.params.map((p) => p.name)).toEqual(['msg']);
    expect(buildRequest(target, target.params[0], 'X').body).toBe('csrf_token=t0k&level=high&msg=X&go=Save');
  });

  it('tells where a marker lands and whether a payload would run', () => {
    const m = 'scw0123456789';
    expect(
      [...reflectionContexts(`<p>${m}</p><input value="${m}"><script>var a="${m}"</script>`, m)].sort(),
    ).toEqual(['attribute', 'element', 'script']);
    expect([...reflectionContexts(`<textarea>${m}</textarea><!-- ${m} -->`, m)]).toEqual(['inert']);
    expect(executesMarker(`<p><svg onload=${m}(1)></p>`, m)).toMatch(/onload/);
    expect(executesMarker(`<p>&lt;svg onload=${m}(1)&gt;</p>`, m)).toBeUndefined();
    expect(executesMarker(`<textarea><svg onload=${m}(1)></textarea>`, m)).toBeUndefined();
  });
});

describe('signatures', () => {
  it('recognises syntax errors of each database but not a data-conversion error', () => {
    const matches = (text: string) => SQL_ERRORS.filter((s) => s.pattern.test(text)).map((s) => s.database);
    expect(
      matches(
        'You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version',
      ),
    ).toContain('MySQL/MariaDB');
    expect(matches("unterminated quoted string at or near \"'1''\"")).toContain('PostgreSQL');
    expect(matches('near "\'": syntax error')).toContain('SQLite');
    expect(matches("Unclosed quotation mark after the character string ''.")).toContain(
      'Microsoft SQL Server',
    );
    expect(matches('ORA-01756: quoted string not properly terminated')).toContain('Oracle');
    expect(matches('invalid input syntax for type integer: "1\'"')).toEqual([]);
    expect(PASSWD_SIGNATURE.test('root:x:0:0:root:/root:/bin/bash')).toBe(true);
  });

  it('compares answers by words, not counting the payload', () => {
    expect(
      difference('<p>ID: 1 First name: admin</p>', "<p>ID: 1' AND '7'='7 First name: admin</p>", [
        "1' AND '7'='7",
      ]),
    ).toBe(0);
    expect(difference('<p>ID: 1 First name: admin</p>', '<p>ID:</p>')).toBeGreaterThan(3);
  });
});

describe('stored requests', () => {
  it('never hold a cookie value, an authorization or a secret', () => {
    const client = new WebClient(
      checkContext('127.0.0.1'),
      serviceAt('127.0.0.1', 8080, 'http'),
      () => false,
    );
    client.addSecret('hunter2!');
    client.addSecretHeader('X-Api-Key');
    const text = client.redact(
      'POST /login HTTP/1.1\r\nCookie: sid=abc; level=low\r\nAuthorization: Bearer xyz\r\nX-Api-Key: k\r\n\r\npass=hunter2%21&user=a',
    );
    expect(text).toContain('Cookie: sid=***; level=***');
    expect(text).toContain('Authorization: ***');
    expect(text).toContain('X-Api-Key: ***');
    expect(text).not.toContain('hunter2');
  });
});
