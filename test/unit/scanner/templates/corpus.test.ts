import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DslTooCostly, evaluateDsl, type DslNode } from '../../../../server/scanner/templates/dsl.ts';
import { parseResponse } from '../../../../server/scanner/net/http-client.ts';
import { ResponseView } from '../../../../server/scanner/templates/matchers.ts';
import { loadTemplates, type TemplateSet } from '../../../../server/scanner/templates/template-set.ts';

const CORPUS = fileURLToPath(
  new URL('../../../../../shared/data/nuclei-templates-9424c7c.tar.gz', import.meta.url),
);
const haveCorpus = existsSync(CORPUS);
if (!haveCorpus) console.warn(`skipping the nuclei-templates corpus test: ${CORPUS} is absent`);

describe.skipIf(!haveCorpus)('the nuclei-templates corpus (http/)', () => {
  let dir: string;
  let set: TemplateSet;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scanward-templates-'));
    execFileSync('tar', ['-xzf', CORPUS, '-C', dir, 'http']);
    set = await loadTemplates(join(dir, 'http'));
    const { stats } = set;
    const top = Object.entries(stats.skippedByReason)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12);
    console.info(
      `templates: ${stats.loaded} of ${stats.files} http templates loaded ` +
        `(${((100 * stats.loaded) / stats.files).toFixed(1)}%) in ${stats.loadMs} ms; skipped: ${JSON.stringify(top)}`,
    );
  }, 120_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('loads the whole tree without throwing and accounts for every file', () => {
    expect(set.stats.files).toBeGreaterThan(9000);
    expect(set.stats.loaded + set.stats.skipped).toBe(set.stats.files);
    expect(new Set(set.templates.map((t) => t.id)).size).toBe(set.templates.length);
  });

  it('supports a substantial share of the http templates', () => {
    // Measured 57.2% of all http templates; 63.4% of those that scan the target (not self-contained).
    expect(set.stats.loaded / set.stats.files).toBeGreaterThanOrEqual(0.55);
    const selfContained = set.stats.skippedByReason['self-contained'] ?? 0;
    expect(set.stats.loaded / (set.stats.files - selfContained)).toBeGreaterThanOrEqual(0.6);
  });

  it('loads the templates the integration test runs, and skips out-of-band ones for that reason', () => {
    const ids = new Set(set.templates.map((t) => t.id));
    for (const id of ['git-config', 'dir-listing', 'generic-env']) expect(ids).toContain(id);
    expect(set.stats.skippedByReason['out-of-band']).toBeGreaterThan(100);
  });

  it('evaluates every DSL matcher of the corpus within the bounds on a 256 KiB response', async () => {
    // The largest answer a template reads: a page of markup, words and versions.
    const words = '<div class="x">Login admin version 2.4.49 token=abc; path=/ &amp; Ω</div>\n';
    const body = words.repeat(Math.ceil((256 * 1024) / words.length)).slice(0, 256 * 1024);
    const head = [
      'HTTP/1.1 200 OK',
      'Server: Apache/2.4.49 (Unix)',
      'Content-Type: text/html; charset=utf-8',
      'Set-Cookie: session=abc; Path=/',
      'X-Powered-By: PHP/8.1.2',
    ].join('\r\n');
    const variables = (own: ReadonlyMap<string, string>) =>
      new ResponseView(parseResponse(Buffer.from(`${head}\r\n\r\n${body}`))!, own).variables();
    const plain = variables(new Map());
    // regex() runs in the sandbox (regex-sandbox.ts, tested on its own); posting the page to it
    // for each of the ~7,600 expressions that call it would take minutes here.
    const callsRegex = (node: DslNode): boolean =>
      node.kind === 'call'
        ? node.name === 'regex' || node.args.some(callsRegex)
        : node.kind === 'unary'
          ? callsRegex(node.operand)
          : node.kind === 'binary' && (callsRegex(node.left) || callsRegex(node.right));
    let evaluated = 0;
    const tooCostly: string[] = [];
    for (const template of set.templates) {
      const vars = template.variables.size === 0 ? plain : variables(template.variables);
      for (const node of template.requests.flatMap((r) => r.matchers.flatMap((m) => m.dsl))) {
        if (callsRegex(node)) continue;
        evaluated++;
        await evaluateDsl(node, vars).catch((err: unknown) => {
          if (err instanceof DslTooCostly) tooCostly.push(`${template.id}: ${err.message}`);
        });
      }
    }
    expect(evaluated).toBeGreaterThan(10_000);
    expect(tooCostly).toEqual([]);
  }, 300_000);
});
