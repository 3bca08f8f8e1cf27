/**
 * The frontmatter fields that ask the sandbox for more than a profile gives (docs/skill-format.md):
 * `reads:` home files (or absolute paths) a tool needs, bound read-only; `writes:` hidden paths of
 * the working directory it must change (`.git` for a tool that commits, `.cargo`, `build/.cache`) or
 * a dependency folder (`node_modules`), all read-only to a writing tool otherwise; `limits:` more of
 * a resource than the default. Also the names the runner holds with placeholders where they are missing.
 */
import type { BoxRequest, ResourceLimitName } from '../../shared/model.js';
import type { DiagnosticList } from './diagnostics.js';
import type { Frontmatter } from './frontmatter-yaml.js';

/** Folders another program runs something from: version control, editors and agents, CI, hook managers, build tools. */
const GUARDED_DIRS = [
  '.git', '.hg', '.svn', '.bzr', '.jj', '.vscode', '.idea', '.devcontainer', '.github/workflows', '.husky',
  '.git-hooks', '.githooks', '.claude', '.codex', '.cursor', '.cargo', '.gemini', '.continue', '.zed',
];

/** Files another program reads as settings or runs: shells, git, direnv, package managers, agents, CI. */
const GUARDED_FILES = [
  '.envrc', '.gitconfig', '.gitmodules', '.pre-commit-config.yaml', '.gitlab-ci.yml', '.bashrc', '.bash_profile',
  '.bash_login', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.npmrc', '.yarnrc', '.yarnrc.yml',
  '.pnpmfile.cjs', '.ripgreprc', '.mcp.json', '.cursorrules',
];

/**
 * Entries at the top of a working directory that other programs act on later, unasked (Claude Code's
 * sandbox-runtime's and Codex's lists, and what else runs from a folder by itself): where one is
 * missing, a writing run gets a read-only placeholder there, so it cannot be made even while the run
 * lasts. Every hidden entry is read-only to a writing tool anyway; these are the ones held from the start.
 */
export const GUARDED: readonly { rel: string; kind: 'dir' | 'file' }[] = [
  ...GUARDED_DIRS.map((rel) => ({ rel, kind: 'dir' as const })),
  ...GUARDED_FILES.map((rel) => ({ rel, kind: 'file' as const })),
];

/**
 * Inside a guarded folder a skill declares it writes, what stays read-only unless declared too: git's hooks and config.
 * A Map: it is looked up by the author's declared path, and a path named "constructor" guards nothing.
 */
export const INNER_GUARDS: ReadonlyMap<string, readonly string[]> = new Map([['.git', ['.git/hooks', '.git/config']]]);

/** Folders of dependencies a package manager fills: read-only to a writing tool unless declared, and never scanned (too big, all code). */
export const DEPENDENCY_DIRS: readonly string[] = ['node_modules'];

/** True for what `writes:` may name: a path with a hidden segment (`.git`, `build/.cache`), or a dependency folder. */
export function isHeldPath(rel: string): boolean {
  return rel.split('/').some((segment) => segment.startsWith('.') || DEPENDENCY_DIRS.includes(segment));
}

/** The `limits:` keys, what each sets, and the widest value any run may get (a Map: a key is the author's text). */
export const LIMIT_KEYS: ReadonlyMap<string, { limit: ResourceLimitName; max: number }> = new Map([
  ['processes', { limit: 'processes', max: 65_536 }],
  ['memory_mb', { limit: 'memoryMiB', max: 1_048_576 }],
  ['file_size_mb', { limit: 'fileSizeMiB', max: 16_777_216 }],
  ['cpu_seconds', { limit: 'cpuSeconds', max: 86_400 }],
]);

