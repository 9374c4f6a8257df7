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

/**
 * The server modules in layers, lowest first (CONTRIBUTING.md "Shape of the code"): a module
 * imports only modules of lower layers, so the modules form no circle and nothing runs back up. A
 * module that needs one of its own layer or above takes it as a parameter (webhooks' routes take
 * the mornings' scheduler), or the shared part moves down. Tests may import any module.
 */
const serverLayers = [
  ['health', 'session'],
  ['auth'],
  ['api-keys', 'billing', 'dashboard', 'webhooks'],
  ['stays', 'team'],
  ['stock'],
  ['calendars', 'garages', 'items', 'listings-import', 'reports', 'scans', 'units'],
  ['forecast', 'onboarding'],
  ['daily-email'],
];
const serverModules = readdirSync(`${root}/server/modules`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const unlayered = serverModules.filter((m) => !serverLayers.flat().includes(m));
if (unlayered.length > 0) throw new Error(`eslint.config.js: put ${unlayered.join(', ')} in a layer of serverLayers`);
const serverZones = serverLayers
  .flatMap((layer, level) =>
    layer.map((module) => ({
      target: `./server/modules/${module}`,
      from: serverLayers
        .slice(level)
        .flat()
        .filter((other) => other !== module)
        .map((other) => `./server/modules/${other}`),
      message: `server/modules/${module} imports only modules of lower layers (serverLayers in eslint.config.js): pass what it needs as a parameter, or move the shared part down.`,
    })),
  )
  // The top layer's last module has nothing above it.
  .filter((zone) => zone.from.length > 0);

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'drizzle', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    settings: {
      // Without these, import-x reads only .js files and its zones never see a TypeScript module.
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
      // Import circles are found by `npm run lint:cycles` (madge), which also follows type-only
      // imports, which import-x's no-cycle skipped.
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: webZones }],
    },
  },
  {
    files: ['server/**/*.ts', 'scripts/**/*.ts', 'e2e/**/*.ts', '*.ts', '*.js'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/web/**'], message: 'server must not import web code' }] }] },
  },
  {
    files: ['server/modules/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones: serverZones }] },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
);
