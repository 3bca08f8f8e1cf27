/**
 * From a SOURCE to a staged pack: which kind of source it is (a git URL or repository, a folder, a
 * .zip or .tar.gz), fetching it into `.staging/<id>/` through the one extraction (extraction.ts)
 * under the entry budget, and laying its skills out as the installed pack will hold them:
 * `pack/<skill>/` for each.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, renameSync, mkdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { packErrors } from '../../shared/error-messages/packs.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import type { PackOrigin, PackSignature, PackSourceKind, ScanFinding } from '../../shared/packs.js';
import { isInside } from '../files/paths.js';
import { archiveEntries, inspectArchive } from './archive.js';
import { EntryBudget } from './entry-budget.js';
import { extractEntries, type EntryWalk } from './extraction.js';
import { UNEXTRACTABLE } from './findings.js';
import { cloneAt, commitEntries, listCommit, verifySignature } from './git.js';
import { checkPackName, isPackName, slugify } from './layout.js';
import { folderEntries } from './tree.js';

/** What to install: the command line's SOURCE, --ref, --path and --as. */
export interface PackRequest {
  source: string;
  ref?: string | null;
  path?: string | null;
  as?: string | null;
}

/** Where the source is and what kind it is. */
export interface SourceLocation {
  kind: PackSourceKind;
  /** A URL for remote git, else an absolute path. */
  location: string;
}

const UNSIGNED: PackSignature = { state: 'unsigned', format: null, signer: null, detail: 'a folder or an archive carries no signature' };

