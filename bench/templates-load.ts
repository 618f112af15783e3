/**
 * Loading the whole public nuclei-templates corpus (`../shared/data`, its http/, network/ and
 * ssl/ folders) as a scan does, against how it was loaded before:
 *
 * - `before`: `loadTemplates` on the calling thread, parsing every file (yielding every 25 files);
 * - `worker, cold`: `loadTemplatesInWorker` with an empty compiled-template cache (first start);
 * - `worker, cached`: the same with the cache the cold run wrote (every later start).
 *
 * For each, the wall-clock time until the template set is usable and the longest the calling
 * thread's event loop went without a turn (perf_hooks.monitorEventLoopDelay), median of the runs.
 *
 *   npx tsx bench/templates-load.ts [runs=3]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadTemplatesInWorker } from '../server/scanner/templates/corpus.ts';
import { loadTemplates, type TemplateSet } from '../server/scanner/templates/template-set.ts';

const runs = Number(process.argv[2] ?? 3);
const CORPUS = fileURLToPath(new URL('../../shared/data/nuclei-templates-9424c7c.tar.gz', import.meta.url));
if (!existsSync(CORPUS)) {
  console.log(`skipped: ${CORPUS} is absent`);
  process.exit(0);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function measure(
  load: () => Promise<TemplateSet>,
): Promise<{ ms: number; stallMs: number; set: TemplateSet }> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  const set = await load();
  const ms = performance.now() - started;
  delay.disable();
  return { ms, stallMs: delay.max / 1e6, set };
}

const work = mkdtempSync(join(tmpdir(), 'scanward-bench-templates-'));
try {
  execFileSync('tar', ['-xzf', CORPUS, '-C', work, 'http', 'network', 'ssl']);
  const rows: string[] = [];
  let set: TemplateSet | undefined;
  const row = async (name: string, load: (i: number) => Promise<TemplateSet>): Promise<void> => {
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await measure(() => load(i)));
    set = results[0]!.set;
    rows.push(
      `| ${name} | ${(median(results.map((r) => r.ms)) / 1000).toFixed(2)} s | ` +
        `${median(results.map((r) => r.stallMs)).toFixed(0)} ms |`,
    );
  };
  await row('before: on the calling thread, no cache', () => loadTemplates(work));
  await row('worker, cold (empty cache)', (i) =>
    loadTemplatesInWorker(work, { cacheDir: join(work, `.cold-${i}`) }),
  );
  const warm = join(work, '.cache');
  await loadTemplatesInWorker(work, { cacheDir: warm });
  await row('worker, cached', () => loadTemplatesInWorker(work, { cacheDir: warm }));
  const s = set!;
  console.log(
    `${s.stats.files} files: ${s.templates.length} http, ${s.network.length} network, ${s.ssl.length} ssl templates ` +
      `loaded; ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(1)}; median of ${runs} runs\n`,
  );
  console.log('| corpus load | until usable | longest event-loop stall |');
  console.log('| --- | ---: | ---: |');
  for (const r of rows) console.log(r);
} finally {
  rmSync(work, { recursive: true, force: true });
}
