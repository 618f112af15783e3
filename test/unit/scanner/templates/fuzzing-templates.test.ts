import { describe, expect, it } from 'vitest';
import { UnsupportedTemplate } from '../../../../server/scanner/templates/loader.ts';
import { compileTemplateFile } from '../../../../server/scanner/templates/template-set.ts';

const fuzzing = (id: string, matcher: string, payload = "'{{probe}}'"): string => `id: ${id}
info:
  name: ${id}
  author: scanward-tests
  severity: medium
http:
  - payloads:
      probe: [a1, b2]
    fuzzing:
      - part: query
        type: postfix
        fuzz:
          - ${payload}
    matchers:
      - ${matcher}
`;

const reasonOf = (text: string): string | undefined => {
  try {
    compileTemplateFile(text, 'x.yaml');
    return undefined;
  } catch (err) {
    return err instanceof UnsupportedTemplate ? err.reason : `threw ${String(err)}`;
  }
};

describe('templates with a fuzzing: section in a template tree', () => {
  it('compiles one with the fuzzing compiler, as a fuzzing template the HTTP check never sees', () => {
    const compiled = compileTemplateFile(
      fuzzing('mine', "{ type: word, part: body, words: ['x{{probe}}'] }"),
      'dast/mine.yaml',
    );
    expect(compiled).toMatchObject({ protocol: 'fuzzing', id: 'mine', file: 'dast/mine.yaml' });
    expect(compiled).toHaveProperty('template.rules', [
      { part: 'query', type: 'postfix', fuzz: ['{{probe}}'] },
    ]);
  });

  it.each([
    ['a DSL matcher', fuzzing('dsl', "{ type: dsl, dsl: ['status_code == 500'] }"), 'fuzzing:matcher-dsl'],
    [
      'an out-of-band payload',
      fuzzing('oob', "{ type: word, words: ['x'] }", "'{{interactsh-url}}'"),
      'fuzzing:interactsh',
    ],
    [
      'a template whose payload makes the application reach another host',
      fuzzing('generic-rfi', "{ type: word, words: ['x'] }"),
      'fuzzing:reaches-another-host',
    ],
  ])('skips one with %s, saying why', (_what, text, reason) => {
    expect(reasonOf(text)).toBe(reason);
  });

  it('still compiles a template without a fuzzing section as an HTTP template', () => {
    const text = `id: plain
info: { name: plain, author: t, severity: low }
http:
  - method: GET
    path: ['{{BaseURL}}/x']
    matchers:
      - { type: word, words: ['x'] }
`;
    expect(compileTemplateFile(text)).not.toHaveProperty('protocol');
  });
});
