/**
 * goose's config.yaml in every form YAML allows and goose reads: the servers map as a block or flow
 * mapping, empty (`{}`, `{ }`, `!!map {}`), null (`extensions:`, `~`, `null`, `!!null`), missing,
 * with comments everywhere, flow sequences and mappings around it, the whole file a flow mapping.
 * Connecting adds exactly Skilltray's entry (every other key and comment kept), and disconnecting
 * gives back the file as it was (a null servers map comes back as an empty key). Generated configs
 * hold the same.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { openYaml } from '../../../src-main/core/connect/yaml-document.js';
import { rejectionOf } from '../../support/errors.js';

const ENTRY = {
  enabled: true,
  type: 'stdio',
  name: 'skilltray',
  description: 'Skills hosted by Skilltray, run after you approve them',
  cmd: '/usr/bin/node',
  args: ['/home/ann/skill tray/bin/skilltray.js', 'mcp'],
  envs: { SKILLTRAY_HOME: '/home/ann/.local/share/skilltray', SKILLTRAY_SKILLS_PATH: '', ODD: 'a: b, {c} [d] #e' },
  timeout: 360,
};

const connect = async (text: string): Promise<string> => (await openYaml(text, 'extensions', 'config.yaml')).withEntry('skilltray', ENTRY);
const disconnect = async (text: string): Promise<string> => (await openYaml(text, 'extensions', 'config.yaml')).withoutEntry('skilltray');

/** The file's data with an empty servers map (null, `{}`, none) read as none, as goose reads it. */
function data(text: string): Record<string, unknown> {
  const value = (parse(text) ?? {}) as Record<string, unknown>;
  const { extensions, ...rest } = value;
  const servers = (extensions ?? {}) as Record<string, unknown>;
  return Object.keys(servers).length === 0 ? rest : { ...rest, extensions: servers };
}

