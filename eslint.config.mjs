import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/src/generated/**',
      '**/dist/**',
      '.build/**',
      'node_modules/**',
      '.data/**',
      'coverage/**',
      'bench/.peers/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['error'] }],
      eqeqeq: ['error', 'always'],
      // Sources compile to CommonJS, where TypeScript writes a module's own exports as `exports.NAME`: a
      // local named `exports` (or `module`, `require`) silently takes their place at run time.
      'no-restricted-syntax': [
        'error',
        {
          selector: [
            'VariableDeclarator > Identifier.id[name=/^(exports|module|require)$/]',
            ':function > Identifier.params[name=/^(exports|module|require)$/]',
            'ObjectPattern > Property > Identifier.value[name=/^(exports|module|require)$/]',
          ].join(', '),
          message: 'Name it otherwise: compiled to CommonJS, a local exports, module or require shadows the real one.',
        },
      ],
      // A workspace is used through its public face (its package.json exports); test/structure.test.ts
      // checks the same on resolved paths, relative ones included.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@fi/*/src', '@fi/*/src/**', '@fi/*/dist', '@fi/*/dist/**'],
              message: "Import '@fi/<workspace>' (or a subpath its package.json exports), never its files.",
            },
          ],
        },
      ],
    },
  },
  {
    // Command-line tools and tests talk to a person on the terminal.
    files: ['cli/**/*.ts', 'scripts/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', '**/test/**/*.ts', '**/eval/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', __dirname: 'readonly' },
    },
  },
);
