/**
 * An MCP source whose skill cannot be written, or that is slow or stuck (played by
 * fixtures/processes/skills-server.mjs), fails alone: a file name past what a filesystem takes is
 * refused before anything is fetched, an approval is kept only once its folder is written, a source
 * whose folder cannot be written says so while the others refresh, and a fetch that does not end is
 * cut at its deadline or by removing its source.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { BoundedChildTransport } from '../../../src-main/core/served/bounded-child.js';
import { openLink } from '../../../src-main/core/served/mcp-link.js';
import { McpSources } from '../../../src-main/core/served/mcp-sources.js';
import type { SkillRegistry } from '../../../src-main/core/skills/registry.js';
import { PROCESS_FIXTURES, tempDir } from '../../support/temp.js';
import { BIN } from '../contract/fixture.js';
import { isDead } from '../process/process-helpers.js';
import { onCleanup } from '../server/helpers.js';

const SERVER = join(PROCESS_FIXTURES, 'skills-server.mjs');
const hex = (bytes: string): string => createHash('sha256').update(bytes).digest('hex');

/** A skill served honestly: its entry and what each of its URIs reads as. */
function honest(name: string, others: Record<string, string> = {}) {
  const text = { 'SKILL.md': `---\nname: ${name}\ndescription: The ${name} skill. Use in tests.\n---\n# ${name}\n`, ...others };
  const uri = (path: string) => `skill://${name}/${encodeURIComponent(path)}`;
  return {
    entry: {
      uri: uri('SKILL.md'),
      frontmatter: { name, description: `The ${name} skill. Use in tests.` },
      resources: Object.entries(text).map(([path, content]) => ({ uri: uri(path), digest: `sha256:${hex(content)}` })),
    },
    files: Object.fromEntries(Object.entries(text).map(([path, content]) => [uri(path), { text: content }])),
  };
}

type Served = ReturnType<typeof honest>;

/** A scenario file for the fixture server, with a count file of the requests it answers. */
function scenario(skills: Served[], more: Record<string, unknown> = {}): { file: string; count: string } {
  const dir = tempDir();
  const count = join(dir, 'count');
  const file = join(dir, 'scenario.json');
  const files = Object.assign({}, ...skills.map((s) => s.files)) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ skills: skills.map((s) => s.entry), files, count, ...more }));
  return { file, count };
}

const requests = (count: string, method: string): number =>
  existsSync(count)
    ? readFileSync(count, 'utf8')
        .split('\n')
        .filter((line) => line === method).length
    : 0;

function sources(options: { fetchDeadlineMs?: number; home?: string } = {}): { sources: McpSources; home: string; changed: string[][] } {
  const home = options.home ?? join(tempDir(), 'home');
  const changed: string[][] = [];
  const registry = { get: () => undefined } as unknown as SkillRegistry;
  return {
    sources: new McpSources({ home, env: process.env, registry, onChanged: (names) => changed.push([...names]), fetchDeadlineMs: options.fetchDeadlineMs }),
    home,
    changed,
  };
}

const command = (file: string): string[] => [process.execPath, SERVER, file];
const approvedIn = (home: string, source: string): string[] =>
  Object.keys((JSON.parse(readFileSync(join(home, 'mcp', 'sources', source, 'state.json'), 'utf8')) as { approved: object }).approved);

/** Makes the kept blob of `content` a folder, so writing a skill folder from it fails. */
function breakBlob(home: string, source: string, content: string): void {
  const blob = join(home, 'mcp', 'sources', source, 'blobs', hex(content));
  rmSync(blob, { force: true });
  mkdirSync(blob);
}

