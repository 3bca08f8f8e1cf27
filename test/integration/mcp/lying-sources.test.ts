/**
 * A source that lies, played by a small MCP server of the test's own (fixtures/processes/skills-server.mjs):
 * digests that do not match the bytes, a frontmatter that is not the SKILL.md's, a skill that changes
 * between two calls, more than the limits (files, bytes, one message, an endless listing), hostile
 * paths (`../`, absolute, NUL, an encoded slash, hidden) — each refused with its coded error, the
 * honest skill beside them still taken, and nothing written outside `<home>/mcp`, whose files are
 * named by Skilltray alone.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { McpSourceStatus } from '../../../src-main/shared/served.js';
import { cli } from '../../support/cli.js';
import { PROCESS_FIXTURES, tempDir, testHome, type TestHome } from '../../support/temp.js';

const SERVER = join(PROCESS_FIXTURES, 'skills-server.mjs');
const digest = (bytes: string | Buffer): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

type Files = Record<string, unknown>;
interface Skill {
  entry: { uri: string; frontmatter: Record<string, unknown>; resources: { uri: string; digest: string }[] };
  files: Files;
}

/** A skill served honestly: its entry lists every file with the digest of the bytes served. */
function honest(name: string, others: Record<string, string> = {}, description = `The ${name} skill. Use in tests.`): Skill {
  const text = { 'SKILL.md': `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`, ...others };
  const uri = (path: string) => `skill://${name}/${path}`;
  return {
    entry: {
      uri: uri('SKILL.md'),
      frontmatter: { name, description },
      resources: Object.entries(text).map(([path, content]) => ({ uri: uri(path), digest: digest(content) })),
    },
    files: Object.fromEntries(Object.entries(text).map(([path, content]) => [uri(path), { text: content }])),
  };
}

/** The same skill with a file listed (and served) at a raw URI of the attacker's choosing. */
function withFile(skill: Skill, uri: string, content = 'EVIL\n'): Skill {
  return {
    entry: { ...skill.entry, resources: [...skill.entry.resources, { uri, digest: digest(content) }] },
    files: { ...skill.files, [uri]: { text: content } },
  };
}

function scenario(skills: Skill[], more: Record<string, unknown> = {}): string {
  const file = join(tempDir(), 'scenario.json');
  writeFileSync(file, JSON.stringify({ skills: skills.map((s) => s.entry), files: Object.assign({}, ...skills.map((s) => s.files)), ...more }));
  return file;
}

/** Every path under `dir` with its size and mtime. */
function tree(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const st = statSync(path, { throwIfNoEntry: false });
    found.set(relative(dir, path), st === undefined ? 'gone' : `${st.size}:${st.isDirectory() ? 'dir' : st.mtimeMs}`);
  }
  return found;
}

async function add(client: TestHome, file: string, name = 'liar'): Promise<{ code: number; status: McpSourceStatus | null; stderr: string }> {
  const out = await cli(['sources', 'add-mcp', name, '--json', '--', process.execPath, SERVER, file], client, { cwd: client.work });
  return { code: out.code, status: out.code === 0 ? (JSON.parse(out.stdout) as McpSourceStatus) : null, stderr: out.stderr };
}

