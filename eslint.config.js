import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import bvdbFences from './scripts/lint/fences.mjs';

/**
 * The architecture fences (decision 047), judged on resolved paths by scripts/lint/fences.mjs:
 * - web: a feature imports neither another feature nor app/; shared code (src/components, src/lib)
 *   imports no feature and no page; nothing imports the server;
 * - the domain imports no other package and no I/O; the contract only the domain;
 * - server: another folder's repository is private (lib/'s app state excepted); a module reaches
 *   another module (or a part of the meta-analysis feature another part) through its *.service.js
 *   or the *.job.js the queue runs; SQL (the ORM, the drivers, the schema's values, a query on the
 *   database handle) only where the allow-list says: *.repository.ts, db/, seed/, the backup tables.
 * Checked by packages/server/src/lint-fences.test.ts and packages/web/src/lint-fences.test.ts.
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
      'scripts/**',
      '**/*.mjs',
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
    rules: { 'bvdb/no-query-outside-repositories': 'error' },
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
