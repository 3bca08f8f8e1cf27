/** The CLI behaves like the best ones: positional forms, filters that match columns, emphasis, quiet pipes, help with examples. */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../../src-main/cli/args.js';
import { bigTreesFile } from '../../../src-main/core/skills/tree-check.js';
import { commands } from '../../../src-main/cli/main.js';
import { cli } from '../../support/cli.js';
import { PROCESS_FIXTURES, skillMd, tempDir, testHome, writeSkill, type TestHome } from '../../support/temp.js';

const BIN = fileURLToPath(new URL('../../../bin/skilltray.js', import.meta.url));
const PRINT_ARGV = join(PROCESS_FIXTURES, 'print-argv.mjs');
const TRACE_IMPORTS = fileURLToPath(new URL('../../fixtures/processes/trace-imports.mjs', import.meta.url));
const TRACE_BUILTINS = fileURLToPath(new URL('../../fixtures/processes/trace-builtins.cjs', import.meta.url));

/** A bundled guide with sections, and a user skill with a tool that prints its argv. */
function home(): TestHome {
  const t = testHome();
  writeSkill(
    t.bundled,
    'guide',
    skillMd(
      { name: 'guide', description: 'A guide to the working tree.', version: '1.0.0', metadata: { classification: { role: 'procedure', status: 'stable' } } },
      '# Guide\n\n## Git Status\n\nThe working tree status, staged and not.\n\n## Branches\n\nWhere you are.\n',
    ),
  );
  writeSkill(
    t.skills,
    'parrot',
    skillMd(
      {
        name: 'parrot',
        description: 'Says it back: the status of anything.',
        version: '1.0.0',
        reads: [PROCESS_FIXTURES],
        metadata: { classification: { status: 'experimental' } },
      },
      `\n# Parrot\n\n## Status words\n\nStatus is a word the parrot knows.\n\n### say\n\nSays it.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| words | string | yes | What to say |\n\n#### Command\n\n\`\`\`\n${process.execPath} ${PRINT_ARGV} <<words>>\n\`\`\`\n`,
    ),
  );
  writeSkill(t.skills, 'broken', skillMd({ name: 'wrong', description: 'x' }));
  t.sealBundled();
  return t;
}

describe('show SKILL SECTION', () => {
  it('takes the section as the second argument, several words as one heading, or --section as before', async () => {
    const t = home();
    await cli(['build', 'guide'], t);
    const positional = await cli(['show', 'guide', 'git status'], t);
    expect(positional).toMatchObject({ code: 0, stdout: '## Git Status\n\nThe working tree status, staged and not.\n' });
    expect((await cli(['show', 'guide', 'git', 'status'], t)).stdout).toBe(positional.stdout);
    expect((await cli(['show', 'guide', '--section', 'Git Status'], t)).stdout).toBe(positional.stdout);
    expect(await cli(['show', 'guide', 'Branches', '--section', 'Branches'], t)).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^error\[E101\]: give the section once/),
    });
  });
});

