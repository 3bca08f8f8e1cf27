/**
 * The contract's operations mapped onto the core facade, once: HTTP and Electron IPC validate a
 * payload, call `callOperation`, and send back the envelope. Unknown operations (E806), invalid
 * payloads (E805) and every SkilltrayError come back as data; nothing else crosses the boundary.
 */
import type { z } from 'zod';
import { inputs, type Caller, type Envelope, type Health, type OperationName, type OperationOutput } from '../shared/contract.js';
import type { Skill } from '../shared/model.js';
import type { RunRecord, Surface } from '../shared/runs.js';
import type { SkilltrayCore } from './api.js';
import { gatewayErrors } from '../shared/error-messages/gateway.js';
import { policyErrors } from '../shared/error-messages/policy.js';
import { runnerErrors } from '../shared/error-messages/runner.js';
import { refusal } from './authority.js';
import { MAX_INPUT_DEPTH, nestsDeeperThan, shallowArguments } from './input-depth.js';
import type { Approver } from './runs/run-service.js';
import { assistantView } from './services/assistant-view.js';

/** Where a call comes from and what it may do. */
export interface CallContext {
  surface: Surface;
  /** Who calls: core/authority.ts's `callerOf`, from the credential and the surface. An assistant may call only an assistant's operations. */
  caller: Caller;
  /** Where gateway calls resolve relative paths and say they were invoked from. */
  cwd: string;
  /** How a run that needs a person is answered: the broker in the process that owns runs. */
  approval: Approver;
  /** For `health`: who answers and which version. */
  owner: Health['owner'];
  version: string;
  signal?: AbortSignal;
}

type Input<K extends OperationName> = z.output<(typeof inputs)[K]>;
type Handlers = { [K in OperationName]: (core: SkilltrayCore, input: Input<K>, ctx: CallContext) => OperationOutput<K> | Promise<OperationOutput<K>> };

/** Drops keys whose value is undefined, for option objects read with exactOptionalPropertyTypes in mind. */
function defined<T extends Record<string, unknown>>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

const ok = { ok: true } as const;

/** A run as its caller may see it: the person sees every run, an assistant only the runs it asked for (any other is E702, as if there were none). */
function ownRun(core: SkilltrayCore, id: string, ctx: CallContext): RunRecord {
  const run = core.runs.getRun(id);
  const assistant = assistantOf(ctx);
  if (assistant !== undefined && run.assistant !== assistant) throw runnerErrors.runNotFound(id);
  return run;
}

/** A pack source as the core takes it. */
const packRequest = (i: { source: string; ref?: string | undefined; path?: string | undefined; as?: string | undefined }) => ({
  source: i.source,
  ref: i.ref ?? null,
  path: i.path ?? null,
  as: i.as ?? null,
});

/** A loaded skill by name (E001 otherwise) that the caller may see: an assistant is shown none the person turned off (E618). */
function seen(core: SkilltrayCore, skill: string, ctx: CallContext): Skill {
  const found = core.library.getSkill(skill);
  const off = ctx.caller.kind === 'assistant' ? core.skills.turnedOffIn(found.name) : null;
  if (off !== null) throw policyErrors.skillTurnedOff(found.name, off);
  return found;
}

/**
 * The directory of a loaded skill the caller may see, by name. Every surface that reaches this file
 * is remote (HTTP, MCP, IPC): they name loaded skills only, never a path on this machine — resolving
 * a path, as the CLI may, would let a caller read any directory that holds a SKILL.md.
 */
const loaded = (core: SkilltrayCore, skill: string, ctx: CallContext): string => seen(core, skill, ctx).dir;

/** The assistant calling, by its credential's name; undefined when the person calls. */
const assistantOf = (ctx: CallContext): string | undefined => (ctx.caller.kind === 'assistant' ? ctx.caller.name : undefined);

/** Who answered, as history records it: the surface (the app's own window answers as the tray), and how. */
const answeredVia = (ctx: CallContext, how: string): string => `${ctx.surface === 'ui' ? 'tray' : ctx.surface} (${how})`;

