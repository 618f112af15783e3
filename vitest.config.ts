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