describe('search QUERY and search SKILL QUERY', () => {
  it('a lone query searches every skill; a skill first searches only it; --all takes every word over every skill', async () => {
    const t = home();
    const all = JSON.parse((await cli(['search', 'working tree', '--json'], t)).stdout);
    expect(all.results.map((r: { skill: string; section: string }) => `${r.skill}#${r.section}`)).toContain('guide#Git Status');
    const everywhere = JSON.parse((await cli(['search', 'status', '--json'], t)).stdout);
    expect(new Set(everywhere.results.map((r: { skill: string }) => r.skill))).toEqual(new Set(['guide', 'parrot']));
    const one = JSON.parse((await cli(['search', 'parrot', 'status', '--json'], t)).stdout);
    expect(one.results.length).toBeGreaterThan(0);
    expect(one.results.every((r: { file: string }) => r.file === 'SKILL.md')).toBe(true);
    expect(JSON.parse((await cli(['search', 'guide', 'working', 'tree', '--json'], t)).stdout).query).toBe('working tree');
    expect(JSON.parse((await cli(['search', '--all', 'guide', 'status', '--json'], t)).stdout)).toMatchObject({ query: 'guide status' });
  });

  it('prints matches with emphasis on a terminal, plain when piped or NO_COLOR is set, and keeps the RFC markers in JSON', async () => {
    const t = home();
    await cli(['build', '--all'], t);
    const piped = (await cli(['search', 'guide', 'staged'], t)).stdout;
    expect(piped).toContain('The working tree status, staged and not.');
    expect(piped).not.toMatch(/\[\/?MATCH\]/);
    expect(piped).not.toContain('\u001b');
    const tty = (await cli(['search', 'guide', 'staged'], t, { tty: true })).stdout;
    expect(tty).toContain('status, \u001b[1;4mstaged\u001b[22;24m and not');
    expect((await cli(['search', 'guide', 'staged'], t, { tty: true, env: { NO_COLOR: '1' } })).stdout).toBe(piped);
    expect(JSON.parse((await cli(['search', 'guide', 'staged', '--json'], t, { tty: true })).stdout).results[0].snippet).toContain('[MATCH]staged[/MATCH]');
  });
});

describe('list filters match its columns', () => {
  it('--status filters the STATUS column (health); --lifecycle filters the ADR status', async () => {
    const t = home();
    const ok = await cli(['list', '--status', 'ok'], t);
    expect(ok.stdout).toMatch(/^NAME\s+VERSION\s+TRUST\s+STATUS\s+ON\s+TOOLS\s+DESCRIPTION$/m);
    expect(ok.stdout).toMatch(/^guide\s+1\.0\.0\s+bundled\s+ok\s/m);
    expect(ok.stdout).toMatch(/^parrot\s+1\.0\.0\s+user\s+ok\s/m);
    expect(ok.stdout).not.toContain('broken');
    expect((await cli(['list', '--status', 'error'], t)).stdout).toMatch(/^broken\s+-\s+user\s+error\s/m);
    const stable = JSON.parse((await cli(['list', '--lifecycle', 'stable', '--json'], t)).stdout);
    expect(stable.skills.map((s: { name: string }) => s.name)).toEqual(['guide']);
    expect(await cli(['list', '--status', 'stable'], t)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        "error[E100]: --status must be one of ok, warnings, error, got 'stable'; 'stable' is not a health: for the lifecycle (stable, experimental, …) use --lifecycle stable\n",
      ),
    });
    expect((await cli(['list', '--lifecycle', 'retired'], t)).stdout).toBe('No skill matches those filters.\n');
  });
});

describe('describe', () => {
  it('names a root whose kind is its trust once, and both when they differ', async () => {
    const t = home();
    const bundled = (await cli(['describe', 'guide'], t)).stdout;
    expect(bundled).toContain(`root:           ${t.bundled} (bundled)\n`);
    expect(bundled).not.toContain('bundled, bundled');
    expect((await cli(['describe', 'parrot'], t)).stdout).toContain(`root:           ${t.skills} (env root, user trust)\n`);
  });
});

