/**
 * Scanward's layers, enforced by `npm run lint:deps` (docs/architecture.md):
 * routes → domain → repositories → db (a route never imports a repository); http/ knows no route and no domain; the scanner's
 * checks/ and templates/ both build on net/ and never on each other; only repositories and
 * db/ speak SQL; action/ bundles only itself and the shared schemas, its reports and core are
 * pure, and only its GitHub front end knows the Actions toolkit; the console's components
 * get the API client by context and reach the server only over HTTP; no import cycles.
 * Type-only imports count (tsPreCompilationDeps).
 */
const DOMAIN =
  '(routes|auth|identity|scans|findings|assets|events|controls|webhooks|remediation|ratelimit|scanner|scoring|metrics|cli|db)';
const rule = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

/** Node built-ins that reach the file system, the network or other processes. */
const IO_BUILTINS =
  '^(node:)?(fs|fs/promises|net|http|https|http2|tls|dgram|dns|dns/promises|child_process|cluster|worker_threads|inspector)$';
/** The Actions toolkit and HTTP clients: only action/github/ (and the Action's entry) use them. */
const ACTIONS_TOOLKIT = '^node_modules/(@actions|@octokit)/';
const HTTP_CLIENTS = '^node_modules/(undici|node-fetch|axios|got|ky)/';

/**
 * The layers of server/, top to bottom: each folder (or top-level file) imports only the layers
 * below it, and no other folder of its own layer; so no two folders import each other, however
 * indirectly (docs/architecture.md, "The folder layers of server/"). Scans record findings,
 * findings read assets and controls, never the other way round; authorization (policies/) and
 * the Services interface sit below every domain.
 */
export const LAYERS = [
  ['main'],
  ['app', 'cli'],
  ['routes'],
  ['background', 'runtime', 'people'],
  ['imports', 'local-scan', 'notifications'],
  ['scanner', 'webhooks'],
  ['results', 'metrics'],
  ['scans', 'remediation'],
  ['findings', 'auth'],
  ['assets', 'controls', 'ratelimit'],
  ['http', 'events', 'identity'],
  ['policies', 'services'],
  ['db', 'config', 'intel'],
  ['schemas', 'scoring', 'errors', 'logger', 'version', 'worker-source'],
];
/** A folder `server/<name>/` or a file `server/<name>.ts`. */
const inServer = (names) => `^server/(${names.join('|')})(/|\\.ts$)`;
const layerRules = LAYERS.slice(1).map((layer, i) => ({
  name: `layer-${layer.join('-')}`,
  comment: `server/ ${layer.join(', ')}: import only the layers below, never ${LAYERS.slice(0, i + 1)
    .flat()
    .join(', ')}, nor each other`,
  severity: 'error',
  from: { path: inServer(layer) },
  to: { path: [inServer(LAYERS.slice(0, i + 1).flat()), inServer(layer)], pathNot: '^server/$1(/|\\.ts$)' },
}));