/** Tells what kind of source `source` is (E301 when it is none). */
function locateSource(source: string, cwd: string): SourceLocation {
  if (source.trim() === '' || source.startsWith('-')) throw packErrors.sourceInvalid(source, 'not a source');
  if (/^https:\/\//i.test(source) || /^ssh:\/\//i.test(source) || /^[\w.-]+@[\w.-]+:(?!\/\/)/.test(source)) return { kind: 'git', location: source };
  if (/^file:\/\//i.test(source)) return { kind: 'git', location: source };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source) || /^[a-z][a-z0-9+.-]*::/i.test(source))
    throw packErrors.sourceInvalid(source, 'only https://, ssh (git@host:path, ssh://) and file:// sources are fetched');
  const abs = resolve(cwd, source);
  let stats;
  try {
    stats = statSync(abs);
  } catch {
    throw packErrors.sourceInvalid(source, 'no such file or folder');
  }
  if (stats.isDirectory()) return { kind: existsSync(join(abs, '.git')) ? 'git' : 'folder', location: abs };
  const lower = abs.toLowerCase();
  if (lower.endsWith('.zip')) return { kind: 'zip', location: abs };
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz') || lower.endsWith('.tar')) return { kind: 'tar', location: abs };
  throw packErrors.sourceInvalid(source, 'not a folder, a git repository, a .zip or a .tar.gz');
}

/** A fetched source: its origin, the folder `--path` names in it, and what reading it found. */
export interface Fetched {
  origin: PackOrigin;
  /** The folder the skills are in, or null when the archive was refused before extraction. */
  tree: string | null;
  findings: ScanFinding[];
}

/**
 * Fetches `request` into `work/fetched` (and, for git, a bare clone in `work/clone`): its headers
 * (an archive's, a commit's tree) are checked first, then everything goes through the extraction;
 * `onFile` hears of every file written.
 */
export async function fetchSource(
  request: PackRequest,
  ctx: { home: string; env: NodeJS.ProcessEnv; cwd: string; work: string; onFile: (rel: string) => void },
): Promise<Fetched> {
  const { kind, location } = locateSource(request.source, ctx.cwd);
  const ref = request.ref ?? null;
  const subpath = request.path ?? null;
  if (ref !== null && kind !== 'git') throw packErrors.sourceInvalid(request.source, '--ref needs a git source');
  const fetched = join(ctx.work, 'fetched');
  let commit: string | null = null;
  let signature = UNSIGNED;
  // What the headers alone say (a bomb by count or size, paths that leave), before anything is written.
  let headers = new EntryBudget();
  let entries: EntryWalk;
  if (kind === 'git') {
    const clone = join(ctx.work, 'clone');
    commit = await cloneAt(location, ref, clone, ctx);
    signature = await verifySignature(clone, ref, commit, ctx);
    const items = await listCommit(clone, commit, ctx, headers);
    entries = commitEntries(clone, items, ctx);
  } else if (kind === 'folder') {
    entries = folderEntries(location);
  } else {
    headers = await inspectArchive(kind, location);
    entries = archiveEntries(kind, location);
  }
  const origin: PackOrigin = { kind, source: location, ref, path: subpath, commit, signature };
  if (headers.findings.some((f) => UNEXTRACTABLE.has(f.code))) return { origin, tree: null, findings: headers.findings };
  const findings = await extractEntries(entries, fetched, location, ctx.onFile);
  if (findings.some((f) => UNEXTRACTABLE.has(f.code))) return { origin, tree: null, findings };
  return { origin, tree: subfolder(fetched, subpath, request.source), findings };
}

/** The folder `--path` names inside the fetched tree (E301 when it leaves it or does not exist). */
function subfolder(fetched: string, subpath: string | null, source: string): string {
  if (subpath === null || subpath === '' || subpath === '.') return fetched;
  const target = resolve(fetched, subpath);
  if (!isInside(fetched, target)) throw packErrors.sourceInvalid(source, `--path '${subpath}' leaves the source`);
  let real: string;
  try {
    real = realpathSync(target);
  } catch {
    throw packErrors.sourceInvalid(source, `--path '${subpath}' does not exist in it`);
  }
  if (!isInside(realpathSync(fetched), real) || !statSync(real).isDirectory())
    throw packErrors.sourceInvalid(source, `--path '${subpath}' is not a folder inside it`);
  return real;
}

/** The name a skill's SKILL.md gives itself, when it is a slug. */
function declaredName(skillMd: string): string | null {
  try {
    const text = readFileSync(skillMd, 'utf8');
    const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
    const name = /^name:\s*["']?([^"'\r\n]+?)["']?\s*$/m.exec(front)?.[1] ?? null;
    return name !== null && isPackName(name) ? name : null;
  } catch {
    return null;
  }
}

/** Renames a skill by rewriting the `name:` of its frontmatter (the loader wants it to match the folder). */
function rename(skillMd: string, to: string): void {
  const text = readFileSync(skillMd, 'utf8');
  const rewritten = text.replace(/^(---\r?\n[\s\S]*?^)name:[^\r\n]*/m, `$1name: ${to}`);
  // Replaced, not rewritten in place: a SKILL.md that is a link becomes a file, never written through.
  unlinkSync(skillMd);
  writeFileSync(skillMd, rewritten === text && !/^name:/m.test(text) ? text.replace(/^---\r?\n/, `---\nname: ${to}\n`) : rewritten, { flag: 'wx' });
}

/** A staged pack: its name, where its skills are, and which were renamed (installed name → name in the source). */
export interface Staged {
  pack: string;
  dir: string;
  renamed: Map<string, string>;
}

/**
 * Moves the skills of `tree` into `work/pack/<skill>/`: the tree itself when it holds a SKILL.md
 * (a pack of one skill, named by its frontmatter or `--as`), else each folder in it that holds one.
 */
export function layOut(tree: string, request: PackRequest, origin: PackOrigin, work: string): Staged {
  const dir = join(work, 'pack');
  mkdirSync(dir, { recursive: true });
  const renamed = new Map<string, string>();
  const as = request.as === undefined || request.as === null ? null : checkPackName(request.as, '--as');
  if (existsSync(join(tree, 'SKILL.md'))) {
    const own = declaredName(join(tree, 'SKILL.md')) ?? slugify(basename(origin.path ?? sourceName(origin))) ?? 'skill';
    const name = as ?? own;
    renameSync(tree, join(dir, name));
    if (as !== null && as !== own) {
      rename(join(dir, name, 'SKILL.md'), name);
      renamed.set(name, own);
    }
    return { pack: name, dir, renamed };
  }
  const skills = readdirSync(tree, { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.') && e.isDirectory() && existsSync(join(tree, e.name, 'SKILL.md')))
    .map((e) => e.name)
    .sort();
  if (skills.length === 0) {
    throw packErrors.noSkills(origin.source, origin.path);
  }
  if (as !== null)
    throw skillcErrors.invalidOption(`--as renames a pack of one skill; this one has ${skills.length} (${skills.join(', ')}): pick one with --path`);
  const bad = skills.filter((s) => !isPackName(s));
  if (bad.length > 0) throw packErrors.skillFoldersNotSlugs(bad);
  for (const skill of skills) renameSync(join(tree, skill), join(dir, skill));
  const pack = slugify(basename(origin.path ?? sourceName(origin))) ?? 'pack';
  return { pack, dir, renamed };
}

/** The source's own name: a repository without `.git`, an archive without its extension, a folder's name. */
function sourceName(origin: PackOrigin): string {
  const last = basename(origin.source.replace(/[/\\]+$/, '').replace(/^.*:/, ''));
  return last.replace(/\.git$/i, '').replace(/\.(zip|tar\.gz|tgz|tar)$/i, '');
}
