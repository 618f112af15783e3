/**
 * The entry of the local engine's bundle (`dist/local/engine.mjs`, built by
 * `npm run build:action` with esbuild: server/cli/build-local-engine.mjs). The Action and
 * `scanward-ci` load it at run time, by path, when `mode: local` (`--local`) asks for a scan in
 * the job; it implements `LocalEngine` (server/schemas/local-scan.ts).
 */
import type { LocalEngine } from '../schemas/local-scan.ts';
import { runLocalScan } from './run-local-scan.ts';

export { runLocalScan };

export const engine: LocalEngine = { runLocalScan };
