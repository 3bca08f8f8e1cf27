/**
 * The MCP bridge: Skilltray's operations as MCP tools and its skills as MCP resources, over
 * whatever `call` executes an operation (the app that owns runs, or a core in this process).
 * Thin by design: every tool is one contract operation; validation, policy, approval and errors
 * are the core's, and come back as data.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { OperationName, OperationOutputs } from '../shared/contract.js';
import type { ErrorShape } from '../shared/errors.js';
import { gatewayErrors } from '../shared/error-messages/gateway.js';
import { nearestNames } from '../core/facade.js';
import { MCP_TOOLS, errorText, findTool, toolDefinition, toolResult } from './mcp-tools.js';
import { rootsCwd } from './mcp-roots.js';
import { ProtocolError, protocolError as toProtocolError } from './mcp-errors.js';
import type { OperationCall } from './mcp-executor.js';
import { registerSkillsExtension } from './mcp-skills.js';

export interface McpBridgeOptions {
  /** Skilltray's version, reported as the server's. */
  version: string;
  call: OperationCall;
  /** How often a call still working tells a client that asked for progress (keeps its request timeout from firing). */
  progressIntervalMs?: number;
}

/** URI scheme of skills and their files. */
export const SKILL_URI_PREFIX = 'skilltray://skills/';

/** MCP's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

/** Codes that mean "there is no such thing", answered as MCP's resource-not-found. */
const NOT_FOUND = new Set(['E001', 'E010', 'E021', 'E022']);

const INSTRUCTIONS =
  'Skilltray hosts skills (SKILL.md) on this computer and runs their tools for you once the person at the desktop allows it. ' +
  'Find skills with discover (ranked candidates for a job) or list; learn a skill with describe, outline, show, search or ' +
  'the skilltray://skills/<name> resources; then run a tool. A run may wait for the person to approve it in the Skilltray ' +
  'tray. Prompt skills (such as commit-message) are MCP prompts. Errors come back as error[CODE]: message with a ' +
  'structured error; relay refusals (E6xx) to the user as they are.';

/** The one argument of a prompt skill: the text its body's `$ARGUMENTS` becomes. */
const PROMPT_ARGUMENT = {
  name: 'arguments',
  description: "what the skill's $ARGUMENTS become: notes, a target, anything the prompt asks for (may be left out)",
  required: false,
};

/** A failed envelope as a JSON-RPC error, for requests (resource reads) that have no error result: not-found codes as MCP's resource-not-found. */
function protocolError(shape: ErrorShape): ProtocolError {
  return toProtocolError(shape, { codes: NOT_FOUND, as: RESOURCE_NOT_FOUND });
}

