import { stringOptions, type OptionGroup } from './group.ts';

/** `scanward-ci scan --local`: the engine runs in the job (`--local` is `mode: local`), `--asset`. */
export const localOptions: OptionGroup = {
  options: { ...stringOptions('mode', 'asset'), local: { type: 'boolean' } },
  help: `  --local                      run Scanward's engine here, in the job, against --target, a
                               URL only this job reaches (http://localhost:8080): that host
                               and port only. --api-url and a key are then optional: with
                               them the result is recorded as a scan of --asset, so --gate
                               new compares with what the service knows  (SCANWARD_MODE=local)
  --asset NAME                 the stable name a local scan is recorded under
                               (default: <repository>:<target>)
`,
  input: (name, values) => (name === 'mode' && values.local ? 'local' : undefined),
};
