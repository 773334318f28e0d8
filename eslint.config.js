import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * Web fence (bulletproof-react's one-way imports): a feature imports its own files, shared code
 * (src/components, src/lib) and packages, never another feature nor the pages of app/. Pages in
 * src/app/routes compose features. The rule sees import strings, not resolved paths, so there is
 * one block per folder depth: from a feature's root `../x` is another feature, from its api/ or
 * components/ it is `../../x`; `features/` or `app/` reached from src/ are refused at every depth.
 * Checked by packages/web/src/lint-fences.test.ts.
 */
const up = (levels) => '\\.\\./'.repeat(levels);
const webFeatureFences = [1, 2, 3].map((depth) => ({
  files: [`packages/web/src/features/*/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^${up(depth)}(?!\\.\\./)`,
            message:
              'A feature does not import another feature: move the shared piece to src/components or src/lib, or compose both in a page in src/app/routes.',
          },
          {
            regex: `^${up(depth + 1)}(features|app)(/|$)`,
            message:
              'A feature imports neither another feature nor app/: pages in src/app/routes compose features, not the other way round.',
          },
        ],
      },
    ],
  },
}));

/**
 * Server fences (routes → service → repository → presenter; modules meet through services):
 * - outside tests, no file imports a repository of another folder (lib/'s app state excepted:
 *   the cache generation every write bumps); a module reaches another module through its service;
 * - a module imports nothing of another module but its `*.service.js` (or, inside the
 *   meta-analysis feature, a sibling part's service);
 * - routes, services and presenters import neither the ORM nor the schema's values: SQL lives in
 *   repositories only (schema *types* are allowed).
 * Checked by packages/server/src/lint-fences.test.ts.
 */
const serverModuleFiles = ['packages/server/src/**/*.ts'];
const serverTests = [
  'packages/server/src/**/*.test.ts',
  'packages/server/src/test/**',
  'packages/server/src/bench/**',
];
const otherFoldersRepository = {
  regex: '^(\\.\\./)+(?!lib/)([\\w-]+/)*[\\w-]+\\.repository(\\.js)?$',
  message: "Another module's repository is private: call that module's service.",
};
// From a file `depth` folders below src/modules, `../x/` (and at depth 2 also `../../x/`) is another
// module (or another part of the meta-analysis feature); only its *.service.js (or the *.job.js the
// job queue runs) may be imported.
const otherModulesInternals = (depth) => ({
  regex: `^(\\.\\./){1,${depth}}(?!\\.\\.)([\\w-]+/)+(?![\\w-]+\\.(service|job)(\\.js)?$)[\\w.-]+$`,
  message: "Modules meet through services: import the other module's *.service.js, not its internals.",
});
const moduleDepths = [1, 2];
const moduleFiles = (depth) => `packages/server/src/modules/*/${'*/'.repeat(depth - 1)}*.ts`;
const ormInLayer = [
  {
    group: ['drizzle-orm', 'drizzle-orm/*'],
    message: 'SQL lives in repositories: routes, services and presenters call a repository.',
  },
  {
    regex: '(^|/)db/schema(\\.js)?$',
    allowTypeImports: true,
    message: 'SQL lives in repositories: import the schema in a *.repository.ts (types only elsewhere).',
  },
];
const serverFences = [
  {
    files: serverModuleFiles,
    ignores: [...serverTests, 'packages/server/src/modules/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherFoldersRepository] }] },
  },
  ...moduleDepths.map((depth) => ({
    files: [moduleFiles(depth)],
    ignores: serverTests,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [otherFoldersRepository, otherModulesInternals(depth)] },
      ],
    },
  })),
  ...moduleDepths.map((depth) => ({
    files: [moduleFiles(depth).replace('*.ts', '*.{routes,service,presenter}.ts')],
    ignores: serverTests,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [otherFoldersRepository, otherModulesInternals(depth), ...ormInLayer] },
      ],
    },
  })),
  {
    // Outside modules (lib, cli, plugins, seed): the ORM stays out of routes, services and presenters.
    files: ['packages/server/src/*/*.{routes,service,presenter}.ts'],
    ignores: [...serverTests, 'packages/server/src/modules/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherFoldersRepository, ...ormInLayer] }] },
  },
];

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
  // Web: features import neither each other nor app/ (see webFeatureFences above).
  ...webFeatureFences,
  // Server: modules meet through services; SQL only in repositories (see serverFences above).
  ...serverFences,
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
