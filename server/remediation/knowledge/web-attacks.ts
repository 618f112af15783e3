import { cwePage, type KnowledgeEntry } from './entry.ts';

/** The web attack checks' weaknesses (server/scanner/web/, docs/web-testing.md): the framework-neutral fix of each class. */

const entry = (e: Omit<KnowledgeEntry, 'category' | 'defaultPort'>): KnowledgeEntry => ({
  category: 'injection',
  defaultPort: 443,
  ...e,
});

export const webSqlInjection = entry({
  id: 'web-sql-injection',
  aliases: ['sqli-error-based', 'time-based-sqli', 'sqli-boolean-based'],
  cwe_ids: ['CWE-89'],
  impact:
    'builds SQL text from request input, so an attacker reads or changes any data its database account can reach.',
  scenarios: [
    'An attacker appends `UNION SELECT` to the parameter named in {component} and reads the users table, credential hashes included.',
    'With a boolean or time-based channel, an automated tool extracts the whole database one bit at a time.',
  ],
  remediation: {
    summary:
      'Pass request values to the database as bound parameters, never as part of the SQL text, at {component}.',
    steps: [
      "Replay the finding's request (its evidence) to see the database error or the changed answer.",
      "Rewrite the query with placeholders (`?`, `$1`, `:name`) and pass the value separately; an ORM's query builder does this.",
      'Where a value cannot be a parameter (a column to sort by), map the input to a fixed list of allowed names.',
      "Give the application's database account only the rights it needs, and never show database errors to users.",
    ],
    code_example: `// Node (pg): the value travels apart from the SQL text
const { rows } = await pool.query('SELECT first_name FROM users WHERE id = $1', [req.query.id]);
// PHP (PDO)
$stmt = $pdo->prepare('SELECT first_name FROM users WHERE user_id = ?');
$stmt->execute([$_GET['id']]);`,
    references: [
      'https://cheatsheetseries.owasp.org/cheatsheets/SQL_Injection_Prevention_Cheat_Sheet.html',
      cwePage(89),
    ],
  },
});

export const webCommandInjection = entry({
  id: 'web-command-injection',
  aliases: ['linux-cmd-injection', 'cmdi-blind-oast-polyglot'],
  cwe_ids: ['CWE-78'],
  impact: 'hands request input to a shell, so an attacker runs any command on the server.',
  scenarios: [
    'An attacker appends `;id` or `|cat /etc/shadow` to the parameter of {component} and runs commands as the web server.',
  ],
  remediation: {
    summary:
      'Never build shell command lines from request input at {component}; call the program directly with an argument list.',
    steps: [
      "Replay the finding's request to see the computed marker in the answer.",
      'Replace the shell call (`system`, `exec`, `shell_exec`, backticks, `child_process.exec`) by a call without a shell (`execFile`, `proc_open` with an array, `subprocess.run([...])`).',
      'Validate the value strictly (an IP address parsed as one, a name from a fixed list) before it is used.',
      'Better still, use a library function instead of a program (a DNS lookup, an ICMP library).',
    ],
    code_example: `// Node: no shell, the value is one argument
execFile('ping', ['-c', '4', net.isIP(host) ? host : '127.0.0.1'], callback);
// PHP
if (filter_var($ip, FILTER_VALIDATE_IP)) { $out = shell_exec('ping -c 4 ' . escapeshellarg($ip)); }`,
    references: [
      'https://cheatsheetseries.owasp.org/cheatsheets/OS_Command_Injection_Defense_Cheat_Sheet.html',
      cwePage(78),
    ],
  },
});

export const webPathTraversal = entry({
  id: 'web-path-traversal',
  aliases: ['lfi-linux-fuzz', 'linux-lfi-fuzz', 'web-file-inclusion'],
  cwe_ids: ['CWE-22', 'CWE-98'],
  impact:
    'opens the file a request names, so an attacker reads any file the server can read, or includes it as code.',
  scenarios: [
    "An attacker asks {component} for `../../../../etc/passwd`, then for the application's configuration file with its database credentials.",
  ],
  remediation: {
    summary:
      'Map request values to a fixed set of files at {component}; never pass them to file or include functions.',
    steps: [
      "Replay the finding's request to see the file's contents in the answer.",
      'Replace the file name in the request by an identifier looked up in an allow-list (`{"about": "about.html"}`).',
      'If names must be free, resolve the path and check it stays inside the intended directory (`realpath` / `path.resolve` then a prefix check).',
      'In PHP, never `include` a request value; set `allow_url_include=Off` and `open_basedir`.',
    ],
    code_example: `// Node
const file = path.resolve(PAGES, req.query.page);
if (!file.startsWith(PAGES + path.sep)) return res.status(404).end();
// PHP
$pages = ['include' => 'include.php', 'file1' => 'file1.php'];
include $pages[$_GET['page']] ?? 'include.php';`,
    references: ['https://owasp.org/www-community/attacks/Path_Traversal', cwePage(22), cwePage(98)],
  },
});

export const webOpenRedirect = entry({
  id: 'web-open-redirect',
  aliases: ['open-redirect', 'open-redirect-fuzz'],
  cwe_ids: ['CWE-601'],
  impact:
    "redirects to any address a request names, so links to the trusted site lead its visitors to an attacker's.",
  scenarios: [
    'An attacker mails a link to {component} whose parameter names a look-alike log-in page; the victim trusts the domain and signs in there.',
  ],
  remediation: {
    summary: 'Redirect only to paths of the site itself or to an allow-list of destinations at {component}.',
    steps: [
      "Replay the finding's request and look at its `Location` header.",
      'Accept only relative paths that start with a single `/` (not `//`, not `/\\`), or map an identifier to a fixed destination.',
      "When other hosts must be allowed, compare the parsed URL's host with an allow-list.",
    ],
    code_example: `const next = String(req.query.next ?? '/');
res.redirect(/^\\/(?![\\/\\\\])/.test(next) ? next : '/');`,
    references: [
      'https://cheatsheetseries.owasp.org/cheatsheets/Unvalidated_Redirects_and_Forwards_Cheat_Sheet.html',
      cwePage(601),
    ],
  },
});

