/**
 * Skilltray's own skills as the Skills extension (SEP-2640) serves them: `skills/list` and
 * `skills/get` entries, `resources/read` of a file and `resources/directory/read` of a folder. What
 * is served is what `list` shows an assistant as offered now: a skill turned on and offered in the
 * current mode, whose SKILL.md names it (the URI's last segment must be the frontmatter's name), held
 * within SERVED_LIMITS, and not itself taken from an MCP source (served again, it would pass for ours).
 * Its files are the ones every other reader sees (skills/walk.ts: nothing hidden, no link that leads
 * out), read with the gateway's path rules, and each digest is taken from the bytes a read returns.
 */
import { readFileSync } from 'node:fs';
import type { Skill } from '../../shared/model.js';
import { SERVED_LIMITS, type ServedDirectoryEntry, type ServedFile, type ServedSkillEntry } from '../../shared/served.js';
import { servedMimeType, skillFileUri } from '../../shared/served-uri.js';
import { gatewayErrors } from '../../shared/error-messages/gateway.js';
import { servedErrors } from '../../shared/error-messages/served.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { hashBytes, hashFile } from '../files/hash.js';
import { openFile } from '../gateway/open.js';
import { hasHiddenSegment, resolveInsideRoot } from '../gateway/paths.js';
import type { SkillLibrary } from '../library.js';
import { summarize } from '../skill-summary.js';
import { frontmatterJson } from '../skills/frontmatter-json.js';
import { walkSkill, type SkillWalk } from '../skills/walk.js';
import { getSettings } from '../store/settings.js';
import type { StateDb } from '../store/state-db.js';
import { listSwitches } from '../store/switches.js';

/** The Agent Skills name rule: a served skill's name is its URI's first segment, which must read back as written. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Entries in one page of `skills/list`. */
export const SKILLS_PAGE = 25;
/** Children in one page of `resources/directory/read`. */
const DIRECTORY_PAGE = 100;

export interface SkillServingDeps {
  library: SkillLibrary;
  db(): StateDb;
}

/** A cursor for the entries after `value` (a skill's name, or an offset). */
const cursorOf = (value: string): string => Buffer.from(value, 'utf8').toString('base64url');

function readCursor(operation: string, cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  const value = Buffer.from(cursor, 'base64url').toString('utf8');
  if (value === '' || cursorOf(value) !== cursor) throw gatewayErrors.invalidInput(operation, 'cursor: not a cursor this server gave', []);
  return value;
}

/** `sha256:<hex>`, the SEP's form of a digest. */
const digestOf = (hex: string): string => `sha256:${hex}`;

/** A path a caller names inside a served skill: E012 when it leaves the skill (absolute, `..` past its folder, NUL, a backslash). */
function insidePath(dir: string, path: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000\\]/.test(path)) throw skillcErrors.pathEscapesRoot(path);
  return resolveInsideRoot(dir, path).rel;
}

export class SkillServing {
  constructor(private readonly deps: SkillServingDeps) {}

  /** The skills served now, sorted by name. */
  private served(): Skill[] {
    const db = this.deps.db();
    const mode = getSettings(db).mode;
    const switches = listSwitches(db);
    return this.deps.library.registry.list().filter((skill) => this.servable(skill) && summarize(skill, mode, switches).offered);
  }

  /** Whether a loaded skill can be served at all, whatever the mode: its own, and its SKILL.md names it. */
  private servable(skill: Skill): boolean {
    return skill.root.kind !== 'mcp' && SLUG.test(skill.name) && skill.frontmatter.name === skill.name && typeof skill.frontmatter.description === 'string';
  }

  /** A skill served now, by name: E001 for one that is not (as if it did not exist, as for a skill turned off). */
  private skill(name: string): Skill {
    const skill = this.deps.library.registry.get(name);
    if (skill === undefined || !this.servable(skill)) throw skillcErrors.skillNotFound(name);
    const db = this.deps.db();
    if (!summarize(skill, getSettings(db).mode, listSwitches(db)).offered) throw skillcErrors.skillNotFound(name);
    return skill;
  }

  /** The skill's files as every reader sees them, within SERVED_LIMITS (E868 past them). */
  private files(skill: Skill): SkillWalk {
    const walk = walkSkill(skill.dir);
    const limit = `${SERVED_LIMITS.files} files and ${SERVED_LIMITS.bytes / 1024 / 1024} MiB`;
    if (walk.truncated || walk.files.length > SERVED_LIMITS.files) {
      throw servedErrors.tooLarge(`skill '${skill.name}' holds ${walk.files.length}${walk.truncated ? '+' : ''} files`, limit, { skill: skill.name });
    }
    const bytes = walk.files.reduce((sum, file) => sum + file.size, 0);
    if (bytes > SERVED_LIMITS.bytes) throw servedErrors.tooLarge(`skill '${skill.name}' holds ${bytes} bytes`, limit, { skill: skill.name });
    return walk;
  }

