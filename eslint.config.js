// Lint also guards the process boundaries: core never imports electron or an adapter,
// shared stays dependency-free, and the renderer imports only shared from src-main.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const adapters = ['**/electron/**', '**/server/**', '**/cli/**'];

/**
 * The only ways into the core for an adapter: the composition root (api), its read side (library),
 * the operations table (operations), coded errors (errors), configuration (config), the light
 * helpers a surface uses (facade) and what it needs to know of runs (runs-facade). Anything else is reached through these, so core can move inside.
 */
export const CORE_ENTRY_POINTS = ['api', 'library', 'operations', 'errors', 'config', 'facade', 'runs-facade'];
const pastTheFacade = `(^|/)core/(?!(${CORE_ENTRY_POINTS.join('|')})\\.js$)`;
const facadeMessage = `an adapter reaches the core only through core/{${CORE_ENTRY_POINTS.join(',')}}.js (eslint.config.js)`;

export default defineConfig(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.electron-native/**', 'coverage/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  { files: ['**/*.{js,mjs,cjs}'], languageOptions: { globals: globals.node } },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['src-main/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'src-main/core never imports electron.' }],
        patterns: [{ group: adapters, message: 'src-main/core never imports an adapter.' }],
      }],
    },
  },
  {
    files: ['src-main/cli/**/*.ts', 'src-main/server/**/*.ts', 'src-main/electron/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: pastTheFacade, message: facadeMessage }] }],
      // A lazy import() is an import too.
      'no-restricted-syntax': ['error', { selector: `ImportExpression[source.value=/${pastTheFacade.replaceAll('/', '\\/')}/]`, message: facadeMessage }],
    },
  },
  {
    files: ['src-main/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'shared is imported by the renderer.' }],
        patterns: [{ group: ['node:*', '**/core/**', ...adapters], message: 'shared holds only contracts: no Node, no core.' }],
      }],
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'The renderer talks to main only through the preload API.' }],
        patterns: [
          { group: ['node:*'], message: 'The renderer runs in a sandboxed browser context.' },
          { regex: 'src-main/(?!shared/)', message: 'The renderer may import only src-main/shared.' },
        ],
      }],
    },
  },
);
