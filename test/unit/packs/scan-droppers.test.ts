/**
 * The scan against droppers written for it (test/fixtures/scan-droppers.yaml): a tool whose program
 * can run code it is handed trips a high finding unless its whole argv matches a vetted shape, and
 * so do instructions telling an assistant to fetch and run something. Beyond the written cases,
 * generated argv: code-running programs with arguments that look harmless are never passed unless
 * they are exactly a vetted argv, and a vetted shape with one hostile word added is passed no more.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SEVERITY } from '../../../src-main/core/packs/findings.js';
import { packPolicy } from '../../../src-main/core/packs/policy-view.js';
import { scanPack } from '../../../src-main/core/packs/scan.js';
import { awkProgramWhy, sedScriptWhy } from '../../../src-main/core/packs/script-shapes.js';
import { judgeTool } from '../../../src-main/core/packs/tool-verdict.js';
import type { ToolParam } from '../../../src-main/shared/model.js';
import type { FindingCode } from '../../../src-main/shared/packs.js';
import { tempDir } from '../../support/temp.js';

interface Case {
  name: string;
  class?: string;
  command?: string;
  params?: Record<string, string>;
  prose?: string;
  files?: Record<string, string>;
  expect?: FindingCode[];
}

const corpus = parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'scan-droppers.yaml'), 'utf8')) as { droppers: Case[]; vetted: Case[] };

/** Placeholder keys of a Command, in order, once each. */
const keysOf = (command: string): string[] => [...new Set([...command.matchAll(/<<(\w+)/g)].map((m) => m[1] as string))];

/** The case as a one-skill pack folder (its parameters typed as the case says, else `string`); returns the pack folder. */
function packOf(c: Case, name: string): string {
  const pack = tempDir();
  const dir = join(pack, name);
  const command = c.command ?? 'echo <<what>>';
  const keys = keysOf(command);
  const table =
    keys.length === 0
      ? 'None.'
      : `| Name | Type | Required | Description |\n|---|---|---|---|\n${keys.map((k) => `| ${k} | ${c.params?.[k] ?? 'string'} | no | the ${k} |`).join('\n')}`;
  const skill = `---\nname: ${name}\ndescription: The ${name} skill. Use it for tests.\nversion: 1.0.0\n---\n${c.prose ?? ''}\n## Tools\n\n### run_it\n\nRuns it.\n\n#### Parameters\n\n${table}\n\n#### Command\n\n\`\`\`\n${command}\n\`\`\`\n`;
  for (const [rel, text] of Object.entries({ 'SKILL.md': skill, ...c.files })) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return pack;
}

/** Parameters as the loader reads them from a type column (`string, allow-dash`, `integer`, `enum: a, b`). */
function paramsOf(command: string, types: Record<string, string> = {}): ToolParam[] {
  return keysOf(command).map((name, line) => {
    const type = types[name] ?? 'string';
    const enumValues = type.startsWith('enum:')
      ? type
          .slice(5)
          .split(',')
          .map((v) => v.trim())
      : [];
    return {
      name,
      type: (enumValues.length > 0 ? 'enum' : type.split(',')[0]?.trim()) as ToolParam['type'],
      enumValues,
      required: false,
      allowDash: type.includes('allow-dash'),
      description: '',
      default: null,
      line,
    };
  });
}

describe('droppers written against the scan', () => {
  it('are at least 33, spread across every class of code-running program and the forms of prose', () => {
    expect(corpus.droppers.length).toBeGreaterThanOrEqual(33);
    const classes = new Set(corpus.droppers.map((c) => c.class));
    for (const wanted of ['interpreter', 'awk', 'sed', 'find', 'wrapper', 'tar', 'git', 'editor', 'pager', 'ssh', 'rsync', 'zip', 'build', 'socket'])
      expect(classes, wanted).toContain(wanted);
    for (const wanted of ['loader', 'writer', 'package', 'scheduler', 'reverse-shell', 'spelling', 'prose']) expect(classes, wanted).toContain(wanted);
  });

  it.each(corpus.droppers.map((c, i) => [c.name, c, `dropper-${i + 1}`] as const))('%s: trips exactly its codes, one of them high', (_name, c, name) => {
    const scan = scanPack(packOf(c, name), packPolicy);
    expect(scan.findings.map((f) => f.code)).toEqual(c.expect);
    expect(scan.findings.some((f) => SEVERITY[f.code] === 'high' && f.severity === 'high')).toBe(true);
    // Every finding names its file, and every one on a line names the line.
    for (const f of scan.findings) expect(f.file.startsWith(`${name}/`)).toBe(true);
  });
});

describe('vetted shapes', () => {
  it.each(corpus.vetted.map((c, i) => [c.name, c, `vetted-${i + 1}`] as const))('%s: no finding at all', (_name, c, name) => {
    expect(scanPack(packOf(c, name), packPolicy).findings).toEqual([]);
  });
});

