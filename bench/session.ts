/**
 * A scripted assistant session: twenty requests an assistant typically makes of the bundled packs
 * in a project folder (git views, file reads, system questions, two network checks and one read of
 * a secret file), and what each would do: run, ask, or be refused. "Before" is the packs as they
 * shipped before runs were contained (git asked, having no sandbox to contain what a repository can
 * make it run); "after" is now; "uncontained" is now on a machine with no sandbox.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SkilltrayCore } from '../src-main/core/api.js';
import { BUNDLED_MANIFEST, resolveConfig } from '../src-main/core/config.js';
import { bundledManifestOf, manifestText } from '../src-main/core/skills/bundled-manifest.js';
import { noSandbox, type Sandbox } from '../src-main/core/process/sandbox/sandbox.js';
import type { DryRun } from '../src-main/shared/runs.js';

/** One request of the session: a tool of a bundled pack and its arguments. */
export interface SessionRequest {
  skill: string;
  tool: string;
  args: Record<string, unknown>;
}

/** The twenty requests, in the order an assistant helping in a project might make them. */
export const SESSION: readonly SessionRequest[] = [
  { skill: 'git', tool: 'git_status', args: {} },
  { skill: 'git', tool: 'git_log', args: { count: 5 } },
  { skill: 'git', tool: 'git_diff', args: {} },
  { skill: 'git', tool: 'git_diff', args: { staged: true } },
  { skill: 'files', tool: 'list_directory', args: { path: '.' } },
  { skill: 'files', tool: 'file_head', args: { path: 'README.md' } },
  { skill: 'files', tool: 'find_files', args: { pattern: '*.md' } },
  { skill: 'git', tool: 'git_log', args: { path: 'src' } },
  { skill: 'git', tool: 'git_show', args: { revision: 'HEAD', stat: true } },
  { skill: 'git', tool: 'git_branch', args: { all: true } },
  { skill: 'files', tool: 'word_count', args: { path: 'README.md' } },
  { skill: 'files', tool: 'file_type', args: { path: 'src/app.txt' } },
  { skill: 'system', tool: 'disk_usage', args: { path: '.' } },
  { skill: 'system', tool: 'memory_usage', args: {} },
  { skill: 'system', tool: 'list_processes', args: { sort: 'pmem' } },
  { skill: 'system', tool: 'port_listeners', args: { port: 3000 } },
  { skill: 'system', tool: 'system_uptime', args: {} },
  { skill: 'network', tool: 'resolve_host', args: { name: 'example.com' } },
  { skill: 'network', tool: 'ping_host', args: { host: 'example.com', count: 2 } },
  { skill: 'files', tool: 'file_head', args: { path: '.env' } },
];

/** What policy says to each request of the session in one setting. */
export type SessionDecisions = DryRun['decision'][];

/** A project folder: a Git repository with a README, a source file and a `.env`. */
function project(dir: string): string {
  const repo = join(dir, 'project');
  mkdirSync(join(repo, 'src'), { recursive: true });
  writeFileSync(join(repo, 'README.md'), '# Project\n');
  writeFileSync(join(repo, 'src', 'app.txt'), 'app\n');
  writeFileSync(join(repo, '.env'), 'TOKEN=secret\n');
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=A', '-c', 'user.email=a@example.test', 'commit', '-q', '--allow-empty', '-m', 'start');
  return repo;
}

/** The bundled packs as they shipped before runs were contained (the git pack was not read_only), with the manifest they shipped with. */
function packsBefore(bundled: string, into: string): string {
  cpSync(bundled, into, { recursive: true });
  const git = join(into, 'git', 'SKILL.md');
  writeFileSync(git, readFileSync(git, 'utf8').replace(/^read_only: true$/m, 'read_only: false'));
  writeFileSync(join(dirname(into), BUNDLED_MANIFEST), manifestText(bundledManifestOf(into)));
  return into;
}

async function decisions(dir: string, bundled: string, cwd: string, sandbox?: Sandbox): Promise<SessionDecisions> {
  const config = resolveConfig({ env: { HOME: join(dir, 'user'), SKILLTRAY_HOME: join(dir, 'home'), PATH: process.env.PATH }, bundledDir: bundled });
  const core = new SkilltrayCore(config, sandbox === undefined ? {} : { sandbox });
  try {
    return SESSION.map((r) => core.runs.dryRun({ skill: r.skill, tool: r.tool, args: r.args, surface: 'mcp', cwd }).decision);
  } finally {
    await core.close();
  }
}

/** The session's decisions before, after, and after on a machine with no sandbox, over the bundled packs in `bundled`. */
export async function runSession(dir: string, bundled: string): Promise<{ before: SessionDecisions; after: SessionDecisions; uncontained: SessionDecisions }> {
  const cwd = project(dir);
  return {
    before: await decisions(join(dir, 'before'), packsBefore(bundled, join(dir, 'packs-before')), cwd),
    after: await decisions(join(dir, 'after'), bundled, cwd),
    uncontained: await decisions(join(dir, 'uncontained'), bundled, cwd, noSandbox('no sandbox on this machine')),
  };
}

/** How many of `decisions` ask the person. */
export function prompts(decisions: SessionDecisions): number {
  return decisions.filter((d) => d === 'ask').length;
}
