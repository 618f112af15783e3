import { afterAll, beforeAll } from 'vitest';
import type { Services } from '../../server/services.ts';
import { startTestApp, type TestApp, type TestAppOptions } from './app.ts';

/** The app of one describe block; read it inside tests and hooks, once it has started. */
export interface SuiteApp {
  readonly app: TestApp;
  /** The app's database (`app.services.db`). */
  readonly db: Services['db'];
}

/**
 * Starts the real app ({@link startTestApp}) before the tests of the calling describe block
 * and closes it after them. Options that depend on something a hook starts first (a fixture
 * server's port) are given as a function, called when the app starts. Its `beforeAll` runs
 * before the hooks declared after the call, and its `afterAll` after theirs.
 */
export function useTestApp(
  options: TestAppOptions | (() => TestAppOptions | Promise<TestAppOptions>) = {},
): SuiteApp {
  let started: TestApp | undefined;
  beforeAll(async () => {
    started = await startTestApp(typeof options === 'function' ? await options() : options);
  });
  afterAll(async () => {
    await started?.close();
  });
  const app = (): TestApp => {
    if (!started) throw new Error('the suite app has not started: use it inside a test or a hook');
    return started;
  };
  return {
    get app() {
      return app();
    },
    get db() {
      return app().services.db;
    },
  };
}
