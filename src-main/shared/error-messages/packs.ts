/** The errors of installed skill packs (E3xx, docs/errors.md): each names the source or the pack it is about. */
import { SkilltrayError } from '../skilltray-error.js';

const causeText = (error: unknown): string => (error as Error).message;

export const packErrors = {
  /** `why` says what the source is not (or what about it is not allowed). */
  sourceInvalid: (source: string, why: string) => new SkilltrayError('E301', `cannot install from '${source}': ${why}`, { details: { source } }),
  refInvalid: (ref: string) => new SkilltrayError('E301', `--ref '${ref}' is not a ref`, { details: { ref } }),
  /** git could not fetch: `why` is what failed, with git's first line when it said one. */
  fetchFailed: (source: string, why: string, stderr: string) => new SkilltrayError('E302', `cannot fetch '${source}': ${why}`, { details: { source, stderr } }),
  /** git's plumbing (ls-tree, cat-file) printed what a fetched commit cannot hold. */
  gitReadFailed: (message: string) => new SkilltrayError('E302', message),
  archiveUnreadable: (file: string, error: unknown) =>
    new SkilltrayError('E302', `cannot read the archive '${file}': ${causeText(error)}`, { cause: error, details: { source: file } }),
  /** `finding` is the scan's sentence for the limit passed. */
  overLimits: (source: string, finding: string) =>
    new SkilltrayError('E302', `'${source}' holds more than its limits allow: ${finding}`, { details: { source } }),
  extractionFailed: (source: string, error: unknown) =>
    new SkilltrayError('E302', `cannot extract '${source}': ${causeText(error)}`, { cause: error, details: { source } }),
  /** Findings no --force overrides (S307, S309, S311, S313). */
  unsafeToExtract: (source: string, codes: readonly string[], details: Record<string, unknown>) =>
    new SkilltrayError('E303', `refusing '${source}': the archive is unsafe to extract (${codes.join(', ')}); --force does not change that`, { details }),
  /** `high` counts the high-severity findings; `codes` names their kinds once each. */
  refused: (pack: string, high: number, codes: readonly string[], details: Record<string, unknown>) =>
    new SkilltrayError(
      'E303',
      `refusing pack '${pack}': ${high} high-severity finding${high === 1 ? '' : 's'} (${codes.join(', ')}); read the report, and install with --force only if you trust it`,
      { details },
    ),
  confirmationRequired: (pack: string, details: Record<string, unknown>) =>
    new SkilltrayError('E304', `pack '${pack}' is not installed until you confirm its scan report (--yes, or the Install button)`, { details }),
  /** `clashes` lists each skill with the root and path of the one it clashes with. */
  nameClash: (pack: string, clashes: string, details: Record<string, unknown>) =>
    new SkilltrayError('E305', `installing pack '${pack}' would shadow or be shadowed by ${clashes}; install it under another name with --as NAME`, {
      details,
    }),
  packNotFound: (pack: string) => new SkilltrayError('E306', `no installed pack '${pack}'; 'skilltray packs' lists them`, { details: { pack } }),
  noSkills: (source: string, path: string | null) =>
    new SkilltrayError('E307', `no skill in '${source}'${path === null ? '' : ` at '${path}'`}: no SKILL.md at its top or in a folder one level down`, {
      details: { source },
    }),
  busy: (cause: unknown, pid?: number) =>
    new SkilltrayError(
      'E308',
      `another Skilltray process${pid === undefined ? '' : ` (pid ${pid})`} is installing, updating or removing packs; try again when it is done`,
      {
        cause,
        ...(pid === undefined ? {} : { details: { pid } }),
      },
    ),
  invalidKey: (why: string) => new SkilltrayError('E309', `not a key Skilltray can trust: ${why}`),
  changedSinceScan: (pack: string, details: Record<string, unknown>) =>
    new SkilltrayError('E310', `pack '${pack}' changed since the scan you confirmed: read the new report and confirm again`, { details }),
  /** `what` says which name it is (`pack name`, `--as`). */
  invalidPackName: (what: string, name: string) =>
    new SkilltrayError('E311', `${what} '${name}' is not a slug: lowercase letters, digits and single inner hyphens, at most 64`, { details: { name } }),
  skillFoldersNotSlugs: (names: readonly string[]) =>
    new SkilltrayError(
      'E311',
      `skill folder${names.length === 1 ? '' : 's'} ${names.map((b) => `'${b}'`).join(', ')} not a slug: lowercase letters, digits and single inner hyphens`,
      {
        details: { names },
      },
    ),
  /** `differ` lists the paths whose content is not what the lock records (the first five are named). */
  notRepairable: (pack: string, differ: readonly string[], report: unknown) =>
    new SkilltrayError(
      'E312',
      `cannot repair pack '${pack}': its source no longer holds the locked content (${differ.slice(0, 5).join(', ')}${differ.length > 5 ? ` and ${differ.length - 5} more` : ''} differ${differ.length === 1 ? 's' : ''}); update it instead`,
      { details: { pack, differ, report } },
    ),
};
