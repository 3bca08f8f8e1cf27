/**
 * The OpenAPI 3.1 description of the loopback API, generated from the contract: one `POST
 * /api/<operation>` per operation with its request body from the zod input schema, the Envelope as
 * every response, bearer authentication, and the event stream.
 */
import { OPERATIONS, type OperationName } from '../shared/contract.js';
import { inputJsonSchema } from './input-schema.js';
import { ERROR_KINDS } from '../shared/errors.js';

/** What each operation does, as a client reads it in the document. */
const SUMMARIES: Record<OperationName, string> = {
  list: 'Skills, filtered and paged as ADR-001 list (domain, role, classification status, offered in the mode)',
  listBrief: "The same list in brief (name, one line, tool names, trust, sandbox): an assistant's first look; describe has the rest",
  describe: 'One loaded skill: frontmatter, classification, tools, requirements, diagnostics',
  check: 'Diagnostics of a skill, a skill directory or a directory of skills',
  roots: 'The skill roots in precedence order, and whether each exists',
  doctor:
    "What this machine has for Skilltray, each finding with the line that fixes it: containment (bubblewrap, user namespaces, AppArmor, seccomp, cgroups), the roots and how each is watched, the assistants and whether each one's entry works, voice, Node",
  resolve: "A Kode prompt skill's body with $ARGUMENTS filled in",
  run: 'Runs a tool. When policy asks a person, the request waits until they answer in the app (or the approval times out: E604); a denial is 409 E603',
  dryRun: 'The rendered program + argv and what policy would decide; nothing runs or is recorded',
  cancelRun: 'Cancels a running run or withdraws one waiting for approval',
  history: 'Recorded runs, newest first',
  getRun: 'One recorded run with its output',
  approvals: 'Runs waiting for the person at the desktop, oldest first',
  answerApproval:
    "Answers a pending approval: once, always (remembered until revoked, or for this session with expires: session; in the run's folder, or in any folder with scope: anywhere, which only read-only runs offer) or deny",
  rules: 'Allow and deny rules',
  addRule: 'Adds an allow or deny rule (skill:<glob>, skill:*, tool:<skill>/<tool>)',
  removeRule: 'Removes a rule',
  remembered: 'Tools the person chose to always allow',
  revokeRemembered: 'Revokes a remembered approval: the tool asks again',
  sandbox: 'Which sandbox contains runs here (bubblewrap, seatbelt or none, and why), and the skills the person runs unsandboxed',
  setSkillSandbox: 'Takes a skill out of the sandbox (sandboxed: false; its runs then ask) or puts it back',
  settings: 'Mode and pause state',
  setMode: 'Switches mode (Global, Dev, Meeting)',
  setPaused: 'Pauses or resumes every run',
  setPaletteShortcut: "Sets the desktop app's global shortcut for the command palette ('' for none)",
  setRetention: 'Sets history retention: days of run output kept, and MiB of output in all (records are always kept)',
  setLimitCeiling: 'Sets the most of each resource (processes, memory, file size, CPU time) a skill may ask for in its limits',
  historyUsage: 'What history holds: runs, stored output, state.db size and free space, and the last maintenance pass',
  maintainHistory: 'Applies retention and vacuums state.db now (the owner also does it hourly)',
  notices: 'Notices not yet dismissed (a damaged state.db recovered: E901, or with rules lost: E902)',
  dismissNotice: 'Dismisses a notice',
  outline: "A skill's headings (RFC-0002 outline)",
  show: 'One section of a skill (RFC-0002 show)',
  open: 'One file of a skill (RFC-0002 open)',
  sources: "A skill's file tree (RFC-0002 sources)",
  search: 'Search one skill: its tools first, then sections, as plain text with the matches marked',
  searchAll: 'Search every loaded skill: tools first, then sections, as plain text with the matches marked',
  build: "Builds a skill's search index",
  stats: "A skill's access statistics",
  discover:
    'Skills ranked for an intent (ADR-001 discover): candidates for the caller to choose from under its own policy, and in `also` better matches of a role left out',
  attach: 'Applies a sidecar skill to a target (ADR-001 attach): validated first (E801), then run like `run`, approval included',
  setSkillEnabled: 'Turns a skill on or off, everywhere or in one mode; a skill turned off is not offered and its runs are refused (E618)',
  packs: 'Installed packs: source, ref, resolved commit, signature, skills, files changed behind the lock',
  scanPack:
    'Fetches and scans a pack source without installing it: skills, tools with their sandbox profile and network claim, scripts, findings, and the digest to confirm',
  installPack: 'Installs a scanned pack once confirmed with its report digest (E304/E310), refusing high findings without force (E303) and name clashes (E305)',
  checkPackUpdate: 'Fetches a pack again and says what an update would change, tool by tool',
  updatePack: 'Updates a pack once confirmed with its report digest; remembered approvals of changed skills are revoked',
  uninstallPack: 'Removes a pack: files, lock entry, search indexes, remembered approvals; history stays',
  assistants:
    'The MCP clients Skilltray connects (Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Zed, goose, Codex): config file, found or not, connected or not; with test, whether each connection completes an MCP handshake',
  connectAssistant:
    "Adds Skilltray to a client's config file, checked with an MCP handshake first; dry_run returns only the diff. Other servers, comments and formatting are kept; a backup is written beside the file",
  disconnectAssistant: "Removes exactly Skilltray's entry from a client's config file; dry_run returns only the diff",
  testAssistant: 'Starts what connect writes for a client (or calls its /mcp URL) and completes an MCP initialize and tools/list',
  assistantView:
    'What one client sees now: its entry (with test, the handshake and the MCP tools it lists), the credential it holds and the assistant name that makes it, the skills and tools offered to it as `list` answers an assistant, and its latest runs',
  projects:
    'Project folders whose skills (.claude/skills, .agents/skills) the person trusts: trusted while those skills are what the person confirmed, else changed',
  inspectProject: "A project folder's skills now, and the digest that trusting them pins",
  trustProject:
    "Trusts a project folder's skills as the person saw them (confirm: inspectProject's digest; E856 when they changed since); they load as user-trust roots after every other root",
  untrustProject: 'Stops trusting a project folder: its skills are no longer loaded',
  servedSkills:
    'Skills over MCP (SEP-2640), served: a page of skills/list entries (uri, frontmatter as written, every file with its sha256 digest) for the enabled skills offered now',
  servedSkill: "One served skill's skills/get entry (E001 for a skill not served; E868 past 512 files or 16 MiB)",
  servedFile: 'One file of a served skill, with its digest: what resources/read of its skill:// URI returns (E012 for a path that leaves the skill)',
  servedDirectory: "The direct children of a served skill's folder ('' for its own): what resources/directory/read returns",
  mcpSources: 'The MCP servers added as sources of skills, and each skill they serve: approved, pending, changed (with what changed), refused or gone',
  addMcpSource:
    'Adds an MCP server that declares the Skills extension as a source of skills, by the command that starts it or its URL; its skills are fetched and verified at once and wait for approval',
  removeMcpSource: 'Removes an MCP source with its cached files and approvals; its skills are no longer loaded',
  refreshMcpSources: "Fetches the sources' skills again; a skill whose files changed is taken out until it is approved again",
  approveServedSkill:
    'Approves a served skill as the person saw it (confirm: its digest; E867 when it changed since); grants also honours what it declares (reads, writes, limits, network, allowed-tools)',
  health: 'Who owns runs for this home: version, pid, home, owner, settings, pending approvals',
  voice: "The person's voice settings, and whether this computer can hear spoken answers and speak prompts",
  setVoice: 'Turns spoken prompts and voice answers on or off, and sets the hotkeys that answer the newest request (person only)',
  answerApprovalByVoice:
    "Answers a pending approval with a recording (base64 16 kHz mono WAV): 'run <code>', 'always <code>', 'deny' or 'cancel'; anything not heard with confidence, or with another code, does nothing (person only)",
  answerNewestApproval: 'Run or deny the newest pending approval, as a hotkey does: a writing tool runs on a second press within 2 s (person only)',
  speak: 'Says a text aloud on the computer that owns runs (person only)',
};

