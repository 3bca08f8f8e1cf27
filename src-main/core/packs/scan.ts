/**
 * The scan of a staged pack, before anything is installed: each skill as the loader would read it
 * (tools with their program, sandbox profile and network claim; scripts), and findings from every
 * file — hidden files, symlinks that leave their skill, native executables and binary data where
 * text belongs, and fetch-and-run or decode-and-run in scripts, Commands and instructions.
 */
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { extname, isAbsolute, join } from 'node:path';
import type { NetworkHosts, Skill, SkillRoot } from '../../shared/model.js';
import type { ScanFinding, ScannedSkill, ScannedTool } from '../../shared/packs.js';
import { hashFile } from '../files/hash.js';
import { parseSkill } from '../skills/parse-skill.js';
import { parseCommand } from '../template/parse-command.js';
import { linkDownloads, scanText, type TextRole, type TextScan } from './content-rules.js';
import { finding } from './findings.js';
import { linkDestination } from './link-target.js';
import { judgeTool } from './tool-verdict.js';
import { listTree, type TreeEntry } from './tree.js';

/** A sandbox profile as the scan and the diff show it. */
export interface ProfileView {
  name: string;
  network: boolean;
  hosts: NetworkHosts;
  text: string;
}

/** The policy's own answers (core/policy/profile.ts), handed in so the rule lives in one place. */
export interface PolicyView {
  /** The profile a run of the skill's tools gets. */
  profileOf(skill: Skill): ProfileView;
  /** Whether `after` lets a run do more than `before`. */
  widens(after: ProfileView, before: ProfileView): boolean;
}

/** Extensions of files a tool may run as a program or hand to an interpreter. */
const SCRIPT_EXTENSIONS = new Set([
  '.sh',
  '.bash',
  '.zsh',
  '.fish',
  '.ps1',
  '.psm1',
  '.bat',
  '.cmd',
  '.py',
  '.rb',
  '.pl',
  '.js',
  '.mjs',
  '.cjs',
  '.ts',
  '.php',
  '.lua',
  '.tcl',
  '.awk',
]);

/** Magic numbers of native executables: ELF, Mach-O (both endians, 32/64, fat), PE/COFF. */
function isNativeExecutable(head: Buffer): boolean {
  if (head.length < 4) return head.subarray(0, 2).toString('latin1') === 'MZ';
  const word = head.readUInt32BE(0);
  return word === 0x7f454c46 || [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe].includes(word) || head.subarray(0, 2).toString('latin1') === 'MZ';
}

