import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Microsoft's SARIF Multitool with the GitHub ingestion rules and the SARIF
 * rules (`validate --rule-kind "Gh;Sarif"`), the validator GitHub's
 * documentation points to. It is a .NET binary shipped in the npm package
 * @microsoft/sarif-multitool, not a project dependency: .ci/run installs it and
 * exports SARIF_MULTITOOL (docs/github-action.md says how). Without it the
 * tests that need it skip.
 */

/** The platform binary; the npm wrapper (`sarif-multitool`) runs it through a shell that splits "Gh;Sarif". */
function multitoolBinary(path: string): string {
  if (basename(path) !== 'sarif-multitool' && !path.endsWith('bin.js')) return path;
  const packageDir = dirname(realpathSync(path));
  return join(dirname(packageDir), `sarif-multitool-${process.platform}`, 'Sarif.Multitool');
}

const configured = process.env.SARIF_MULTITOOL;
export const multitool = configured && existsSync(configured) ? multitoolBinary(configured) : undefined;

interface ValidationLog {
  runs: Array<{
    results?: Array<{ ruleId?: string; level?: string; message?: { text?: string } }>;
    invocations?: Array<{
      toolExecutionNotifications?: Array<{ level?: string; message?: { text?: string } }>;
      toolConfigurationNotifications?: Array<{ level?: string; message?: { text?: string } }>;
    }>;
  }>;
}

/** Validates the SARIF text; answers every error or warning, as `ruleId message`. */
export async function validateSarif(
  dir: string,
  name: string,
  sarif: string,
): Promise<{ problems: string[]; stdout: string }> {
  if (!multitool) throw new Error('SARIF_MULTITOOL is not set');
  const input = join(dir, `${name}.sarif`);
  const output = join(dir, `${name}.validation.sarif`);
  await writeFile(input, sarif);
  const run = spawnSync(multitool, ['validate', '--rule-kind', 'Gh;Sarif', '--output', output, input], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (run.error) throw run.error;
  const log = JSON.parse(await readFile(output, 'utf8')) as ValidationLog;
  const problems = log.runs.flatMap((r) => [
    ...(r.results ?? []).filter((x) => x.level === 'error' || x.level === 'warning' || x.level === undefined),
    ...(r.invocations ?? []).flatMap((i) => [
      ...(i.toolExecutionNotifications ?? []).filter((n) => n.level === 'error'),
      ...(i.toolConfigurationNotifications ?? []).filter((n) => n.level === 'error'),
    ]),
  ]);
  return {
    problems: problems.map((p) => `${'ruleId' in p ? p.ruleId : ''} ${p.message?.text ?? ''}`),
    stdout: run.stdout,
  };
}