/** The filter list and listBrief share: a skill the person turned off is not an assistant's to see (the person's own screens show it, switched off). */
const listFilter = (i: Input<'list'>, ctx: CallContext) =>
  defined({
    domain: i.domain,
    role: i.role,
    status: i.status,
    offeredOnly: i.offered_only,
    enabledOnly: ctx.caller.kind === 'assistant',
    offset: i.offset,
    limit: i.limit,
  });

const handlers: Handlers = {
  list: (core, i, ctx) => core.skills.listSkills(listFilter(i, ctx)),
  listBrief: (core, i, ctx) => core.skills.listBriefs(listFilter(i, ctx)),
  describe: (core, i, ctx) => seen(core, i.skill, ctx),
  check: (core, i, ctx) => core.skills.check(loaded(core, i.target, ctx), ctx.cwd),
  roots: (core) => core.skills.roots(),
  doctor: (core) => core.doctor(),
  resolve: (core, i, ctx) => ({ skill: i.skill, arguments: i.args, prompt: core.skills.resolvePrompt(seen(core, i.skill, ctx).name, i.args) }),

  run: (core, i, ctx) =>
    core.runs.run(
      {
        skill: i.skill,
        tool: i.tool,
        args: i.args ?? {},
        surface: ctx.surface,
        ...defined({ cwd: i.cwd, traceId: i.trace_id, assistant: assistantOf(ctx), channel: i.channel }),
      },
      { approval: ctx.approval, ...defined({ signal: ctx.signal }) },
    ),
  dryRun: (core, i, ctx) =>
    core.runs.dryRun({ skill: i.skill, tool: i.tool, args: i.args ?? {}, surface: ctx.surface, ...defined({ cwd: i.cwd, channel: i.channel }) }),
  cancelRun: (core, i, ctx) => (ownRun(core, i.id, ctx), core.runs.service.cancel(i.id), ok),
  // An assistant's history is the runs its credential asked for, whatever filter it sends.
  history: (core, i, ctx) => core.runs.history(defined({ ...i, assistant: assistantOf(ctx) ?? i.assistant })),
  getRun: (core, i, ctx) => ownRun(core, i.id, ctx),

  // The person's alone (authority.ts): the code the person says back and its prompt are theirs to see.
  approvals: (core) => core.broker.list(),
  // Only the app's own window (IPC: surface ui) answers as the tray; every other surface answers as itself.
  answerApproval: (core, i, ctx) => (core.broker.resolve(i.id, i.verdict, ctx.surface === 'ui' ? 'tray' : ctx.surface, i.expires, i.scope), ok),
  rules: (core) => core.policy.rules(),
  addRule: (core, i) => core.policy.addRule(i.pattern, i.effect),
  removeRule: (core, i) => (core.policy.removeRule(i.id), ok),
  remembered: (core) => core.policy.remembered(),
  revokeRemembered: (core, i) => (core.policy.revokeRemembered(i.id), ok),
  sandbox: (core) => core.policy.sandboxStatus(),
  setSkillSandbox: (core, i) => core.policy.setSkillSandboxed(i.skill, i.sandboxed),
  settings: (core) => core.preferences.settings(),
  setMode: (core, i) => (core.preferences.setMode(i.mode), core.preferences.settings()),
  setPaused: (core, i) => core.preferences.setPaused(i.paused),
  setPaletteShortcut: (core, i) => core.preferences.setPaletteShortcut(i.shortcut),
  setRetention: (core, i) => core.preferences.setRetention(defined({ outputDays: i.output_days, outputMaxMb: i.output_max_mb })),
  setLimitCeiling: (core, i) =>
    core.preferences.setLimitCeiling(defined({ processes: i.processes, memoryMiB: i.memory_mb, fileSizeMiB: i.file_size_mb, cpuSeconds: i.cpu_seconds })),
  historyUsage: (core) => core.preferences.historyUsage(),
  maintainHistory: (core) => core.preferences.maintainHistory(),
  notices: (core) => core.preferences.notices(),
  dismissNotice: (core, i) => (core.preferences.dismissNotice(i.id), ok),

  outline: (core, i, ctx) => core.gateway.outline(loaded(core, i.skill, ctx), defined({ level: i.level }), ctx.cwd),
  show: (core, i, ctx) => core.gateway.show(loaded(core, i.skill, ctx), { section: i.section, ...defined({ file: i.file, maxLines: i.max_lines }) }, ctx.cwd),
  open: (core, i, ctx) => core.gateway.open(loaded(core, i.skill, ctx), i.path, defined({ maxLines: i.max_lines }), ctx.cwd),
  sources: (core, i, ctx) =>
    core.gateway.sources(loaded(core, i.skill, ctx), defined({ depth: i.depth, dir: i.dir, limit: i.limit, pattern: i.pattern }), ctx.cwd),
  search: (core, i, ctx) => core.gateway.search(loaded(core, i.skill, ctx), i.query, defined({ limit: i.limit }), ctx.cwd),
  // The owner keeps answering while a cold catalog is built (the UI shows its progress), and this answer waits for it.
  searchAll: async (core, i, ctx) => {
    await core.library.catalogCurrent();
    // An assistant finds nothing in a skill the person turned off.
    const hidden = ctx.caller.kind === 'assistant' ? (skill: string) => core.skills.turnedOffIn(skill) !== null : undefined;
    return core.gateway.searchAll(i.query, defined({ limit: i.limit, prefix: i.prefix, hidden }));
  },
  build: (core, i, ctx) => core.gateway.build(loaded(core, i.skill, ctx), ctx.cwd, { verify: i.verify === true }),
  stats: (core, i, ctx) =>
    core.gateway.stats(loaded(core, i.skill, ctx), defined({ groupBy: i.group_by, since: i.since, until: i.until, projects: i.project }), ctx.cwd),

  discover: (core, i) => core.agent.discover(i.intent, defined({ domain: i.domain, roleFilter: i.role_filter, limit: i.limit })),
  attach: (core, i, ctx) =>
    core.agent.attach(
      {
        skillId: i.skill_id,
        targetType: i.target_type,
        targetRef: i.target_ref,
        inputs: i.inputs ?? {},
        surface: ctx.surface,
        ...defined({ tool: i.tool, traceId: i.trace_id, cwd: i.cwd, assistant: assistantOf(ctx) }),
      },
      { approval: ctx.approval, ...defined({ signal: ctx.signal }) },
    ),

  setSkillEnabled: (core, i) => core.skills.setSkillEnabled(i.skill, i.enabled, i.mode ?? null),
  packs: async (core) => (await core.packs()).list(),
  scanPack: async (core, i, ctx) => (await core.packs()).preview(packRequest(i), ctx.cwd),
  installPack: async (core, i, ctx) => (await core.packs()).install(packRequest(i), ctx.cwd, { confirm: i.confirm, force: i.force ?? false }),
  checkPackUpdate: async (core, i) => (await core.packs()).previewUpdate(i.pack),
  updatePack: async (core, i) => (await core.packs()).update(i.pack, { confirm: i.confirm, force: i.force ?? false }),
  uninstallPack: async (core, i) => (await core.packs()).uninstall(i.pack),

  assistants: async (core, i) => (await core.connections()).list(defined({ test: i.test })),
  connectAssistant: async (core, i) => (await core.connections()).connect(i.client, defined({ dryRun: i.dry_run, transport: i.transport, via: i.via })),
  disconnectAssistant: async (core, i) => (await core.connections()).disconnect(i.client, defined({ dryRun: i.dry_run })),
  testAssistant: async (core, i) => (await core.connections()).test(i.client, defined({ transport: i.transport, via: i.via })),
  assistantView: async (core, i) =>
    assistantView({ connections: await core.connections(), skills: core.skills, runs: core.runs }, i.client, defined({ test: i.test })),
  projects: (core) => core.projects.list(),
  inspectProject: (core, i) => core.projects.inspect(i.path),
  trustProject: (core, i) => core.projects.trust(i.path, i.confirm),
  untrustProject: async (core, i) => (await core.projects.untrust(i.path), ok),

  servedSkills: (core, i) => core.serving.list(i.cursor, i.limit),
  servedSkill: (core, i) => core.serving.entry(i.skill),
  servedFile: (core, i) => core.serving.file(i.skill, i.path),
  servedDirectory: (core, i) => core.serving.directory(i.skill, i.dir, i.cursor),
  mcpSources: (core) => core.sources.list(),
  addMcpSource: (core, i) => core.sources.add(i),
  removeMcpSource: async (core, i) => (await core.sources.remove(i.name), ok),
  refreshMcpSources: (core, i) => core.sources.refresh(i.name),
  approveServedSkill: (core, i) => core.sources.approve(i.skill, i.confirm, i.grants ?? false),

  health: (core, _i, ctx) => ({
    app: 'skilltray',
    version: ctx.version,
    pid: process.pid,
    home: core.config.home,
    owner: ctx.owner,
    settings: core.preferences.settings(),
    pending: core.broker.list().length,
  }),

  voice: (core) => ({ settings: core.voice.settings(), status: core.voice.status() }),
  setVoice: (core, i) => core.voice.setSettings(defined({ enabled: i.enabled, runShortcut: i.run_shortcut, denyShortcut: i.deny_shortcut })),
  answerApprovalByVoice: (core, i, ctx) => core.voice.answer(i.id, i.wav, answeredVia(ctx, 'voice')),
  answerNewestApproval: (core, i, ctx) => core.voice.hotkey(i.verdict, answeredVia(ctx, 'hotkey')),
  speak: async (core, i) => (await core.voice.say(i.text), ok),
};

