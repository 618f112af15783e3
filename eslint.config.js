import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Outside repositories and server/db/, a database handle is only passed on or opens a transaction. */
const SQL_OUTSIDE_REPOSITORIES = [
  {
    selector: "CallExpression[callee.type='Identifier'][callee.name=/^(db|trx|tx)$/]",
    message: 'Query a table through its repository (<domain>/<table>.repository.ts).',
  },
  {
    selector:
      'CallExpression[callee.object.name=/^(db|trx|tx)$/][callee.property.name=/^(raw|from|select|insert|update|table)$/]',
    message: 'SQL belongs in a repository (<domain>/<table>.repository.ts).',
  },
];

/** `row!`: a query answers a typed result (or the caller throws notFound), never an assertion. */
const NO_ROW_ASSERTIONS = [
  {
    selector: 'TSNonNullExpression > Identifier.expression[name=/^rows?$/]',
    message: 'No `row!`: return a typed result, or throw notFound / an Error naming the broken invariant.',
  },
];

/** One handle type in repositories: `Db` (server/db/), which a transaction satisfies too. */
const REPOSITORIES_TAKE_DB = [
  {
    selector: "TSQualifiedName[left.name='Knex'][right.name='Transaction']",
    message: 'Repositories take `Db` from server/db/ (a transaction is a `Db`), not `Knex.Transaction`.',
  },
];

/** `tags` is spelled one way in route files: `const tags = [...]` once, `tags,` in each route. */
const ROUTE_TAGS = [
  {
    selector: "VariableDeclarator[id.name='TAGS']",
    message: 'Spell it `tags`: `const tags = [...]` once per route file.',
  },
  {
    selector:
      "CallExpression[callee.name='defineRoute'] > ObjectExpression > Property[key.name='tags'][shorthand=false]",
    message: 'Write `tags,` and declare `const tags = [...]` once per route file.',
  },
];

/**
 * A built-in check declares its metadata once (`defineCheck({ meta, appliesTo, detect })`,
 * server/scanner/check.ts) and `defineCheck` fills every detection from it: a check writes no
 * detection fields of its own, no `detection()` helper, and no `appliesTo` lambda (a named
 * service rule from net/service-rules.ts says which services).
 */
const CHECKS_DECLARE_ONCE = [
  {
    selector:
      'Property[key.name=/^(check_id|cwe_ids|cve_ids|cvss_vector|upstream_ids|affected_component|screenshot_url)$/]',
    message:
      "A check states its metadata once, in defineCheck's `meta` (or a variant): defineCheck fills every detection from it.",
  },
  {
    selector: 'FunctionDeclaration[id.name=/^(base)?[dD]etection$/]',
    message:
      'No per-file detection() helper: `detect` returns what was found, and defineCheck builds the detection.',
  },
  {
    selector: 'Property[key.name="appliesTo"] > :matches(ArrowFunctionExpression, FunctionExpression)',
    message:
      'Use a named service rule (net/service-rules.ts: isHttp, isTls, isService(name, ports), narrowed(...)).',
  },
];

/**
 * Integration tests use the one kit (docs/architecture.md, "How a test reads"): a declared route
 * through `api.call(route, input)`, whose answer the route types; state read through the API or
 * a repository; and data of their own, so the suite runs in any order. What must break one of
 * these (a request the contract forbids keeps `get`/`post` without `<T>`; a test about storage
 * itself reads its table) says why in an `eslint-disable-next-line` comment.
 */
const TESTS_USE_THE_KIT = [
  {
    selector:
      "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(get|post|patch|put|del|send)$/][typeArguments]",
    message:
      'Call the declared route with `api.call(route, input)`: its answer is typed by the route. A request the contract does not allow needs no `<T>`.',
  },
  {
    selector:
      "CallExpression:matches([callee.type='Identifier'][callee.name=/^(db|trx|tx|knex)$/], [callee.type='MemberExpression'][callee.property.name='db'], [callee.type='CallExpression'][callee.callee.name='db'])[arguments.0.type='Literal']",
    message:
      'Read state through the API (`api.call`) or a repository function; a raw table read is for a test about storage itself (say why).',
  },
  {
    selector: "Property[key.name='shuffle'][value.value=false]",
    message:
      'Each test owns its data and the suite runs shuffled: seed what the test reads in the test (factory.tenant), or make a story one test with steps.',
  },
];

/**
 * A test calls the API through the declared route, `api.call(route, input)`, whose input and
 * answer the route types: a raw `get`/`post`/`put`/`patch`/`del` (or `send(method, path)`) of an
 * `/api` path is for a request the contract does not allow, and says so in its disable comment.
 */
const RAW_API_CALLS = [
  {
    selector:
      "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(get|post|put|patch|del)$/]:matches([arguments.0.value=/^\\x2Fapi/], [arguments.0.quasis.0.value.cooked=/^\\x2Fapi/])",
    message:
      'Call the declared route with `api.call(route, input)`; a request the contract does not allow keeps the raw form with `// eslint-disable-next-line no-restricted-syntax -- <reason>`.',
  },
  {
    selector:
      "CallExpression[callee.type='MemberExpression'][callee.property.name='send']:matches([arguments.1.value=/^\\x2Fapi/], [arguments.1.quasis.0.value.cooked=/^\\x2Fapi/])",
    message:
      'Call the declared route with `api.call(route, input)`; a request the contract does not allow keeps the raw form with `// eslint-disable-next-line no-restricted-syntax -- <reason>`.',
  },
];

