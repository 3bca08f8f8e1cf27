/**
 * Every bundled tool answers about the machine from inside its box (issue 39.1): each example call
 * of each bundled tool, run contained as the app runs it, against the very same program and
 * arguments run outside any box, in the same folder with the same environment. Outputs are
 * compared after normalising only what moves between two runs a moment apart (the clock, load
 * averages, bytes in use). Two tools cannot see the machine from a box by design, and say so in
 * their descriptions: the test holds them to showing exactly the box and nothing else.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { DEFAULT_OUTPUT_CAP, runProcess } from '../../../src-main/core/process/run-process.js';
import { buildToolEnv } from '../../../src-main/core/process/tool-env.js';
import { exampleArguments, toolExamples } from '../../../src-main/core/skills/tool-examples.js';
import type { RunReport } from '../../../src-main/shared/runs.js';
import { icmpAllowed, ordinaryDir, requireSandbox } from '../../support/sandbox.js';
import { testHome, type TestHome } from '../../support/temp.js';
import { startMcp, callTool, structured } from '../mcp/mcp-session.js';
import { loadPacks, SKILLS_DIR } from './bundled-packs.js';

/** The file systems df counts as disks (the tool's own list). */
const DISK_TYPES = [
  'ext2',
  'ext3',
  'ext4',
  'xfs',
  'btrfs',
  'zfs',
  'bcachefs',
  'f2fs',
  'jfs',
  'vfat',
  'exfat',
  'ntfs',
  'ntfs3',
  'fuseblk',
  'hfsplus',
  'apfs',
  'nfs',
  'nfs4',
  'cifs',
  'smb3',
  '9p',
  'virtiofs',
  'overlay',
];

