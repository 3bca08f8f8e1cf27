/** Installed skill packs as every surface sees them: sources, scan reports, update diffs, the lock. */
import type { Mode } from './model.js';
import type { NetworkHosts } from './model.js';

/** What a pack was installed from. */
export type PackSourceKind = 'git' | 'folder' | 'zip' | 'tar';

/** How bad a scan finding is: `high` refuses the install unless forced; the rest need a confirmation. */
export type FindingSeverity = 'high' | 'medium' | 'low';

/** Scan finding codes (docs/errors.md, "Pack scan findings"). */
export const FINDING_CODES = {
  S301: 'download_and_execute',
  S302: 'decode_and_execute',
  S303: 'native_executable',
  S304: 'binary_file',
  S305: 'hidden_file',
  S306: 'symlink_escape',
  S307: 'unsafe_archive_path',
  S308: 'setuid_bit',
  S309: 'oversized',
  S310: 'prompt_fetch_and_run',
  S311: 'special_file',
  S312: 'skill_has_errors',
  S313: 'link_out_of_pack',
  S314: 'inline_code',
  S315: 'download_saved',
  S316: 'credential_path',
  S317: 'runs_handed_code',
  S318: 'unknown_program',
  S319: 'network_shell',
} as const;

/** A scan finding's code, S301–S319. */
export type FindingCode = keyof typeof FINDING_CODES;

/** One thing the scan found worth a person's attention. */
export interface ScanFinding {
  code: FindingCode;
  kind: (typeof FINDING_CODES)[FindingCode];
  severity: FindingSeverity;
  /** Path inside the pack, `/`-separated ('' for the pack as a whole). */
  file: string;
  /** 1-based line, or null when the finding is about the file as a whole. */
  line: number | null;
  message: string;
  /** The text that matched, clipped, so a person can judge it. */
  excerpt: string | null;
}

/** How a tool would run: the program, the sandbox profile the policy gives it, what it may reach. */
export interface ScannedTool {
  name: string;
  /** The Command as written. */
  command: string;
  /** The program, the Command's first word. */
  program: string;
  /** Whether the program is a file inside the pack (a script it ships). */
  programInPack: boolean;
  /** The sandbox profile the policy chooses for it (core/policy/profile.ts), in words and as a name. */
  profile: string;
  profileName: string;
  network: boolean;
  /** Where its network leads (see NetworkHosts). */
  hosts: NetworkHosts;
  /** Environment variables the skill asks to be passed (requires.env). */
  env: string[];
  /** What its skill declares the box shows it (`reads:`) and lets it change in its folder (`writes:`), as the loader read them. */
  reads: string[];
  writes: string[];
}

/** One skill of a scanned pack. */
export interface ScannedSkill {
  /** The name it is installed under (`--as` renames a single-skill pack). */
  name: string;
  /** Its name in the source, when `--as` renamed it. */
  originalName: string | null;
  /** Its directory inside the pack, `/`-separated. */
  dir: string;
  description: string;
  version: string | null;
  /** RFC-0001 manifest hash, the same the loader computes. */
  hash: string;
  tools: ScannedTool[];
  /** Files a tool may run: executable files and scripts (by extension or `#!`). */
  scripts: string[];
  /** Loader errors, which keep its tools from running. */
  errors: string[];
  /** A loaded skill this one would hide or be hidden by, when it has the same name. */
  clash: { path: string; root: string } | null;
}

/** How a source's commit or tag is signed, checked against `<home>/trusted-keys` and `<home>/gnupg`. */
export interface PackSignature {
  state: 'verified' | 'untrusted' | 'unsigned';
  /** `ssh` or `gpg` when signed. */
  format: 'ssh' | 'gpg' | null;
  /** Who signed it: the principal (SSH) or user id (GPG) of a trusted key, else the key's fingerprint. */
  signer: string | null;
  /** What `git verify-*` said, in one line. */
  detail: string | null;
}

/** Where a pack came from and what it resolved to. */
export interface PackOrigin {
  kind: PackSourceKind;
  /** The source as given (a URL, a path made absolute). */
  source: string;
  ref: string | null;
  path: string | null;
  /** The resolved commit of a git source; null for folders and archives. */
  commit: string | null;
  signature: PackSignature;
}