/** A route file imports the project's modules under their own names (`createScan`, not `createScan as createScanRecord`). */
const noRenamedProjectImports = {
  meta: {
    type: 'suggestion',
    docs: { description: 'Imports from the project (relative paths) keep their exported names' },
    schema: [],
  },
  create(context) {
    return {
      ImportSpecifier(node) {
        const source = node.parent.source.value;
        const imported = node.imported.type === 'Identifier' ? node.imported.name : node.imported.value;
        if (source.startsWith('.') && imported !== node.local.name) {
          context.report({
            node,
            message: `Import \`${imported}\` under its own name; name the route constant \`…Route\` if they collide.`,
          });
        }
      },
    };
  },
};

/**
 * The console sends every change through `useAction` (console/src/data.ts): a write to the API
 * (`api.POST/PUT/PATCH/DELETE(...)`) is the first argument of an `act(...)` (of `useAction`
 * or `useCollection`), so each form shows the API's error and its notice one way.
 */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const writesThroughUseAction = {
  meta: {
    type: 'problem',
    docs: { description: 'A console write to the API goes through useAction().act' },
    schema: [],
  },
  create(context) {
    const isAct = (callee) =>
      (callee.type === 'Identifier' && callee.name === 'act') ||
      (callee.type === 'MemberExpression' &&
        !callee.computed &&
        callee.property.type === 'Identifier' &&
        callee.property.name === 'act');
    return {
      CallExpression(node) {
        const { callee } = node;
        if (callee.type !== 'MemberExpression') return;
        const name =
          callee.property.type === 'Identifier' && !callee.computed
            ? callee.property.name
            : callee.property.type === 'Literal'
              ? callee.property.value
              : undefined;
        if (!WRITES.has(name)) return;
        const parent = node.parent;
        if (parent?.type === 'CallExpression' && parent.arguments[0] === node && isAct(parent.callee)) return;
        context.report({
          node,
          message: `Send \`${name}\` through useAction (console/src/data.ts): \`action.act(api.${name}(…), then)\`, whose error and notice the form shows.`,
        });
      },
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'data/',
      'coverage/',
      'console/dist/',
      // `npm run build`'s output beside the sources (server/cli/build.mjs)
      'server/**/*.js',
      'migrations/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Plain JavaScript run by Node as it is (the build script, worker entries, bin/, bench probes).
    files: ['**/*.mjs', 'bin/*.js'],
    languageOptions: {
      globals: {
        Buffer: 'readonly',
        console: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
        process: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
      },
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // SQL lives in repositories (docs/architecture.md): elsewhere a database handle is only
    // passed on, or opens a transaction; dependency-cruiser keeps knex imports out likewise.
    files: ['server/**/*.ts'],
    ignores: ['server/**/*.repository.ts', 'server/db/**', 'server/routes/**'],
    rules: { 'no-restricted-syntax': ['error', ...SQL_OUTSIDE_REPOSITORIES, ...NO_ROW_ASSERTIONS] },
  },
  {
    // Integration tests on the one kit; the database layer's own tests (test/integration/db/)
    // are about storage and read tables, but call the API through declared routes too.
    files: ['test/integration/**/*.ts'],
    ignores: ['test/integration/db/**'],
    rules: { 'no-restricted-syntax': ['error', ...TESTS_USE_THE_KIT, ...RAW_API_CALLS] },
  },
  {
    files: ['test/integration/db/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...RAW_API_CALLS] },
  },
  {
    // Built-in checks declare their metadata once (docs/architecture.md, "Checks").
    files: ['server/scanner/checks/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...SQL_OUTSIDE_REPOSITORIES,
        ...NO_ROW_ASSERTIONS,
        ...CHECKS_DECLARE_ONCE,
      ],
    },
  },
  {
    // The Action and scanward-ci stay in small files and functions (issue 34; docs/github-action.md,
    // "Code layout"): at most 250 lines a file and 80 a function, counting every line, blank lines
    // and comments included — the number `wc -l` and a reviewer's scrolling see, so a long doc
    // comment or spacing cannot hide a long function. Each input group, each half of the follow
    // loop, each report builder and each CLI command group has its own file.
    files: ['action/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 250, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': [
        'error',
        { max: 80, skipBlankLines: false, skipComments: false, IIFEs: true },
      ],
    },
  },
  {
    // Repositories take the one handle type, `Db` from server/db/ (a transaction is one too).
    files: ['server/**/*.repository.ts'],
    rules: { 'no-restricted-syntax': ['error', ...REPOSITORIES_TAKE_DB, ...NO_ROW_ASSERTIONS] },
  },
  {
    // The route habit (docs/architecture.md, "Routes"): a route file calls domain code
    // (dependency-cruiser keeps repositories out), imports project modules under their own
    // names, declares `const tags = [...]` once and writes `tags,` in each route, and asserts
    // nothing non-null: a domain function answers a typed result or throws notFound.
    files: ['server/routes/**/*.ts'],
    plugins: { scanward: { rules: { 'no-renamed-project-imports': noRenamedProjectImports } } },
    rules: {
      'no-restricted-syntax': ['error', ...SQL_OUTSIDE_REPOSITORIES, ...ROUTE_TAGS],
      '@typescript-eslint/no-non-null-assertion': 'error',
      'scanward/no-renamed-project-imports': 'error',
    },
  },
  {
    // Console writes go through useAction (console/src/data.ts), so every form reports alike.
    files: ['console/src/**/*.{ts,tsx}'],
    ignores: ['console/src/api/schema.d.ts'],
    plugins: { console: { rules: { 'writes-through-use-action': writesThroughUseAction } } },
    rules: { 'console/writes-through-use-action': 'error' },
  },
);
