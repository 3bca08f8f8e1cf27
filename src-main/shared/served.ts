/**
 * Skills over MCP (the Skills extension, SEP-2640, `io.modelcontextprotocol/skills`): what Skilltray
 * serves of its own skills, and what it keeps of the skills another MCP server serves it.
 * docs/mcp.md (serving) and docs/connect.md (consuming) say how they are used.
 */
import type { ErrorShape } from './errors.js';
import type { TextDiff } from './packs.js';

/** The extension's identifier, declared under `capabilities.extensions` in `initialize`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/**
 * What one skill may hold to be served or taken: files (every file counts, SKILL.md too) and bytes
 * of all of them together. The SEP leaves the bound to hosts (its threat model, T6); these are Skilltray's.
 */
export const SERVED_LIMITS = { files: 512, bytes: 16 * 1024 * 1024 } as const;

/** One file of a skill as the SEP lists it: its resource URI and `sha256:<hex>` of its bytes. */
export interface ServedResource {
  uri: string;
  digest: string;
}

/** A `skills/list` or `skills/get` entry: the URI of SKILL.md, its frontmatter as written, every file with its digest. */
export interface ServedSkillEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: ServedResource[];
}

/** One file of a served skill as `resources/read` returns it. */
export interface ServedFile {
  /** Relative to the skill's folder, `/`-separated. */
  path: string;
  mimeType: string;
  /** `utf-8` when the bytes are UTF-8 text, else `base64`. */
  encoding: 'utf-8' | 'base64';
  content: string;
  /** `sha256:<hex>` of the bytes, the digest the skill's entry lists for this file. */
  digest: string;
  size: number;
}

/** A direct child of a served skill's folder, as `resources/directory/read` lists it. */
export interface ServedDirectoryEntry {
  /** Relative to the skill's folder, `/`-separated. */
  path: string;
  name: string;
  kind: 'file' | 'directory';
}

/** How Skilltray reaches an MCP source: a command it starts (stdio) or a Streamable HTTP URL. */
export type McpSourceTransport =
  { kind: 'stdio'; command: string; args: string[]; env: Record<string, string> } | { kind: 'http'; url: string; headers: Record<string, string> };

/** The same as shown: the names of environment variables and headers, never their values (a header may hold a token). */
export type McpSourceEndpoint = { kind: 'stdio'; command: string; args: string[]; env: string[] } | { kind: 'http'; url: string; headers: string[] };

/**
 * Where a served skill stands: `approved` (loaded, its files the ones the person approved),
 * `pending` (never approved), `changed` (its files are not the approved ones: asked again, with the
 * changes), `refused` (the server serves it against the rules: `refusal` says how), `gone` (the
 * server no longer serves it).
 */
export type ServedSkillState = 'approved' | 'pending' | 'changed' | 'refused' | 'gone';

/** A file of a served skill: its path in the skill, digest and size. */
export interface ServedFileInfo {
  path: string;
  digest: string;
  size: number;
}

/** A file that differs from the approved set, with its lines when both sides are text. */
export interface ServedFileChange {
  path: string;
  change: 'added' | 'removed' | 'changed';
  diff: TextDiff | null;
}

/** One skill an MCP source serves, as the person sees it before approving it. */
export interface ServedSkillStatus {
  /** The name it is loaded under: `<source>.<skill>`. */
  name: string;
  /** Its name as the server serves it (the frontmatter's). */
  skill: string;
  /** The URI of its SKILL.md on the server. */
  uri: string;
  description: string;
  state: ServedSkillState;
  /** Why it is refused (E865–E868), when it is. */
  refusal: ErrorShape | null;
  /** Its files as served now (the approved ones while the server serves nothing valid). */
  files: ServedFileInfo[];
  /** SHA-256 over its `{uri, digest}` set: what approving it confirms (null while refused or gone). */
  digest: string | null;
  /** What differs from the set the person approved, when it is `changed`. */
  changes: ServedFileChange[];
  /** The frontmatter fields that would widen what its runs get (reads, writes, limits, network, allowed-tools), as written. */
  declares: Record<string, unknown>;
  /** Whether the person approved what it declares too; without it those fields are ignored. */
  grants: boolean;
  approvedAt: number | null;
  /** A skill of the same name from elsewhere (your own, or a local one under this very name), said in words; null when none. */
  clash: string | null;
}

/** One MCP source of skills and what it serves. */
export interface McpSourceStatus {
  /** The label the person gave it: the first part of every skill name it serves. */
  name: string;
  endpoint: McpSourceEndpoint;
  addedAt: number;
  /** When its skills were last fetched (null: never). */
  checkedAt: number | null;
  /** Why the last fetch failed as a whole (E863, E864, E868), or null. */
  error: ErrorShape | null;
  skills: ServedSkillStatus[];
}
