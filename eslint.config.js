// One lint configuration for every workspace.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/.tools/**', '**/.data/**', '**/coverage/**', '**/dist/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    // How large a function or a file may grow before it is split into parts named for what they
    // do. Tests are left out: a describe block is a list of cases, not logic.
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['**/test/**', '**/generated/**'],
    rules: {
      'max-lines-per-function': [
        'warn',
        { max: 120, skipBlankLines: true, skipComments: true, IIFEs: true },
      ],
      'max-lines': ['warn', { max: 450, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Tests and the runnable tools under tools/ print to the terminal on purpose.
    files: ['**/test/**', 'tools/**'],
    rules: { 'no-console': 'off' },
  },
);
