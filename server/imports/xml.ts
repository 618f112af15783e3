import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ReportError } from './report.ts';

/**
 * XML reports are hostile input. fast-xml-parser never fetches anything (it has no
 * resolver for external entities or DTDs), and on top of that:
 *
 * - a document type declaration with an internal subset (`<!DOCTYPE x [ … ]>`, where
 *   entities are declared) or an external identifier (`SYSTEM`/`PUBLIC`, the XXE forms)
 *   is refused before parsing: 422 naming its line. A bare `<!DOCTYPE nmaprun>`, as nmap
 *   writes, declares nothing and is accepted;
 * - so no entity beyond XML's five predefined ones and character references is ever
 *   expanded, and a billion-laughs document is refused by that first look, in time
 *   linear in its size;
 * - element nesting is bounded (MAX_DEPTH), and the parser's own entity limits are set
 *   low as a second line.
 */

/** Deepest element nesting accepted; real reports nest under 15 levels. */
export const MAX_DEPTH = 64;

const DOCTYPE = /<!DOCTYPE\b/gi;

function lineOf(source: string, index: number): number {
  let line = 1;
  for (let i = source.indexOf('\n'); i !== -1 && i < index; i = source.indexOf('\n', i + 1)) line++;
  return line;
}

/** Throws when the document declares a DTD that could define or fetch entities. */
export function refuseDtd(source: string): void {
  for (const match of source.matchAll(DOCTYPE)) {
    const end = source.indexOf('>', match.index);
    const declaration = source.slice(match.index, end === -1 ? undefined : end + 1);
    if (/\[|\bSYSTEM\b|\bPUBLIC\b/i.test(declaration)) {
      throw new ReportError(
        `line ${lineOf(source, match.index)}: a document type declaration with entities or an external DTD is not accepted (entities and DTDs are never resolved)`,
      );
    }
  }
  const entity = /<!ENTITY\b/i.exec(source);
  if (entity)
    throw new ReportError(`line ${lineOf(source, entity.index)}: entity declarations are not accepted`);
}

/** Throws, naming the line, when elements nest deeper than MAX_DEPTH (a cheap pass before the parser). */
function refuseDeepNesting(source: string): void {
  let depth = 0;
  const tag = /<(\/?)([A-Za-z_][^\s/>]*)[^>]*?(\/?)>|<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<[?!][^>]*>/g;
  for (const m of source.matchAll(tag)) {
    if (m[2] === undefined) continue;
    if (m[1] === '/') depth--;
    else if (m[3] !== '/') depth++;
    if (depth > MAX_DEPTH) {
      throw new ReportError(
        `line ${lineOf(source, m.index)}: elements nest deeper than ${MAX_DEPTH} levels at <${m[2]}>`,
      );
    }
  }
}

/**
 * Parses an XML report into plain objects: attributes as `@name`, text as `#text` where an
 * element has attributes too, every value a string. Throws ReportError naming the line and
 * column of the first error.
 */
export function parseXml(source: string, arrays: ReadonlySet<string> = new Set()): Record<string, unknown> {
  refuseDtd(source);
  refuseDeepNesting(source);
  const valid = XMLValidator.validate(source, { allowBooleanAttributes: true });
  if (valid !== true) {
    const { line, col, msg } = valid.err;
    throw new ReportError(`line ${line}, column ${col}: ${msg}`);
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    textNodeName: '#text',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    maxNestedTags: MAX_DEPTH,
    // Declared entities were refused above; these limits hold should one slip through. The
    // predefined entities and character references (which only shrink text) are not limited.
    processEntities: { enabled: true, maxEntityCount: 1, maxEntitySize: 1, maxExpansionDepth: 1 },
    // Character references (&#xa;) and HTML's fixed table of named ones: a lookup, never an expansion.
    htmlEntities: true,
    isArray: (name) => arrays.has(name),
  });
  try {
    return parser.parse(source) as Record<string, unknown>;
  } catch (err) {
    throw new ReportError(`the XML does not parse: ${(err as Error).message}`);
  }
}
