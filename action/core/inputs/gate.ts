import { FAIL_ON_VALUES, type FailOn, type GateMode } from '../gate.ts';
import { parseChoice, type InputReader } from './read.ts';

/** The gate group: at which severity the build fails (`fail-on`) and which findings count (`gate`). */
export function parseGateInputs(input: InputReader): {
  failOn: FailOn | undefined;
  mode: GateMode | undefined;
} {
  const failOn = parseChoice(
    input,
    'fail-on',
    'high',
    FAIL_ON_VALUES,
    (raw) => `\`fail-on\` is "${raw}"; use one of ${FAIL_ON_VALUES.join(', ')}.`,
  );
  const mode = parseChoice(
    input,
    'gate',
    'all',
    ['all', 'new'] as const,
    (raw) =>
      `\`gate\` is "${raw}"; use all (every open finding counts) or new (only findings this scan found first or reopened).`,
  );
  return { failOn, mode };
}
