/**
 * The data every surface exchanges: skills as loaded, diagnostics, rendered requests, run results.
 * Types and their constant lists (modes, roles, root kinds), nothing that reaches Node, so the renderer
 * imports them as they are; the lowest of shared's data modules: it imports none of the others.
 */

/**
 * Where a run's network leads: the hosts it may reach through Skilltray's filtering proxy (`*` alone:
 * any host), or `host`, this computer's own network shared unfiltered (ICMP, the system resolver;
 * never a Unix socket). Empty without the network. See docs/runner.md#network.
 */
export type NetworkHosts = string[] | 'host';

/** bundled skills ship with the app; everything else (user dir, SKILLTRAY_SKILLS_PATH, other tools' dirs) is user. */
export type Trust = 'bundled' | 'user';

/** Where a skill root comes from, in precedence order. */
export type RootKind =
  'env' | 'home' | 'packs' | 'bundled' | 'gibberish' | 'gibbtools' | 'kode' | 'claude' | 'agents' | 'codex' | 'cursor' | 'copilot' | 'project' | 'mcp';

/**
 * A project folder whose skills (`.claude/skills`, `.agents/skills`) the person trusts, as it is
 * now: `trusted` while its skills are what the person confirmed, `changed` once they differ.
 */
export interface TrustedProject {
  path: string;
  state: 'trusted' | 'changed';
  /** `<folder>/<skill>` for each skill there now. */
  skills: string[];
  /** The digest of its skills now; trusting it again pins this one. */
  digest: string;
  trustedAt: number;
}

/** What a project folder holds before the person decides whether to trust it. */
export interface ProjectInspection {
  path: string;
  /** Its skill folders that exist. */
  folders: string[];
  skills: string[];
  /** What `trustProject` must be given back: the person confirms exactly these skills. */
  digest: string;
  trusted: boolean;
}

/** Other tools' skill folders, read where they exist: read-only, user trust. */
export const COMPATIBILITY_ROOTS: readonly RootKind[] = ['gibberish', 'gibbtools', 'kode', 'claude', 'agents', 'codex', 'cursor', 'copilot'];

/** `<<key>>` is Skilltray's native placeholder; `{{key}}` is gibb.eri.sh's, kept for its skills. */
export type PlaceholderSyntax = 'angle' | 'braces';

export interface SkillRoot {
  path: string;
  kind: RootKind;
  trust: Trust;
  /** Placeholder syntax a skill in this root uses unless its frontmatter says otherwise. */
  syntax: PlaceholderSyntax;
}

/**
 * How a long-running process watches one root for changes: `native` (the OS reports them),
 * `polling` (the OS refused more watches, so the root is scanned every few seconds) or `off`; with
 * the paths under it that cannot be watched and why.
 */
export interface RootWatch {
  mode: 'native' | 'polling' | 'off';
  problems: { path: string; code: string; message: string }[];
}

/** The skill formats Skilltray reads; a diagnostic names the ones it breaks. */
export type SkillFormat = 'gibberish' | 'kode' | 'agentskills';

/** How people call each format. */
export const FORMAT_NAMES: Record<SkillFormat, string> = {
  gibberish: 'gibb.eri.sh',
  kode: 'Kode',
  agentskills: 'Agent Skills/Claude',
};

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  /** E4xx for errors, W4xx for warnings (docs/errors.md). */
  code: string;
  severity: Severity;
  message: string;
  /** Absolute path of the file the diagnostic is about. */
  file: string;
  /** 1-based line; 1 when the problem is about the file as a whole. */
  line: number;
  /** 1-based column, where a JSON file is malformed. */
  column?: number;
  /** The JSON pointer (RFC 6901) of the bad field of a tool pack: `/parameters/length/enum`. */
  pointer?: string;
  /** Formats whose own loaders would reject or flag the same thing. */
  breaks: SkillFormat[];
}

export type ParamType = 'string' | 'integer' | 'number' | 'boolean' | 'enum';

export interface ToolParam {
  name: string;
  type: ParamType;
  /** Allowed values when type is enum, in the order the author wrote them. */
  enumValues: string[];
  required: boolean;
  /** Whether a value may begin with `-` where it fills a whole argument (off by default: argument-injection guard). */
  allowDash: boolean;
  description: string;
  /** What the Command uses when no value is given (`<<key:default>>`); null when the argument is dropped instead, or for a boolean flag. */
  default: string | null;
  line: number;
}