/** Kernel and runtime trees: sockets and devices, never a file a tool needs to read. */
const UNDECLARABLE = ['/proc', '/sys', '/dev', '/run', '/var/run'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringList(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string') ? value : null;
}

/** A `reads:` entry in one spelling: each run of `/` made one, no trailing `/` (`/var//run/` is `/var/run`, `~//.x` is `~/.x`). */
export function normalRead(entry: string): string {
  const collapsed = entry.replace(/\/{2,}/g, '/');
  return collapsed.length > 1 && collapsed.endsWith('/') ? collapsed.slice(0, -1) : collapsed;
}

/** The kernel or runtime tree `path` (normal, absolute) lies in, or null. */
function undeclarableTree(path: string): string | null {
  return UNDECLARABLE.find((tree) => path === tree || path.startsWith(`${tree}/`)) ?? null;
}

/**
 * Why a `reads:` entry cannot be bound, or null when it can: `~/…` or absolute, one place, not a tree
 * of the kernel. Judged on the entry's normal spelling, so `/var//run`, `//run` or `/run/` is `/run`.
 */
export function badRead(entry: string): string | null {
  if (!entry.startsWith('~/') && !entry.startsWith('/')) return 'must start with ~/ (your home folder) or /';
  const rest = entry.startsWith('~/') ? entry.slice(2) : entry.slice(1);
  const segments = rest.split('/').filter((segment) => segment !== '');
  if (segments.length === 0) return entry.startsWith('~') ? 'names the whole home folder; name the files it needs' : 'names the whole filesystem';
  if (segments.some((segment) => segment === '..' || segment === '.')) return 'may not contain . or .. segments';
  if (/[*?[\]\0\\]/.test(rest)) return 'must be a plain path (no wildcards, backslashes or NUL)';
  const tree = entry.startsWith('/') ? undeclarableTree(normalRead(entry)) : null;
  return tree === null ? null : `lies in ${tree}, where sockets and devices live`;
}

function readReads(fm: Frontmatter, file: string, diags: DiagnosticList): string[] {
  const value = fm.data.reads;
  if (value === undefined || value === null) return [];
  const line = fm.lineOf(['reads']);
  const list = stringList(value);
  if (list === null) {
    diags.add('E430', 'reads must be a list of paths such as [~/.gitconfig]', file, line);
    return [];
  }
  const reads: string[] = [];
  for (const entry of list) {
    const why = badRead(entry);
    if (why !== null) diags.add('E430', `reads entry '${entry}' ${why}`, file, line);
    else if (!reads.includes(normalRead(entry))) reads.push(normalRead(entry));
  }
  return reads;
}

function readWrites(fm: Frontmatter, readOnly: boolean, file: string, diags: DiagnosticList): string[] {
  const value = fm.data.writes;
  if (value === undefined || value === null) return [];
  const line = fm.lineOf(['writes']);
  const list = stringList(value);
  if (list === null) {
    diags.add('E431', 'writes must be a list of hidden paths of the working directory such as [.git]', file, line);
    return [];
  }
  const writes: string[] = [];
  for (const raw of list) {
    const entry = raw.replace(/^\.\//, '').replace(/\/+$/, '');
    const segments = entry.split('/');
    if (entry === '' || entry.startsWith('/') || entry.startsWith('~') || segments.some((s) => s === '' || s === '.' || s === '..')) {
      diags.add('E431', `writes entry '${raw}' must be a path inside the working directory, such as .git`, file, line);
    } else if (readOnly) {
      diags.add('W430', `writes entry '${raw}' has no effect: the skill is read-only`, file, line);
    } else if (!isHeldPath(entry)) {
      diags.add('W430', `writes entry '${raw}' is neither hidden nor a dependency folder: a workspace tool may write it anyway`, file, line);
    } else if (!writes.includes(entry)) {
      writes.push(entry);
    }
  }
  return writes;
}

function readLimits(fm: Frontmatter, file: string, diags: DiagnosticList): BoxRequest['limits'] {
  const value = fm.data.limits;
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) {
    diags.add('E432', `limits must be a mapping of ${[...LIMIT_KEYS.keys()].join(', ')}`, file, fm.lineOf(['limits']));
    return {};
  }
  const limits: BoxRequest['limits'] = {};
  for (const [key, amount] of Object.entries(value)) {
    const spec = LIMIT_KEYS.get(key);
    const line = fm.lineOf(['limits', key]);
    if (spec === undefined) diags.add('E432', `limits has no '${key}'; it takes ${[...LIMIT_KEYS.keys()].join(', ')}`, file, line);
    else if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1 || amount > spec.max) {
      diags.add('E432', `limits.${key} must be a whole number from 1 to ${spec.max}, got ${JSON.stringify(amount)}`, file, line);
    } else limits[spec.limit] = amount;
  }
  return limits;
}

/** What the skill asks of the box, reporting entries that cannot be honoured. */
export function readBox(fm: Frontmatter, readOnly: boolean, file: string, diags: DiagnosticList): BoxRequest {
  const reads = readReads(fm, file, diags);
  const box: BoxRequest = { reads, writes: readWrites(fm, readOnly, file, diags), limits: readLimits(fm, file, diags) };
  if (reads.length > 0) box.readsLine = fm.lineOf(['reads']);
  return box;
}