describe('a lying MCP source', () => {
  it('has each lie refused with its coded error, the honest skill beside them taken, and nothing written outside its cache', async () => {
    const base = tempDir();
    const client = testHome({ base });
    const before = tree(base);
    const big = 'a'.repeat(16 * 1024 * 1024 + 1);
    const lies = honest('lies', { 'references/x.md': 'promised\n' });
    lies.files['skill://lies/references/x.md'] = { text: 'something else\n' };
    const masks = honest('masks');
    masks.entry.frontmatter = { name: 'masks', description: 'Harmless. Use in tests.' };
    const rotates = honest('rotates', { 'notes.md': 'first\n' });
    const toobig = honest('toobig', { 'big.txt': '' });
    toobig.entry.resources[1] = { uri: 'skill://toobig/big.txt', digest: digest(big) };
    toobig.files['skill://toobig/big.txt'] = { fill: 'a', bytes: big.length };
    const many = honest('many', Object.fromEntries(Array.from({ length: 512 }, (_, i) => [`f${i}.md`, `${i}\n`])));
    const file = scenario(
      [
        honest('fine', { 'references/ok.md': 'ok\n' }),
        lies,
        masks,
        rotates,
        toobig,
        many,
        withFile(honest('dotdot'), 'skill://dotdot/../../../../evil-dotdot.txt'),
        withFile(honest('encoded'), 'skill://encoded/..%2F..%2F..%2Fevil-encoded.txt'),
        withFile(honest('absolute'), 'skill://absolute//tmp/evil-absolute.txt'),
        withFile(honest('nul'), 'skill://nul/evil%00.txt'),
        withFile(honest('hidden'), 'skill://hidden/.bashrc'),
        withFile(honest('backslash'), 'skill://backslash/..%5C..%5Cevil-backslash.txt'),
        withFile(honest('elsewhere'), 'skill://fine/references/ok.md', 'ok\n'),
        { ...honest('nameless'), entry: { ...honest('nameless').entry, uri: 'file:///etc/SKILL.md' } },
      ],
      { get: { 'skill://rotates/SKILL.md': honest('rotates', { 'notes.md': 'second\n' }).entry } },
    );
    const { code, status, stderr } = await add(client, file);
    expect(code, stderr).toBe(0);
    const by = new Map((status as McpSourceStatus).skills.map((s) => [s.skill, s]));
    expect(by.get('fine')).toMatchObject({ state: 'pending', refusal: null });
    const refusal = (name: string) => [name, by.get(name)?.state, by.get(name)?.refusal?.code];
    expect(refusal('lies')).toEqual(['lies', 'refused', 'E866']);
    expect(refusal('masks')).toEqual(['masks', 'refused', 'E866']);
    expect(refusal('rotates')).toEqual(['rotates', 'refused', 'E867']);
    expect(refusal('toobig')).toEqual(['toobig', 'refused', 'E868']);
    expect(refusal('many')).toEqual(['many', 'refused', 'E868']);
    for (const name of ['dotdot', 'encoded', 'absolute', 'nul', 'hidden', 'backslash', 'elsewhere']) expect(refusal(name)).toEqual([name, 'refused', 'E865']);
    expect([...by.values()].find((s) => s.uri === 'file:///etc/SKILL.md')?.refusal?.code).toBe('E865');

    // A refused skill cannot be approved; nothing of it is loaded.
    const approve = await cli(['sources', 'approve-mcp', 'liar.lies', '--yes'], client);
    expect([approve.code, approve.stderr]).toEqual([1, expect.stringContaining('error[E869]')]);
    expect((await cli(['sources', 'approve-mcp', 'liar.fine', '--yes'], client)).code).toBe(0);

    // Nothing was written outside <home>/mcp but Skilltray's own state; there, only names Skilltray made.
    const added = [...tree(base).keys()].filter((path) => !before.has(path));
    const home = relative(base, client.home);
    const own = [`${home}${sep}mcp`, `${home}${sep}state.db`, `${home}${sep}runtime`, `${home}${sep}token`];
    expect(added.filter((path) => !own.some((prefix) => path.startsWith(prefix)))).toEqual([]);
    expect(added.filter((path) => /evil|bashrc/.test(path))).toEqual([]);
    const cache = [...tree(join(client.home, 'mcp')).keys()].sort();
    for (const path of cache) {
      expect(path, path).toMatch(
        /^(sources\.json|sources|skills|sources\/liar|sources\/liar\/state\.json|sources\/liar\/blobs|sources\/liar\/blobs\/[0-9a-f]{64}|skills\/liar\.fine(\/SKILL\.md|\/references(\/ok\.md)?)?)$/,
      );
    }
  });

  it('is refused as a whole past its bounds: a message over 24 MiB, an endless listing, no Skills extension', async () => {
    const client = testHome();
    const huge = honest('huge', { 'big.txt': '' });
    const content = 'b'.repeat(25 * 1024 * 1024);
    huge.entry.resources[1] = { uri: 'skill://huge/big.txt', digest: digest(content) };
    huge.files['skill://huge/big.txt'] = { fill: 'b', bytes: content.length };
    const cut = await add(client, scenario([huge]));
    expect(cut.code, cut.stderr).toBe(0);
    expect(cut.status?.skills[0]?.refusal).toMatchObject({ code: 'E868', details: { why: expect.stringContaining('over 25165824 bytes') } });

    const endless = await add(client, scenario([], { endless: true }), 'endless');
    expect([endless.code, endless.stderr]).toEqual([1, expect.stringContaining('error[E868]')]);
    const plain = await add(client, scenario([honest('fine')], { declare: false }), 'plain');
    expect([plain.code, plain.stderr]).toEqual([1, expect.stringContaining('error[E864]')]);
    // A source that failed as a whole is not added.
    expect((JSON.parse((await cli(['sources', '--json'], client)).stdout) as McpSourceStatus[]).map((s) => s.name)).toEqual(['liar']);
  });
});
