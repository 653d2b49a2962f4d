// One linter for the whole repo; CI runs it with --max-warnings 0.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import architecture from './tools/eslint-plugin-architecture.js';

// Type-aware rules need the TypeScript projects that own each file.
const TS_PROJECTS = [
  'apps/server/tsconfig.json',
  'apps/server/test/tsconfig.json',
  'apps/web/tsconfig.json',
  'e2e/tsconfig.json',
  'packages/contracts/tsconfig.json',
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'data-cluster/**',
      'test-results/**',
      'bench/results/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts', 'e2e/**/*.ts'],
    ignores: ['apps/*/vitest.config.ts', 'apps/web/contracts-alias.ts'],
    languageOptions: { parserOptions: { project: TS_PROJECTS, tsconfigRootDir: import.meta.dirname } },
    plugins: { architecture },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      'architecture/feature-boundaries': 'error',
      'architecture/routes-call-services': 'error',
      'architecture/kysely-in-repositories': 'error',
    },
  },
  {
    // The demo-data generator (src/demo/, 2,600 lines with its catalogue) is not part of the product: only the
    // seeding CLI (cli/) imports it, and a start with DEMO_DATA on loads it with a dynamic import(). Nothing else
    // (modules/, routes/, plugins/, lib/, db/, app.ts, server.ts) may import demo/ statically.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/demo/**', 'apps/server/src/cli/**', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/demo/*'],
              message: 'demo/ is not part of the product: load it with a dynamic import() when DEMO_DATA asks for it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['bench/**', 'e2e/**', '.ci/**', '**/cli/**', '**/scripts/**', 'tools/*.mjs'],
    rules: { 'no-console': 'off' },
  },
);
