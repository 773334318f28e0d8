import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import bvdbFences from './scripts/lint/fences.mjs';

/**
 * The architecture fences (decisions 047 and 077), judged on resolved paths by scripts/lint/fences.mjs:
 * - every package: a relative import stays inside its own package (another one is reached by its
 *   name); product code imports no test code (src/test, src/bench, *.test);
 * - web: a feature imports neither another feature nor app/; shared code (src/components, src/lib)
 *   imports no feature and no page; nothing imports the server;
 * - the domain imports no other package and no I/O; the contract only the domain;
 * - server: each module has one face, modules/<name>/index.ts, and every other file of the server
 *   (another module, app.ts, main.ts, cli/, seed/) imports the module through it; a face passes on
 *   its own module's services, types and routes, never a repository's functions nor lib/; lib/ and
 *   plugins/ (the kernel) import no module, modules plug in through ports wired in app.ts; another
 *   folder's repository is private (lib/'s app state excepted); the meta-analysis module's parts
 *   meet through their *.service.js; SQL (the ORM, the drivers, the schema's values, a query on the
 *   database handle) only where the allow-list says: *.repository.ts, db/, seed/, the backup tables;
 * - server: no import cycle, of files or of modules (`bvdb/no-import-cycles`, scripts/lint/module-graph.mjs).
 * Checked by packages/server/src/lint-fences.test.ts and packages/web/src/lint-fences.test.ts.
 * scripts/ is linted too, as plain JavaScript (no type-aware rules).
 */
export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-ssr/**',
      '**/node_modules/**',
      'data/**',
      'packages/server/drizzle/**',
      'test-results/**',
      'playwright-report/**',
      '**/*.config.ts',
      '**/*.config.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // Route handlers and hooks are async by contract, with or without an await inside.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['packages/*/src/**/*.{ts,tsx}'],
    plugins: { bvdb: bvdbFences },
    rules: { 'bvdb/fences': 'error' },
  },
  {
    files: ['packages/server/src/**/*.ts'],
    plugins: { bvdb: bvdbFences },
    rules: { 'bvdb/no-query-outside-repositories': 'error', 'bvdb/no-import-cycles': 'error' },
  },
  {
    // The scripts are plain JavaScript run by Node: the recommended rules, without type information.
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Tests may use the looser patterns of assertions on unknown JSON.
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