export interface Tool {
  name: string;
  description: string;
  params: ToolParam[];
  /** The text inside the Command block's fence. */
  command: string;
  /** Line of the Command block's first content line in SKILL.md. */
  commandLine: number;
  /** The Examples section as written, kept for assistants; null when absent. */
  examples: string | null;
  /** Line of the tool's H3 heading. */
  line: number;
  /** What the tool sets for itself (`#### Policy`, a tool pack's `policy`); absent keys follow the skill (shared/tool-policy.ts). */
  policy?: ToolPolicy;
  /** A tool pack's own file, whose errors keep only this tool from running; absent for a SKILL.md tool. */
  file?: string;
  /** What a tool pack says of its output: `max_chars` caps what a run returns, `speak` adds a sentence to say. */
  output?: ToolOutput;
  /** Where a tool pack's parameters come from (`context.url`, `transcript`…), kept for assistants: parameter → source. */
  sources?: Record<string, string>;
  /** A tool pack's command as its JSON writes it: the program, and each argument a `{{…}}` template of its own (template/pack-command.ts). */
  pack?: { program: string; args: string[] };
  /** The modes a tool pack is offered in, when it says (its skill's `modes` are the union of its tools'). */
  modes?: Mode[];
}

/**
 * A tool's own policy: each key it sets overrides the skill's for this tool, within what the skill
 * permits (a tool may always narrow; it widens only where the frontmatter leaves room).
 */
export interface ToolPolicy {
  readOnly?: boolean;
  alwaysAsk?: boolean;
  timeoutSec?: number;
  /** Its network, with `hosts`: none (false), or hosts within the skill's. */
  network?: boolean;
  hosts?: NetworkHosts;
  /** Line of the `#### Policy` heading (SKILL.md) or of the pack's `policy` (1 when it has none). */
  line?: number;
}

/** A tool pack's `output`: how much of a run's output is returned, and whether a voice client says it. */
export interface ToolOutput {
  maxChars: number | null;
  speak: boolean;
  format: 'text' | 'json' | 'markdown';
}

export type Mode = 'Global' | 'Dev' | 'Meeting';
export const MODES: readonly Mode[] = ['Global', 'Dev', 'Meeting'];

export type Role = 'procedure' | 'utility' | 'sidecar';
export type Invocation = 'direct' | 'attach' | 'both';
export type AttachTarget = 'task' | 'run' | 'output' | 'transcript' | 'artifact';
export type EffectMode = 'read_only' | 'enrich' | 'control_signal';
export const ROLES: readonly Role[] = ['procedure', 'utility', 'sidecar'];
export const INVOCATIONS: readonly Invocation[] = ['direct', 'attach', 'both'];
export const ATTACH_TARGETS: readonly AttachTarget[] = ['task', 'run', 'output', 'transcript', 'artifact'];
export const EFFECT_MODES: readonly EffectMode[] = ['read_only', 'enrich', 'control_signal'];

/** ADR-001 classification, from `metadata.classification`. */
export interface Classification {
  role: Role | null;
  invocation: Invocation | null;
  attachTargets: AttachTarget[];
  effectMode: EffectMode | null;
}

export interface KodeMetadata {
  primaryEnv: string | null;
  permissionMode: string | null;
  /** Tool whitelist; null means inherit. */
  tools: string[] | null;
}

export type SkillState = 'ok' | 'warnings' | 'error';

/**
 * How a skill in the bundled folder compares with the manifest shipped with Skilltray: `match` (the
 * name is listed with this very content hash), `differs` (listed, other content), `absent` (not
 * listed: Skilltray did not ship it) or `unreadable` (no manifest could be read).
 */
export type ManifestMatch = 'match' | 'differs' | 'absent' | 'unreadable';

/**
 * Who a skill is, as rules, remembered approvals and every view see it (core/skills/identity.ts
 * answers it): the root it was found in, its folder, its content, and whether that content is what
 * Skilltray shipped (the bundled manifest) or installed (a pack's lock).
 */
