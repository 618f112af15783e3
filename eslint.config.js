import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
    ignores: ['server/**/*.repository.ts', 'server/db/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.type='Identifier'][callee.name=/^(db|trx|tx)$/]",
          message: 'Query a table through its repository (<domain>/<table>.repository.ts).',
        },
        {
          selector:
            'CallExpression[callee.object.name=/^(db|trx|tx)$/][callee.property.name=/^(raw|from|select|insert|update|table)$/]',
          message: 'SQL belongs in a repository (<domain>/<table>.repository.ts).',
        },
      ],
    },
  },
);
