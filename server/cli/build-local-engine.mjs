#!/usr/bin/env node
// The local engine's bundle, beside the Action's: `dist/local/` (part of `npm run build:action`;
// test/drift.ts builds it afresh to compare). The Action (`mode: local`) and `scanward-ci --local`
// load `dist/local/engine.mjs` at run time, so it runs from the Action's committed files on the
// runner's Node, with no install step (docs/github-action.md, "Scanning what the job runs").
//
//   node server/cli/build-local-engine.mjs [OUT_DIR]      default: dist/local
//
// esbuild bundles server/local-scan/engine.ts (the engine, its checks, the template engine and
// their packages) into one ES module. Every module of the bundle shares the bundle's
// `import.meta.url`, so the data files the engine reads beside its code are copied beside the
// bundle, under the names the sources use:
//   snapshots/*.json   the intelligence snapshots (server/intel/snapshots.ts)
//   default/           the curated default template set (server/scanner/templates/sources.ts)
//   load-worker.mjs    the template loader's worker thread (templates/corpus.ts), and
//   compile.js         the template compiler it imports (templates/compile.ts, bundled)
//   pb_*.yml           the remediation playbooks (server/remediation/playbooks/index.ts)
// Plain JavaScript, so it runs before anything is built.
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const out = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist/local'));
const from = (p) => path.join(ROOT, p);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  // Packages written for CommonJS call require(); give the ES module bundle one.
  banner: {
    js: "import { createRequire as __scanwardRequire } from 'node:module';\nconst require = __scanwardRequire(import.meta.url);",
  },
};

await build({
  ...common,
  entryPoints: [from('server/local-scan/engine.ts')],
  outfile: path.join(out, 'engine.mjs'),
});
await build({
  ...common,
  entryPoints: [from('server/scanner/templates/compile.ts')],
  outfile: path.join(out, 'compile.js'),
});

cpSync(from('server/scanner/templates/load-worker.mjs'), path.join(out, 'load-worker.mjs'));
cpSync(from('server/intel/snapshots'), path.join(out, 'snapshots'), {
  recursive: true,
  filter: (src) => !src.endsWith('.ts'),
});
cpSync(from('server/scanner/templates/default'), path.join(out, 'default'), { recursive: true });
for (const name of readdirSync(from('server/remediation/playbooks'))) {
  if (name.endsWith('.yml')) cpSync(from(`server/remediation/playbooks/${name}`), path.join(out, name));
}
