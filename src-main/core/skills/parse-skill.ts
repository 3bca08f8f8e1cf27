/**
 * One skill directory → one Skill, whatever is on disk. Nothing here throws for bad input: a
 * broken SKILL.md becomes a Skill in state 'error' carrying its diagnostics (Kode T10).
 */
import { lstatSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { RootKind, Skill, SkillRoot } from '../../shared/model.js';
import { DiagnosticList } from './diagnostics.js';
import { DEFAULT_TIMEOUT_SEC, checkIdentity, readFields } from './fields.js';
import { MAX_SKILL_BYTES, MAX_SKILL_FILES, manifestHash, walkSkill, type SkillFile, type SkillWalk } from './walk.js';
import { checkFormatRules, formatsOf } from './format-rules.js';
import { identify } from './identity.js';
import { parseFrontmatter } from './frontmatter-yaml.js';
import { decodeSkillText, readSkillBytes } from './skill-file.js';
import { isEscapedName, isMisnamedSkillFile, misnamedSkillFile } from './root-layout.js';
import { readTools } from './tools.js';
import { isPackFile } from './pack-files.js';
import { packFilesOf, readPackSkill } from './pack-skill.js';
import { MAX_PACK_BYTES } from './tool-pack.js';
import { isPromptSkill } from './prompt-skill.js';

/** W413's message: what the hash covers of a skill too big to hash whole, and what follows. */
function tooBigToHash(hashed: number): string {
  const bounds = `${MAX_SKILL_FILES.toLocaleString('en')} files or ${MAX_SKILL_BYTES / 1024 ** 3} GiB in all`;
  return `the skill is too big to hash whole (more than ${bounds}): its content hash covers only the first ${hashed} files, so it never runs unasked`;
}

/**
 * The content hash of a skill directory (with the files it covers, and those it could not read) and
 * the walk's diagnostics. SKILL.md (or each tool pack) enters the hash as the bytes `read` holds, the
 * ones that are parsed: an edit between two reads cannot leave a hash of one version over the parse of another.
 */
function hashSkill(
  dir: string,
  file: string,
  read: ReadonlyMap<string, Buffer>,
  diags: DiagnosticList,
  walked?: SkillWalk,
): { hash: string; files: readonly SkillFile[]; unhashed: string[]; folderUnreadable: boolean } {
  try {
    const walk = walked ?? walkSkill(dir);
    for (const rel of walk.escaped) diags.add('W412', `symlink '${rel}' leads outside the skill and was skipped`, file, 1);
    if (walk.truncated) diags.add('W413', tooBigToHash(walk.files.length), file, 1);
    for (const { rel, kind } of walk.special) if (rel !== 'SKILL.md') diags.add('W418', `'${rel}' is ${kind}, not a file or folder; skipped`, file, 1);
    const unhashed: string[] = [];
    const unreadable = (rel: string, why: string, what: string): void => {
      unhashed.push(rel);
      diags.add('W417', `${what} cannot be read (${why}): the skill's content hash cannot cover it, so none of its tools can be allowed Always`, file, 1);
    };
    const folderUnreadable = walk.unreadable.some((u) => u.rel === '');
    for (const { rel, why } of walk.unreadable) {
      if (rel === '') diags.add('E418', `cannot read the skill's folder ${dir}: ${why}`, file, 1);
      else unreadable(`${rel}/`, why, `the folder '${rel}/'`);
    }
    const hash = manifestHash(walk.files, read, (rel, why) => {
      if (rel !== 'SKILL.md') unreadable(rel, why, `'${rel}'`);
    });
    return { hash, files: walk.files, unhashed, folderUnreadable };
  } catch (error) {
    diags.add('E418', `cannot read the skill directory: ${(error as Error).message}`, file, 1);
    return { hash: '', files: [], unhashed: [], folderUnreadable: true };
  }
}

/** The walk of a folder, or null when it cannot be walked (parseSkill then reports it as it reports any unreadable skill). */
function walkOrNull(dir: string): SkillWalk | null {
  try {
    return walkSkill(dir);
  } catch {
    return null;
  }
}

/** A folder of tool packs (no SKILL.md) as a skill: hashed over its files, each pack parsed from the bytes hashed. */
function parsePackSkill(skill: Skill, root: SkillRoot, walk: SkillWalk, checks: RootChecks, diags: DiagnosticList): Skill {
  const read = new Map<string, Buffer>();
  for (const file of walk.files) {
    // Past the limit a pack is refused by its size (E451) and hashed from disk like any other file.
    if (!isPackFile(basename(file.rel)) || file.size > MAX_PACK_BYTES) continue;
    try {
      read.set(file.rel, readFileSync(file.abs));
    } catch {
      // Unreadable: the hash says so (W417) and readPackSkill reports the pack (E451).
    }
  }
  const hashed = hashSkill(skill.dir, join(skill.dir, packFilesOf(walk)[0] as string), read, diags, walk);
  skill.hash = hashed.hash;
  skill.unhashed = hashed.unhashed;
  checks[root.kind]?.(skill, hashed.files, diags);
  return readPackSkill(skill, root, walk, diags, read);
}

/** A check a kind of root adds to each of its skills once they are hashed (the packs root checks its lock). */
export type RootCheck = (skill: Skill, files: readonly SkillFile[], diags: DiagnosticList) => void;

/** The checks of each kind of root, handed down by whoever composes the library (packs live above skills). */
export type RootChecks = Partial<Record<RootKind, RootCheck>>;

/** A Skill before anything of it is read: named after its directory, every field at its default. */
export function blankSkill(dir: string, root: SkillRoot): Skill {
  return {
    name: basename(dir),
    dir,
    file: join(dir, 'SKILL.md'),
    root,
    // Trust is proven, never assumed from the folder: identify() makes a listed bundled skill bundled.
    trust: 'user',
    identity: { rootKind: root.kind, path: dir, hash: '', manifest: null, trust: 'user', unverified: null, hides: [] },
    syntax: root.syntax,
    hash: '',
    unhashed: [],
    frontmatter: {},
    description: '',
    version: null,
    body: '',
    bodyLine: 1,
    prompt: false,
    tools: [],
    modes: ['Global'],
    readOnly: false,
    network: false,
    hosts: [],
    alwaysAsk: false,
    timeoutSec: DEFAULT_TIMEOUT_SEC,
    requires: { bins: [], env: [] },
    kode: null,
    classification: null,
    domain: [],
    tags: [],
    status: null,
    license: null,
    compatibility: null,
    allowedTools: null,
    box: { reads: [], writes: [], limits: {} },
    diagnostics: [],
    state: 'ok',
    shadows: [],
  };
}

/**
 * A skill folder whose name is not UTF-8 (`name` is its escaped form, see root-layout.ts): listed
 * with what is wrong, never read, since no path made of that name reaches it.
 */
export function undecodableSkill(dir: string, root: SkillRoot): Skill {
  const skill = blankSkill(dir, root);
  const diags = new DiagnosticList();
  diags.add('E418', `the folder's name is not valid UTF-8 (shown escaped: '${skill.name}'), so Skilltray cannot read it; rename the folder`, skill.file, 1);
  return { ...skill, diagnostics: diags.items, state: 'error' };
}

/** Whether `file` is not there (ENOENT); a folder that cannot be searched (EACCES) is not that: reading it says what is wrong. */
function surelyAbsent(file: string): boolean {
  try {
    return lstatSync(file, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}

/**
 * Loads the skill in `dir` (which holds SKILL.md) as found in `root`; `walk` is its file walk when the
 * caller already made it; `checks` are what its kind of root adds (see RootChecks).
 */
export function parseSkill(dir: string, root: SkillRoot, walk?: SkillWalk, checks: RootChecks = {}): Skill {
  if (isEscapedName(basename(dir))) return undecodableSkill(dir, root);
  const skill = blankSkill(dir, root);
  const { name, file } = skill;
  const diags = new DiagnosticList();
  skill.diagnostics = diags.items;
  // One lstat only where the walk did not list SKILL.md as a file: a folder of tool packs has none.
  if (walk?.files.some((entry) => entry.rel === 'SKILL.md') !== true && surelyAbsent(file)) {
    const packs = walk ?? walkOrNull(dir);
    if (packs !== null && packFilesOf(packs).length > 0) return parsePackSkill(skill, root, packs, checks, diags);
  }
  const bytes = readSkillBytes(
    file,
    walk?.files.some((entry) => entry.rel === 'SKILL.md'),
  );
  const hashed = hashSkill(dir, file, bytes.ok ? new Map([['SKILL.md', bytes.bytes]]) : new Map(), diags, walk);
  const packsBeside = hashed.files.filter((entry) => !entry.rel.includes('/') && isPackFile(entry.rel)).map((entry) => entry.rel);
  if (packsBeside.length > 0) {
    diags.add('W452', `the folder holds SKILL.md and tool packs (${packsBeside.join(', ')}): SKILL.md is the skill, and the packs are not read as its tools`, file, 1);
  }
  skill.hash = hashed.hash;
  skill.unhashed = hashed.unhashed;

  const read = bytes.ok ? decodeSkillText(bytes.bytes) : bytes;
  // No SKILL.md, but SKILL.MD or skill.md: what went wrong is the name, not the file.
  const misnamed = read.ok ? null : walk !== undefined ? (walk.files.find((entry) => isMisnamedSkillFile(entry.rel))?.rel ?? null) : misnamedSkillFile(dir);
  if (misnamed !== null) {
    diags.add(
      'E422',
      `the skill's file is named '${misnamed}', not SKILL.md: Skilltray and most hosts read SKILL.md only (names are case-sensitive here); rename it to SKILL.md`,
      file,
      1,
      misnamed === 'skill.md' ? ['gibberish', 'kode'] : undefined,
    );
  } else if (!read.ok) {
    // A folder that cannot be read was said to be so: its SKILL.md cannot be read either.
    if (!hashed.folderUnreadable) diags.add('E418', read.message, file, 1);
  } else {
    const fm = parseFrontmatter(read.text, file, diags);
    if (fm === null) {
      skill.body = read.text;
    } else {
      // A skill taken from an MCP source is loaded as `<source>.<skill>`: its SKILL.md names the skill alone.
      checkIdentity(fm, root.kind === 'mcp' ? name.slice(name.indexOf('.') + 1) : name, file, diags);
      const fields = readFields(fm, file, diags);
      const { syntax: declaredSyntax, ...rest } = fields;
      const ceiling = { ...rest, timeoutWritten: fm.data.timeout !== undefined && fm.data.timeout !== null, writes: rest.box.writes };
      const { tools, syntax } = readTools(fm.body, fm.bodyLine, file, declaredSyntax, root.syntax, diags, ceiling);
      checkFormatRules(fm, formatsOf(root, fm.data), file, diags);
      Object.assign(skill, rest, { frontmatter: fm.data, body: fm.body, bodyLine: fm.bodyLine, tools, syntax });
    }
  }
  // Once its fields are read: a root's check may hold some of them back (the mcp root's, until the person approves them).
  checks[root.kind]?.(skill, hashed.files, diags);
  // Here, on whichever thread parses it, not each time it is listed: listing from the cache then never loads the Markdown lexer this may need.
  skill.prompt = isPromptSkill(skill);
  skill.state = diags.hasErrors ? 'error' : diags.items.length > 0 ? 'warnings' : 'ok';
  return identify(skill);
}
