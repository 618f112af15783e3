// Where a server process's memory goes, subsystem by subsystem: the built service (`npm run
// build`'s JavaScript, no TypeScript loader, as `npm start` runs it) brought up one step at a
// time in this process, with a garbage collection and a reading of `process.memoryUsage()`
// after each step. Run by bench/footprint.ts as
//
//   node --expose-gc bench/footprint-stages.mjs            (PGlite in a fresh data directory)
//   DATABASE_URL=postgres://… node --expose-gc bench/footprint-stages.mjs
//
// and prints one JSON line per step on standard output. Loopback only: the API listens on
// 127.0.0.1 and nothing here scans.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const dataDir = process.env.FOOTPRINT_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'scanward-footprint-'));
const env = {
  ...process.env,
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'silent',
  SCANWARD_DATA_DIR: dataDir,
  SCANWARD_SCAN_ALLOW: '127.0.0.0/8,::1,localhost',
  SCANWARD_ADMIN_PASSWORD: 'footprint-bench-password',
};

let previous = 0;
async function measure(step) {
  // Twice, with a pause: weak references and finalizers let go on the second pass.
  for (let i = 0; i < 2; i++) {
    if (!process.env.FOOTPRINT_NO_GC) globalThis.gc();
    await sleep(100);
  }
  const m = process.memoryUsage();
  const mb = (n) => Math.round((n / 1048576) * 10) / 10;
  console.log(
    JSON.stringify({
      step,
      rss: mb(m.rss),
      delta: mb(m.rss - previous),
      heapUsed: mb(m.heapUsed),
      heapTotal: mb(m.heapTotal),
      external: mb(m.external),
      arrayBuffers: mb(m.arrayBuffers),
    }),
  );
  previous = m.rss;
}

await measure('node itself');
const { loadConfig } = await import('../server/config.js');
const { createLogger } = await import('../server/logger.js');
await measure('configuration and logger modules');
const config = loadConfig(env);
const logger = createLogger('silent');

const { startRuntime } = await import('../server/runtime.js');
await measure('database and migration modules');
const runtime = await startRuntime(config, logger);
await measure(`database open and migrated (${runtime.database.engine})`);

const { createApp } = await import('../server/app.js');
const { createHttpServer } = await import('../server/http/server.js');
const { startBackgroundWork } = await import('../server/background.js');
const { bootstrapIfEmpty } = await import('../server/people/bootstrap.js');
await measure('API, routes and engine modules');
await bootstrapIfEmpty(runtime.services.db, config);
const server = createHttpServer(createApp(runtime.services).callback(), config.http);
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;
await measure('app built and listening');

const login = await fetch(`${base}/api/v1/auth/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ username: 'admin@localhost', password: env.SCANWARD_ADMIN_PASSWORD }),
});
const authorization = `Bearer ${(await login.json()).access_token}`;
for (const url of ['/api/health', '/', '/openapi.json', '/api/v1/scans', '/api/v1/findings']) {
  const res = await fetch(base + url, { headers: { authorization } });
  await res.arrayBuffer();
}
await measure('first requests answered (log-in, health, console, OpenAPI document, lists)');

const background = startBackgroundWork(runtime.services, config.role);
await measure('runner, scheduler, webhook worker started');

const { prepareSweepThreads, stopSweepThreads } = await import('../server/scanner/net/sweep-threads.js');
prepareSweepThreads(config.scanThreads);
// A thread is loaded once it answers; an empty sweep round-trips through every thread.
const { startThreadLanes } = await import('../server/scanner/net/sweep-threads.js');
const lanes = startThreadLanes(config.scanThreads, { ports: [1] }, () => ({
  onOpenPort() {},
  onHostDone() {},
  onProgress() {},
}));
for (const lane of lanes) lane.end();
await Promise.all(lanes.map((lane) => lane.finished));
await measure(`sweep threads (${config.scanThreads}) loaded`);

const { eolSnapshot, kevSnapshot } = await import('../server/intel/snapshots.js');
eolSnapshot();
kevSnapshot();
await measure('intelligence snapshots (end-of-life, KEV) read');

const { templatesIn, templateCacheDir } = await import('../server/scanner/templates/corpus.js');
const { DEFAULT_TEMPLATES_DIR } = await import('../server/scanner/templates/sources.js');
const set = await templatesIn(DEFAULT_TEMPLATES_DIR, { cacheDir: templateCacheDir(dataDir) });
await measure(`default template set loaded (${set.stats.loaded} templates, compiled: cold cache)`);

const pdf = await fetch(`${base}/api/v1/findings/export?format=pdf`, { headers: { authorization } });
await pdf.arrayBuffer();
await measure(`PDF report rendered (HTTP ${pdf.status})`);

await background.stop();
await stopSweepThreads();
await new Promise((resolve) => server.close(resolve));
await runtime.database.close();
if (!process.env.FOOTPRINT_DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