/** Whether `bytes` are UTF-8 text (no NUL in the first 8 KiB). */
export function isText(bytes: Buffer): boolean {
  if (bytes.subarray(0, 8192).includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The root a staged pack's skills are read in: user trust, like every installed skill (not 'packs': nothing to verify yet). */
function stagingRoot(path: string): SkillRoot {
  return { path, kind: 'home', trust: 'user', syntax: 'angle' };
}

/** The program a Command runs (its first word when literal). */
function programOf(tool: Skill['tools'][number], skill: Skill): string {
  try {
    const first = parseCommand(tool.command, skill.syntax).tokens[0];
    return first?.parts.map((p) => (p.kind === 'text' ? p.value : p.placeholder.raw)).join('') ?? '';
  } catch {
    return tool.command.trim().split(/\s+/)[0] ?? '';
  }
}

/** Which lines of SKILL.md are a Command (run) rather than instructions (read). */
function skillMdRoles(skill: Skill): (line: number) => TextRole {
  const ranges = skill.tools.map((t) => [t.commandLine, t.commandLine + t.command.split('\n').length - 1] as const);
  return (line) => (ranges.some(([from, to]) => line >= from && line <= to) ? 'command' : 'prompt');
}

/** What the scan of a staged or installed pack found: its skills, findings, every file's digest, its size. */
export interface PackScan {
  skills: ScannedSkill[];
  findings: ScanFinding[];
  /** sha256 of every file (`link:<target>` for a symlink), by path inside the pack. */
  files: Record<string, string>;
  bytes: number;
}

/** Scans the skills staged in `packDir` (one folder per skill). `renamed` maps an installed name to its name in the source. */
export function scanPack(packDir: string, policy: PolicyView, renamed: ReadonlyMap<string, string> = new Map()): PackScan {
  const root = stagingRoot(packDir);
  const entries = listTree(packDir);
  const { files, bytes, findings, texts } = scanFiles(packDir, entries);
  const skillNames = [
    ...new Set(entries.filter((e) => e.rel.split('/').length === 2 && e.rel.endsWith('/SKILL.md')).map((e) => e.rel.split('/')[0] as string)),
  ];
  const skills = skillNames.sort().map((name) => scanSkill(name, { packDir, root, entries, policy, renamed, findings, texts }));
  findings.push(...texts.flatMap((t) => t.findings), ...linkDownloads(texts));
  return { skills, findings: withoutRepeats(findings), files, bytes };
}

/** The first pass, file by file: each one's digest and size, hidden paths, links that leave their skill, programs and binaries, and the text to scan. */
function scanFiles(packDir: string, entries: TreeEntry[]): { files: Record<string, string>; bytes: number; findings: ScanFinding[]; texts: TextScan[] } {
  const findings: ScanFinding[] = [];
  const files: Record<string, string> = {};
  let bytes = 0;
  const texts: TextScan[] = [];
  const linkAt = (rel: string): string | null => {
    try {
      const abs = join(packDir, rel);
      return lstatSync(abs).isSymbolicLink() ? readlinkSync(abs) : null;
    } catch {
      return null;
    }
  };
  const hiddenReported = new Set<string>();
  for (const entry of entries) {
    const segments = entry.rel.split('/');
    const hiddenAt = segments.findIndex((s) => s.startsWith('.'));
    if (hiddenAt !== -1) {
      const top = segments.slice(0, hiddenAt + 1).join('/');
      if (!hiddenReported.has(top)) {
        hiddenReported.add(top);
        findings.push(finding('S305', top, `${top} is hidden: Skilltray never shows or indexes it, yet a tool could still run it`));
      }
    }
    if (entry.type === 'symlink') {
      const target = readlinkSync(entry.abs);
      files[entry.rel] = `link:${target}`;
      // Where it leads once installed: the pack moves whole, so inside it is all that can be judged.
      const leadsTo = linkDestination(entry.rel, target, linkAt);
      if (leadsTo === null) findings.push(finding('S313', entry.rel, `symlink ${entry.rel} leads outside the pack, to ${target}`, { excerpt: target }));
      else if (leadsTo[0] !== segments[0])
        findings.push(finding('S306', entry.rel, `symlink ${entry.rel} leads outside its skill, to ${target}`, { excerpt: target }));
      continue;
    }
    if (entry.type !== 'file') continue;
    bytes += entry.size;
    files[entry.rel] = hashFile(entry.abs);
    const data = readFileSync(entry.abs);
    if (isNativeExecutable(data.subarray(0, 4))) {
      findings.push(
        finding(
          'S303',
          entry.rel,
          `${entry.rel} is a native executable: a skill pack ships text (instructions, scripts), not compiled programs nobody can read`,
        ),
      );
      continue;
    }
    if (!isText(data)) {
      findings.push(finding('S304', entry.rel, `${entry.rel} is binary data (an image, a font, an archive?): not read by the scan`));
      continue;
    }
    const text = data.toString('utf8');
    if (segments.length === 2 && segments[1] === 'SKILL.md') continue; // scanned with its skill, by scanSkill
    const markdown = ['.md', '.markdown', '.mdx', '.txt'].includes(extname(entry.rel).toLowerCase());
    texts.push(scanText(entry.rel, text, () => (markdown ? 'prompt' : 'script')));
  }
  return { files, bytes, findings, texts };
}

/**
 * The second pass, skill by skill: its SKILL.md as the loader reads it, its tools and the profile each would run with, its scripts. Adds to `findings` and
 * `texts`.
 */
function scanSkill(
  name: string,
  pack: {
    packDir: string;
    root: SkillRoot;
    entries: TreeEntry[];
    policy: PolicyView;
    renamed: ReadonlyMap<string, string>;
    findings: ScanFinding[];
    texts: TextScan[];
  },
): ScannedSkill {
  const { findings, texts, entries } = pack;
  const skill = parseSkill(join(pack.packDir, name), pack.root);
  try {
    texts.push(scanText(`${name}/SKILL.md`, readFileSync(skill.file, 'utf8').replace(/\r\n?/g, '\n'), skillMdRoles(skill)));
  } catch {
    // unreadable: the loader's E418 says why, below
  }
  for (const tool of skill.tools) {
    const verdict = judgeTool(tool.command, skill.syntax, tool.params);
    if (verdict !== null)
      findings.push(
        finding(verdict.code, `${name}/SKILL.md`, `tool ${tool.name} ${verdict.message}`, {
          line: tool.commandLine,
          excerpt: tool.command.split('\n')[0] ?? '',
          ...(verdict.severity === undefined ? {} : { severity: verdict.severity }),
        }),
      );
  }
  const errors = skill.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`);
  // A declaration that reaches a secret (E433, E434) is no slip: the pack meant its tools to read keys.
  const secret = skill.diagnostics.find((d) => d.code === 'E433' || d.code === 'E434');
  if (errors.length > 0)
    findings.push(
      finding(
        'S312',
        `${name}/SKILL.md`,
        `skill '${name}' does not load cleanly (${errors.length} error${errors.length === 1 ? '' : 's'}): its tools will not run${secret === undefined ? '' : `; ${secret.message}`}`,
        secret === undefined ? {} : { line: secret.line, severity: 'high' },
      ),
    );
  const profile = pack.policy.profileOf(skill);
  const tools: ScannedTool[] = skill.tools.map((tool) => {
    const program = programOf(tool, skill);
    const inPack = program.startsWith('./') || program.startsWith('../') || (program.includes('/') && !isAbsolute(program));
    return {
      name: tool.name,
      command: tool.command,
      program,
      programInPack: inPack,
      profile: profile.text,
      profileName: profile.name,
      network: profile.network,
      hosts: profile.hosts,
      env: skill.requires.env,
      reads: skill.box.reads,
      writes: profile.name === 'workspace' ? skill.box.writes : [],
    };
  });
  const scripts = entries
    .filter((e) => e.type === 'file' && e.rel.startsWith(`${name}/`) && e.rel !== `${name}/SKILL.md`)
    .filter((e) => (e.mode & 0o111) !== 0 || SCRIPT_EXTENSIONS.has(extname(e.rel).toLowerCase()) || readHead(e.abs).startsWith('#!'))
    .map((e) => e.rel.slice(name.length + 1));
  return {
    name,
    originalName: pack.renamed.get(name) ?? null,
    dir: name,
    description: skill.description,
    version: skill.version,
    hash: skill.hash,
    tools,
    scripts,
    errors,
    clash: null,
  };
}

/** The tool findings (what its program is), which a finding on what its Command's text does says better. */
const TOOL_CODES = new Set(['S314', 'S317', 'S318']);

/** Each finding once (a line can be found by its own rules and by the download link); no tool finding where its Command line has a high one already. */
function withoutRepeats(findings: ScanFinding[]): ScanFinding[] {
  const seen = new Set<string>();
  const highAt = new Set<string>();
  for (const f of findings) if (f.severity === 'high' && f.line !== null && !TOOL_CODES.has(f.code)) highAt.add(`${f.file}:${f.line}`);
  return findings.filter((f) => {
    const key = `${f.code} ${f.file}:${f.line ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return !(TOOL_CODES.has(f.code) && highAt.has(`${f.file}:${f.line}`));
  });
}

function readHead(abs: string): string {
  try {
    return readFileSync(abs).subarray(0, 2).toString('latin1');
  } catch {
    return '';
  }
}