/** What `install` shows before anything is written. */
export interface ScanReport {
  pack: string;
  origin: PackOrigin;
  skills: ScannedSkill[];
  findings: ScanFinding[];
  files: number;
  bytes: number;
  /** Highest severity found, or null for none. */
  worst: FindingSeverity | null;
  /** False when the source was refused while it was read or extracted (S307, S309, S311, S313): there are no skills to show, and nothing can install it. */
  extracted: boolean;
  /** Identifies exactly what was scanned: a confirmation names it, so what was confirmed is what is installed. */
  digest: string;
}

/** A unified diff of a text, bounded: hunk headers (`@@ …`) and lines starting with ' ', '-' or '+'. */
export interface TextDiff {
  lines: string[];
  /** Lines of the diff left out to keep it short. */
  more: number;
  /** Why no lines are shown, when a side is not text or too large to diff. */
  omitted: 'binary' | 'too large' | null;
}

/** One tool's change between the installed version and the update. */
export interface ToolChange {
  name: string;
  change: 'added' | 'removed' | 'changed' | 'unchanged';
  commandBefore: string | null;
  commandAfter: string | null;
  /** The Command's lines removed and added, when it changed. */
  commandDiff: TextDiff | null;
  /** Set when the program itself changed (or the tool is new). */
  newProgram: string | null;
  profileBefore: string | null;
  profileAfter: string | null;
  networkBefore: boolean | null;
  networkAfter: boolean | null;
  /** Environment variables asked for now that were not before. */
  newEnv: string[];
  /** True when it may now do more: a new program, the network, a wider profile, more environment. */
  widened: boolean;
}

/** A file of a skill that an update adds, removes or changes. */
export interface FileChange {
  /** Path inside the skill. */
  path: string;
  change: 'added' | 'removed' | 'changed';
}

/** A script an update adds, removes or changes, with its lines. */
export interface ScriptChange extends FileChange {
  diff: TextDiff;
  /** True when the new version downloads something and the old one did not. */
  mayDoMore: boolean;
}

/** One skill's change between the installed version and the update. */
export interface SkillChangeReport {
  name: string;
  change: 'added' | 'removed' | 'changed' | 'unchanged';
  hashBefore: string | null;
  hashAfter: string | null;
  tools: ToolChange[];
  /** Scripts added, removed or changed, each with its unified diff. */
  scripts: ScriptChange[];
  /** Every other file that changed. */
  files: FileChange[];
}

/** What `update` shows before anything is written. */
export interface UpdateReport {
  pack: string;
  from: { commit: string | null; installedAt: number };
  scan: ScanReport;
  upToDate: boolean;
  skills: SkillChangeReport[];
  /** True when any tool may do more than before, or a script now downloads. */
  widened: boolean;
}

/** One skill of an installed pack as recorded in the lock. */
export interface LockedSkill {
  /** Its directory inside the pack, `/`-separated. */
  dir: string;
  /** The manifest hash the loader computes for it. */
  hash: string;
  /** Its name in the source, when installed under another (`--as`). */
  originalName: string | null;
}

/** One pack's entry in `<home>/packs.lock.json`. */
export interface LockEntry {
  origin: PackOrigin;
  installedAt: number;
  skills: Record<string, LockedSkill>;
  /** sha256 of every file, by path inside the pack. */
  files: Record<string, string>;
}

/** An installed pack as listed. */
export interface PackInfo {
  name: string;
  dir: string;
  origin: PackOrigin;
  installedAt: number;
  skills: string[];
  /** Every file that differs from the lock (edited behind its back). */
  modified: FileChange[];
}

/** What an install, update or removal did. */
export interface PackChange {
  pack: string;
  action: 'installed' | 'reinstalled' | 'updated' | 'uninstalled' | 'unchanged' | 'repaired';
  skills: string[];
  /** Remembered approvals revoked because their tool changed or left. */
  revoked: { skill: string; tool: string }[];
  /** The scan report of what was installed (null for a removal). */
  report: ScanReport | null;
}

/** Where a skill is on or off: everywhere (`all`), or in one mode. */
export type SwitchScope = 'all' | Mode;

/** A skill turned on or off by the person. */
export interface SkillSwitch {
  skill: string;
  scope: SwitchScope;
  enabled: boolean;
}