/** Programs that run code they are handed, as the scan must know them whatever their spelling. */
const CODE_RUNNERS = [
  ...['python3', 'python3.12', 'pypy3', 'node', 'deno', 'bun', 'perl', 'perl5.36', 'ruby3.3', 'php8.2', 'lua5.4', 'Rscript', 'osascript', 'pwsh'],
  ...['bash', 'sh', 'zsh', 'dash', 'fish', 'ksh', 'sqlite3', 'psql', 'xargs', 'sudo', 'doas', 'setsid', 'chroot', 'flock', 'watch', 'strace'],
  ...['gdb', 'valgrind', 'make', 'cmake', 'ninja', 'meson', 'npm', 'npx', 'pnpm', 'yarn', 'pip', 'pipx', 'uv', 'cargo', 'go', 'dotnet'],
  ...['docker', 'podman', 'systemd-run', 'at', 'crontab', 'vim', 'nvim', 'emacs', 'ed', 'socat', 'ld.so', 'ld-linux-x86-64.so.2'],
];

/** How a program's name may be written and still be that program. */
const spelled = (name: string) =>
  fc
    .constantFrom(name, `/usr/bin/${name}`, name.toUpperCase(), `${name}.exe`, `/usr/local/bin/${name}`, `busybox ${name}`)
    .filter((n) => !n.startsWith('busybox ld'));

/** Arguments that look harmless; `<<x>>` are caller values (none may begin with a dash). */
const HARMLESS = [
  '-n',
  '1',
  '--quiet',
  '-q',
  'file.txt',
  '<<path>>',
  '<<name>>',
  '-v',
  '--version',
  '-I',
  '-m',
  'json.tool',
  'status',
  'ls',
  'list',
  '-x',
  'show',
];

/** The argv vetted one by one that these programs and arguments can form: exactly these pass. */
function vettedExactly(program: string, args: readonly string[]): boolean {
  const name = program
    .replace(/^busybox /, '')
    .replace(/^.*\//, '')
    .toLowerCase()
    .replace(/\.exe$/, '');
  const value = (a: string | undefined): boolean => a !== undefined && !a.startsWith('-');
  const text = args.join(' ');
  if (text === '--version') return true;
  if (/^python/.test(name) && (text === '-V' || (text.startsWith('-I -m json.tool') && args.length <= 5 && args.slice(3).every(value)))) return true;
  if (['node', 'bun'].includes(name) && text === '-v') return true;
  if (name === 'npm' && (text === 'ls' || (args[0] === 'view' && args.length <= 3 && args.slice(1).every(value)))) return true;
  if (name === 'pip' && (text === 'list' || (args[0] === 'show' && args.length <= 2 && args.slice(1).every(value)))) return true;
  if (name === 'go' && args[0] === 'env' && args.length <= 2 && args.slice(1).every(value)) return true;
  return (name === 'docker' || name === 'podman') && (text === 'ps' || text === 'images');
}

/** Argument lists vetted for some program, to edit by one word: what is near a vetted argv must be judged as carefully as the argv. */
const NEAR = [
  ['--version'],
  ['-V'],
  ['-I', '-m', 'json.tool'],
  ['-I', '-m', 'json.tool', '<<path>>'],
  ['-v'],
  ['ls'],
  ['view', '<<name>>'],
  ['list'],
  ['show', '<<path>>'],
  ['env', '<<name>>'],
  ['ps'],
];

/** Harmless-looking arguments: drawn at random, or a vetted list kept, or with one word dropped, added or replaced. */
const ARGS = fc.oneof(
  fc.array(fc.constantFrom(...HARMLESS), { maxLength: 5 }),
  fc
    .tuple(fc.constantFrom(...NEAR), fc.nat(), fc.constantFrom(...HARMLESS), fc.constantFrom('keep', 'drop', 'add', 'replace'))
    .map(([base, at, word, edit]) => {
      const i = at % (base.length + 1);
      if (edit === 'drop') return base.filter((_, k) => k !== i);
      if (edit === 'add') return [...base.slice(0, i), word, ...base.slice(i)];
      if (edit === 'replace') return base.map((w, k) => (k === i ? word : w));
      return base;
    }),
);

describe('generated argv', () => {
  it('a code-running program with harmless-looking arguments is flagged high unless the argv is exactly a vetted one', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CODE_RUNNERS).chain(spelled), ARGS, (program, args) => {
        const command = [program, ...args].join(' ');
        const verdict = judgeTool(command, 'angle', paramsOf(command));
        if (vettedExactly(program, args)) expect(verdict, command).toBeNull();
        else expect([verdict?.code, verdict?.severity ?? 'high'], command).toEqual([expect.stringMatching(/^S31[47]$/), 'high']);
      }),
      { numRuns: 3000 },
    );
  });

  /** Words no vetted shape of a code-running program takes where an option goes (long forms: a short cluster like -TT is harmless to some, `tar -T T`). */
  const HOSTILE = [
    '<<evil>>',
    '--exec=sh',
    '--to-command=sh',
    '--checkpoint-action=exec=sh',
    '--upload-pack=sh',
    '--config-env=core.pager=X',
    '--eval=x',
    '--rsh=sh',
    '--pre=sh',
    '--unzip-command=sh',
    '--compress-program=sh',
    '--lua-filter=x.lua',
    '--sh-exec=sh',
  ];
  const shaped = corpus.vetted.filter((c) => !/^(?:curl|scripts\/|timeout|env|cp|install)/.test(c.command ?? ''));

  it('a vetted shape of a code-running program with one hostile word where an option goes (after the program, or at the end) is flagged high', () => {
    fc.assert(
      fc.property(fc.constantFrom(...shaped), fc.constantFrom(...HOSTILE), fc.boolean(), (c, hostile, first) => {
        const words = (c.command as string).match(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g) as string[];
        // After `--` every word is an operand.
        fc.pre(first || !words.includes('--'));
        const command = (first ? [words[0], hostile, ...words.slice(1)] : [...words, hostile]).join(' ');
        const verdict = judgeTool(command, 'angle', paramsOf(command, { ...c.params, evil: 'string, allow-dash' }));
        expect([verdict?.code, verdict?.severity ?? 'high'], command).toEqual([expect.stringMatching(/^S31[47]$/), 'high']);
      }),
      { numRuns: 1000 },
    );
  });

  it('a wrapper that adds nothing is judged by what it runs: around a vetted or known program nothing, around code what that code is', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('timeout 5', 'nice -n 10', 'env LC_ALL=C', 'stdbuf -oL', 'nohup', 'env TZ=<<tz>>'),
        fc.constantFrom(
          'ls -l <<path>>',
          'git -c core.fsmonitor=false status --short',
          'python3 <<script>>',
          'sh -c <<code>>',
          'make <<target>>',
          'frobnicate',
        ),
        (wrapper, inner) => {
          const alone = judgeTool(inner, 'angle', paramsOf(inner));
          const wrapped = `${wrapper} ${inner}`;
          expect(judgeTool(wrapped, 'angle', paramsOf(wrapped))?.code ?? null, wrapped).toBe(alone?.code ?? null);
        },
      ),
    );
  });
});

