// Entry of a worker thread started by worker-source.ts: registers tsx when the module is
// TypeScript run from source (Node 20 workers do not inherit the loader hooks), then runs it.
// The module reads its own data as `workerData.data`.
import { workerData } from 'node:worker_threads';

if (workerData.tsxUrl) (await import(workerData.tsxUrl)).register();
await import(workerData.moduleUrl);
