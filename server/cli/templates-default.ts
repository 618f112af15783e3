/**
 * Rebuilds the curated default template set (`npm run templates:default -- …`) from a
 * nuclei-templates corpus tarball, at a named upstream commit, against the CISA KEV catalogue,
 * into server/scanner/templates/default/ (or --out DIR). Review the diff before committing.
 */
import { buildFromTarball, writeDefaultSet } from '../scanner/templates/default-set.ts';
import { DEFAULT_TEMPLATES_DIR } from '../scanner/templates/sources.ts';

async function main(argv: string[]): Promise<void> {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i === -1 ? undefined : argv[i + 1];
  };
  const from = arg('from');
  const commit = arg('commit');
  const kevFile = arg('kev');
  if (!from || !commit || !kevFile) {
    console.error(
      'usage: npm run templates:default -- --from CORPUS.tar.gz --commit SHA --kev CISA-KEV.json [--out DIR]',
    );
    process.exit(2);
  }
  const built = await buildFromTarball({ from, commit, kevFile });
  const out = arg('out') ?? DEFAULT_TEMPLATES_DIR;
  await writeDefaultSet(out, built);
  console.log(
    `${built.manifest.templates.length} templates written to ${out}: ${JSON.stringify(built.manifest.counts)}`,
  );
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});
