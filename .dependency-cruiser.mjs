/**
 * Scanward's layers, enforced by `npm run lint:deps` (docs/architecture.md):
 * routes → domain → repositories → db; http/ knows no route and no domain; the scanner's
 * checks/ and templates/ both build on net/ and never on each other; only repositories and
 * db/ speak SQL; action/ bundles only itself and the shared schemas; no import cycles.
 * Type-only imports count (tsPreCompilationDeps).
 */
const DOMAIN =
  '(routes|auth|identity|scans|findings|controls|webhooks|remediation|ratelimit|scanner|scoring|metrics|cli|db)';
const rule = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

export default {
  forbidden: [
    rule(
      'action-bundles-only-action-and-schemas',
      'action/ imports only action/, server/schemas/ and packages',
      { path: '^action/' },
      { pathNot: ['^action/', '^server/schemas/', '^node_modules/'], dependencyTypesNot: ['core'] },
    ),
    rule(
      'http-knows-no-route-or-domain',
      'server/http/ is the HTTP toolkit: routes and domains build on it, not it on them',
      { path: '^server/http/' },
      { path: `^server/${DOMAIN}/` },
    ),
    rule(
      'checks-do-not-import-templates',
      'checks/ and templates/ both build on scanner/net; check-registry.ts composes them',
      { path: '^server/scanner/checks/' },
      { path: '^server/scanner/templates/' },
    ),
    rule(
      'templates-do-not-import-checks',
      'the mirror of the rule above',
      { path: '^server/scanner/templates/' },
      { path: '^server/scanner/checks/' },
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
      { path: '^server/scanner/(checks|templates)/' },
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
    rule('no-circular', 'no import cycles', {}, { circular: true }),
  ],
  options: {
    tsPreCompilationDeps: true,
    preserveSymlinks: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // The generated JavaScript beside the sources (`npm run build`) is not cruised: the rules are about the sources.
    exclude: { path: '^(dist|console|data|coverage)/|^(server|migrations)/.*\\.js$' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'types', 'default'],
    },
  },
};
