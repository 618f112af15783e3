import { stringOptions, type OptionGroup } from './group.ts';

/** Which scan to follow and how: `--scan-id`, `--wait`/`--no-wait`, the timeout, stream or poll, the key. */
export const followOptions: OptionGroup = {
  options: {
    ...stringOptions(
      'scan-id',
      'wait',
      'timeout-minutes',
      'follow',
      'poll-interval-seconds',
      'idempotency-key',
    ),
    'no-wait': { type: 'boolean' },
  },
  help: `  --scan-id ID                 follow an existing scan instead of creating one
  --wait true|false            false: create the scan, print its id, exit 0
  --no-wait                    the same as --wait false
  --timeout-minutes N          cancel the scan and exit 3 after N minutes (default 30)
  --follow stream|poll         stream (default): follow the scan through the service's
                               event stream, one request however long it runs, polling
                               when the stream is not available; poll: a status check
                               every --poll-interval-seconds
  --poll-interval-seconds N    between status checks when polling (default 10)
  --idempotency-key KEY        default: derived from the CI job, or random
`,
  input: (name, values) => (name === 'wait' && values['no-wait'] ? 'false' : undefined),
};
