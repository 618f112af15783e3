import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { testsUsingADatabase } from './test/database-tests.ts';

/** `npm run test:database`: only the tests that use a database (CI's PostgreSQL run). */
const databaseOnly = process.env.SCANWARD_TESTS === 'database';

export default defineConfig({
  test: {
    include: databaseOnly
      ? testsUsingADatabase(fileURLToPath(new URL('.', import.meta.url)))
      : ['test/**/*.test.ts'],
    // The JavaScript build the process tests start (`npm start` runs it), brought up to date once.
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker process runs many test files and keeps the modules it loaded: the server's modules
    // load once per worker instead of once per file (the PGlite run went from ~500 s to ~355 s,
    // its `import` time from 225 s to 23 s). Test files therefore share module state: each starts
    // apps, databases and fixtures of its own, and a module-level cache must be keyed by what
    // differs between them (the template corpus is kept per cache directory, say). The shuffled
    // order below is what would catch a file that leaned on what another left behind.
    isolate: false,
    // CI has two cores, and the integration tests wait on sockets, child processes and timers
    // about half of their time: a third worker keeps both cores busy (the PostgreSQL run went
    // from ~500 s to ~290 s) without starving the tests that bound a response time.
    maxWorkers: 3,
    env: { NODE_ENV: 'test', LOG_LEVEL: 'silent' },
    // Files and the tests inside them run in a random order, so a test that leans on another's
    // rows fails here rather than the day someone reorders a file. vitest prints the seed
    // ("Running tests with seed …"); `npx vitest run <files> --sequence.seed=<seed>` replays it.
    sequence: { shuffle: true },
  },
});
