#!/usr/bin/env node
// The `scanward` operator command line: the built JavaScript (`npm run build`, which `npm install`
// runs), in this process, so exit codes and signals pass straight through. A checkout whose
// sources changed since the last build is rebuilt first (a no-op when nothing changed).
import { buildIfStale } from '../server/cli/build.mjs';

try {
  await buildIfStale();
} catch (error) {
  console.error(`scanward: the JavaScript build is stale and could not be redone: ${error.message}`);
  process.exit(1);
}
await import('../server/cli/main.js');
