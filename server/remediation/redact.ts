/**
 * Evidence is whatever the scanned service answered, and for findings such as an
 * exposed `.env` file that answer *is* the secret. Before evidence is quoted in an
 * analysis or sent to a language-model provider, likely secrets are masked.
 */

const MASK = '[redacted]';

/** Names of settings whose values are secrets: DB_PASSWORD, APP_KEY, api_key, authToken, … */
const SECRET_NAME =
  /pass|pwd|secret|token|credential|auth|private|salt|signature|apikey|accesskey|(?:^|[_.-])key$/i;

const RULES: ReadonlyArray<[RegExp, string]> = [
  // PEM private keys, whole block.
  [
    /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
    `${MASK} private key`,
  ],
  // Authorization headers and bearer tokens.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g, `$1 ${MASK}`],
  // Credentials inside URLs: scheme://user:password@host
  [/([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+@/gi, `$1${MASK}@`],
  // Well-known token shapes.
  [/\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, MASK],
  [/\bgh[pousr]_[A-Za-z0-9]{30,}\b/g, MASK],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g, MASK],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g, MASK],
];

/** `name = value`, `name: value`, `"name": "value"` as in .env, YAML, INI, JSON and headers. */
const ASSIGNMENT = /(^|[\s"'{,;])([\w.-]+)(["']?\s*[:=]\s*)("[^"\n]*"|'[^'\n]*'|[^\s,;}\n]+)/gm;

/** Masks likely secrets in a piece of evidence. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out.replace(ASSIGNMENT, (whole, lead: string, name: string, sep: string, value: string) =>
    SECRET_NAME.test(name) && !value.startsWith(MASK) ? `${lead}${name}${sep}${MASK}` : whole,
  );
}

/** Redacts, collapses whitespace and cuts to `max` characters (with an ellipsis). */
export function excerpt(text: string | null | undefined, max: number): string {
  if (!text) return '';
  const flat = redactSecrets(text).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}