/** The URI of a skill's SKILL.md, or of one of its files. */
export function skillUri(name: string, path?: string): string {
  const base = `${SKILL_URI_PREFIX}${encodeURIComponent(name)}`;
  return path === undefined ? base : `${base}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** One URI template variable, percent-decoded. */
function variable(value: string | string[] | undefined, name: string): string {
  const raw = Array.isArray(value) ? value.join(',') : (value ?? '');
  try {
    return decodeURIComponent(raw);
  } catch {
    throw protocolError(gatewayErrors.invalidResourceUri(name, raw).toJSON());
  }
}

function mimeType(file: string, encoding: OperationOutputs['open']['encoding']): string {
  if (encoding === 'base64') return 'application/octet-stream';
  return /\.(md|markdown)$/i.test(file) ? 'text/markdown' : 'text/plain';
}

/** Sends `notifications/progress` while a call runs, when the client gave a progress token; returns the stopper. */
function keepAlive(extra: RequestHandlerExtra<ServerRequest, ServerNotification>, intervalMs: number): () => void {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return () => undefined;
  let progress = 0;
  const timer = setInterval(() => {
    progress += 1;
    const message = 'still working: a run may be waiting for the person to approve it in Skilltray, or still running';
    extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, message } }).catch(() => undefined);
  }, intervalMs);
  return () => clearInterval(timer);
}

/** The MCP server for Skilltray: tools from MCP_TOOLS, skills and their files as resources, prompt skills as prompts. */
export function createMcpServer(options: McpBridgeOptions): McpServer {
  const { call } = options;
  const progressIntervalMs = options.progressIntervalMs ?? 10_000;
  const mcp = new McpServer({ name: 'skilltray', title: 'Skilltray', version: options.version }, { instructions: INSTRUCTIONS });

  /** Calls an operation whose result a resource needs, throwing its error as a JSON-RPC error. */
  async function value<K extends OperationName>(operation: K, input: unknown, signal: AbortSignal): Promise<OperationOutputs[K]> {
    const envelope = await call(operation, input, signal);
    if (!envelope.ok) throw protocolError(envelope.error);
    return envelope.value as OperationOutputs[K];
  }

  async function readFile(uri: URL, skill: string, path: string, signal: AbortSignal): Promise<ReadResourceResult> {
    const file = await value('open', { skill, path }, signal);
    const mime = mimeType(file.file, file.encoding);
    return {
      contents: [file.encoding === 'base64' ? { uri: uri.href, mimeType: mime, blob: file.content } : { uri: uri.href, mimeType: mime, text: file.content }],
    };
  }

  // Tools are served on the underlying Server rather than with registerTool: the SDK would validate
  // arguments itself and answer bad input with its own unstructured text. Here the contract's schema
  // is what tools/list shows, and callOperation validates with it, so bad input is E805 as data,
  // with the same message as on every other surface.
  mcp.server.registerCapabilities({ tools: { listChanged: false } });
  const withCwd = rootsCwd(mcp.server);
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: MCP_TOOLS.map(toolDefinition) }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = findTool(request.params.name);
    if (!tool) {
      const names = MCP_TOOLS.map((t) => t.name);
      const error = gatewayErrors.mcpToolNotFound(request.params.name, names, nearestNames(request.params.name, names));
      throw new ProtocolError(ErrorCode.InvalidParams, errorText(error.toJSON()), { error: error.toJSON() });
    }
    const stop = keepAlive(extra, progressIntervalMs);
    try {
      return toolResult(await call(tool.operation, await withCwd(tool.operation, request.params.arguments ?? {}), extra.signal));
    } finally {
      stop();
    }
  });

  // Kode prompt skills as MCP prompts, listed from the skills offered now, rendered by `resolve`.
  mcp.server.registerCapabilities({ prompts: { listChanged: true } });
  async function prompts(signal: AbortSignal): Promise<Prompt[]> {
    const { skills: summaries } = await value('list', { offered_only: true }, signal);
    return summaries
      .filter((s) => s.prompt && s.status !== 'error')
      .map((s) => ({ name: s.name, title: s.name, description: s.description, arguments: [PROMPT_ARGUMENT] }));
  }
  mcp.server.setRequestHandler(ListPromptsRequestSchema, async (_request, extra) => ({ prompts: await prompts(extra.signal) }));
  mcp.server.setRequestHandler(GetPromptRequestSchema, async (request, extra): Promise<GetPromptResult> => {
    const { name, arguments: given } = request.params;
    const prompt = (await prompts(extra.signal)).find((p) => p.name === name);
    if (!prompt) {
      const error = gatewayErrors.promptNotFound(name);
      throw new ProtocolError(ErrorCode.InvalidParams, error.format(), { error: error.toJSON() });
    }
    const text = given?.arguments;
    const { prompt: rendered } = await value('resolve', { skill: name, args: text === undefined || text === '' ? [] : [text] }, extra.signal);
    return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text: rendered } }] };
  });

  const skills = new ResourceTemplate(`${SKILL_URI_PREFIX}{name}`, {
    list: async (extra) => {
      const { skills: summaries } = await value('list', {}, extra.signal);
      return {
        resources: summaries.map((s) => ({ uri: skillUri(s.name), name: s.name, title: s.name, description: s.description, mimeType: 'text/markdown' })),
      };
    },
  });
  mcp.registerResource(
    'skill',
    skills,
    { title: 'Skill', description: "A skill's SKILL.md: its description, instructions and tools.", mimeType: 'text/markdown' },
    (uri, variables, extra) => readFile(uri, variable(variables.name, 'name'), 'SKILL.md', extra.signal),
  );

  // Files are read on demand, never listed: a skill may hold many, and sources lists them.
  const files = new ResourceTemplate(`${SKILL_URI_PREFIX}{name}/{+path}`, { list: undefined });
  mcp.registerResource(
    'skill-file',
    files,
    { title: 'Skill file', description: "A file inside a skill's directory, by its path relative to it (references, scripts, templates)." },
    (uri, variables, extra) => readFile(uri, variable(variables.name, 'name'), variable(variables.path, 'path'), extra.signal),
  );

  registerSkillsExtension(mcp, call);
  return mcp;
}
