import type { Command } from 'commander';
import { installTemplates } from '../scanner/templates/install.ts';
import { CliError } from './errors.ts';
import type { CliContext } from './context.ts';

/** `scanward templates update [--from FILE]`: install the nuclei-templates corpus into the data directory. */
export function registerTemplatesCommand(program: Command, context: CliContext): void {
  program
    .command('templates')
    .description('nuclei-format templates')
    .command('update')
    .description(
      'install the public nuclei-templates corpus into the data directory (scans use it automatically)',
    )
    .option('--from <file>', 'an offline tarball of the corpus instead of the latest GitHub release')
    .action(async (opts: { from?: string }) => {
      const dataDir = context.env.SCANWARD_DATA_DIR ?? './data';
      let result;
      try {
        result = await installTemplates({ dataDir, ...(opts.from && { from: opts.from }) });
      } catch (err) {
        throw new CliError((err as Error).message);
      }
      context.stdout(
        `installed ${result.source} into ${result.directory}` +
          `${result.license ? '' : ' (warning: no LICENSE.md in the archive; keep the MIT notice with the templates)'}\n` +
          'restart the runners to load it\n',
      );
    });
}