/** Operations that may wait for a person. */
const WAITS: readonly OperationName[] = ['run', 'attach'];

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } });

const EVENT_TYPES = [
  'approval.added',
  'approval.resolved',
  'run',
  'skills.changed',
  'index.progress',
  'settings',
  'policy.changed',
  'notice',
  'notice.dismissed',
];

/** The OpenAPI 3.1 document of this server. */
export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const operation of OPERATIONS) {
    paths[`/api/${operation}`] = {
      post: {
        operationId: operation,
        summary: SUMMARIES[operation],
        requestBody: { required: true, content: { 'application/json': { schema: inputJsonSchema(operation) } } },
        responses: {
          200: {
            description: `The result, as OperationOutputs['${operation}'] in src-main/shared/contract.ts`,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/OkEnvelope' } } },
          },
          400: errorResponse('Invalid request: not JSON, not application/json, or rejected by the input schema (E805)'),
          401: errorResponse('Missing or wrong bearer token (E802)'),
          403: errorResponse('Host or Origin is not this loopback server (E803)'),
          404: errorResponse('No such operation (E806), or the named skill, section, file, run, approval or rule does not exist'),
          405: errorResponse('Method other than POST (E808)'),
          ...(WAITS.includes(operation)
            ? {
                409: errorResponse(
                  'A refusal to relay to whoever asked: approval required, denied, timed out, not offered, paused, requirements missing, skill changed, attach invalid',
                ),
              }
            : {}),
          413: errorResponse('Body larger than 1 MiB (E804)'),
          422: errorResponse('The operation failed for another reason; the error says which'),
          500: errorResponse('Internal error (E999)'),
        },
      },
    };
  }
  paths['/api/events'] = {
    get: {
      operationId: 'events',
      summary: `Server-sent events: every core event as \`event: <type>\\ndata: <json>\\n\\n\` (${EVENT_TYPES.join(', ')}), and a \`:\` comment heartbeat every 15 s. Authenticate with the Authorization header (read it with fetch streaming, not EventSource).`,
      responses: {
        200: { description: 'An endless event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
        401: errorResponse('Missing or wrong bearer token (E802)'),
        403: errorResponse('Host or Origin is not this loopback server (E803)'),
      },
    },
  };
  paths['/api/identify'] = {
    get: {
      operationId: 'identify',
      summary:
        'Proves this server holds the token without sending it, so a client can check it before sending the token: value is {app: "skilltray", proof: HMAC-SHA256(token, nonce) in hex}, and nothing else. No token needed.',
      security: [],
      parameters: [
        { name: 'nonce', in: 'query', required: true, description: 'A fresh random challenge', schema: { type: 'string', pattern: '^[0-9a-f]{32}$' } },
      ],
      responses: {
        200: {
          description: 'The proof',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['ok', 'value'],
                properties: {
                  ok: { const: true },
                  value: {
                    type: 'object',
                    required: ['app', 'proof'],
                    properties: { app: { const: 'skilltray' }, proof: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
                  },
                },
              },
            },
          },
        },
        400: errorResponse('No nonce, or not 32 lowercase hex digits (E805)'),
        403: errorResponse('Host or Origin is not this loopback server (E803)'),
      },
    },
  };
  paths['/openapi.json'] = {
    get: {
      operationId: 'openapi',
      summary: 'This document (no token needed: it holds no data)',
      security: [],
      responses: { 200: { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Skilltray loopback API',
      version,
      description:
        'The API of the process that owns runs (the Skilltray app or `skilltray serve`), on 127.0.0.1 only. ' +
        'Every /api route but /api/identify needs `Authorization: Bearer <token>` (the token is in <home>/token). Every /api response body is an Envelope.',
    },
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'The token kept in <home>/token (32 random bytes, base64url)' } },
      schemas: {
        Error: {
          type: 'object',
          required: ['code', 'kind', 'message'],
          properties: {
            code: { type: 'string', enum: Object.keys(ERROR_KINDS) },
            kind: { type: 'string', enum: [...new Set(Object.values(ERROR_KINDS))] },
            message: { type: 'string' },
            details: { type: 'object' },
          },
        },
        OkEnvelope: { type: 'object', required: ['ok', 'value'], properties: { ok: { const: true }, value: {} } },
        ErrorEnvelope: { type: 'object', required: ['ok', 'error'], properties: { ok: { const: false }, error: { $ref: '#/components/schemas/Error' } } },
      },
    },
  };
}
