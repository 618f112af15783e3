import type { OpenOperatorDatabase } from './database.ts';
import type { Output } from './output.ts';

/** Everything the command line touches outside itself, so tests can run it in-process. */
export interface CliContext extends Output {
  /** The environment the database configuration is read from (as the server reads it). */
  env: NodeJS.ProcessEnv;
  /** All of standard input, for `--password -`. */
  readStdin(): Promise<string>;
  /** How to open the database; defaults to the server's database from `env`. */
  openDatabase?: OpenOperatorDatabase;
}
