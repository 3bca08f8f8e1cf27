/**
 * A Skilltray that takes skills from another one (`skilltray mcp` of a second home, the fresh build,
 * as the test server): the served skill waits for approval, then runs its tool (asking, whatever the
 * rules say) inside the same box as a local one; what it declares (`reads:`) is absent for the box
 * until the person approves it too; one file changed on the serving side takes it out again, and
 * the next approval shows what changed; a local skill of the same name is reported and never
 * stood in for; removing the source leaves nothing of it.
 */
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { startHttpServer } from '../../../src-main/server/http.js';
import type { McpSourceStatus, ServedSkillStatus } from '../../../src-main/shared/served.js';
import type { DryRun } from '../../../src-main/shared/runs.js';
import { cli } from '../../support/cli.js';
import { skillMd, tempDir, testHome, writeSkill, type TestHome } from '../../support/temp.js';
import { BIN } from '../contract/fixture.js';
import { onCleanup } from '../server/helpers.js';

const TOOL = (reads: string) =>
  skillMd(
    { name: 'greet', description: 'Greets someone, and reads a note. Use when greeting.', reads: [reads] },
    [
      '',
      '### say_hello',
      '',
      'Prints a greeting.',
      '',
      '#### Parameters',
      '',
      '| Name | Type | Required | Description |',
      '|---|---|---|---|',
      '| who | string | yes | whom to greet |',
      '',
      '#### Command',
      '',
      '```',
      'echo hello <<who>>',
      '```',
      '',
      '### read_note',
      '',
      'Prints a file.',
      '',
      '#### Parameters',
      '',
      '| Name | Type | Required | Description |',
      '|---|---|---|---|',
      '| file | string | yes | the file |',
      '',
      '#### Command',
      '',
      '```',
      'cat <<file>>',
      '```',
      '',
    ].join('\n'),
  );

/** The serving home (its `greet` declares it reads a folder holding a note) and the taking one. */
function homes(): { server: TestHome; client: TestHome; notes: string } {
  const server = testHome();
  const notes = tempDir();
  writeFileSync(join(notes, 'note.txt'), 'the note\n');
  writeSkill(server.skills, 'greet', TOOL(notes), { 'references/more.md': '# More\n\nFirst words.\n' });
  return { server, client: testHome(), notes };
}

async function json<T>(argv: string[], client: TestHome): Promise<T> {
  // Before a `--`: what follows it is the server's command.
  const at = argv.includes('--') ? argv.indexOf('--') : argv.length;
  const out = await cli([...argv.slice(0, at), '--json', ...argv.slice(at)], client, { cwd: client.work });
  expect(out.code, `${argv.join(' ')}: ${out.stderr}`).toBe(0);
  return JSON.parse(out.stdout) as T;
}

const greet = (status: McpSourceStatus[] | McpSourceStatus): ServedSkillStatus =>
  ([status]
    .flat()
    .flatMap((s) => s.skills)
    .find((s) => s.name === 'other.greet') as ServedSkillStatus) ?? expect.fail('other.greet is not served');

