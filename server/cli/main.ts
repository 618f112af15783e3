import { runCli } from './program.ts';

/** Entry of the `scanward` operator command line: wires the process into runCli. */

// Standard output carries only what the command prints (ids, tables, JSON).
// Libraries that print with console.log (knex warns that way) go to standard error.
const toStderr = (...items: unknown[]) => console.error(...items);
console.log = toStderr;
console.info = toStderr;
console.debug = toStderr;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  readStdin,
});