export interface SkillIdentity {
  rootKind: RootKind;
  /** The skill's folder as loaded. */
  path: string;
  /** RFC-0001 content hash over every file. */
  hash: string;
  /** For a skill in the bundled folder, how it compares with the shipped manifest; null elsewhere. */
  manifest: ManifestMatch | null;
  /** `bundled` only for a skill in the bundled folder that matches the shipped manifest. */
  trust: Trust;
  /**
   * Why its files cannot be vouched for, naming what differs: not the bundled skill Skilltray shipped
   * (W420), or an installed pack edited behind its lock (W416). Such a skill never runs unasked.
   */
  unverified: string | null;
  /** Same-named skills it hides (W421). */
  hides: { path: string; rootKind: RootKind }[];
}

export interface Skill {
  /** The slug: the directory's name. */
  name: string;
  /** Absolute path of the skill directory. */
  dir: string;
  /** Absolute path of SKILL.md. */
  file: string;
  root: SkillRoot;
  /** The identity's trust, kept at the top for every reader. */
  trust: Trust;
  /** Who the skill is (root, folder, content, manifest or lock); see SkillIdentity. */
  identity: SkillIdentity;
  syntax: PlaceholderSyntax;
  /** RFC-0001 manifest hash over every file of the skill: identifies the exact version loaded. */
  hash: string;
  /** Files and folders of the skill that could not be read, so the hash cannot cover them (W417): no Always answer can vouch for such a skill. */
  unhashed: string[];
  /** Frontmatter as parsed, unknown keys included. */
  frontmatter: Record<string, unknown>;
  description: string;
  version: string | null;
  /** Markdown after the frontmatter. */
  body: string;
  /** Line of SKILL.md on which the body starts. */
  bodyLine: number;
  /** Whether it is a Kode prompt skill: its body takes `$ARGUMENTS` (see skills/prompt-skill.ts), worked out once, as it is parsed. */
  prompt: boolean;
  tools: Tool[];
  modes: Mode[];
  readOnly: boolean;
  /** Whether its tools' sandbox reaches a network at all (otherwise they have none, not even loopback). */
  network: boolean;
  /** Where that network leads, as `network:` declares it: host patterns (`*`: any host), or `host` (this computer's own network). */
  hosts: NetworkHosts;
  alwaysAsk: boolean;
  timeoutSec: number;
  requires: { bins: string[]; env: string[] };
  kode: KodeMetadata | null;
  classification: Classification | null;
  domain: string[];
  tags: string[];
  status: string | null;
  license: string | null;
  compatibility: string | null;
  allowedTools: string | null;
  /** What it asks of the sandbox beyond its profile: declared reads, guarded writes, more resources. */
  box: BoxRequest;
  diagnostics: Diagnostic[];
  state: SkillState;
  /** Skills with the same name in lower-precedence roots, which this one hides. */
  shadows: { dir: string; root: SkillRoot }[];
  /** For a folder of gibb.eri.sh tool packs (no SKILL.md), every pack file in it, loaded or not. */
  packs?: string[];
}

/** A tool call rendered to program + argv: what the person approves and what runs. */
export interface RenderedCommand {
  program: string;
  args: string[];
  /** Indexes in `args` of the arguments that hold a value the caller supplied; the rest is the template's own text. */
  supplied: number[];
  cwd: string;
  timeoutMs: number;
  /** Names of the variables passed to the tool beyond the allow-list (the skill's requires.env). */
  env: string[];
  skill: string;
  tool: string;
  skillHash: string;
}

/** Resource limits of one run: rlimits inside the box, and a cgroup where Skilltray can make one. */
export interface ResourceLimits {
  /** Processes (threads count too) the run may have at once. */
  processes: number;
  /** Memory of each process (its heap and private mappings), MiB; of the whole run where a cgroup applies. */
  memoryMiB: number;
  /** The largest file it may write, MiB. */
  fileSizeMiB: number;
  /** CPU time of each process, seconds. */
  cpuSeconds: number;
}

export type ResourceLimitName = keyof ResourceLimits;

export const RESOURCE_LIMIT_NAMES: readonly ResourceLimitName[] = ['processes', 'memoryMiB', 'fileSizeMiB', 'cpuSeconds'];

/** What stopped a run: one of its resource limits, or a private folder (a size-capped tmpfs in the box) that was full. */
export type LimitHit = ResourceLimitName | 'privateFolder';

