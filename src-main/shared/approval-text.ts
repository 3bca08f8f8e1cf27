/**
 * How an approval reads, the same in the tray, the browser and the terminal: one sentence a person
 * takes in at a glance (who asks, to run what, where, how contained), then the command with the
 * caller's values set apart from the template's own text and its fixed hardening flags folded away.
 */
import type { LimitHit, ResourceLimits } from './model.js';
import { displayText } from './display-text.js';
import { networkWords } from './network-reach.js';
import type { PendingApproval, SandboxView, Surface } from './runs.js';

/** Who asks, as the subject of the sentence. */
export const ASKER: Record<Surface, string> = {
  cli: 'The command line',
  http: 'An HTTP client',
  mcp: 'An MCP client',
  ui: 'This app',
  browser: 'The browser UI',
};

/** One argument as shown: its text, whether the caller supplied it, and whether it is a fixed hardening flag. */
export interface ShownArgument {
  index: number;
  text: string;
  supplied: boolean;
  hardening: boolean;
}

/**
 * The template's fixed flags that only turn something off: `--no-…` options and `-c name=value`
 * settings (Git's way of overriding a repository's configuration). Folded away by default, since
 * they narrow what runs and the person need not read them to decide.
 */
function hardeningFlags(argv: readonly string[], supplied: ReadonlySet<number>): Set<number> {
  const flags = new Set<number>();
  argv.forEach((arg, i) => {
    if (supplied.has(i)) return;
    if (arg.startsWith('--no-')) flags.add(i);
    if (arg === '-c' && i + 1 < argv.length && !supplied.has(i + 1)) {
      flags.add(i);
      flags.add(i + 1);
    }
  });
  return flags;
}

/** Every argument with its origin marked. */
export function shownArguments(argv: readonly string[], suppliedIndexes: readonly number[]): ShownArgument[] {
  const supplied = new Set(suppliedIndexes);
  const hardening = hardeningFlags(argv, supplied);
  return argv.map((text, index) => ({ index, text, supplied: supplied.has(index), hardening: hardening.has(index) }));
}

/** The program's file name: `/usr/bin/git` → `git`. */
export function programName(programPath: string): string {
  return programPath.split(/[/\\]/).pop() || programPath;
}

