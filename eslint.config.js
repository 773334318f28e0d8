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
