/**
 * The surfaces an operation can be called through, each as one adapter with the same shape:
 * operation + input in, the envelope it answered out. The contract test runs one table of
 * scenarios through all of them.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { callOperation } from '../../../src-main/core/operations.js';
import { httpTransport } from '../../../src-main/server/app-link.js';
import { startHttpServer, type RunningServer } from '../../../src-main/server/http.js';
import { MCP_TOOLS } from '../../../src-main/server/mcp-tools.js';
import type { Envelope, OperationName } from '../../../src-main/shared/contract.js';
import type { ErrorShape } from '../../../src-main/shared/errors.js';
import { cli } from '../../support/cli.js';
import { startMcp, type McpSession } from '../mcp/mcp-session.js';
import type { ContractHome } from './fixture.js';

export type SurfaceName = 'core' | 'cli' | 'http' | 'mcp';

export interface Surface {
  name: SurfaceName;
  start(home: ContractHome): Promise<void>;
  stop(): Promise<void>;
  /** Whether this surface has a way to call the operation at all. */
  supports(operation: OperationName): boolean;
  /** Why the surface has no way to call an operation it leaves out on purpose. */
  withheld?: Partial<Record<OperationName, string>>;
  call(operation: OperationName, input: Record<string, unknown>): Promise<Envelope<unknown>>;
}

/** The core's own entry point, `callOperation`, where nobody can be asked (as the Electron main process would call it, minus the tray). */
export function coreSurface(): Surface {
  let core: SkilltrayCore | undefined;
  let home: ContractHome | undefined;
  return {
    name: 'core',
    async start(h) {
      home = h;
      core = new SkilltrayCore(h.config());
    },
    async stop() {
      await core?.close();
    },
    supports: () => true,
    call: (operation, input) =>
      callOperation(core as SkilltrayCore, operation, input, {
        surface: 'ui',
        caller: { kind: 'person' },
        cwd: (home as ContractHome).work,
        approval: { kind: 'none' },
        owner: 'app',
        version: '0.0.0-test',
      }),
  };
}

type Argv = (input: Record<string, unknown>) => string[];

const text = (value: unknown): string[] => (value === undefined ? [] : [String(value)]);
const option = (name: string, value: unknown): string[] => (value === undefined ? [] : [`--${name}`, String(value)]);

/** The `skilltray` command line for each operation it has a command for, with `--json`. */
const CLI_ARGV: Partial<Record<OperationName, Argv>> = {
  list: () => ['list'],
  describe: (i) => ['describe', ...text(i.skill)],
  run: (i) => ['run', ...text(i.skill), ...text(i.tool), ...option('args', i.args === undefined ? undefined : JSON.stringify(i.args)), ...option('cwd', i.cwd)],
  outline: (i) => ['outline', ...text(i.skill), ...option('level', i.level)],
  show: (i) => ['show', ...text(i.skill), ...option('section', i.section), ...option('file', i.file), ...option('max-lines', i.max_lines)],
  open: (i) => ['open', ...text(i.skill), ...text(i.path), ...option('max-lines', i.max_lines)],
  sources: (i) => [
    'sources',
    ...text(i.skill),
    ...option('depth', i.depth),
    ...option('dir', i.dir),
    ...option('limit', i.limit),
    ...option('pattern', i.pattern),
  ],
  search: (i) => ['search', ...text(i.skill), ...text(i.query), ...option('limit', i.limit)],
  searchAll: (i) => ['search', '--all', ...text(i.query), ...option('limit', i.limit)],
  discover: (i) => ['discover', ...text(i.intent), ...option('role', i.role_filter), ...option('limit', i.limit)],
  connectAssistant: (i) => ['connect', ...text(i.client), ...(i.dry_run ? ['--dry-run'] : [])],
  disconnectAssistant: (i) => ['disconnect', ...text(i.client), ...(i.dry_run ? ['--dry-run'] : [])],
  attach: (i) => [
    'attach',
    ...text(i.skill_id),
    ...option('target-type', i.target_type),
    ...option('target-ref', i.target_ref),
    ...option('tool', i.tool),
    ...option('args', i.inputs === undefined ? undefined : JSON.stringify(i.inputs)),
    ...option('cwd', i.cwd),
  ],
};

/** `skilltray <command> … --json` in this process, not interactive (nobody at a terminal to ask). */
export function cliSurface(): Surface {
  let home: ContractHome | undefined;
  return {
    name: 'cli',
    async start(h) {
      home = h;
    },
    async stop() {},
    supports: (operation) => CLI_ARGV[operation] !== undefined,
    async call(operation, input) {
      const argv = (CLI_ARGV[operation] as Argv)(input);
      const outcome = await cli([...argv, '--json'], home as ContractHome, { cwd: (home as ContractHome).work });
      const json = JSON.parse(outcome.stdout) as unknown;
      if (outcome.code !== 0 && typeof json === 'object' && json !== null && 'error' in json)
        return { ok: false, error: (json as { error: ErrorShape }).error };
      return { ok: true, value: json };
    },
  };
}

/**
 * The loopback HTTP API as the owner of runs (`startHttpServer` over its own core of the home),
 * called with `httpTransport` as the CLI and the MCP bridge call it. A run that needs approval
 * waits for the person here; `approvalTimeoutMs` is how long.
 */
export function httpSurface(approvalTimeoutMs: number): Surface {
  let core: SkilltrayCore | undefined;
  let server: RunningServer | undefined;
  return {
    name: 'http',
    async start(h) {
      core = new SkilltrayCore(h.config(), { autoBuild: true });
      server = await startHttpServer({ core, owner: 'serve', version: '0.0.0-test', port: 0, approvalTimeoutMs });
    },
    async stop() {
      await server?.close();
      await core?.close();
    },
    supports: () => true,
    call(operation, input) {
      const running = server as RunningServer;
      return httpTransport(running.url, running.token())(operation, input);
    },
  };
}

/** A real MCP client over stdio to `node bin/skilltray.js mcp`, with the home's environment. */
export function mcpSurface(): Surface {
  let session: McpSession | undefined;
  return {
    name: 'mcp',
    async start(h) {
      session = await startMcp(h.env, { cwd: h.work, keep: true });
    },
    async stop() {
      await session?.close();
    },
    supports: (operation) => MCP_TOOLS.some((tool) => tool.operation === operation),
    withheld: {
      list: "an assistant's first look is the brief list (its `list` tool is listBrief); the full records are for people",
      connectAssistant: "an assistant does not write an assistant's config: the person connects one from the app or the CLI",
      disconnectAssistant: "an assistant does not write an assistant's config: the person disconnects one from the app or the CLI",
    },
    async call(operation, input) {
      const tool = MCP_TOOLS.find((t) => t.operation === operation);
      const result = (await (session as McpSession).client.callTool({ name: (tool as { name: string }).name, arguments: input })) as CallToolResult;
      const structured = result.structuredContent as Record<string, unknown>;
      // The text an assistant reads holds the same data as the structured content.
      const first = result.content[0] as { type: string; text: string };
      const json = result.isError ? first.text.slice(first.text.indexOf('\n\n{') + 2) : first.text;
      if (JSON.stringify(JSON.parse(json)) !== JSON.stringify(structured)) throw new Error(`${operation}: text and structured content differ`);
      if (result.isError) return { ok: false, error: (structured as { error: ErrorShape }).error };
      const keys = Object.keys(structured);
      return { ok: true, value: keys.length === 1 && keys[0] === 'results' ? structured.results : structured };
    },
  };
}
