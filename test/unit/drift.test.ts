import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { textDrift, treeDifferences } from '../drift.ts';

describe('the drift check', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'scanward-drift-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };

  it('accepts a committed file equal to the fresh generation', () => {
    write('openapi.json', '{\n  "a": 1\n}\n');
    expect(textDrift(path.join(dir, 'openapi.json'), '{\n  "a": 1\n}\n', 'npm run openapi')).toBeUndefined();
  });

  it('names the first differing line and the command that fixes it', () => {
    write('openapi.json', '{\n  "a": 1\n}\n');
    const problem = textDrift(path.join(dir, 'openapi.json'), '{\n  "a": 2\n}\n', 'npm run openapi');
    expect(problem).toContain('line 2');
    expect(problem).toContain('"a": 1');
    expect(problem).toContain('"a": 2');
    expect(problem).toContain('run `npm run openapi`');
  });

  it('reports a missing committed file', () => {
    expect(textDrift(path.join(dir, 'absent.json'), '{}', 'npm run openapi')).toMatch(
      /missing.*npm run openapi/,
    );
  });

  it('finds missing, extra and changed files between a committed tree and a fresh build', () => {
    write('committed/index.js', 'old');
    write('committed/same.txt', 'same');
    write('committed/stale.js', 'left over');
    write('fresh/index.js', 'new');
    write('fresh/same.txt', 'same');
    write('fresh/sub/added.js', 'added');
    expect(treeDifferences(path.join(dir, 'committed'), path.join(dir, 'fresh')).sort()).toEqual(
      [
        'index.js differs',
        `${path.join('sub', 'added.js')} is missing`,
        'stale.js is not produced by the build',
      ].sort(),
    );
  });

  it('finds no difference between identical trees', () => {
    for (const side of ['committed', 'fresh']) {
      write(`${side}/index.js`, 'same');
      write(`${side}/licenses.txt`, 'MIT');
    }
    expect(treeDifferences(path.join(dir, 'committed'), path.join(dir, 'fresh'))).toEqual([]);
  });
});
