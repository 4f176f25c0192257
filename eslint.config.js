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
    // do (blank lines and comments not counted). Tests are left out: a describe block is a list
    // of cases, not logic; so is generated code. No exception is granted today: a function that
    // must be longer gets an eslint-disable-next-line with its reason, named in ARCHITECTURE.md.
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['**/test/**', '**/generated/**'],
    rules: {
      'max-lines-per-function': [
        'error',
        { max: 120, skipBlankLines: true, skipComments: true, IIFEs: true },
      ],
      'max-lines': ['error', { max: 450, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Tests and the runnable tools under tools/ print to the terminal on purpose.
    files: ['**/test/**', 'tools/**'],
    rules: { 'no-console': 'off' },
  },
);
