import type { OpenOperatorDatabase } from '../../server/cli/database.ts';
import { runCli } from '../../server/cli/program.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the operator command line (`scanward …`) in this process with the given
 * environment and standard input, and answers its exit code and output.
 */
export async function runCliCaptured(
  argv: string[],
  env: NodeJS.ProcessEnv,
  options: { stdin?: string; openDatabase?: OpenOperatorDatabase } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    env,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readStdin: async () => options.stdin ?? '',
    ...(options.openDatabase ? { openDatabase: options.openDatabase } : {}),
  });
  return { code, stdout, stderr };
}
