// Lint also guards the process boundaries: core never imports electron or an adapter,
// shared stays dependency-free, and the renderer imports only shared from src-main.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import floors from './eslint/core-floors.js';

const adapters = ['**/electron/**', '**/server/**', '**/cli/**'];

// The floor order inside src-main/core, from the ground up: a part imports only parts on lower floors.
const coreFloors = [
  ['errors', 'events', 'did-you-mean', 'input-depth', 'lazy-require', 'timestamps', 'process-identity', 'files'],
  ['disk-faults', 'options', 'template', 'markdown', 'logs'],
  ['skills'],
  ['config', 'policy', 'process'],
  ['store', 'packs'],
  ['search', 'runs', 'connect'],
  ['agent', 'gateway', 'skill-summary'],
  ['library'],
  ['api'],
  ['operations'],
];

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
    plugins: { floors },
    rules: {
      'floors/core-floors': ['error', { floors: coreFloors }],
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'src-main/core never imports electron.' }],
        patterns: [{ group: adapters, message: 'src-main/core never imports an adapter.' }],
      }],
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
