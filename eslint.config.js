import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'test-results/', 'bench-results/', 'coverage/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      // client/ and shared/ never import server code; a page's component imports its server
      // module's types only (`import type { loader }`: erased, never in the bundle).
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '../server/*', '../../server/*'],
              message: 'client/ and shared/ must not import server code (types only: import type)',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // Plain JavaScript scripts run by Node itself (e.g. the Node version check).
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    // The server and tests may import anything.
    files: ['server/**', 'test/**', 'scripts/**', '*.ts', '*.js'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
);
