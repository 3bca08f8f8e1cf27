// Lint also guards the process boundaries: core never imports electron or an adapter,
// shared stays dependency-free, and the renderer imports only shared from src-main.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import floors from './eslint/floors.js';

const adapters = ['**/electron/**', '**/server/**', '**/cli/**'];

// The floor order inside src-main/core, from the ground up: a part imports only parts on lower floors.
const coreFloors = [
  ['events', 'did-you-mean', 'input-depth', 'lazy-require', 'timestamps', 'process-identity', 'files', 'parallel', 'text'],
  ['disk-faults', 'options', 'template', 'markdown', 'logs', 'credentials'],
  ['skills'],
  ['config', 'policy', 'process', 'authority'],
  ['store', 'packs'],
  ['search', 'runs', 'connect', 'voice', 'served'],
  ['agent', 'gateway', 'skill-summary', 'parallel-worker', 'doctor'],
  ['library'],
  ['services'],
  ['api', 'facade', 'runs-facade'],
  ['operations'],
];

// The floor order inside src-renderer, from the ground up: the connection, then what every screen shares (hooks,
// helpers, the small parts), then what a run and an approval show, the screens, and the shell that holds them all.
const rendererFloors = [
  ['api', 'styles'],
  ['app'],
  ['runs', 'voice'],
  ['approvals'],
  ['tools'],
  ['skills'],
  ['palette', 'history', 'packs'],
  ['settings'],
  ['tray'],
  ['shell'],
  ['main'],
];

// Files and functions allowed past the size limits below, each with why (the config's name says it). Each glob must
// still match a file past the limit (test/unit/build/size-exceptions.test.ts), so an exception ends with its reason.
export const sizeExceptions = [
  { why: 'declarations only: the one contract every surface and the renderer read', rules: ['max-lines'], files: ['src-main/shared/contract.ts'] },
  { why: "the policy's checks in docs/policy.md's order, read top to bottom", rules: ['max-lines-per-function'], files: ['src-main/core/policy/decide.ts'] },
  {
    why: "one proxy's sockets and verdicts share the closure's state",
    rules: ['max-lines-per-function'],
    files: ['src-main/core/process/network/proxy-server.ts'],
  },
  { why: 'the OpenAPI document is one literal', rules: ['max-lines-per-function'], files: ['src-main/server/openapi.ts'] },
];
/**
 * The only ways into the core for an adapter: the composition root (api), its read side (library),
 * the operations table (operations), who a caller is and the credentials (authority), configuration (config), the light
 * helpers a surface uses (facade) and what it needs to know of runs (runs-facade). Anything else is reached through these, so core can move inside.
 */
export const CORE_ENTRY_POINTS = ['api', 'library', 'operations', 'config', 'facade', 'runs-facade', 'authority'];
const pastTheFacade = `(^|/)core/(?!(${CORE_ENTRY_POINTS.join('|')})\\.js$)`;
const facadeMessage = `an adapter reaches the core only through core/{${CORE_ENTRY_POINTS.join(',')}}.js (eslint.config.js)`;
// `key in object` with a key from outside is true for "constructor" and "toString": Object.hasOwn asks what was meant.
// (A lookup table indexed by outside text is a Map for the same reason; lint cannot see those, test/unit/core/prototype-names does.)
const ownKeysOnly = {
  selector: "BinaryExpression[operator='in'][left.type!='Literal']",
  message: 'use Object.hasOwn(object, key): `in` also finds the keys every object inherits',
};

export default defineConfig(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.electron-native/**', 'coverage/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  { files: ['**/*.{js,mjs,cjs}'], languageOptions: { globals: globals.node } },
  // The bin is CommonJS (bin/package.json) so that a command never starts Node's ES module loader.
  { files: ['bin/skilltray.js'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      // Prettier wraps code at 160; what it cannot wrap is a comment, so those are held to it here.
      // A long string or template stays whole: it is one message, and grep finds it that way.
      'max-len': ['error', { code: 160, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true }],
    },
  },
  {
    files: ['src-main/**/*.ts', 'src-renderer/**/*.{ts,tsx}'],
    rules: {
      'max-lines': ['error', { max: 350, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true }],
      'no-restricted-syntax': ['error', ownKeysOnly],
    },
  },
  ...sizeExceptions.map(({ why, rules, files }) => ({ name: `size exception: ${why}`, files, rules: Object.fromEntries(rules.map((rule) => [rule, 'off'])) })),
  {
    files: ['src-main/core/**/*.ts'],
    plugins: { floors },
    rules: {
      'floors/floor-order': ['error', { root: 'src-main/core', floors: coreFloors }],
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'src-main/core never imports electron.' }],
          patterns: [{ group: adapters, message: 'src-main/core never imports an adapter.' }],
        },
      ],
    },
  },
  {
    files: ['src-main/cli/**/*.ts', 'src-main/server/**/*.ts', 'src-main/electron/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: pastTheFacade, message: facadeMessage }] }],
      // A lazy import() is an import too.
      'no-restricted-syntax': [
        'error',
        ownKeysOnly,
        { selector: `ImportExpression[source.value=/${pastTheFacade.replaceAll('/', '\\/')}/]`, message: facadeMessage },
      ],
    },
  },
  {
    files: ['src-main/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'shared is imported by the renderer.' }],
          patterns: [{ group: ['node:*', '**/core/**', ...adapters], message: 'shared holds only contracts: no Node, no core.' }],
        },
      ],
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { floors },
    rules: {
      'floors/floor-order': ['error', { root: 'src-renderer', floors: rendererFloors }],
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer talks to main only through the preload API.' }],
          patterns: [
            { group: ['node:*'], message: 'The renderer runs in a sandboxed browser context.' },
            { regex: 'src-main/(?!shared/)', message: 'The renderer may import only src-main/shared.' },
          ],
        },
      ],
    },
  },
);