describe('an MCP source whose skill cannot be written', () => {
  it('has a file name over 255 bytes refused with E865 at once, and one of 255 bytes taken and written', async () => {
    const { sources: s, home } = sources();
    const exact = `${'b'.repeat(251)}.txt`;
    const { file } = scenario([honest('longy', { [`${'a'.repeat(300)}.txt`]: 'x\n' }), honest('fits', { [exact]: 'y\n' })]);
    const status = await s.add({ name: 'longsrc', command: command(file) });
    const by = new Map(status.skills.map((skill) => [skill.skill, skill]));
    expect([by.get('longy')?.state, by.get('longy')?.refusal?.code]).toEqual(['refused', 'E865']);
    await expect(s.approve('longsrc.longy', '', false)).rejects.toMatchObject({ code: 'E869' });
    const fits = by.get('fits');
    expect(fits?.state).toBe('pending');
    await s.approve('longsrc.fits', fits?.digest as string, false);
    expect(readFileSync(join(home, 'mcp', 'skills', 'longsrc.fits', exact), 'utf8')).toBe('y\n');
    expect(approvedIn(home, 'longsrc')).toEqual(['fits']);
  });

  it('keeps no approval whose folder could not be written', async () => {
    const { sources: s, home, changed } = sources();
    const { file } = scenario([honest('one', { 'notes.md': 'one\n' })]);
    const status = await s.add({ name: 'a', command: command(file) });
    breakBlob(home, 'a', 'one\n');
    await expect(s.approve('a.one', status.skills[0]?.digest as string, false)).rejects.toThrow();
    expect(approvedIn(home, 'a')).toEqual([]);
    expect(existsSync(join(home, 'mcp', 'skills', 'a.one'))).toBe(false);
    expect(changed).toEqual([]);
  });

  it('says so as its own error on a refresh, and the sources after it still refresh', async () => {
    const { sources: s, home } = sources();
    const first = scenario([honest('one', { 'notes.md': 'one\n' })]);
    const second = scenario([honest('two')]);
    const a = await s.add({ name: 'a', command: command(first.file) });
    await s.add({ name: 'b', command: command(second.file) });
    await s.approve('a.one', a.skills[0]?.digest as string, false);
    rmSync(join(home, 'mcp', 'skills', 'a.one'), { recursive: true });
    breakBlob(home, 'a', 'one\n');
    expect(requests(second.count, 'skills/list')).toBe(1);
    const refreshed = await s.refresh();
    expect(refreshed.map((source) => [source.name, source.error === null])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    expect(requests(second.count, 'skills/list')).toBe(2);
    // The next refresh is not stopped by it either.
    await s.refresh();
    expect(requests(second.count, 'skills/list')).toBe(3);
    expect(readdirSync(join(home, 'mcp', 'skills'))).toEqual([]);
  });
});

describe('a slow or stuck MCP source', () => {
  it('is given up when it is removed, not waited for, and holds up no other source', async () => {
    const { sources: s, home } = sources();
    const stuck = scenario([honest('slow')], { stall: { 'skills/list': 1 } });
    const other = scenario([honest('two')]);
    await s.add({ name: 'slow', command: command(stuck.file) });
    const two = await s.add({ name: 'b', command: command(other.file) });
    const refreshing = s.refresh();
    // The refresh now waits on a listing the server never answers.
    await vi.waitFor(() => expect(requests(stuck.count, 'skills/list')).toBe(2), { timeout: 15_000 });
    await s.approve('b.two', two.skills[0]?.digest as string, false);
    const first = await Promise.race([s.remove('slow').then(() => 'removed'), refreshing.then(() => 'refreshed')]);
    expect(first).toBe('removed');
    expect(existsSync(join(home, 'mcp', 'sources', 'slow'))).toBe(false);
    const refreshed = await refreshing;
    expect(refreshed.map((source) => [source.name, source.error])).toEqual([['b', null]]);
    expect(existsSync(join(home, 'mcp', 'sources', 'slow'))).toBe(false);
    expect((await s.list()).map((source) => source.name)).toEqual(['b']);
  });

  it('fails past its deadline with E863 saying so, keeping what it had approved', async () => {
    const { sources: patient, home } = sources();
    // Its files are read again (none is kept any more), then the skills/get that confirms them never answers.
    const stuck = scenario([honest('one')], { stall: { 'skills/get': 1 } });
    const added = await patient.add({ name: 'a', command: command(stuck.file) });
    await patient.approve('a.one', added.skills[0]?.digest as string, false);
    rmSync(join(home, 'mcp', 'sources', 'a', 'blobs'), { recursive: true });
    const { sources: hasty } = sources({ home, fetchDeadlineMs: 1500 });
    const [status] = await hasty.refresh();
    // The whole fetch failed: no skill is refused for it, so the approved one stays loaded.
    expect(status?.error).toMatchObject({ code: 'E863', message: expect.stringContaining('did not end within 1.5 s') });
    expect(status?.skills.map((skill) => [skill.name, skill.state])).toEqual([['a.one', 'approved']]);
    expect(existsSync(join(home, 'mcp', 'skills', 'a.one', 'SKILL.md'))).toBe(true);
    const never = scenario([honest('two')], { stall: { 'skills/list': 0 } });
    await expect(hasty.add({ name: 'c', command: command(never.file) })).rejects.toMatchObject({ code: 'E863' });
    expect(existsSync(join(home, 'mcp', 'sources', 'c'))).toBe(false);
  });

  it('leaves no listener of a request on its fetch’s signal once the request is answered', async () => {
    const warnings: string[] = [];
    const warned = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', warned);
    onCleanup(async () => void process.off('warning', warned));
    const { sources: s } = sources();
    const { file } = scenario([honest('many', Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`f${i}.md`, `${i}\n`])))]);
    expect((await s.add({ name: 'a', command: command(file) })).skills[0]?.state).toBe('pending');
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('is ended with every process its server started when the CLI adding it is stopped by Ctrl+C', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'grandchild.pid');
    // The server stalls on skills/list, so the CLI is still fetching when it is interrupted.
    const { file, count } = scenario([honest('one')], { orphan: pidFile, stall: { 'skills/list': 0 } });
    const env = { PATH: process.env.PATH, HOME: dir, SKILLTRAY_HOME: join(dir, 'home') };
    const cliProcess = spawn(process.execPath, [BIN, 'sources', 'add-mcp', 'gc', '--', process.execPath, SERVER, file], { env, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => cliProcess.once('exit', (code) => resolve(code)));
    onCleanup(async () => void cliProcess.kill('SIGKILL'));
    await vi.waitFor(() => expect(requests(count, 'skills/list')).toBe(1), { timeout: 20_000 });
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    onCleanup(async () => {
      if (!isDead(grandchild)) process.kill(grandchild, 'SIGKILL');
    });
    cliProcess.kill('SIGINT');
    expect(await exited).toBe(130);
    // Its group gets no signal from a terminal: the CLI's exit ended it.
    await vi.waitFor(() => expect(isDead(grandchild)).toBe(true));
  });

  it('ends what its server started though the server has left already', async () => {
    // A server that starts a helper (no stdio of its own), says its pid, and leaves at once.
    const script = [
      "const { spawn } = require('node:child_process');",
      "const helper = spawn(process.execPath, ['-e', 'setInterval(() => undefined, 1e9)'], { stdio: 'ignore' });",
      'process.stdout.write(JSON.stringify({ jsonrpc: "2.0", method: "helper", params: { pid: helper.pid } }) + "\\n", () => process.exit(0));',
    ].join('\n');
    const transport = new BoundedChildTransport({ command: process.execPath, args: ['-e', script], env: { PATH: process.env.PATH ?? '' } }, 1 << 20);
    const said = new Promise<number>((resolve) => (transport.onmessage = (message) => resolve((message as unknown as { params: { pid: number } }).params.pid)));
    const left = new Promise<void>((resolve) => (transport.onclose = resolve));
    await transport.start();
    const helper = await said;
    onCleanup(async () => {
      if (!isDead(helper)) process.kill(helper, 'SIGKILL');
    });
    await left;
    expect(isDead(helper)).toBe(false);
    await transport.close();
    expect(isDead(helper)).toBe(true);
  });

  it('is closed with every process its server started, though the server ignores its stdin closing and one holds its output open', async () => {
    const pidFile = join(tempDir(), 'grandchild.pid');
    const { file } = scenario([honest('one')], { orphan: pidFile });
    const link = await openLink(
      { name: 'gc', transport: { kind: 'stdio', command: process.execPath, args: [SERVER, file], env: {} }, addedAt: 0 },
      process.env,
      '1',
    );
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    onCleanup(async () => {
      if (!isDead(grandchild)) process.kill(grandchild, 'SIGKILL');
    });
    expect(await link.list()).toHaveLength(1);
    expect(isDead(grandchild)).toBe(false);
    await link.close();
    // The server's group went with it: nothing it started outlives its source.
    expect(isDead(grandchild)).toBe(true);
  });
});
