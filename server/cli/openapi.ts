import { pathToFileURL } from 'node:url';
import { openApiDocument } from '../routes/docs.ts';
import { VERSION } from '../version.ts';

/**
 * Prints the OpenAPI document on stdout: `npm run openapi` writes it to
 * docs/openapi.json, and `npm run check:drift` compares the two.
 */
export function renderOpenApi(version: string = VERSION): string {
  return `${JSON.stringify(openApiDocument(version), null, 2)}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.stdout.write(renderOpenApi());
