import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

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
  { files: ['**/*.js', '**/*.cjs', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  prettier,
);
