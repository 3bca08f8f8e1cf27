/** The skillc codes (RFC-0005: E001–E101, E999), whose wording RFC-0005 fixes: one builder per message. */
import type { NameSuggestion } from '../did-you-mean.js';
import { SkilltrayError } from '../skilltray-error.js';

/** Message builders for the skillc codes, whose wording RFC-0005 fixes. */
export const skillcErrors = {
  /** RFC-0005's message; `did_you_mean` holds the skills the name may have meant (skills/skill-suggestions.ts). */
  skillNotFound: (skill: string, didYouMean: readonly NameSuggestion[] = []) =>
    new SkilltrayError('E001', `skill '${skill}' not found`, { details: { skill, did_you_mean: didYouMean } }),
  /** A never-built index is "not built yet"; a corrupt or stale one is RFC-0005's "unusable". */
  indexUnusable: (skill: string, reason: 'missing' | 'corrupt' | 'stale', cause?: unknown) =>
    new SkilltrayError(
      'E002',
      reason === 'missing'
        ? `search index not built yet; run 'skilltray build ${skill}' to build it`
        : `search index unusable; run 'skilltray build ${skill}' to rebuild`,
      { details: { skill, reason }, cause },
    ),
  indexCollision: (hash16: string) =>
    new SkilltrayError('E003', `index hash collision; delete .skillc-meta/search-${hash16}.db and rebuild`, {
      details: { hash16 },
    }),
  emptyQuery: () => new SkilltrayError('E004', 'empty query'),
  notASkill: (path: string) => new SkilltrayError('E010', `not a valid skill: '${path}' (missing SKILL.md)`, { details: { path } }),
  missingFrontmatterField: (field: string) => new SkilltrayError('E011', `missing frontmatter field '${field}' in SKILL.md`, { details: { field } }),
  pathEscapesRoot: (path: string) => new SkilltrayError('E012', `path escapes skill root: '${path}'`, { details: { path } }),
  /** Skilltray's own E012: a tool's relative program under a hidden folder, which the content hash leaves out. */
  programInHiddenFolder: (program: string) =>
    new SkilltrayError('E012', `program '${program}' is in a hidden folder, which the skill's content hash does not cover; move it out`, {
      details: { path: program },
    }),
  sectionNotFound: (section: string, suggestions: { text: string; file: string }[] = []) =>
    new SkilltrayError('E020', `section not found: '${section}'`, { details: { section, suggestions } }),
  fileNotFound: (path: string) => new SkilltrayError('E021', `file not found: '${path}'`, { details: { path } }),
  directoryNotFound: (path: string) => new SkilltrayError('E022', `directory not found: '${path}'`, { details: { path } }),
  /** Skilltray's own E023 (RFC-0005 has no code for it): a file that exists but cannot be read; `why` says why. */
  notReadable: (path: string, why: string, errno: string | null, cause: unknown) =>
    new SkilltrayError('E023', `cannot read '${path}': ${why}`, { details: { path, errno }, cause }),
  invalidQueryType: (type: string) => new SkilltrayError('E030', `invalid query type: '${type}'`, { details: { type } }),
  invalidFilter: (message: string) => new SkilltrayError('E031', `invalid filter: '${message}'`),
  noLocalLogs: () => new SkilltrayError('E040', 'no local logs found'),
  syncDestinationNotWritable: (path: string, cause: unknown) =>
    new SkilltrayError('E041', `sync destination not writable: '${path}'`, { details: { path }, cause }),
  syncSourceNotReadable: (path: string, cause: unknown) => new SkilltrayError('E042', `sync source not readable: '${path}'`, { details: { path }, cause }),
  /** RFC-0005's template, for a flag the command does not have. */
  unknownOption: (flag: string) => new SkilltrayError('E100', `invalid option: '${flag}'`, { details: { option: flag } }),
  /** An option with a bad or missing value, said as a sentence that names the option (`--limit expects an integer, got 'x'`). */
  invalidOption: (message: string) => new SkilltrayError('E100', message),
  /** A command line that does not fit the command (RFC-0005 keeps E100–E199 for the CLI's parsing). */
  /** An environment variable with a bad value: no command line is at fault, so the CLI shows no usage line for it. */
  invalidVariable: (variable: string, message: string) => new SkilltrayError('E100', message, { details: { variable } }),
  usage: (message: string, details?: Record<string, unknown>) => new SkilltrayError('E101', message, details === undefined ? {} : { details }),
  /** `new` given a skill or tool name the format refuses; `suggested` is the nearest name it accepts. */
  invalidNewName: (what: 'skill' | 'tool', name: string, rule: string, suggested: string | null) =>
    new SkilltrayError('E150', `'${name}' cannot be a ${what} name: ${rule}`, {
      details: { [what]: name, did_you_mean: suggested === null ? [] : [{ name: suggested }] },
    }),
  /** `new` where the folder exists, or a loaded skill already has the name; `free` are names still free. */
  skillExists: (name: string, where: string, free: readonly string[]) =>
    new SkilltrayError('E151', `a skill named '${name}' already exists (${where}); pick another name`, {
      details: { skill: name, where, did_you_mean: free.map((n) => ({ name: n })) },
    }),
  /** RFC-0005's E999 is its message alone: an unexpected failure (I/O, a database, a broken invariant). */
  internal: (message: string, options: { details?: Record<string, unknown>; cause?: unknown } = {}) => new SkilltrayError('E999', message, options),
};