export default {
  forbidden: [
    rule(
      'action-bundles-only-action-and-schemas',
      'action/ imports only action/, server/schemas/ and packages',
      { path: '^action/' },
      { pathNot: ['^action/', '^server/schemas/', '^node_modules/'], dependencyTypesNot: ['core'] },
    ),
    rule(
      'action-core-and-reports-are-pure',
      'action/core/ (inputs, gate, verdict, the scan-source interface) and action/reports/ (every report, built from a verdict) do no I/O: no file system, network or Actions toolkit, and no module that does (service/, github/, ci/, the entries)',
      { path: '^action/(core|reports)/' },
      {
        path: [
          IO_BUILTINS,
          ACTIONS_TOOLKIT,
          HTTP_CLIENTS,
          '^action/(service|github|ci)/',
          '^action/[^/]+\\.ts$',
        ],
      },
    ),
    rule(
      'action-core-knows-no-reports',
      'the verdict is built in core/ and read by reports/, not the other way round',
      { path: '^action/core/' },
      { path: '^action/reports/' },
    ),
    rule(
      'action-service-knows-no-front-end',
      'action/service/ (the Scanward API client, credentials, the remote scan source) serves both front ends: it knows neither, nor the Actions toolkit',
      { path: '^action/service/' },
      { path: [ACTIONS_TOOLKIT, '^action/(github|ci|reports)/', '^action/[^/]+\\.ts$'] },
    ),
    rule(
      'action-local-knows-no-front-end',
      'action/local/ (the local scan source, which loads the engine bundle at run time) serves both front ends: it knows neither, nor the Actions toolkit, nor the engine itself (server/local-scan/ is its own bundle, dist/local/)',
      { path: '^action/local/' },
      {
        path: [ACTIONS_TOOLKIT, '^action/(github|ci|reports)/', '^action/[^/]+\\.ts$', '^server/local-scan/'],
      },
    ),
    {
      name: 'local-engine-runs-without-a-database',
      comment:
        'the local engine (server/local-scan/, bundled to dist/local/engine.mjs) runs in a CI job with no database and no HTTP service: nothing it reaches, however indirectly, is a repository, the db/ layer, a route, the HTTP toolkit, or knex, PGlite, pg or koa',
      severity: 'error',
      from: { path: '^server/local-scan/' },
      to: {
        path: [
          '\\.repository\\.ts$',
          '^server/(db|routes|http|auth|identity|events|webhooks)/',
          '^node_modules/(knex|knex-pglite|pg|@electric-sql|koa|@koa)/',
        ],
        reachable: true,
      },
    },
    rule(
      'scanward-ci-bundles-no-github-toolkit',
      'scanward-ci (action/ci/, action/ci-main.ts) is bundled without the GitHub front end and the Actions toolkit',
      { path: '^action/(ci/|ci-main\\.ts$)' },
      { path: [ACTIONS_TOOLKIT, '^action/github/'] },
    ),
    rule(
      'http-knows-no-route-or-domain',
      'server/http/ is the HTTP toolkit: routes and domains build on it, not it on them',
      { path: '^server/http/' },
      { path: `^server/${DOMAIN}/` },
    ),
    rule(
      'routes-call-domain-code',
      'a route calls domain code (listing, lifecycle, triage, …), never a repository: routes → domain → repositories',
      { path: '^server/routes/' },
      { path: '\\.repository\\.ts$' },
    ),
    rule(
      'checks-do-not-import-templates',
      'checks/ and templates/ both build on scanner/net; check-registry.ts composes them',
      { path: '^server/scanner/checks/' },
      { path: '^server/scanner/templates/' },
    ),
    rule(
      'checks-build-detections-through-defineCheck',
      'a built-in check declares its metadata once and defineCheck (check.ts) fills every detection from it: checks/ never name the Detection type of types.ts (PhaseContext comes from check.ts)',
      { path: '^server/scanner/checks/' },
      { path: '^server/scanner/types\\.ts$' },
    ),
    rule(
      'templates-do-not-import-checks',
      'the mirror of the rule above',
      { path: '^server/scanner/templates/' },
      { path: '^server/scanner/checks/' },
    ),
    rule(
      'web-assessment-stands-beside-checks-and-templates',
      'scanner/web (sign-in, crawl, attack checks, fuzzing templates) builds on scanner/net and check.ts; check-registry.ts composes it',
      { path: '^server/scanner/web/' },
      { path: '^server/scanner/(checks|templates)/' },
    ),
    rule(
      'checks-and-templates-do-not-import-the-web-assessment',
      'the mirror of the rule above',
      { path: '^server/scanner/(checks|templates|net)/' },
      { path: '^server/scanner/web/' },
    ),
    rule(
      'net-is-below-checks-and-templates',
      'scanner/net (sockets, probes, HTTP/TLS exchange) knows neither the checks nor the templates',
      { path: '^server/scanner/net/' },
      { path: '^server/scanner/(checks|templates)/' },
    ),
    rule(
      'phases-reach-checks-through-the-registry',
      'the engine runs checks through check-registry.ts, never a check or template module itself',
      { path: '^server/scanner/(phases/|pipeline\\.ts|runner\\.ts)' },
      { path: '^server/scanner/(checks|templates|web)/' },
    ),
    rule(
      'ratelimit-knows-no-auth',
      'rate limits count what http/ tells them (the Principal), not how callers authenticate',
      { path: '^server/ratelimit/' },
      { path: '^server/auth/' },
    ),
    rule(
      'only-repositories-and-db-use-knex',
      'SQL lives in *.repository.ts, server/db/ and migrations/; others take `Db` from server/db',
      { pathNot: ['\\.repository\\.ts$', '^server/db/', '^migrations/'] },
      { path: '^node_modules/knex(-pglite)?/' },
    ),
    rule(
      'schemas-are-pure',
      'server/schemas/ is shared with the Action: zod only, no koa, no knex',
      { path: '^server/schemas/' },
      { path: '^node_modules/(koa|@koa/[^/]+|knex|knex-pglite|pg)/' },
    ),
    rule(
      'console-gets-its-client-by-context',
      'console components take the API client from context (useApi(apiClientRef)); only main.tsx makes one',
      { path: '^console/src/', pathNot: ['^console/src/main\\.tsx$', '^console/src/api/'] },
      { path: '^console/src/api/client\\.ts$' },
    ),
    rule(
      'console-has-one-client-module',
      'openapi-fetch is wrapped once, in console/src/api/client.ts (session cookie, CSRF, 401)',
      { path: '^console/', pathNot: ['^console/src/api/client\\.ts$'] },
      { path: '^node_modules/openapi-fetch/' },
    ),
    rule(
      'console-reaches-the-server-over-http',
      'the console is a client of the public API: no server, Action or migration code in its bundle',
      { path: '^console/' },
      { path: '^(server|action|migrations)/' },
    ),
    rule(
      'results-are-recorded-by-the-recorder',
      'the engine, imports and the local engine hand their results to server/results/record.ts (recordResults) and write findings, their sources, assets and scan evidence no other way (issue 32: one recorder)',
      { path: '^server/(scanner|imports|local-scan)/' },
      {
        path: [
          '^server/findings/(lifecycle|triage|transitions)\\.ts$',
          '^server/scans/recording\\.ts$',
          '^server/findings/(findings|findings-lifecycle|findings-status|finding-sources|finding-history)\\.repository\\.ts$',
          '^server/assets/(inventory\\.ts|[^/]*\\.repository\\.ts)$',
          '^server/controls/control-evidence\\.repository\\.ts$',
        ],
        dependencyTypesNot: ['type-only'],
      },
    ),
    ...layerRules,
    rule('no-circular', 'no import cycles', {}, { circular: true }),
  ],
  options: {
    tsPreCompilationDeps: true,
    preserveSymlinks: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // The generated JavaScript beside the sources (`npm run build`) is not cruised: the rules are about the sources.
    exclude: { path: '^(dist|console/dist|data|coverage)/|^(server|migrations)/.*\\.js$' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'types', 'default'],
    },
  },
};
