/**
 * The PDF uses the standard Helvetica and Courier fonts, which need no embedding but
 * can only show the WinAnsi character set (Latin-1 plus a few typographic marks).
 * pdfkit does not refuse other characters: it writes garbage glyphs. Every string
 * drawn in the report therefore passes through `toWinAnsi` first.
 */

/** The characters WinAnsi places in 0x80–0x9F, where Latin-1 has control codes. */
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Common characters outside WinAnsi with a faithful plain spelling. */
const SUBSTITUTES: Record<string, string> = {
  '\u2010': '-', // hyphen
  '\u2011': '-', // non-breaking hyphen
  '\u2012': '-', // figure dash
  '\u2015': '—', // horizontal bar
  '\u2212': '-', // minus sign
  '\u2032': "'", // prime
  '\u2033': '"', // double prime
  '\u2190': '<-',
  '\u2192': '->',
  '\u2264': '<=',
  '\u2265': '>=',
  '\u2260': '!=',
  // Letters with a stroke do not decompose into base letter and mark.
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  '\u2713': 'v', // check mark
  '\u2714': 'v',
  '\u2717': 'x', // ballot x
  '\u2718': 'x',
};

/** Zero-width characters that draw nothing and only confuse line breaking. */
const INVISIBLE = new Set(['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF']);

export const REPLACEMENT = '?';

function isWinAnsi(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(char);
}

function spell(char: string): string {
  if (char === '\n') return char;
  if (char === '\t') return '  ';
  if (isWinAnsi(char)) return char;
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || INVISIBLE.has(char)) return '';
  const substitute = SUBSTITUTES[char];
  if (substitute !== undefined) return substitute;
  // Letters with marks WinAnsi lacks (ő, ą, ș) and compatibility forms (ﬁ, full-width
  // letters) keep their base letters; anything else (CJK, emoji) becomes `?`.
  const decomposed = char.normalize('NFKD').replace(/\p{M}/gu, '');
  if (decomposed !== '' && [...decomposed].every(isWinAnsi)) return decomposed;
  return REPLACEMENT;
}

/** `text` with every character the standard PDF fonts cannot show replaced; line breaks become `\n`. */
export function toWinAnsi(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC').replace(/\r\n?/g, '\n')) out += spell(char);
  return out;
}