describe('skills taken from another Skilltray over MCP', () => {
  it('run after approval, in the box, asked again with what changed when a file changes on the serving side', async () => {
    const { server, client, notes } = homes();
    // A skill of the client's own under the same name: reported, never stood in for.
    writeSkill(client.skills, 'greet', skillMd({ name: 'greet', description: 'My own greeting. Use when greeting.' }, 'Mine.\n'));
    const add = ['sources', 'add-mcp', 'other', '--env', `SKILLTRAY_HOME=${server.home}`, '--env', `SKILLTRAY_SKILLS_PATH=${server.skills}`];
    const added = await json<McpSourceStatus>([...add, '--', process.execPath, BIN, 'mcp'], client);
    const pending = greet(added);
    expect(pending).toMatchObject({
      state: 'pending',
      uri: 'skill://greet/SKILL.md',
      declares: { reads: [notes] },
      clash: expect.stringContaining("your skill 'greet'"),
    });
    expect(pending.files.map((f) => f.path)).toEqual(['SKILL.md', 'references/more.md']);

    // Not loaded before it is approved: not listed, not run.
    const say = ['run', 'other.greet', 'say_hello', '--arg', 'who=ann'];
    let out = await cli([...say, '--yes'], client, { cwd: client.work });
    expect([out.code, out.stderr]).toEqual([1, expect.stringContaining('error[E869]')]);
    expect((await json<{ skills: { name: string }[] }>(['list'], client)).skills.map((s) => s.name)).not.toContain('other.greet');

    expect(await json<ServedSkillStatus>(['sources', 'approve-mcp', 'other.greet', '--yes'], client)).toMatchObject({ state: 'approved', grants: false });
    // Your own greet is still yours.
    expect(await json<{ root: { kind: string } }>(['describe', 'greet'], client)).toMatchObject({ root: { kind: 'env' } });
    // Approved, it still asks: no rule lets a served skill run unasked.
    expect((await cli(['rules', 'add', 'allow', 'skill:*'], client)).code).toBe(0);
    out = await cli(say, client, { cwd: client.work });
    expect([out.code, out.stderr]).toEqual([1, expect.stringMatching(/error\[E601\].*served by an MCP source/)]);
    out = await cli([...say, '--yes'], client, { cwd: client.work });
    expect([out.code, out.stdout]).toEqual([0, expect.stringContaining('hello ann')]);

    // What it declares is absent for the box until approved too.
    const read = ['run', 'other.greet', 'read_note', '--arg', `file=${join(notes, 'note.txt')}`, '--yes'];
    expect((await json<DryRun>(['run', 'other.greet', 'read_note', '--arg', 'file=x', '--dry-run'], client)).sandbox.reads ?? []).toEqual([]);
    out = await cli(read, client, { cwd: client.work });
    expect(out.stdout).not.toContain('the note');
    await json(['sources', 'approve-mcp', 'other.greet', '--yes', '--grants'], client);
    expect((await json<DryRun>(['run', 'other.greet', 'read_note', '--arg', 'file=x', '--dry-run'], client)).sandbox.reads).toEqual([notes]);
    out = await cli(read, client, { cwd: client.work });
    expect([out.code, out.stdout]).toEqual([0, expect.stringContaining('the note')]);

    // One file changes on the serving side: the next fetch takes the skill out until it is approved again, showing what changed.
    writeFileSync(join(server.skills, 'greet', 'references', 'more.md'), '# More\n\nOther words.\n');
    const changed = greet(await json<McpSourceStatus[]>(['sources', 'refresh-mcp'], client));
    expect(changed).toMatchObject({ state: 'changed', grants: false });
    expect(changed.changes).toEqual([
      { path: 'references/more.md', change: 'changed', diff: expect.objectContaining({ lines: expect.arrayContaining(['-First words.', '+Other words.']) }) },
    ]);
    out = await cli([...say, '--yes'], client, { cwd: client.work });
    expect([out.code, out.stderr]).toEqual([1, expect.stringMatching(/error\[E869\].*changed on its server/)]);
    // Approving again, at the terminal, shows the change first.
    out = await cli(['sources', 'approve-mcp', 'other.greet'], client, { answers: ['y'] });
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/changed references\/more.md[\s\S]*-First words\.[\s\S]*\+Other words\./);
    out = await cli([...say, '--yes'], client, { cwd: client.work });
    expect([out.code, out.stdout]).toEqual([0, expect.stringContaining('hello ann')]);

    // Removing the source leaves nothing of it.
    expect((await cli(['sources', 'remove-mcp', 'other'], client)).code).toBe(0);
    expect(existsSync(join(client.home, 'mcp', 'sources', 'other'))).toBe(false);
    expect(readdirSync(join(client.home, 'mcp', 'skills'))).toEqual([]);
    out = await cli([...say, '--yes'], client, { cwd: client.work });
    expect([out.code, out.stderr]).toEqual([1, expect.stringContaining('error[E001]')]);
  });

  it('takes them from a Streamable HTTP URL too, with a header sent on every request', async () => {
    const { server, client } = homes();
    const core = new SkilltrayCore(server.config());
    onCleanup(() => core.close());
    const owner = await startHttpServer({ core, owner: 'serve', version: '0.0.0-test' });
    onCleanup(() => owner.close());
    const url = ['sources', 'add-mcp', 'web', '--url', `${owner.url}/mcp`];
    // Without the header, /mcp answers 401: nothing is added.
    const refused = await cli(url, client);
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('error[E863]')]);
    const added = await json<McpSourceStatus>([...url, '--header', `Authorization: Bearer ${owner.token()}`], client);
    expect(added.endpoint).toEqual({ kind: 'http', url: `${owner.url}/mcp`, headers: ['Authorization'] });
    const skill = added.skills.find((s) => s.name === 'web.greet') as ServedSkillStatus;
    expect(skill).toMatchObject({ state: 'pending', uri: 'skill://greet/SKILL.md' });
    await json(['sources', 'approve-mcp', 'web.greet', '--yes'], client);
    const out = await cli(['run', 'web.greet', 'say_hello', '--arg', 'who=bo', '--yes'], client, { cwd: client.work });
    expect([out.code, out.stdout]).toEqual([0, expect.stringContaining('hello bo')]);
    // The token is kept where only the person reads it, and shown by name only.
    expect(statSync(join(client.home, 'mcp', 'sources.json')).mode & 0o777).toBe(0o600);
    expect((await cli(['sources'], client)).stdout).not.toContain(owner.token());
  });

  it('refuses a server that does not declare the extension, or does not start, and keeps nothing of it', async () => {
    const { client } = homes();
    let out = await cli(['sources', 'add-mcp', 'plain', '--', process.execPath, '-e', 'process.exit(3)'], client);
    expect([out.code, out.stderr]).toEqual([1, expect.stringContaining('error[E863]')]);
    out = await cli(['sources', 'add-mcp', 'Bad Name', '--', process.execPath], client);
    expect([out.code, out.stderr]).toEqual([1, expect.stringContaining('error[E860]')]);
    out = await cli(['sources', 'add-mcp', 'web', '--url', 'http://example.com/mcp'], client);
    expect([out.code, out.stderr]).toEqual([1, expect.stringContaining('error[E860]')]);
    expect(await json<McpSourceStatus[]>(['sources'], client)).toEqual([]);
    expect(existsSync(join(client.home, 'mcp', 'sources', 'plain'))).toBe(false);
  });
});
