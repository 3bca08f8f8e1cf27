/**
 * Skilltray as a Skills-extension (SEP-2640) server, seen by an MCP client of the test's own (the
 * SDK's Client), over stdio (`skilltray mcp`, the fresh build) and over Streamable HTTP (`/mcp`):
 * the extension is declared, skills/list pages through every enabled skill with digests that are the
 * bytes resources/read returns, skill:// files read, folders walk with resources/directory/read to
 * exactly the listed files, a disabled skill and one past the limits are not served, and a path that
 * leaves a skill, a NUL and a hidden file are refused with a coded error.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { startHttpServer } from '../../../src-main/server/http.js';
import type { ServedSkillEntry } from '../../../src-main/shared/served.js';
import { skillMd, testHome, writeFiles, writeSkill, type TestHome } from '../../support/temp.js';
import { onCleanup } from '../server/helpers.js';
import { startMcp } from './mcp-session.js';

const EXTENSION = 'io.modelcontextprotocol/skills';
const Any = z.any();

const sha256 = (bytes: Buffer): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** 30 plain skills, one with folders, a hidden file and a link out; one turned off; one of 513 files. */
async function home(): Promise<TestHome> {
  const t = testHome();
  for (let i = 1; i <= 30; i++)
    writeSkill(t.skills, `s${String(i).padStart(2, '0')}`, skillMd({ name: `s${String(i).padStart(2, '0')}`, description: `Skill ${i}. Use in tests.` }));
  const nested = writeSkill(t.skills, 'nested', skillMd({ name: 'nested', description: 'Folders. Use in tests.', metadata: { team: 'qa' } }, '# Nested\n'), {
    'references/GUIDE.md': '# Guide\n',
    'templates/regional/eu.md': 'EU\n',
    'templates/invoice.md': 'Invoice\n',
    'bin/data.bin': Buffer.from([0, 1, 2, 255]),
    '.secret': 'hidden\n',
  });
  mkdirSync(join(nested, 'empty'));
  symlinkSync('/etc/hostname', join(nested, 'outside'));
  writeSkill(t.skills, 'off', skillMd({ name: 'off', description: 'Turned off. Use never.' }));
  const big = writeSkill(t.skills, 'big', skillMd({ name: 'big', description: 'Too many files. Use never.' }));
  writeFiles(big, Object.fromEntries(Array.from({ length: 512 }, (_, i) => [`f/${i}.txt`, `${i}\n`])));
  const core = new SkilltrayCore(t.config());
  core.skills.setSkillEnabled('off', false);
  await core.close();
  return t;
}

async function listAll(client: Client): Promise<{ skills: ServedSkillEntry[]; pages: number }> {
  const skills: ServedSkillEntry[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = (await client.request({ method: 'skills/list', params: cursor === undefined ? {} : { cursor } }, Any)) as {
      skills: ServedSkillEntry[];
      nextCursor?: string;
    };
    skills.push(...page.skills);
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  return { skills, pages };
}

async function bytesOf(client: Client, uri: string): Promise<Buffer> {
  const { contents } = await client.readResource({ uri });
  expect(contents).toHaveLength(1);
  const [content] = contents as [{ uri: string; text?: string; blob?: string }];
  expect(content.uri).toBe(uri);
  return content.text !== undefined ? Buffer.from(content.text, 'utf8') : Buffer.from(content.blob as string, 'base64');
}

/** Every file URI under a directory resource, walked with resources/directory/read. */
async function walk(client: Client, uri: string): Promise<string[]> {
  const { resources } = (await client.request({ method: 'resources/directory/read', params: { uri } }, Any)) as {
    resources: { uri: string; mimeType?: string }[];
  };
  const found: string[] = [];
  for (const child of resources) found.push(...(child.mimeType === 'inode/directory' ? await walk(client, child.uri) : [child.uri]));
  return found;
}

async function refusal(call: Promise<unknown>): Promise<{ code: number; error: string }> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  const mcp = error as McpError;
  return { code: mcp.code, error: (mcp.data as { error: { code: string } }).error.code };
}

