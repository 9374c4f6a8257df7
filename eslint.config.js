import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

/** Every web feature directory, read at lint time so a new feature is fenced in from its first file. */
const features = readdirSync(`${root}/web/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The web's module boundaries (docs/decisions/018-module-boundaries.md): a feature imports
 * web/lib, web/components and common, never another feature nor web/app, which sits above the
 * features and joins them; web/lib and web/components sit below the features and the app, so
 * they import neither.
 */
const webZones = [
  ...features.map((feature) => ({
    target: `./web/features/${feature}`,
    from: './web/features',
    except: [`./${feature}`],
    message: 'A feature does not import another feature: move what both need to web/components or web/lib, or let web/app give it as a prop (decision 018).',
  })),
  {
    target: './web/features',
    from: './web/app',
    message: 'web/app imports the features, never the reverse: move what a feature needs to web/components or web/lib (decision 018).',
  },
  {
    target: './web/lib',
    from: ['./web/components', './web/features', './web/app'],
    message: 'web/lib is shared by every part of the web app and imports none of them (decision 018).',
  },
  {
    target: './web/components',
    from: ['./web/features', './web/app'],
    message: 'web/components is shared by the features and the app and imports neither (decision 018).',
  },
  {
    target: './common',
    from: ['./web', './server'],
    message: 'common is shared by web and server and imports neither.',
  },
];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'drizzle', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    settings: {
      // Without these, import-x reads only .js files and no-cycle never sees a TypeScript module.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${root}/tsconfig.json` })],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**', '../server/*'], message: 'web and common must not import server code' }] },
      ],
      // Packages cannot import the app back, so following them only costs time.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: webZones }],
    },
  },
  {
    files: ['server/**/*.ts', 'scripts/**/*.ts', 'e2e/**/*.ts', '*.ts', '*.js'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/web/**'], message: 'server must not import web code' }] }] },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
);
