/**
 * A sweep thread (started by `sweep-threads.ts`): runs the lanes the coordinator on the main
 * thread gives it, one per sweep in progress, and sends back what they find. The messages are
 * those of `SweepThreadRequest` and `SweepThreadReport`.
 */
import { parentPort } from 'node:worker_threads';
import { SweepLane, type LaneEvents } from './sweep-lane.ts';
import type { SweepThreadReport, SweepThreadRequest } from './sweep-threads.ts';

const port = parentPort!;
const lanes = new Map<number, SweepLane>();
const send = (report: SweepThreadReport): void => port.postMessage(report);

function eventsOf(sweep: number): LaneEvents {
  return {
    onOpenPort: (id, openPort, smoothedRttMs) =>
      send({ kind: 'open', sweep, id, port: openPort, smoothedRttMs }),
    onHostDone: (result) => send({ kind: 'host', sweep, result }),
    onProgress: (done) => send({ kind: 'progress', sweep, done }),
  };
}

port.on('message', (request: SweepThreadRequest) => {
  switch (request.kind) {
    case 'start': {
      const lane = new SweepLane(request.options, eventsOf(request.sweep));
      lanes.set(request.sweep, lane);
      lane.finished
        .then(
          (stats) => send({ kind: 'finished', sweep: request.sweep, stats }),
          (error: unknown) =>
            send({
              kind: 'failed',
              sweep: request.sweep,
              name: error instanceof Error ? error.name : 'Error',
              message: error instanceof Error ? error.message : String(error),
            }),
        )
        .finally(() => lanes.delete(request.sweep));
      break;
    }
    case 'add':
      lanes.get(request.sweep)?.add(request.job);
      break;
    case 'end':
      lanes.get(request.sweep)?.end();
      break;
    case 'abort':
      lanes.get(request.sweep)?.abort(new Error('aborted'));
      break;
  }
});