/** An argument as a shell-like word, quoted only when it needs to be (for reading, never for running). */
export function word(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Whether the sentence shows `arg` as `…/name`: a long absolute path the template fixed (never a caller's value). */
export function isLongFixedPath(arg: ShownArgument): boolean {
  return !arg.supplied && arg.text.length > 24 && /^([A-Za-z]:)?[/\\]/.test(arg.text);
}

/** An argument as the sentence shows it: read at a glance, so a long fixed path as `…/name`. */
function brief(arg: ShownArgument): string {
  return isLongFixedPath(arg) ? `…/${word(programName(arg.text))}` : word(arg.text);
}

/** The command without its hardening flags, e.g. `git -C . status --short`, cut to `max` characters. */
export function shortCommand(programPath: string, argv: readonly string[], supplied: readonly number[], max = 80): string {
  const words = [
    programName(programPath),
    ...shownArguments(argv, supplied)
      .filter((a) => !a.hardening)
      .map(brief),
  ];
  const text = words.join(' ');
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** How the run is contained, in a few words: "read-only, no network", or why it is not contained. */
export function containment(sandbox: SandboxView): string {
  if (!sandbox.contained) return sandbox.name === 'none' ? 'not sandboxed (you turned it off)' : 'not contained (no sandbox here)';
  const files = sandbox.name === 'read-only' ? 'read-only' : 'can write in that folder';
  return `${files}, ${networkWords(sandbox, 3)}`;
}

/** A size in MiB as read at a glance: `2 GiB`, `512 MiB`. */
function size(mib: number): string {
  return mib % 1024 === 0 ? `${mib / 1024} GiB` : `${mib} MiB`;
}

/** The limits in a few words: "256 processes, 2 GiB memory, 1 GiB per file and per private folder, 120 s CPU". */
export function describeLimits(limits: ResourceLimits): string {
  return `${limits.processes} processes, ${size(limits.memoryMiB)} memory, ${size(limits.fileSizeMiB)} per file and per private folder, ${limits.cpuSeconds} s CPU`;
}

/** Which limit stopped a run, as the end of "stopped at …". */
export const LIMIT_HIT: Record<LimitHit, string> = {
  processes: 'its process limit (a fork was refused)',
  memoryMiB: 'its memory limit',
  fileSizeMiB: 'its file-size limit',
  cpuSeconds: 'its CPU-time limit',
  privateFolder: 'the size of a private folder (/tmp, /var/tmp, /dev/shm or its home was full)',
};

/**
 * What the box holds, line by line, as the approval, history and `run --dry-run` show it: what
 * the run sees and may change beyond the system's programs, what it declared, and what it may spend.
 * Nothing for a run that is not contained (its approval says it can do anything instead).
 */
export function boxLines(sandbox: SandboxView, home?: string): string[] {
  if (!sandbox.contained) return [];
  const lines = [
    `Sees: the system’s programs, its folder ${sandbox.name === 'workspace' ? '(it may change files there)' : 'read-only'}, an empty home and a temporary folder of its own.`,
  ];
  if ((sandbox.reads ?? []).length > 0) {
    const at = (sandbox.readsAt ?? []).filter((path) => !(sandbox.reads ?? []).includes(path));
    lines.push(
      `Also reads: ${(sandbox.reads ?? []).join(', ')} (read-only)${at.length > 0 ? `, which lead${at.length === 1 ? 's' : ''} to ${at.join(', ')}` : ''}.`,
    );
  }
  if ((sandbox.gitOutside ?? []).length > 0) {
    lines.push(`A .git in its folder names a git folder outside it (${(sandbox.gitOutside ?? []).join(', ')}): the run sees nothing there, so git may fail.`);
  }
  if ((sandbox.programs ?? []).length > 0)
    lines.push(`Runs from outside the system folders: ${(sandbox.programs ?? []).map((path) => shortPath(path, home, 60)).join(', ')} (read-only).`);
  if (sandbox.name === 'workspace') {
    lines.push(
      (sandbox.writes ?? []).length > 0
        ? `May also change: ${(sandbox.writes ?? []).join(', ')}; every other hidden file and folder (.git hooks and config, editor, agent and CI settings) stays read-only, and hidden ones it makes are removed when it ends.`
        : 'Every hidden file and folder (.git, editor, agent and CI settings, startup files) and node_modules stay read-only; hidden ones it makes are removed when it ends.',
    );
  }
  if (sandbox.limits !== undefined) {
    lines.push(
      sandbox.limitsWhy === null || sandbox.limitsWhy === undefined
        ? `Limits: ${describeLimits(sandbox.limits)}.`
        : `No resource limits: ${sandbox.limitsWhy}.`,
    );
  }
  return lines;
}

/** The folder for the sentence: the home directory written `~` when it is known, a long path cut to its last two folders. */
export function shortPath(path: string, home?: string, max = 40): string {
  let short = path;
  const trimmed = home?.replace(/[/\\]+$/, '') ?? '';
  if (trimmed !== '' && path === trimmed) short = '~';
  else if (trimmed !== '' && path.startsWith(`${trimmed}/`)) short = `~${path.slice(trimmed.length)}`;
  if (short.length <= max) return short;
  const parts = short.split(/[/\\]/).filter((part) => part !== '');
  return `…/${parts.slice(-2).join('/')}`;
}

/** Who asks: the surface, and the assistant whose token asks ("An HTTP client (codex)") unless its name is only the surface's (`mcp`). */
export function askerOf(p: { surface: Surface; assistant?: string | null }): string {
  return p.assistant === undefined || p.assistant === null || p.assistant === p.surface ? ASKER[p.surface] : `${ASKER[p.surface]} (${p.assistant})`;
}

/** The sentence: "An MCP client asks to run `git -C . status` in ~/code/app — read-only, no network." (hidden characters escaped). */
export function approvalSentence(
  p: Pick<PendingApproval, 'surface' | 'programPath' | 'argv' | 'supplied' | 'cwd' | 'sandbox'> & { assistant?: string | null },
  home?: string,
): string {
  return displayText(
    `${askerOf(p)} asks to run \`${shortCommand(p.programPath, p.argv, p.supplied, 48)}\` in ${shortPath(p.cwd, home)} — ${containment(p.sandbox)}.`,
  );
}
