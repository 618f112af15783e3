import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * CI runs the suite under two Nodes (Node 24 on PGlite, the machine's Node 20 on PostgreSQL;
 * README, "Quick start"). A server, CLI or script a test starts must run on the Node that runs
 * the test (`process.execPath`), or the Node 24 run would quietly test Node 20 children: no
 * test may start `node`, `npx`, `npm`, `tsx` or a `node_modules/.bin` script found on PATH.
 * (The Action's tests start `SCANWARD_NODE24` on purpose.) `test/drift.ts` is a command npm
 * runs, not a test.
 */

const TEST_DIR = fileURLToPath(new URL('..', import.meta.url));
const CALL = String.raw`\b(?:spawn|spawnSync|execFile|execFileSync|exec|execSync|fork)\(`;
const LAUNCH = new RegExp(`${CALL}\\s*['"\`](?:node|npx|npm|tsx)\\b|${CALL}[^;]*node_modules/\\.bin`, 'g');
/** Files that may name such launches: the CI command, and this test's own samples. */
const EXEMPT = new Set(['drift.ts', path.join('unit', 'child-processes.test.ts')]);

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|mjs|js)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => !EXEMPT.has(path.relative(TEST_DIR, file)));
}

describe('processes the tests start', () => {
  it('run on the test runner’s own Node, never a node found on PATH', () => {
    const offenders = sources(TEST_DIR).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(LAUNCH)].map(
        (m) => `${path.relative(TEST_DIR, file)}: ${m[0]}`,
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('recognises a launch from PATH (the check can fail)', () => {
    const sample =
      "spawn('node', ['x.js']); execFileSync(\"npx\", []); spawn(join(ROOT, 'node_modules/.bin/tsx'), [])";
    expect([...sample.matchAll(LAUNCH)]).toHaveLength(3);
    expect([...'spawn(process.execPath, [BIN])'.matchAll(LAUNCH)]).toHaveLength(0);
  });
});
