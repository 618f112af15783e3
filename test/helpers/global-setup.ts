/**
 * vitest's global set-up: makes the JavaScript build (`npm run build`) current before any test
 * runs, so the tests that start the service as a process (test/helpers/server-process.ts, the
 * `scanward` binary, test/integration/main/) run what `npm start` runs, from the sources under
 * test. A no-op when nothing changed since the last build; esbuild takes a few seconds otherwise.
 */
import { buildIfStale } from '../../server/cli/build.mjs';

export default async function setup(): Promise<void> {
  await buildIfStale();
}