/** True when `name` is an operation of the contract. */
export function isOperation(name: string): name is OperationName {
  return Object.hasOwn(inputs, name);
}

/** A name as the contract takes it (the schema's bounds), or null. */
const nameOf = (value: unknown): string | null => (typeof value === 'string' && value.length >= 1 && value.length <= 256 ? value : null);

/**
 * Refuses an input nested deeper than MAX_INPUT_DEPTH (E805) before anything walks it. A `run` that
 * names a skill and tool is a run someone asked for: it is recorded as refused, as any other is.
 */
function refuseTooDeep(core: SkilltrayCore, name: OperationName, input: unknown, ctx: CallContext): never {
  const error = gatewayErrors.inputTooDeep(name, MAX_INPUT_DEPTH);
  const fields = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const skill = nameOf(fields.skill);
  const tool = nameOf(fields.tool);
  if (name !== 'run' || skill === null || tool === null) throw error;
  const traceId = nameOf(fields.trace_id);
  return core.runs.service.refuse(
    {
      skill,
      tool,
      args: shallowArguments(fields.args, MAX_INPUT_DEPTH),
      surface: ctx.surface,
      ...(traceId === null ? {} : { traceId }),
      ...defined({ assistant: assistantOf(ctx) }),
    },
    error,
  );
}

/** Validates the input of `name` and runs it; every failure comes back as an error envelope. */
export async function callOperation(core: SkilltrayCore, name: string, input: unknown, ctx: CallContext): Promise<Envelope<unknown>> {
  try {
    if (!isOperation(name)) throw gatewayErrors.operationNotFound(name);
    const refused = refusal(ctx.caller, name);
    if (refused !== null) throw refused;
    if (nestsDeeperThan(input, MAX_INPUT_DEPTH)) refuseTooDeep(core, name, input, ctx);
    const parsed = inputs[name].safeParse(input ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
      const first = issues[0];
      throw gatewayErrors.invalidInput(name, first ? `${first.path || '(root)'}: ${first.message}` : 'rejected', issues);
    }
    const handler = handlers[name] as (core: SkilltrayCore, input: unknown, ctx: CallContext) => unknown;
    return { ok: true, value: await handler(core, parsed.data, ctx) };
  } catch (error) {
    return { ok: false, error: core.failure(error).toJSON() };
  }
}
