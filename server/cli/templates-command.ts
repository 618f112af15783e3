import type { Command } from 'commander';
import { installTemplates, SIGNATURE_REPORT, type SignatureReport } from '../scanner/templates/install.ts';
import { CliError } from './errors.ts';
import type { CliContext } from './context.ts';
import { emit } from './output.ts';

/** Paths listed at most per kind of problem; the rest are in the tree's signatures.json. */
const LISTED = 20;

const plural = (n: number, word: string): string =>
  `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

function list(paths: string[]): string {
  const shown = paths.slice(0, LISTED).map((p) => `  ${p}\n`);
  if (paths.length > LISTED) shown.push(`  … and ${paths.length - LISTED} more (see ${SIGNATURE_REPORT})\n`);
  return shown.join('');
}

/** The warnings about templates that did not verify (empty when all did). */
function signatureWarnings(report: SignatureReport): string {
  const fate = report.installed_unverified ? 'installed anyway (--allow-unsigned)' : 'left out';
  let out = '';
  if (report.unsigned.length > 0)
    out += `warning: ${plural(report.unsigned.length, 'unsigned template')} ${fate}:\n${list(report.unsigned)}`;
  if (report.mismatched.length > 0)
    out +=
      `warning: ${plural(report.mismatched.length, 'template')} whose signature does not match ${fate}:\n` +
      list(report.mismatched.map((m) => `${m.path} (${m.reason})`));
  if (out && !report.allow_unsigned) out += 'install them anyway with --allow-unsigned\n';
  return out;
}

/**
 * `scanward templates update [--from FILE] [--allow-unsigned] [--json]`: install the
 * nuclei-templates corpus into the data directory, verifying every template's signature. The
 * warnings about templates that did not verify go to stderr; `--json` prints the result (the
 * signature report included) instead of the text.
 */
export function registerTemplatesCommand(program: Command, context: CliContext): void {
  program
    .command('templates')
    .description('nuclei-format templates')
    .command('update')
    .description(
      'install the public nuclei-templates corpus into the data directory (scans use it automatically); ' +
        'templates without a valid ProjectDiscovery signature are left out',
    )
    .option('--from <file>', 'an offline tarball of the corpus instead of the latest GitHub release')
    .option('--allow-unsigned', 'also install templates that are unsigned or whose signature does not match')
    .option('--json', 'print machine-readable JSON')
    .action(async (opts: { from?: string; allowUnsigned?: boolean; json?: boolean }) => {
      const dataDir = context.env.SCANWARD_DATA_DIR ?? './data';
      let result;
      try {
        result = await installTemplates({
          dataDir,
          ...(opts.from && { from: opts.from }),
          allowUnsigned: opts.allowUnsigned === true,
        });
      } catch (err) {
        throw new CliError((err as Error).message);
      }
      const { signatures } = result;
      context.stderr(signatureWarnings(signatures));
      emit(
        context,
        opts.json === true,
        result,
        () =>
          `installed ${result.source} into ${result.directory}` +
          `${result.license ? '' : ' (warning: no LICENSE.md in the archive; keep the MIT notice with the templates)'}\n` +
          `signatures: ${signatures.verified.toLocaleString('en-US')} of ${plural(signatures.templates, 'template')} ` +
          `verified against ${signatures.key.name} (certificate SHA-256 ${signatures.key.certificate_sha256})\n` +
          'restart the runners to load it',
      );
    });
}
