import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

/**
 * Folders that slice `registry` of issue 16 is still moving or rewriting (lib/reconcile, lib/cloneset,
 * lib/runtime/handlers, lib/source → lib/reconcile/pods, lib/controllers/cloneset) and their tests: linted with
 * the syntactic rules only until that work has landed. (lib/requests, moved already, is type-checked.)
 * TODO(issue 16, slice `registry`): fix their type-aware findings and delete this list. On the day it was written:
 * lib/reconcile 2, lib/runtime/handlers 2, lib/source 1, test/unit/reconcile 11, lib/cloneset and
 * test/unit/cloneset none.
 */
const notYetTypeChecked = [
  'lib/reconcile/**',
  'lib/cloneset/**',
  'lib/runtime/handlers/**',
  'lib/source/**',
  'lib/controllers/**',
  'test/unit/reconcile/**',
  'test/unit/cloneset/**',
  'test/unit/controllers/**',
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'coverage/',
      '.kruiseless/',
      '.kruiseless-reference-test/',
      '.serverless/',
      '.esbuild/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // A `switch` over a union names every member or says `default:` on purpose.
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      // In-memory stores, fakes and emulators implement async ports without awaiting anything; `async` keeps
      // their throws as rejections, which is what the port's callers expect.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['test/**'],
    rules: {
      // jest's asymmetric matchers (`expect.any`, `expect.objectContaining`) are typed `any` by design
      '@typescript-eslint/no-unsafe-assignment': 'off',
      // `expect(store.method)` and destructured fixtures pass methods around unbound on purpose
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  { files: notYetTypeChecked, ...tseslint.configs.disableTypeChecked },
  { files: ['**/*.js', '**/*.cjs', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  prettier,
);
