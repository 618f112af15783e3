import { resolve } from 'node:path';
import type { LocalEngine } from '../../server/schemas/local-scan.ts';
import type { ActionInputs } from '../core/inputs.ts';
import type { ScanOutcome } from '../core/scan-source.ts';
import { localScanSource } from '../local/local-scan.ts';
import { httpDeps } from '../service/http.ts';
import { remoteScanSource } from '../service/remote-scan.ts';
import { USER_AGENT, type ActionDeps } from './action-deps.ts';
import { runUrl } from './context.ts';

/**
 * The scan step of a run: the scan source the inputs ask for (the service, or the engine in
 * this job), run to its end in a log group, with `scan-id` and `report-url` set as soon as
 * the scan has an id.
 */
export async function runScan(deps: ActionDeps, inputs: ActionInputs): Promise<ScanOutcome> {
  const { core, context } = deps;
  const log = {
    info: (m: string) => core.info(m),
    warning: (m: string) => core.warning(m),
    debug: (m: string) => core.debug(m),
  };
  const http = httpDeps(deps, (m) => core.info(m));
  const onSecret = (secret: string) => core.setSecret(secret);
  const source =
    inputs.mode === 'local'
      ? localScanSource(inputs.local!, {
          log,
          loadEngine: deps.loadEngine ?? missingEngine,
          sinceStart: deps.sinceStart ?? (() => 0),
          service: inputs.service && {
            inputs: inputs.service,
            http,
            userAgent: USER_AGENT,
            onSecret,
            idToken: (audience: string) => core.getIDToken(audience),
          },
          runUrl: runUrl(context),
          cacheDir: deps.cacheDir,
          signal: deps.signal,
        })
      : remoteScanSource(inputs.service!, {
          log,
          http,
          userAgent: USER_AGENT,
          onSecret,
          idToken: (audience) => core.getIDToken(audience),
          readFile: deps.readFile && ((path) => deps.readFile!(resolve(deps.cwd, path))),
        });
  return core.group(inputs.mode === 'local' ? 'Scanward scan in this job' : 'Scanward scan', () =>
    source.run(inputs.scan, {
      onScan: (scanId, links) => {
        core.setOutput('scan-id', scanId);
        core.setOutput('report-url', links.reportUrl);
      },
    }),
  );
}

async function missingEngine(): Promise<LocalEngine> {
  throw new Error('this build of the Action has no local engine (dist/local/engine.mjs)');
}