describe('Commands with more forms than the scan expands', () => {
  it('judges each placeholder as any word: a program vetted safe stays unflagged, one judged by its options is flagged', () => {
    const flags = Array.from({ length: 9 }, (_, i) => `<<f${i}:--flag${i}>>`).join(' ');
    const types = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`f${i}`, 'boolean']));
    expect(judgeTool(`ls ${flags} <<path>>`, 'angle', paramsOf(`ls ${flags} <<path>>`, types))).toBeNull();
    expect(judgeTool(`find . ${flags}`, 'angle', paramsOf(`find . ${flags}`, types))).toMatchObject({
      code: 'S317',
      message: expect.stringContaining('may be any option'),
    });
  });
});

describe('the little languages', () => {
  it.each([
    ['1,20p', null],
    ['s/[0-9]+/N/g', null],
    ['/^#/d;s|a|b|2', null],
    ['$!N;P;D', null],
    ['/x/{s/a/b/;p}', null],
    ['y/abc/xyz/', null],
    ['s/.*/id/e', 'e flag'],
    ['s/x/y/w out', 'w flag'],
    ['1w .git/hooks/pre-commit', 'w command'],
    ['1e id', 'e command'],
    ['/x/ { e id\n}', 'e command'],
    ['s/a/b', 'does not parse'],
  ])('sed %j', (script, why) => {
    if (why === null) expect(sedScriptWhy(script)).toBeNull();
    else expect(sedScriptWhy(script)).toContain(why);
  });

  it.each([
    ['{ print $1 }', null],
    ['$3 > 100 { print $1, $2 }', null],
    ['/error|warn/ { n++ } END { print n }', null],
    ['{ if (a || b) print "x|y" }', null],
    ['BEGIN { system("id") }', 'system'],
    ['{ print | "sh" }', 'pipes'],
    ['{ "date" | getline d }', 'getline'],
    ['{ print > "/tmp/x" }', 'prints into a file'],
    ['@load "filefuncs"', '@'],
  ])('awk %j', (program, why) => {
    if (why === null) expect(awkProgramWhy(program)).toBeNull();
    else expect(awkProgramWhy(program)).toContain(why);
  });
});