/**
 * What a skill asks of the box beyond its profile (docs/skill-format.md): home files it reads
 * (`reads:`), guarded workspace entries it writes (`writes:`), and more of a resource (`limits:`).
 */
export interface BoxRequest {
  /** As written in the frontmatter, `//` and a trailing `/` aside: `~/…` (the home folder) or absolute. */
  reads: string[];
  /** Line of `reads:` in SKILL.md, where a diagnostic about an entry points (absent without entries). */
  readsLine?: number;
  /** Workspace-relative: `.git`, `.git/hooks`, `.vscode`… */
  writes: string[];
  limits: Partial<ResourceLimits>;
}

export interface RunResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  stdout: string;
  stderr: string;
  droppedBytes: { stdout: number; stderr: number };
  durationMs: number;
  /** Which resource limit stopped the run, when Skilltray can tell (docs/runner.md); absent or null otherwise. */
  limitHit?: LimitHit | null;
  /** One short plain sentence a voice client can say about the run: a tool pack with `output.speak: true` (core/skills/pack-output.ts). */
  speech?: string;
}

/** What `list` shows of a skill: enough to choose one, without its body. */
export interface SkillSummary {
  /** ADR-001's name for the skill's identifier: its name. */
  skill_id: string;
  name: string;
  version: string | null;
  description: string;
  root: { path: string; kind: RootKind };
  trust: Trust;
  /** Who the skill is: what the skill browser and approvals show next to its name. */
  identity: SkillIdentity;
  path: string;
  hash: string;
  status: SkillState;
  /** Each tool with the policy its runs go by (its own `#### Policy` or pack `policy` over the skill's). */
  tools: {
    name: string;
    description: string;
    params: ToolParam[];
    policy: { readOnly: boolean; alwaysAsk: boolean; timeoutSec: number; network: boolean; hosts: NetworkHosts };
  }[];
  diagnostics: Diagnostic[];
  shadows: { path: string; root: { path: string; kind: RootKind } }[];
  modes: Mode[];
  /** Whether its tools are offered in the current mode: the skill runs in it and is turned on in it. */
  offered: boolean;
  /** Whether the person left it on in the current mode (see `switches`). */
  enabled: boolean;
  /** The person's on/off switches of this skill: everywhere (`all`) or per mode; none means on. */
  switches: { scope: 'all' | Mode; enabled: boolean }[];
  /** Whether it is a Kode prompt skill (its body takes `$ARGUMENTS`): MCP offers it as a prompt. */
  prompt: boolean;
  readOnly: boolean;
  role: Role | null;
  invocation: Invocation | null;
  effect_mode: EffectMode | null;
  attach_targets: AttachTarget[];
  domain: string[];
  tags: string[];
  /** Discovery status (stable, experimental, …); null when the skill does not say. */
  lifecycle: string | null;
}

/** What an assistant's first look (`listBrief`, MCP's `list`) shows of a skill: enough to choose one; `describe` has the rest. */
export interface SkillBrief {
  name: string;
  /** The first sentence of its description. */
  summary: string;
  /** Its tools' names (none for a prompt skill or a guide). */
  tools: string[];
  trust: Trust;
  /** How its runs are contained, in a few words: "read-only, no network", "may write in its working directory, with network". */
  sandbox: string;
  role: Role | null;
  /** Whether its tools are offered in the current mode. */
  offered: boolean;
  /** Whether it is a Kode prompt skill, offered as an MCP prompt. */
  prompt: boolean;
}

/** A skill hidden by one of the same name in a root that comes first. */
export interface ShadowReport {
  name: string;
  winner: { path: string; root: { path: string; kind: RootKind } };
  loser: { path: string; root: { path: string; kind: RootKind } };
}

/** `check`'s verdict on one skill. */
export interface CheckReport {
  skills: { name: string; path: string; status: SkillState; diagnostics: Diagnostic[] }[];
  errors: number;
  warnings: number;
  /** Skill roots that exist but cannot be read (with why): the skills in them are neither loaded nor checked. */
  unreadable_roots: { path: string; why: string }[];
}

/** A skill root as `roots` reports it: whether it exists, why it cannot be read (null when it can), how it is watched. */
export type RootStatus = SkillRoot & { exists: boolean; unreadable: string | null; watch: RootWatch | null };
