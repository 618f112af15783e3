#!/usr/bin/env node
// `npm run pack:ci`: scanward-ci's release tarball, `scanward-ci-<version>.tgz`, made by `npm pack`
// from the committed bundles alone: dist/ci (the command) and dist/local (the engine `--local`
// loads from beside it), under a package.json of their own with the `scanward-ci` bin and no
// dependencies. The bundles need nothing else at run time, so installing the tarball
// (`npx --package=./scanward-ci-0.1.0.tgz scanward-ci`, `npm install -g`) downloads nothing: it
// works offline and behind a CI's registry mirror alike (docs/github-action.md).
//
//   node server/cli/pack-ci.mjs [--out DIR]   writes the tarball into DIR (default: the current
//                                             directory) and prints its path
//
// Plain JavaScript, like build.mjs: it runs with nothing built.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = path.resolve(values.out ?? process.cwd());

for (const part of ['dist/ci/index.js', 'dist/local/engine.mjs']) {
  if (!existsSync(path.join(ROOT, part))) {
    console.error(`pack-ci: ${part} is missing; run npm run build:action first`);
    process.exit(1);
  }
}

const root = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const stage = mkdtempSync(path.join(tmpdir(), 'scanward-ci-pack-'));
try {
  cpSync(path.join(ROOT, 'dist/ci'), path.join(stage, 'ci'), { recursive: true });
  cpSync(path.join(ROOT, 'dist/local'), path.join(stage, 'local'), { recursive: true });
  const manifest = {
    name: 'scanward-ci',
    version: root.version,
    description: 'Scanward scans, gates and reports for any CI: the scanward-ci command, bundled',
    type: 'module',
    license: root.license,
    engines: root.engines,
    bin: { 'scanward-ci': 'ci/index.js' },
    files: ['ci', 'local'],
  };
  writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  mkdirSync(out, { recursive: true });
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', out], {
      cwd: stage,
      encoding: 'utf8',
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
    }),
  );
  console.log(path.join(out, packed[0].filename));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
