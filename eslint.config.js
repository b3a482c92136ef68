import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'test-results/', 'bench-results/', 'coverage/'] },
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
      'no-restricted-imports': [
        'error',
        {
          paths: ['react-router', 'react-router-dom'].map((name) => ({
            name,
            message: 'Use client/runtime/router.tsx (Link, useLocation, useNavigate): the site routes itself.',
          })),
          patterns: [
            { group: ['**/server/**', '../server/*', '../../server/*'], message: 'client/ and shared/ must not import server code' },
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
    rules: { 'no-restricted-imports': 'off' },
  },
);
