// ESLint flat config, run by `npm run lint` together with `prettier --check` (layout is Prettier's job; no rule
// here is about layout). TypeScript is linted with type information from tsconfig.json, so rules such as
// no-floating-promises and no-misused-promises see which calls return promises.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    // Build output (bin/formctl.js is built from src/startup/bin.ts), and the shell scripts that scripts/gen-completions.mjs writes.
    ignores: ['dist/', 'bin/formctl.js', 'completions/', 'coverage/', '.bench-tmp/'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // Commands write through IOStreams (src/io/iostreams.ts), so tests can capture and a pipe can close early.
      'no-console': 'error',
      // `const { secret: _secret, ...rest } = x` drops a field; `_` marks a parameter kept for its position.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // The code writes `list[i]!` as if noUncheckedIndexedAccess were on; this rule would strip those marks.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Ids and values read from the service's JSON are `unknown` (a number or a string); String() and
      // templates render them as the service sent them.
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      // An async function that does not await still turns a throw into a rejection, which callers rely on.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Plain JavaScript (build and bench scripts, this file) is outside the TypeScript program.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The executable requires the loader only on the path that runs the CLI, and the Tab's fast path
    // only for a Tab, synchronously (bundled as CommonJS: an import() would wait a turn).
    files: ['src/startup/bin.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**', 'scripts/**', 'bench/**'],
    rules: {
      // Printing is their job.
      'no-console': 'off',
    },
  },
  {
    files: ['test/**'],
    rules: {
      // Tests read parsed JSON (typed `any`) and let the assertions check its shape.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
