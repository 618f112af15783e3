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

function lineOf(source: string, index: number): number {
  let line = 1;
  for (let i = source.indexOf('\n'); i !== -1 && i < index; i = source.indexOf('\n', i + 1)) line++;
  return line;
}

const refusal = (source: string, index: number, what: string) =>
  new ReportError(`line ${lineOf(source, index)}: ${what}`);

/** Whether `source` holds `word` at `at`, ASCII letters compared without case. */
function startsWithAt(source: string, at: number, word: string, ignoreCase = false): boolean {
  if (!ignoreCase) return source.startsWith(word, at);
  return source.slice(at, at + word.length).toUpperCase() === word;
}

const isNameStart = (c: number) =>
  (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x3a || c > 0x7f;
const isNameEnd = (c: number) =>
  c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x2f || c === 0x3e;

/** The end (index past `close`) of a construct opened at `from`, or a refusal when it never closes. */
function closing(source: string, from: number, close: string, what: string): number {
  const end = source.indexOf(close, from);
  if (end === -1) throw refusal(source, from, `${what} is never closed`);
  return end + close.length;
}

/**
 * The first look at an XML report, before any parser sees it: one pass over the text, each
 * character read a bounded number of times (no regular expression, no search that starts
 * again from an earlier place), so its time is linear in the report's size whatever the
 * bytes. It refuses, naming the line:
 *
 * - a document type declaration with an internal subset (`[`) or an external identifier
 *   (`SYSTEM`, `PUBLIC`), a second one, or one that is never closed; a bare
 *   `<!DOCTYPE nmaprun>` (as nmap writes) passes;
 * - any other markup declaration (`<!ENTITY`, `<!ELEMENT`, …);
 * - a tag that is never closed or holds a `<` (`<a<a<a…`), a `<` not starting markup;
 * - elements nesting deeper than MAX_DEPTH;
 *
 * and answers the root element's name (format detection). Comments, CDATA sections and
 * processing instructions are skipped whole.
 */
export function scanXml(source: string): { root: string | undefined } {
  let depth = 0;
  let root: string | undefined;
  let doctype = false;
  let i = source.indexOf('<');
  while (i !== -1) {
    const next = source.charCodeAt(i + 1);
    if (next === 0x21 /* ! */) {
      if (source.startsWith('<!--', i)) i = closing(source, i + 4, '-->', 'a comment');
      else if (source.startsWith('<![CDATA[', i)) i = closing(source, i + 9, ']]>', 'a CDATA section');
      else if (startsWithAt(source, i, '<!DOCTYPE', true)) {
        if (doctype || root !== undefined)
          throw refusal(source, i, 'a second or misplaced document type declaration is not accepted');
        doctype = true;
        i = doctypeEnd(source, i);
      } else if (startsWithAt(source, i, '<!ENTITY', true)) {
        throw refusal(source, i, 'entity declarations are not accepted');
      } else throw refusal(source, i, 'markup declarations are not accepted');
    } else if (next === 0x3f /* ? */) {
      i = closing(source, i + 2, '?>', 'a processing instruction');
    } else if (next === 0x2f /* / */) {
      i = tagEnd(source, i, i + 2);
      depth--;
    } else if (isNameStart(next)) {
      let j = i + 1;
      while (j < source.length && !isNameEnd(source.charCodeAt(j)) && source.charCodeAt(j) !== 0x3c) j++;
      const name = source.slice(i + 1, j);
      root ??= name;
      const end = tagEnd(source, i, j);
      if (source.charCodeAt(end - 2) !== 0x2f /* / */ && ++depth > MAX_DEPTH)
        throw refusal(source, i, `elements nest deeper than ${MAX_DEPTH} levels at <${name}>`);
      i = end;
    } else {
      throw refusal(source, i, "a '<' that starts no tag (write it as &lt;)");
    }
    i = source.indexOf('<', i);
  }
  return { root };
}

/** The end (past `>`) of the tag opened at `start`, read from `from`; quoted values skipped whole. */
function tagEnd(source: string, start: number, from: number): number {
  for (let j = from; j < source.length; j++) {
    const c = source.charCodeAt(j);
    if (c === 0x3e /* > */) return j + 1;
    if (c === 0x3c /* < */) throw refusal(source, start, "a tag is not closed before the next '<'");
    if (c === 0x22 || c === 0x27) {
      // A quoted value, read to its closing quote (a '<' in it is refused, as XML does).
      let k = j + 1;
      for (; k < source.length && source.charCodeAt(k) !== c; k++) {
        if (source.charCodeAt(k) === 0x3c)
          throw refusal(source, k, "a '<' inside an attribute value (write it as &lt;)");
      }
      if (k === source.length) throw refusal(source, j, 'an attribute value is never closed');
      j = k;
    }
  }
  throw refusal(source, start, 'a tag is never closed');
}

/**
 * The end of the document type declaration at `start`: refused when it has an internal
 * subset or an external identifier, or never closes. Read once, up to its `>`.
 */
function doctypeEnd(source: string, start: number): number {
  const refused = () =>
    refusal(
      source,
      start,
      'a document type declaration with entities or an external DTD is not accepted (entities and DTDs are never resolved)',
    );
  for (let j = start + 9; j < source.length; j++) {
    const c = source.charCodeAt(j);
    if (c === 0x3e /* > */) {
      const words = source.slice(start + 9, j).toUpperCase();
      // A bare declaration names its root only: an external identifier (SYSTEM or PUBLIC and
      // a quoted literal) is refused.
      if (words.includes('SYSTEM') || words.includes('PUBLIC') || words.includes('"') || words.includes("'"))
        throw refused();
      return j + 1;
    }
    if (c === 0x5b /* [ */) throw refused();
    if (c === 0x3c /* < */)
      throw refusal(source, start, "a document type declaration is not closed before the next '<'");
  }
  throw refusal(source, start, 'a document type declaration is never closed');
}

/**
 * Parses an XML report into plain objects: attributes as `@name`, text as `#text` where an
 * element has attributes too, every value a string. Throws ReportError naming the line and
 * column of the first error.
 */
export function parseXml(source: string, arrays: ReadonlySet<string> = new Set()): Record<string, unknown> {
  scanXml(source);
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