function git(dir: string, ...args: string[]): void {
  execFileSync('git', args, { cwd: dir, stdio: 'ignore', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
}

function write(dir: string, files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
}

/** A repository with what the examples name: the files they read, a nested repository `site`, staged and unstaged changes. */
function project(dir: string): void {
  for (const repo of [dir, join(dir, 'site')]) {
    mkdirSync(repo, { recursive: true });
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'config', 'user.name', 'Ada Tester');
    git(repo, 'config', 'user.email', 'ada@example.test');
    git(repo, 'config', 'commit.gpgsign', 'false');
  }
  write(dir, {
    'README.md': '# Project\n\nHello.\n',
    'package.json': '{ "name": "project" }\n',
    'src/app.ts': 'export const one = 1;\n',
    'src/.env.example': 'KEY=\n',
    'Documents/invoice.pdf': '%PDF-1.4\n%\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n',
  });
  git(dir, 'add', 'README.md', 'package.json', 'src/app.ts');
  git(dir, 'commit', '-q', '--no-verify', '--date=2024-05-01T10:00:00Z', '-m', 'Start the project');
  write(dir, { 'src/app.ts': 'export const one = 1;\nexport const two = 2;\n' });
  git(dir, 'add', 'src/app.ts');
  git(dir, 'commit', '-q', '--no-verify', '--date=2024-05-02T10:00:00Z', '-m', 'Add two');
  write(dir, {
    'notes.txt': Array.from({ length: 60 }, (_, i) => `note ${i + 1}`).join('\n'),
    'chapter-3.md': '# Chapter 3\n\nIt was a dark night.\n',
    'main.py': 'print("hello")\n',
    'download.bin': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    report: 'A plain report.\n',
    'dist/app.tar.gz': Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    'out/report.json': '{"ok": true}\n',
    'README.md': '# Project\n\nHello, again.\n',
  });
  git(dir, 'add', 'README.md');
  write(dir, { 'site/index.html': '<h1>site</h1>\n' });
}

/** What moves between two runs a moment apart, per tool; everything else must be equal. */
const MOVING: Record<string, (text: string) => string> = {
  // The clock, how long it has been up, and the load averages; the count of users logged in stays.
  system_uptime: (text) =>
    text.replace(/^ ?\d\d:\d\d:\d\d up .*?, +(\d+ users?), +load average: [\d.]+, [\d.]+, [\d.]+$/m, 'TIME up UPTIME, $1, load average: LOAD'),
  // Memory in use moves; the totals and the layout do not.
  memory_usage: (text) =>
    text.replace(/^(Mem:|Swap:)(\s+\S+)(.*)$/gm, (_, row: string, total: string, rest: string) => `${row}${total}${rest.replace(/[\d.]+\w*/g, 'N')}`),
  // Bytes in use and free move as other programs write; the disk, its size and its mount point do not.
  disk_usage: (text) => text.replace(/^(\S+\s+\S+)\s+\S+\s+\S+\s+\S+%\s+(.*)$/gm, '$1 USED AVAIL USE% $2'),
  ping_host: (text) => text.replace(/time[=< ]?[\d.]+ ?ms/g, 'time T').replace(/rtt .*$/m, 'rtt T'),
};

/**
 * What the box hides by design, for the two tools whose whole answer is about it: a contained run has
 * a process and a network namespace of its own. The skill's descriptions say so.
 */
const BOX_ONLY: Record<string, (report: RunReport) => void> = {
  list_processes: (report) => {
    const commands = report.result.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((row) => row.trim().split(/\s+/)[4]);
    expect(commands.sort()).toEqual(['bwrap', 'net-relay', 'ps'].filter((c) => c !== 'net-relay' || commands.includes('net-relay')));
  },
  port_listeners: (report) => expect(report.result).toMatchObject({ exitCode: 1, stdout: '' }),
};

interface Outcome {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** The run contained as the app runs it (approved, so the tools that ask run too), and the same program, arguments, folder and environment outside. */
async function both(
  core: SkilltrayCore,
  t: TestHome,
  skill: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<{ report: RunReport; inside: Outcome; outside: Outcome }> {
  const report = await core.runs.run({ skill, tool, args, cwd: t.work, surface: 'cli' }, { approval: { kind: 'preapproved', actor: 'test' } });
  expect(report.sandbox, `${skill}/${tool} ${JSON.stringify(args)}`).toMatchObject({ contained: true });
  const env = { ...buildToolEnv(t.env, core.library.getSkill(skill).requires.env), HOME: t.userHome };
  const outside = await runProcess({
    program: report.programPath ?? '',
    args: report.command.args,
    cwd: t.work,
    env,
    timeoutMs: report.command.timeoutMs,
    maxOutputBytes: DEFAULT_OUTPUT_CAP,
  });
  const normal = (outcome: Outcome): Outcome => {
    const moving = MOVING[tool] ?? ((text: string) => text);
    return { exitCode: outcome.exitCode, stdout: moving(outcome.stdout), stderr: moving(outcome.stderr) };
  };
  return { report, inside: normal(report.result), outside: normal(outside) };
}

describe('every bundled tool, inside its box and outside it', () => {
  it('answers each of its own example calls as the same command outside does', { timeout: 180_000 }, async () => {
    requireSandbox();
    const t = testHome({ base: ordinaryDir(), bundled: SKILLS_DIR });
    project(t.work);
    const core = new SkilltrayCore(t.config());
    const seen: string[] = [];
    try {
      for (const skill of loadPacks().list()) {
        for (const tool of skill.tools) {
          for (const example of toolExamples(tool.examples)) {
            const args = exampleArguments(tool, example.n);
            const { report, inside, outside } = await both(core, t, skill.name, tool.name, args);
            const call = `${skill.name}/${tool.name} ${JSON.stringify(args)}`;
            seen.push(`${skill.name}/${tool.name}`);
            // This machine keeps ICMP from groups outside net.ipv4.ping_group_range, and a box keeps no raw-socket capability: doctor names the fix.
            if (tool.name === 'ping_host' && !icmpAllowed(process.getgid?.() ?? -1)) {
              expect(inside.stderr, call).toMatch(/socket: Operation not permitted/);
              continue;
            }
            const boxOnly = BOX_ONLY[tool.name];
            if (boxOnly !== undefined) {
              boxOnly(report);
              continue;
            }
            expect(inside, call).toEqual(outside);
          }
        }
      }
    } finally {
      await core.close();
    }
    expect(new Set(seen)).toEqual(
      new Set(
        loadPacks()
          .list()
          .flatMap((skill) => skill.tools.map((tool) => `${skill.name}/${tool.name}`)),
      ),
    );
  });

  it('disk_usage names the root disk /, as df -h / does outside any box; its folder, every disk it sees; a disk it cannot see is refused in words', async () => {
    requireSandbox();
    const t = testHome({ base: ordinaryDir(), bundled: SKILLS_DIR });
    const core = new SkilltrayCore(t.config());
    const df = (...paths: string[]) =>
      MOVING.disk_usage?.(execFileSync('df', ['-h', ...DISK_TYPES.flatMap((type) => ['-t', type]), '--', ...paths], { encoding: 'utf8' })) ?? '';
    try {
      const root = await both(core, t, 'system', 'disk_usage', { path: '/' });
      expect(root.inside.stdout).toBe(df('/'));
      expect(root.inside.stdout).toMatch(/ \/\n$/);
      expect((await both(core, t, 'system', 'disk_usage', { path: '.' })).inside.stdout).toBe(df(t.work));
      // Every disk a contained run can see is one the machine lists too, under the same name.
      const rows = (text: string) => text.trim().split('\n').slice(1);
      const all = await both(core, t, 'system', 'disk_usage', {});
      expect(all.inside).toEqual(all.outside);
      expect(rows(df()).filter((row) => rows(all.inside.stdout).includes(row))).toEqual(rows(all.inside.stdout));
      const hidden = await core.runs.run(
        { skill: 'system', tool: 'disk_usage', args: { path: '/proc' }, cwd: t.work, surface: 'cli' },
        { approval: { kind: 'none' } },
      );
      expect(hidden.result).toMatchObject({ exitCode: 1, stdout: '' });
      expect(hidden.result.stderr).toMatch(/^disk_usage: \/proc is on no disk this sandboxed run can see/);
    } finally {
      await core.close();
    }
  });

  it('over MCP (a call with no folder: an empty one of its own), disk_usage {"path": "/"} names /', async () => {
    requireSandbox();
    const t = testHome({ base: ordinaryDir(), bundled: SKILLS_DIR });
    const session = await startMcp(t.env);
    const report = structured(await callTool(session, 'run', { skill: 'system', tool: 'disk_usage', args: { path: '/' } })) as unknown as RunReport;
    expect(report.sandbox).toMatchObject({ contained: true });
    expect(report.result.exitCode).toBe(0);
    expect(report.result.stdout).toMatch(/^Filesystem\s+Size\s+Used\s+Avail\s+Use%\s+Mounted on\n\S+\s+\S+\s+\S+\s+\S+\s+\d+%\s+\/\n$/);
  });
});
