/**
 * The MCP tools: one per contract operation an assistant needs, each with the words it reads to
 * choose (descriptions are the assistant's whole manual), the contract's input schema as JSON
 * Schema, and the operation's envelope turned into a tool result. No rule of Skilltray lives here.
 */
import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { SkilltrayClientError, type Envelope, type OperationName } from '../shared/contract.js';
import { inputJsonSchema } from './input-schema.js';
import type { ErrorShape } from '../shared/errors.js';
import { withDidYouMean } from '../shared/did-you-mean.js';
import { toSkilltrayError } from '../shared/skilltray-error.js';
import { formatSectionNotFound } from '../shared/section-text.js';

/** One MCP tool and the contract operation it calls. */
export interface McpToolSpec {
  name: string;
  operation: OperationName;
  title: string;
  description: string;
  /** A description for each property of the operation's input schema. */
  properties: Record<string, string>;
  annotations: ToolAnnotations;
}

const READS: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
/** A run executes a program the person allowed; Skilltray cannot promise what a user's tool does. */
const RUNS: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

const skillName = "the skill's name, as list or discover give it";
const skillRef = "the skill's name, as list shows it";
const maxLines = 'return at most this many lines';

const APPROVAL =
  'When the person has not allowed this tool to run without asking, the call WAITS until they approve or deny it in the Skilltray ' +
  'tray (minutes, not seconds): a denial returns E603, no answer in time E604, and E601 when nobody can be asked because the ' +
  'Skilltray app (or `skilltray serve`) is not running. A rule can refuse outright (E602); runs can be paused (E608).';

/** Every tool the bridge offers, in the order tools/list shows them. */
export const MCP_TOOLS: readonly McpToolSpec[] = [
  {
    name: 'list',
    operation: 'listBrief',
    title: 'List skills',
    description:
      "List the skills Skilltray hosts, in brief: for each, its name, one line about it, its tools' names, its trust (bundled or " +
      'user), how its runs are contained (read-only or writing in their folder; network or not), its role and whether its tools ' +
      "are offered in the current mode. Call describe for a skill's tools, parameters and examples before run. Filter by domain, " +
      'role or classification status; page with offset and limit. To find skills for a job, use discover instead.',
    properties: {
      domain: 'only skills of this domain',
      role: 'only skills with this role: procedure (solves a job end to end), utility (a building block) or sidecar (attached to a target)',
      status: 'only skills with this classification status (stable, experimental, …)',
      offered_only: 'only skills whose tools are offered in the current mode (Global, Dev or Meeting)',
      offset: 'skip this many skills',
      limit: 'return at most this many skills',
    },
    annotations: READS,
  },
  {
    name: 'describe',
    operation: 'describe',
    title: 'Describe a skill',
    description:
      'One skill in full: frontmatter, instructions (body), every tool with its parameters, command template and examples, ' +
      'requirements, classification and diagnostics. Read it before run to learn how a tool is called.',
    properties: { skill: skillName },
    annotations: READS,
  },
  {
    name: 'discover',
    operation: 'discover',
    title: 'Discover skills for a job',
    description:
      'Which skills could do this job? Returns ranked candidates, best first, each with a score and a relevance (both 0 to 1), its role and effect_mode, the ' +
      'reason it ranked there and the tools it offers. They are hints, not a decision: choose among them under your own policy ' +
      "and the user's instructions; nothing is run. Procedures rank above utilities that match as well; sidecars appear only with " +
      "role_filter 'sidecar' (they are used through attach). 'also' names better matches of a role left out (a sidecar to attach). " +
      'A result with errors can be read (describe, show) but its tools do not run.',
    properties: {
      intent: "the job to be done, in words (e.g. 'how full is my disk')",
      domain: 'only skills of this domain, or of any of these domains',
      role_filter: "only this role; 'utility' asks for building blocks, 'sidecar' for skills to attach",
      limit: 'return at most this many candidates',
    },
    annotations: READS,
  },
  {
    name: 'run',
    operation: 'run',
    title: 'Run a tool of a skill',
    description:
      "Run one tool of a skill with named arguments. Skilltray renders the tool's command into a program and its arguments " +
      "(never a shell), applies the person's policy, runs it bounded (timeout, output cap, filtered environment) and records it. " +
      `${APPROVAL} The result has the exit code, stdout, stderr, duration and the run id (and, for a tool pack with output.speak, speech: a sentence to say); a non-zero exit code is a result ` +
      'of the program, not an error of the call. Bad arguments are refused before anything runs (E5xx).',
    properties: {
      skill: skillName,
      tool: "the tool's name within the skill",
      args: "named arguments, as the tool's Parameters table says (names and types are in list and describe); omit when it takes none",
      cwd: 'working directory: an existing absolute directory (default: your first root; without one the tool gets an empty folder of its own, never your home)',
      trace_id: 'your own trace id, recorded with the run',
      channel:
        "'voice' when you ask on something the person said aloud (a voice turn): a tool that may write then always waits for the person, who answers with the request's spoken code",
    },
    annotations: RUNS,
  },
  {
    name: 'attach',
    operation: 'attach',
    title: 'Attach a skill to a target',
    description:
      'Apply a skill (typically a sidecar that audits, observes or checks) to a target of your workflow: a task, run, output, ' +
      'transcript or artifact, named by target_ref. Skilltray first checks that the skill may be attached to that kind of ' +
      'target (E801, with the reason in details.reason, when it may not), then runs its tool as run does. ' +
      `${APPROVAL}`,
    properties: {
      skill_id: 'the skill to attach',
      tool: 'which of its tools to run (may be left out when the skill has exactly one)',
      target_type: 'what kind of target this is; the skill must list it in its attach_targets',
      target_ref: 'the target itself: an id, a path or a reference the skill understands',
      inputs: 'further named arguments of the tool, as its Parameters table says',
      cwd: 'working directory the tool runs in, and so what a relative target path means: an existing absolute directory (default: your first root; without one the tool gets an empty folder of its own, never your home)',
      trace_id: 'your own trace id, recorded with the run',
    },
    annotations: RUNS,
  },
  {
    name: 'outline',
    operation: 'outline',
    title: "Outline a skill's documentation",
    description: "The headings of a skill's markdown files (file, level, text, line), to find the section to read with show.",
    properties: { skill: skillRef, level: 'only headings of level 1 to this level' },
    annotations: READS,
  },
  {
    name: 'show',
    operation: 'show',
    title: 'Show a section',
    description:
      "Read one section of a skill's documentation, found by its heading (case-insensitive). An unknown heading returns E020 " +
      'with suggestions of similar headings in details.suggestions.',
    properties: {
      skill: skillRef,
      section: 'the heading of the section',
      file: "only look in this file (path relative to the skill's directory)",
      max_lines: maxLines,
    },
    annotations: READS,
  },
  {
    name: 'open',
    operation: 'open',
    title: 'Open a file of a skill',
    description:
      "Read one file of a skill as it is (references, scripts, templates), by its path relative to the skill's directory. " +
      "A path that leaves the skill's directory is refused (E012); a missing file is E021. Binary files come back in base64.",
    properties: { skill: skillRef, path: "the file's path relative to the skill's directory, e.g. references/api.md", max_lines: maxLines },
    annotations: READS,
  },
  {
    name: 'sources',
    operation: 'sources',
    title: "List a skill's files",
    description: "A skill's files as a tree, directories first, to find what open can read.",
    properties: {
      skill: skillRef,
      depth: 'expand directories this many levels deep',
      dir: 'list only this subdirectory',
      limit: 'return at most this many entries (default 100)',
      pattern: 'only files whose name matches this glob, e.g. *.md',
    },
    annotations: READS,
  },
  {
    name: 'search',
    operation: 'search',
    title: 'Search one skill',
    description:
      'Full-text search in one skill: its tools that match first (name, one line, parameters), then sections titled by the ' +
      'heading they sit under, each with a plain-text snippet (matches marked [MATCH]…[/MATCH]) and a score from 0 to 1. Read a ' +
      'section with show; run a tool with run.',
    properties: { skill: skillRef, query: 'the words to look for', limit: 'return at most this many results (default 10)' },
    annotations: READS,
  },
  {
    name: 'search_all',
    operation: 'searchAll',
    title: 'Search every skill',
    description:
      'Full-text search over every loaded skill at once: the tools that match first (name, one line, parameters), then sections, ' +
      'each naming its skill and file, with a plain-text snippet (matches marked [MATCH]…[/MATCH]) and a score from 0 to 1. Use ' +
      'it when you do not know which skill documents something.',
    properties: {
      query: 'the words to look for',
      limit: 'return at most this many results (default 10)',
      prefix: 'treat the last word as a prefix (search as you type)',
    },
    annotations: READS,
  },
];