/** What both transports must show. */
async function servesAsTheSepSays(client: Client): Promise<void> {
  expect(client.getServerCapabilities()?.extensions?.[EXTENSION]).toEqual({ directoryRead: true });
  const { skills, pages } = await listAll(client);
  expect(pages).toBeGreaterThan(1);
  const names = skills.map((s) => s.frontmatter.name);
  expect(names).toEqual(expect.arrayContaining(['s01', 's30', 'nested']));
  expect(names).not.toContain('off');
  expect(names).not.toContain('big');
  expect(new Set(names).size).toBe(names.length);

  // Every digest is the bytes resources/read returns, and every entry is what skills/get answers.
  for (const skill of skills.filter((s) => ['s07', 'nested'].includes(s.frontmatter.name as string))) {
    expect(skill.uri).toBe(`skill://${skill.frontmatter.name as string}/SKILL.md`);
    expect(skill.resources.map((r) => r.uri)).toContain(skill.uri);
    for (const resource of skill.resources) expect(sha256(await bytesOf(client, resource.uri)), resource.uri).toBe(resource.digest);
    expect(((await client.request({ method: 'skills/get', params: { uri: skill.uri } }, Any)) as { skill: unknown }).skill).toEqual(skill);
  }
  const nested = skills.find((s) => s.frontmatter.name === 'nested') as ServedSkillEntry;
  expect(nested.frontmatter).toEqual({ name: 'nested', description: 'Folders. Use in tests.', metadata: { team: 'qa' } });
  expect(nested.resources.map((r) => r.uri).sort()).toEqual(
    ['SKILL.md', 'bin/data.bin', 'references/GUIDE.md', 'templates/invoice.md', 'templates/regional/eu.md'].map((p) => `skill://nested/${p}`),
  );
  // Walking the folders finds exactly the listed files; an empty folder is a folder with nothing in it.
  expect((await walk(client, 'skill://nested')).sort()).toEqual(nested.resources.map((r) => r.uri).sort());
  expect(await client.request({ method: 'resources/directory/read', params: { uri: 'skill://nested/empty' } }, Any)).toEqual({ resources: [] });

  // Not served: a skill turned off, one past the limits, one that does not exist.
  expect(await refusal(client.request({ method: 'skills/get', params: { uri: 'skill://off/SKILL.md' } }, Any))).toEqual({ code: -32602, error: 'E001' });
  expect(await refusal(client.readResource({ uri: 'skill://off/SKILL.md' }))).toEqual({ code: -32002, error: 'E001' });
  expect(await refusal(client.request({ method: 'skills/get', params: { uri: 'skill://big/SKILL.md' } }, Any))).toEqual({ code: -32602, error: 'E868' });
  expect(await refusal(client.request({ method: 'skills/get', params: { uri: 'skill://nope/SKILL.md' } }, Any))).toEqual({ code: -32602, error: 'E001' });
  // Nothing outside a skill, nothing hidden, no NUL.
  for (const escape of [
    'skill://s01/..%2F..%2F..%2Fetc%2Fpasswd',
    'skill://s01/a%00.md',
    'skill://s01/..%5C..%5Cx',
    'skill://nested/references%2F..%2F..%2Fs01%2FSKILL.md',
  ]) {
    expect(await refusal(client.readResource({ uri: escape })), escape).toEqual({ code: -32602, error: 'E012' });
  }
  expect(await refusal(client.readResource({ uri: 'skill://nested/.secret' }))).toEqual({ code: -32602, error: 'E012' });
  // A link that leads out of the skill is no file of it: not listed, and refused as leaving it.
  expect(await refusal(client.readResource({ uri: 'skill://nested/outside' }))).toEqual({ code: -32602, error: 'E012' });
  expect(await refusal(client.request({ method: 'resources/directory/read', params: { uri: 'skill://nested/..%2F..' } }, Any))).toEqual({
    code: -32602,
    error: 'E012',
  });
  expect(await refusal(client.request({ method: 'resources/directory/read', params: { uri: 'skill://nested/none' } }, Any))).toEqual({
    code: -32602,
    error: 'E022',
  });
}

describe('Skilltray as a Skills-extension server', () => {
  it('over stdio (skilltray mcp): declared, listed page by page, every digest the bytes read, folders walked, nothing else served', async () => {
    const t = await home();
    const session = await startMcp(t.env);
    await servesAsTheSepSays(session.client);
  });

  it('over Streamable HTTP (/mcp on the owner of runs): the same', async () => {
    const t = await home();
    const core = new SkilltrayCore(t.config());
    onCleanup(() => core.close());
    const server = await startHttpServer({ core, owner: 'serve', version: '0.0.0-test' });
    onCleanup(() => server.close());
    const client = new Client({ name: 'sep-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${server.token()}` } } }),
    );
    onCleanup(() => client.close());
    await servesAsTheSepSays(client);
  });
});