describe('history', () => {
  it('lists runs under a header row, and shows one run whole', async () => {
    const t = home();
    const ran = await cli(['run', 'parrot', 'say', '--arg', 'words=hi there', '--yes', '--json'], t, { cwd: t.work });
    const id = JSON.parse(ran.stdout).id as string;
    const table = (await cli(['history'], t)).stdout.split('\n');
    expect(table[0]).toMatch(/^WHEN\s+TOOL\s+STATUS\s+DECISION\s+RESULT\s+VIA\s+ID$/);
    expect(table[1]).toMatch(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s+parrot/say\\s+succeeded\\s+approved by user\\s+exit 0\\s+cli\\s+${id}$`),
    );
    const record = (await cli(['history', id], t)).stdout;
    for (const line of [
      `run         ${id}`,
      'tool        parrot/say',
      'arguments   {"words":"hi there"}',
      'status      succeeded',
      `program     ${process.execPath}`,
      `arg 1       ${JSON.stringify(PRINT_ARGV)}`,
      'arg 2       "hi there"',
      `cwd         ${t.work}`,
      'timeout     30 s',
      'result      exit 0',
      'stdout:\n  ["hi there"]\n',
      'stderr: (empty)',
    ]) {
      expect(record).toContain(line);
    }
    expect(record).toMatch(/^decision {4}approved by user \(.+ \(--yes\)\) at \d{4}-\d\d-\d\d /m);
    expect(record).toMatch(/^asked {7}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d over cli$/m);
    expect(record).toMatch(/^duration {4}\d+ ms$/m);
    // A user skill's tool gets the workspace profile; whether bwrap contains it depends on the machine.
    expect(record).toMatch(/^sandbox {5}workspace, (no network \(bubblewrap\)|not contained: .+)$/m);
  });
});

/** Splits an example command line into words as a POSIX shell would (quotes, no expansion), up to a pipe. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"([^"]*)"|(\|)|(\S+)/g)) {
    if (m[3] !== undefined) break;
    words.push(m[1] ?? m[2] ?? (m[4] as string));
  }
  return words;
}

describe('--help', () => {
  it.each(commands.map((c) => [c.name, c] as const))('%s shows usage, options and examples that parse', async (name, command) => {
    const { code, stdout } = await cli([name, '--help'], home());
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`^Usage: skilltray ${name}\\b`));
    expect(stdout).toContain('\nExamples:\n  skilltray ');
    expect(command.examples.length).toBeGreaterThan(0);
    for (const [line] of command.examples) {
      const [first, ...rest] = shellWords(line);
      expect(first, line).toBe(name);
      expect(() => parseArgs(rest, command), line).not.toThrow();
      expect(stdout).toContain(`skilltray ${line}`);
    }
  });
});

describe('a lazy start', () => {
  const BUNDLE = new URL('../../../dist/cli/', import.meta.url);
  const COMPILED = new URL('../../../dist/node/', import.meta.url);
  /** Which of our modules (paths under dist/node) each chunk of the CLI bundle holds (scripts/bundle-cli.js writes it). */
  const chunks = JSON.parse(readFileSync(new URL('chunks.json', BUNDLE), 'utf8')) as Record<string, string[]>;

  /** The module URLs a real `skilltray …` process loads (in a fresh home unless given one); a chunk of the bundle stands for the modules it holds. */
  async function loaded(argv: string[], t: TestHome = testHome()): Promise<string[]> {
    const trace = join(tempDir(), 'imports.txt');
    const result = await execa(process.execPath, ['--import', TRACE_IMPORTS, BIN, ...argv], {
      env: { ...t.env, SKILLTRAY_TRACE_IMPORTS: trace },
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    return readFileSync(trace, 'utf8')
      .split('\n')
      .filter(Boolean)
      .flatMap((url) => {
        if (!url.startsWith(BUNDLE.href)) return [url];
        const modules = chunks[url.slice(BUNDLE.href.length)];
        expect(modules, `${url} is not in dist/cli/chunks.json`).toBeDefined();
        return (modules as string[]).map((module) => new URL(module, COMPILED).href);
      });
  }

  it('runs the CLI bundle, whose chunks hold our modules', async () => {
    const urls = await loaded(['roots']);
    expect(urls.some((url) => url.endsWith('/dist/node/src-main/cli/main.js'))).toBe(true);
    expect(urls.filter((url) => url.startsWith(COMPILED.href))).not.toContain(new URL('src-main/core/api.js', COMPILED).href);
  });

  // node:crypto too: loading it is about 6 ms of Node 20's start, and only claiming server.json or running needs it.
  const HEAVY =
    /node_modules\/(better-sqlite3|zod|execa|@modelcontextprotocol|chokidar)\/|src-main\/(core\/api|core\/store|server\/mcp|shared\/contract)\b|^node:crypto$/;

  it.each([['--version'], ['--help'], ['roots'], ['roots', '--json'], ['list', '--help']].map((argv) => [argv.join(' '), argv] as const))(
    '%s loads no SQLite, zod, execa, MCP SDK, node:crypto or core API',
    async (_, argv) => {
      const urls = await loaded(argv);
      expect(urls.filter((url) => HEAVY.test(url))).toEqual([]);
    },
  );

  it("--help loads every command's module, so the check above holds for each command's own imports (retention, serve, mcp, …)", async () => {
    const urls = await loaded(['--help']);
    const modules = readdirSync(fileURLToPath(new URL('../../../dist/node/src-main/cli/commands', import.meta.url))).filter((file) => file.endsWith('.js'));
    expect(modules).toContain('retention.js');
    for (const file of modules)
      expect(
        urls.some((url) => url.endsWith(`/cli/commands/${file}`)),
        file,
      ).toBe(true);
  });

  it('while `list` does load them (the trace sees what it should)', async () => {
    const urls = await loaded(['list']);
    expect(urls.some((url) => url.includes('node_modules/better-sqlite3/'))).toBe(true);
    expect(urls.some((url) => url.includes('src-main/core/api.js'))).toBe(true);
  });

  it("takes better-sqlite3's JavaScript from the bundle and its addon from the package, without `bindings` looking for it", async () => {
    const urls = await loaded(['list']);
    expect(urls.filter((url) => url.includes('node_modules/better-sqlite3/'))).toEqual([
      expect.stringMatching(/node_modules\/better-sqlite3\/build\/Release\/better_sqlite3\.node$/),
    ]);
    expect(urls.filter((url) => url.includes('node_modules/bindings/'))).toEqual([]);
  });

  describe('read-only commands, with the parse cache warm', () => {
    // What only running a tool, watching the roots, serving or parsing a skill needs, and the core beyond the skill library (state.db, policy, runs).
    const UNUSED =
      /node_modules\/(zod|execa|@modelcontextprotocol|chokidar|gray-matter|yaml|js-yaml|marked|picomatch)\/|src-main\/core\/(api\.js|store\/state-|policy\/|runner\/|runs\/)/;
    /** A home where the bundled skills (long settled, so the parse cache records them) were listed once, git's index built and the catalog synced. */
    async function warmHome(): Promise<TestHome> {
      const t = testHome();
      for (const argv of [['list'], ['build', 'git'], ['search', 'commit']]) {
        const result = await execa(process.execPath, [BIN, ...argv], { env: t.env, extendEnv: false, reject: false });
        expect(result.exitCode, result.stderr).toBe(0);
      }
      return t;
    }

    it('search, show, open, sources and describe load no execa, zod, MCP SDK, chokidar, picomatch, skill parser, state.db or runner', async () => {
      const t = await warmHome();
      for (const argv of [
        ['search', 'git', 'status'],
        ['search', 'status'],
        ['show', 'git', 'git_status'],
        ['open', 'git', 'SKILL.md'],
        ['sources', 'git'],
        ['describe', 'git'],
      ]) {
        const urls = await loaded(argv, t);
        expect(
          urls.filter((url) => UNUSED.test(url)),
          argv.join(' '),
        ).toEqual([]);
      }
    });

    it('a search of a small skill opens no stderr it does not write to and starts no helper thread; one the hint names big starts one', async () => {
      const t = await warmHome();
      /** The built-ins `search git status` loads, its stdout a file (a plain write stream) and its stderr a pipe (a socket once opened). */
      const builtins = (): string[] => {
        const trace = join(tempDir(), 'builtins.txt');
        // A descriptor, handed to the process as its stdout (execa would pipe a `{ file }` through itself).
        const out = openSync(join(tempDir(), 'out.txt'), 'w');
        try {
          const result = spawnSync(process.execPath, ['--require', TRACE_BUILTINS, BIN, 'search', 'git', 'status'], {
            env: { ...t.env, SKILLTRAY_TRACE_BUILTINS: trace },
            stdio: ['ignore', out, 'pipe'],
            encoding: 'utf8',
          });
          expect(result.status, result.stderr).toBe(0);
        } finally {
          closeSync(out);
        }
        return readFileSync(trace, 'utf8').split('\n');
      };
      const quiet = builtins();
      expect(quiet, 'stderr opened').not.toContain('node:net');
      expect(quiet).not.toContain('node:worker_threads');
      writeFileSync(bigTreesFile(t.home), 'git\n');
      expect(builtins()).toContain('node:worker_threads');
    });

    it('list, whose bundled prompt skills (commit-message) need the Markdown lexer to tell, loads no marked: the parse told, once', async () => {
      const t = await warmHome();
      const urls = await loaded(['list', '--json'], t);
      expect(urls.some((url) => url.includes('src-main/core/api.js'))).toBe(true);
      expect(urls.filter((url) => /node_modules\/(marked|yaml|gray-matter)\//.test(url))).toEqual([]);
    });

    it('while a cold cache parses (the trace sees packages loaded on first use); plain frontmatter never loads the yaml library, nor gray-matter', async () => {
      // A tool section with a list in it is lexed by marked, loaded on first use: the trace sees it.
      const t = testHome();
      const listed = '## Tools\n\n### greet\n\nSays hello.\n\n- to anyone\n- once\n\n#### Command\n\n```bash\necho hello\n```\n';
      writeSkill(t.skills, 'greeter', skillMd({ name: 'greeter', description: 'Greets.' }, listed));
      const urls = await loaded(['describe', 'greeter'], t);
      expect(urls.some((url) => url.includes('node_modules/marked/'))).toBe(true);
      // Nor gray-matter at all: the frontmatter splitter is Skilltray's own (core/markdown/frontmatter.ts).
      for (const unused of ['yaml', 'gray-matter'])
        expect(
          urls.some((url) => url.includes(`node_modules/${unused}/`)),
          unused,
        ).toBe(false);
    });

    it('nor marked, where every tool section is plain (the bundled git skill, parsed cold)', async () => {
      const urls = await loaded(['describe', 'git']);
      expect(urls.filter((url) => /node_modules\/(marked|yaml|gray-matter)\//.test(url))).toEqual([]);
    });

    it("the app's build (dist/node) lists from what the CLI bundle cached, parsing nothing again", async () => {
      const t = await warmHome();
      const trace = join(tempDir(), 'imports.txt');
      const bundled = fileURLToPath(new URL('../../../skills', import.meta.url));
      const script = [
        `const { SkillLibrary } = await import(${JSON.stringify(new URL('src-main/core/library.js', COMPILED).href)});`,
        `const { resolveConfig } = await import(${JSON.stringify(new URL('src-main/core/config.js', COMPILED).href)});`,
        `const library = new SkillLibrary(resolveConfig({ env: process.env, bundledDir: ${JSON.stringify(bundled)} }));`,
        'process.stdout.write(String(library.registry.list().length));',
        'await library.close();',
      ].join('\n');
      const result = await execa(process.execPath, ['--import', TRACE_IMPORTS, '--input-type=module', '-e', script], {
        env: { ...t.env, SKILLTRAY_TRACE_IMPORTS: trace },
        extendEnv: false,
        reject: false,
      });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(Number(result.stdout)).toBeGreaterThan(0);
      const urls = readFileSync(trace, 'utf8').split('\n');
      expect(urls.filter((url) => /node_modules\/(gray-matter|yaml|marked)\//.test(url))).toEqual([]);
    });
  });
});
