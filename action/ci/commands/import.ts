import { ConfigurationError } from '../../core/errors.ts';
import { stringOptions, type OptionGroup, type Values } from './group.ts';

/** `scanward-ci import FILE` (or `--import-file`): a report imported as a completed scan. */
export const importOptions: OptionGroup = {
  options: stringOptions('import-file', 'import-format'),
  help: `  --import-file FILE           import this report (nuclei, ZAP, nmap, OpenVAS or Scanward
                               JSON) as a completed scan of --target instead of scanning;
                               \`scanward-ci import FILE\` is the same  (SCANWARD_IMPORT_FILE)
  --import-format FORMAT       nuclei, zap, nmap, openvas, scanward (default: detected)
`,
};

/** `import FILE`: the report as a positional argument, into `values['import-file']`. */
export function importCommand(positionals: string[], values: Values): void {
  if (positionals[0] !== 'import' || positionals.length !== 2)
    throw new ConfigurationError(
      `unexpected argument "${positionals.join(' ')}"; the commands are \`scan\` and \`import FILE\`.\nRun scanward-ci --help for the options.`,
    );
  if (typeof values['import-file'] === 'string')
    throw new ConfigurationError('give the report once: `import FILE` or --import-file, not both.');
  values['import-file'] = positionals[1];
}