export const webTemplateInjection = entry({
  id: 'web-template-injection',
  aliases: ['ssti-fuzz', 'reflected-ssti-arithmetic-based'],
  cwe_ids: ['CWE-1336'],
  impact: 'evaluates request input as a server-side template, which in most engines runs code on the server.',
  scenarios: [
    "An attacker sends a template expression to {component} that reaches the engine's object model and runs a command.",
  ],
  remediation: {
    summary: 'Pass request values to templates as data, never as template source, at {component}.',
    steps: [
      "Replay the finding's request to see the computed product in the answer.",
      'Render a fixed template and hand the value in as a variable (`render("hello.html", {name})`), never `render_string("Hello " + name)`.',
      'Where users must write templates, use a logic-less or sandboxed engine.',
    ],
    code_example: `// Nunjucks: the value is data
res.send(env.render('hello.njk', { name: req.query.name }));`,
    references: ['https://portswigger.net/web-security/server-side-template-injection', cwePage(1336)],
  },
});

export const webXss = entry({
  id: 'web-xss',
  aliases: ['web-xss-reflected', 'web-xss-stored', 'reflected-xss', 'stored-xss', 'xss-fuzz'],
  cwe_ids: ['CWE-79'],
  impact:
    "writes request input into its pages without escaping, so an attacker's script runs in its users' sessions.",
  scenarios: [
    'An attacker sends a link to {component} carrying a script that reads the page and acts as the signed-in user.',
  ],
  remediation: {
    summary:
      'Escape every value for the context it is written in (element, attribute, script) at {component}, and add a Content-Security-Policy.',
    steps: [
      "Replay the finding's request and look for the payload in the answer (the evidence names the context).",
      'Let the template engine escape by default (React, Jinja2 autoescape, Twig, Razor, `htmlspecialchars($v, ENT_QUOTES)`); never disable it for user values.',
      'Inside scripts, write values as JSON (`JSON.stringify` with `<` escaped), never by string concatenation.',
      'For stored content, escape on output, not only on input; sanitise rich text with an allow-list sanitiser (DOMPurify).',
      'Add a Content-Security-Policy without `unsafe-inline` as a second line of defence.',
    ],
    code_example: `// PHP
echo 'Hello ' . htmlspecialchars($_GET['name'], ENT_QUOTES, 'UTF-8');
// Node (without a template engine)
const escape = (s) => s.replace(/[&<>"']/g, (c) => \`&#\${c.charCodeAt(0)};\`);`,
    references: [
      'https://cheatsheetseries.owasp.org/cheatsheets/Cross_Site_Scripting_Prevention_Cheat_Sheet.html',
      cwePage(79),
    ],
  },
});

export const webCsrf = entry({
  id: 'web-csrf',
  aliases: ['csrf-detect'],
  cwe_ids: ['CWE-352'],
  impact:
    "accepts a state-changing form from any site, so pages an attacker controls submit it in the signed-in user's name.",
  scenarios: [
    "An attacker's page submits the form of {component} in a hidden frame while the victim is signed in, changing their credentials.",
  ],
  remediation: {
    summary:
      'Require an anti-CSRF token on every state-changing request at {component}, and set SameSite on the session cookie.',
    steps: [
      "Replay the finding's request from another origin (the evidence carries a foreign `Origin`) and see it accepted.",
      'Add a per-session (or per-form) secret token as a hidden field and reject requests without the right one; frameworks do this (Django, Rails, Laravel, csurf-like middleware).',
      'Set `SameSite=Lax` (or `Strict`) on the session cookie; never change state with GET.',
      'For a change of credentials, also ask for the current one.',
    ],
    code_example: `Set-Cookie: session=…; Path=/; HttpOnly; Secure; SameSite=Lax
<input type="hidden" name="csrf_token" value="<?= htmlspecialchars($_SESSION['csrf']) ?>">`,
    references: [
      'https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html',
      cwePage(352),
    ],
  },
});

export const webFuzzingTemplate = entry({
  id: 'web-fuzzing-template',
  aliases: ['crlf-injection', 'xinclude-injection', 'python-code-injection'],
  cwe_ids: ['CWE-20'],
  impact: 'treats request input in a way a fuzzing template proved exploitable.',
  scenarios: [
    "An attacker sends the template's payload to {component} and gets the effect its matchers saw.",
  ],
  remediation: {
    summary:
      'Validate request input against what the parameter may hold and encode it for where it is used, at {component}.',
    steps: [
      "Replay the finding's request (its evidence) and compare the answer with the description's matcher.",
      'Find where the parameter is used (a header, an XML parser, an interpreter) and pass it as data, never as code or markup.',
      'Reject values outside the expected format (length, characters, allow-list) before use.',
    ],
    code_example: `// Headers: never put CR or LF from input into a header
if (/[\\r\\n]/.test(value)) return res.status(400).end();`,
    references: ['https://owasp.org/www-project-top-ten/2017/A1_2017-Injection', cwePage(20)],
  },
});

export const WEB_ATTACK_ENTRIES: readonly KnowledgeEntry[] = [
  webSqlInjection,
  webCommandInjection,
  webPathTraversal,
  webOpenRedirect,
  webTemplateInjection,
  webXss,
  webCsrf,
  webFuzzingTemplate,
];