  /** The entry of a skill: its frontmatter read from the very SKILL.md bytes its digest is taken of. */
  private entryOf(skill: Skill): ServedSkillEntry {
    const walk = this.files(skill);
    let frontmatter: Record<string, unknown> | undefined;
    const resources = walk.files.map((file) => {
      if (file.rel !== 'SKILL.md') return { uri: skillFileUri(skill.name, file.rel), digest: digestOf(hashFile(file.abs)) };
      const bytes = readFileSync(file.abs);
      const read = frontmatterJson(bytes);
      if (read !== null && read.name === skill.name) frontmatter = read;
      return { uri: skillFileUri(skill.name, 'SKILL.md'), digest: digestOf(hashBytes(bytes)) };
    });
    // Changed since it was loaded so that it no longer names itself: not served until it is loaded again.
    if (frontmatter === undefined) throw skillcErrors.skillNotFound(skill.name);
    return { uri: skillFileUri(skill.name, 'SKILL.md'), frontmatter, resources };
  }

  /** `skills/list`: a page of entries after `cursor`; a skill past the limits is left out (its `skills/get` says why). */
  list(cursor?: string, limit = SKILLS_PAGE): { skills: ServedSkillEntry[]; nextCursor: string | null } {
    const after = readCursor('servedSkills', cursor);
    const served = this.served().filter((skill) => after === null || skill.name > after);
    const skills: ServedSkillEntry[] = [];
    let last: string | null = null;
    for (const skill of served) {
      if (skills.length === limit) return { skills, nextCursor: cursorOf(last as string) };
      last = skill.name;
      try {
        skills.push(this.entryOf(skill));
      } catch {
        // Too large, or changed as it was read: not listed; `skills/get` answers for it with the reason.
      }
    }
    return { skills, nextCursor: null };
  }

  /** `skills/get`. */
  entry(name: string): ServedSkillEntry {
    return this.entryOf(this.skill(name));
  }

  /** `resources/read`: a file of the skill as every reader sees it (nothing hidden, nothing outside). */
  file(name: string, path: string): ServedFile {
    const skill = this.skill(name);
    const rel = insidePath(skill.dir, path);
    const walk = this.files(skill);
    if (rel === '' || hasHiddenSegment(rel) || !walk.files.some((file) => file.rel === rel)) throw skillcErrors.fileNotFound(path);
    const opened = openFile(skill.dir, rel);
    const bytes = Buffer.from(opened.content, opened.encoding === 'base64' ? 'base64' : 'utf8');
    return {
      path: rel,
      mimeType: servedMimeType(rel, opened.encoding),
      encoding: opened.encoding,
      content: opened.content,
      digest: digestOf(hashBytes(bytes)),
      size: bytes.length,
    };
  }

  /** `resources/directory/read`: the direct children of a folder of the skill ('' for its own), a page at a time. */
  directory(name: string, dir: string, cursor?: string): { entries: ServedDirectoryEntry[]; nextCursor: string | null } {
    const skill = this.skill(name);
    const rel = dir === '' ? '' : insidePath(skill.dir, dir);
    const walk = this.files(skill);
    if (rel !== '' && (hasHiddenSegment(rel) || !walk.dirs.includes(rel))) throw skillcErrors.directoryNotFound(dir);
    const prefix = rel === '' ? '' : `${rel}/`;
    const child = (path: string): boolean => path.startsWith(prefix) && !path.slice(prefix.length).includes('/');
    const entries: ServedDirectoryEntry[] = [
      ...walk.dirs.filter(child).map((path) => ({ path, name: path.slice(prefix.length), kind: 'directory' as const })),
      ...walk.files.filter((file) => child(file.rel)).map((file) => ({ path: file.rel, name: file.rel.slice(prefix.length), kind: 'file' as const })),
    ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const at = readCursor('servedDirectory', cursor);
    const offset = at === null ? 0 : Number(at);
    if (!Number.isInteger(offset) || offset < 0) throw gatewayErrors.invalidInput('servedDirectory', 'cursor: not a cursor this server gave', []);
    const page = entries.slice(offset, offset + DIRECTORY_PAGE);
    return { entries: page, nextCursor: offset + DIRECTORY_PAGE < entries.length ? cursorOf(String(offset + DIRECTORY_PAGE)) : null };
  }
}