/** The comments of a YAML text, in order (a `#` inside a quoted string is none). */
const comments = (text: string): string[] =>
  [...text.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*'/g, '""').matchAll(/(?:^|[ \t])(#[^\n]*)/gm)].map((m) => m[1] as string);

const FORMS: [string, string][] = [
  ['an empty flow map (goose writes it)', 'GOOSE_PROVIDER: openai\nextensions: {}\nGOOSE_MODEL: gpt-4o\n'],
  ['an empty flow map with spaces and a comment', 'extensions: { }  # none yet\nGOOSE_MODEL: gpt-4o\n'],
  ['a tagged empty map', 'extensions: !!map {}\n'],
  ['a one-line flow map', 'extensions: {developer: {enabled: true, type: builtin, timeout: 300}}\nGOOSE_TOOLS: [a, b]\n'],
  [
    'a flow map over lines, with comments and a trailing comma',
    'extensions: {\n  developer: {enabled: true}, # the builtin\n  memory: {enabled: false},\n}\n# after\n',
  ],
  ['a block map holding flow values', 'extensions:\n  developer: {enabled: true, args: [x, "y z"]}  # keep\n  other:\n    cmd: npx\nGOOSE_MODE: auto\n'],
  ['a key with no value', 'GOOSE_PROVIDER: openai\nextensions:\nGOOSE_MODEL: x\n'],
  ['a key with ~ and a comment', 'extensions: ~  # nothing\nGOOSE_MODEL: x\n'],
  ['a key with null', 'extensions: null\n'],
  ['a key with !!null', 'extensions: !!null\nz: 1\n'],
  ['a key followed by a comment line', 'extensions:\n  # add them here\nGOOSE_MODEL: x\n'],
  ['no key at all', 'GOOSE_PROVIDER: openai  # provider\nGOOSE_TOOLS: [a, b]\n'],
  ['a whole file in flow style', '{GOOSE_PROVIDER: openai, extensions: {}, GOOSE_TOOLS: [a, b]}\n'],
  ['a flow file without the key', '{GOOSE_PROVIDER: openai}\n'],
  ['a flow file with a null key', '{GOOSE_PROVIDER: openai, extensions: ~}\n'],
  ['an empty file', ''],
  ['only a comment', '# goose config\n'],
  ['a document start marker', '---\nextensions: {}\n'],
  ['CRLF line endings', 'GOOSE_PROVIDER: openai\r\nextensions:\r\n  developer:\r\n    enabled: true\r\n'],
];

describe("goose's config.yaml, in every form", () => {
  it.each(FORMS)('%s: connect adds exactly the entry and keeps the rest; disconnect gives it back', async (_name, original) => {
    const connected = await connect(original);
    expect(data(connected)).toEqual({ ...data(original), extensions: { ...((data(original).extensions as object) ?? {}), skilltray: ENTRY } });
    // Every comment is still there, in order.
    expect(comments(connected).filter((c) => comments(original).includes(c))).toEqual(comments(original));
    expect((await openYaml(connected, 'extensions', 'config.yaml')).entry('skilltray')).toEqual(ENTRY);
    // Connecting again over its own entry changes nothing.
    expect(await (await openYaml(connected, 'extensions', 'config.yaml')).withEntry('skilltray', ENTRY)).toBe(connected);
    expect(data(await disconnect(connected))).toEqual(data(original));
  });

  it('edits a flow map in place and gives it back byte for byte', async () => {
    for (const original of [
      'extensions: {}\n',
      'extensions: { }  # none yet\n',
      'extensions: {developer: {enabled: true}}\n',
      'extensions: {\n  developer: {enabled: true}, # the builtin\n  memory: {enabled: false},\n}\n',
      '{GOOSE_PROVIDER: openai, extensions: {}, GOOSE_TOOLS: [a, b]}\n',
    ]) {
      const connected = await connect(original);
      expect(connected).not.toBe(original);
      expect(await disconnect(connected)).toBe(original);
    }
  });

  it('replaces an entry of its own written in flow style, keeping its neighbours', async () => {
    const original = 'extensions:\n  skilltray: {cmd: /old/node}  # mine\n  developer: {enabled: true}\nGOOSE_MODEL: x\n';
    const connected = await connect(original);
    expect(data(connected)).toEqual({ GOOSE_MODEL: 'x', extensions: { skilltray: ENTRY, developer: { enabled: true } } });
    expect(await disconnect(connected)).toBe('extensions:\n  developer: {enabled: true}\nGOOSE_MODEL: x\n');
  });

  it.each([
    ['a sequence', 'extensions: []\n', 1, 13],
    ['a string', 'extensions: none\n', 1, 13],
    ['a file that is a sequence', '- a\n- b\n', 1, 1],
  ])('refuses a servers map that is %s (E850, line and column), leaving it untouched', async (_name, text, line, column) => {
    const error = await rejectionOf(connect(text));
    expect(error.code).toBe('E850');
    expect(error.details).toMatchObject({ line, column });
  });

  it('keeps generated configs, block or flow, as they were, apart from its own entry', async () => {
    const scalar = fc.oneof(fc.integer(), fc.boolean(), fc.constantFrom('a b', 'x: y', '#not', '', 'true', '- x', '{z}', 'ü'));
    const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.constantFrom('k', 'l', 'm'), scalar, { maxKeys: 3 }));
    const server = fc.record({ enabled: fc.boolean(), cmd: fc.constantFrom('npx', '/usr/bin/x y'), args: fc.array(scalar, { maxLength: 3 }) });
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom('GOOSE_MODEL', 'GOOSE_TOOLS', 'other', 'z'), value, { maxKeys: 4 }),
        fc.option(fc.dictionary(fc.constantFrom('developer', 'memory', 'fetch'), server, { maxKeys: 3 }), { nil: undefined }),
        fc.constantFrom('block', 'flow'),
        fc.constantFrom('block', 'flow'),
        fc.boolean(),
        async (rest, servers, fileStyle, serversStyle, commented) => {
          const body = servers === undefined ? rest : { ...rest, extensions: servers };
          const rendered = stringify(body, { collectionStyle: fileStyle === 'flow' ? 'flow' : 'any' });
          // The servers map alone in its own style, when the file is a block mapping.
          const original =
            fileStyle === 'block' && serversStyle === 'flow' && servers !== undefined
              ? (Object.keys(rest).length === 0 ? '' : stringify(rest)) + `extensions: ${stringify(servers, { collectionStyle: 'flow' }).trimEnd()}\n`
              : rendered;
          const text = commented ? `# goose\n${original}# end\n` : original;
          const base = Object.keys(body).length === 0 && !commented ? '' : text;
          const connected = await connect(base);
          expect(data(connected)).toEqual({ ...data(base), extensions: { ...((data(base).extensions as object) ?? {}), skilltray: ENTRY } });
          expect(comments(connected).filter((c) => comments(base).includes(c))).toEqual(comments(base));
          expect(data(await disconnect(connected))).toEqual(data(base));
        },
      ),
      { numRuns: 200 },
    );
  });
});