/** The tool by its MCP name. */
export function findTool(name: string): McpToolSpec | undefined {
  return MCP_TOOLS.find((tool) => tool.name === name);
}

/** The operation's input schema as JSON Schema, each property carrying the tool's description of it. */
export function toolInputSchema(spec: McpToolSpec): Tool['inputSchema'] {
  const schema = inputJsonSchema(spec.operation);
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [name, property] of Object.entries(properties)) {
    const description = spec.properties[name];
    if (description !== undefined) property.description = description;
  }
  return { ...schema, type: 'object', properties };
}

/** The tools/list entry of a tool. */
export function toolDefinition(spec: McpToolSpec): Tool {
  return { name: spec.name, title: spec.title, description: spec.description, inputSchema: toolInputSchema(spec), annotations: spec.annotations };
}

/** `error[E020]: …` as the CLI prints it (with suggestions, "did you mean …", where there are some), for an assistant to relay. */
export function errorText(shape: ErrorShape): string {
  const error = toSkilltrayError(new SkilltrayClientError(shape));
  return error.code === 'E020' ? formatSectionNotFound(error) : withDidYouMean(error.format(), error.details);
}

/**
 * An envelope as a tool result: the value (an array wrapped as `{ results }`, since structured
 * content is an object) as structuredContent and as JSON text; an error as `isError` with the
 * structured error, its text starting with `error[CODE]: message`.
 */
export function toolResult(envelope: Envelope<unknown>): CallToolResult {
  if (!envelope.ok) {
    const structured = { error: envelope.error };
    return {
      isError: true,
      content: [{ type: 'text', text: `${errorText(envelope.error)}\n\n${JSON.stringify(structured, null, 2)}` }],
      structuredContent: structured,
    };
  }
  const structured = (Array.isArray(envelope.value) ? { results: envelope.value } : envelope.value) as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }], structuredContent: structured };
}
