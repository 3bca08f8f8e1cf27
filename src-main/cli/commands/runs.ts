/** Running tools from the terminal, and the records and settings around runs. */
import { hostname, userInfo } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { resolve as resolvePath } from 'node:path';
import type { PendingApproval, Remembered, Rule, RunReport, Verdict } from '../../shared/runs.js';
import type { SkilltrayCore } from '../../core/api.js';
import type { Approver } from '../../core/runs/run-service.js';
import { templateErrors } from '../../shared/error-messages/templates.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { argumentsFromStrings } from '../../core/template/render-command.js';
import { onShutdownSignal } from '../../server/shutdown-signals.js';
import type { SkilltrayClient } from '../../shared/contract.js';
import type { ParsedArgs } from '../args.js';
import { JSON_OPTION, printJson, type CliContext, type Command } from '../command.js';
import { findRunningOwner, type RunningOwner } from '../owner-link.js';
import { historyCommand, refusedConnection } from './history.js';
import { approvalSentence, boxLines, containment, LIMIT_HIT, shownArguments } from '../../shared/approval-text.js';
import { describePin, folderText, identityWarnings } from '../../shared/identity-text.js';
import { displayLines } from '../../shared/display-text.js';
import { networkWords } from '../../shared/network-reach.js';

/** Who answered, as recorded in history. */
function actor(how: string): string {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (containers): keep 'unknown'
  }
  return `${user}@${hostname()} (${how})`;
}

/** The named arguments from `--args JSON` and `--arg k=v`, typed by the tool's Parameters table. */
export function collectArguments(core: SkilltrayCore, skillName: string, toolName: string, args: ParsedArgs): Record<string, unknown> {
  let fromJson: Record<string, unknown> = {};
  if (typeof args.options.args === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(args.options.args);
    } catch (error) {
      throw templateErrors.argsNotJson((error as Error).message);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw templateErrors.argsNotAnObject();
    fromJson = parsed as Record<string, unknown>;
  }
  const pairs = ((args.options.arg as string[] | undefined) ?? []).map((pair) => {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw skillcErrors.invalidOption(`--arg expects key=value, got '${pair}'`);
    return [pair.slice(0, eq), pair.slice(eq + 1)] as const;
  });
  if (pairs.length === 0) return fromJson;
  const tool = core.getSkill(skillName).tools.find((t) => t.name === toolName);
  if (!tool) return fromJson;
  const fromPairs = argumentsFromStrings(tool, pairs);
  for (const key of Object.keys(fromPairs)) {
    if (key in fromJson) throw templateErrors.argumentInArgsAndArg(key);
  }
  return { ...fromJson, ...fromPairs };
}

/** Where a run starts: `--cwd` resolved against the current directory, or the current directory itself. */
export function runCwd(ctx: CliContext, args: ParsedArgs): string {
  return resolvePath(ctx.cwd, typeof args.options.cwd === 'string' ? args.options.cwd : '.');
}

/**
 * The approval as a person reads it: the sentence first, then the program and every argument on its
 * own line exactly as passed, the caller's values marked `<`, fixed hardening flags marked `·`.
 */
export function describePending(
  p: Pick<PendingApproval, 'surface' | 'skill' | 'tool' | 'trust' | 'identity' | 'programPath' | 'argv' | 'supplied' | 'cwd' | 'timeoutMs' | 'env' | 'reason' | 'sandbox'>,
  home?: string,
): string {
  const args = shownArguments(p.argv, p.supplied);
  const lines = [
    approvalSentence(p, home),
    `  why       ${p.reason}`,
    `  skill     ${p.skill}/${p.tool}: ${describePin(p.identity)}`,
    ...identityWarnings(p.identity).map((warning) => `  warning   ${warning}`),
    `  sandbox   ${containment(p.sandbox)}${p.sandbox.contained ? ` (${p.sandbox.mechanism ?? ''})` : `: ${p.sandbox.why ?? ''}`}`,
    ...(p.sandbox.network && p.sandbox.contained ? [`  network   ${networkWords(p.sandbox)}`] : []),
    ...boxLines(p.sandbox, home).map((line) => `            ${line}`),
    `  program   ${p.programPath}`,
    ...args.map((a) => `  arg ${String(a.index + 1).padEnd(5)} ${JSON.stringify(a.text)}${a.supplied ? '   < from the caller' : a.hardening ? '   · safety flag' : ''}`),
    `  cwd       ${p.cwd}`,
    `  timeout   ${p.timeoutMs / 1000} s`,
    `  env       ${p.env.length > 0 ? p.env.join(', ') : '(allow-list only)'}`,
  ];
  return displayLines(lines);
}

/** The terminal's question, offering only the Always answers the request takes. */
function question(pending: PendingApproval): string {
  const folder = pending.rememberScopes.includes('folder');
  const anywhere = pending.rememberScopes.includes('anywhere');
  const choices = [
    '[y] once',
    ...(folder ? ['[a] always in this folder (until revoked)', '[s] always in this folder for this session'] : []),
    ...(anywhere ? ['[any] always in any folder (until revoked)'] : []),
    '[N] deny',
  ];
  return `Run it? ${choices.join(', ')}: `;
}

/** Asks at the terminal; anything but an explicit yes or an offered always is a denial. */
function terminalApproval(ctx: CliContext): Approver {
  return {
    kind: 'prompt',
    ask: async (pending): Promise<Verdict> => {
      ctx.io.err(describePending(pending, ctx.env.HOME));
      const answer = (await ctx.io.ask(question(pending))).trim().toLowerCase();
      const offers = (scope: 'folder' | 'anywhere'): boolean => pending.rememberScopes.includes(scope);
      if ((answer === 'a' || answer === 'always') && offers('folder')) return { verdict: 'always', actor: actor('terminal'), expires: 'revoke', scope: 'folder' };
      if ((answer === 's' || answer === 'session') && offers('folder')) return { verdict: 'always', actor: actor('terminal'), expires: 'session', scope: 'folder' };
      if (answer === 'any' && offers('anywhere')) return { verdict: 'always', actor: actor('terminal'), expires: 'revoke', scope: 'anywhere' };
      return { verdict: answer === 'y' || answer === 'yes' ? 'once' : 'deny', actor: actor('terminal') };
    },
  };
}

export function printReport(ctx: CliContext, report: RunReport): void {
  const { result } = report;
  if (result.stdout) ctx.io.out(result.stdout.endsWith('\n') ? result.stdout : `${result.stdout}\n`);
  if (result.stderr) ctx.io.err(result.stderr.endsWith('\n') ? result.stderr : `${result.stderr}\n`);
  const status = result.timedOut ? `timed out after ${report.command.timeoutMs / 1000} s` : result.cancelled ? 'cancelled' : result.signal ? `killed by ${result.signal}` : `exit ${result.exitCode}`;
  const dropped = result.droppedBytes.stdout + result.droppedBytes.stderr;
  const limit = result.limitHit === undefined || result.limitHit === null ? '' : ` · stopped at ${LIMIT_HIT[result.limitHit]}`;
  ctx.io.err(`${status}${limit} · ${Math.round(result.durationMs)} ms${dropped > 0 ? ` · ${dropped} bytes of output dropped` : ''} · run ${report.id}\n`);
  for (const denial of report.networkDenied) ctx.io.err(`network refused ${refusedConnection(denial)}\n`);
}

/** How often a forwarded run is looked for among the owner's approvals, to say where it waits. */
const WAITING_POLL_MS = 200;

/**
 * Once a forwarded run waits for approval, says so on stderr: its id, and where to answer it (the
 * app, serve's browser UI, or `skilltray approve`). Looks until the run shows up or the call ends.
 */
async function sayWhereItWaits(ctx: CliContext, owner: RunningOwner, traceId: string, call: Promise<unknown>): Promise<void> {
  let ended = false;
  const settled = call.then(
    () => (ended = true),
    () => (ended = true),
  );
  while (!ended) {
    const pending = await owner.client.approvals({}).catch(() => []);
    const entry = pending.find((p) => p.traceId === traceId);
    if (entry !== undefined) {
      const where = owner.link.owner === 'app' ? 'in the Skilltray app' : `at ${owner.link.url}/#/approvals (the browser UI of skilltray serve --web)`;
      ctx.io.err(`run ${entry.id} waits for your approval ${where}; or answer it here: skilltray approve ${entry.id} (or deny ${entry.id})\n`);
      return;
    }
    await Promise.race([settled, sleep(WAITING_POLL_MS)]);
  }
}

/**
 * Runs a call where it belongs. With an owner running (the app or serve) the run is its to ask about
 * and record — under `traceId` (the caller's, else a new one), by which this command says where it
 * waits; `--yes` means the person at this terminal already approved, so that run stays here, as
 * does any run when no owner is running (asked on a TTY, else refused with E601).
 */
export async function runHereOrThere<T>(
  ctx: CliContext,
  args: ParsedArgs,
  call: { traceId?: string; there: (client: SkilltrayClient, traceId: string) => Promise<T>; here: (approval: Approver) => Promise<T> },
): Promise<T> {
  const owner = args.options.yes ? null : await findRunningOwner(ctx.config().home);
  if (owner !== null) {
    const { link } = owner;
    if (!args.options.json) ctx.io.err(`forwarded to ${link.owner === 'app' ? 'the Skilltray app' : 'skilltray serve'} at ${link.url}\n`);
    // node:crypto only when a run is forwarded: every other command starts without it.
    const traceId = call.traceId ?? (await import('node:crypto')).randomUUID();
    const result = call.there(owner.client, traceId);
    if (!args.options.json) void sayWhereItWaits(ctx, owner, traceId, result);
    return result;
  }
  // This process owns the run: a signal stops its tool (recorded as interrupted) instead of leaving it running.
  const release = onShutdownSignal((signal) => {
    ctx.io.err(`${signal}: stopping the run\n`);
    // runCli awaits the same close and reports its failure.
    ctx
      .core()
      .then((core) => core.close(`${signal} to the skilltray command`))
      .catch(() => undefined);
  });
  try {
    return await call.here(args.options.yes ? { kind: 'preapproved', actor: actor('--yes') } : ctx.io.interactive ? terminalApproval(ctx) : { kind: 'none' });
  } finally {
    release();
  }
}

/**
 * Reads or changes settings and records where they live: in the running owner when there is one, so
 * its tray and UI follow (and hear the events), else in this process's core as before.
 */
async function atOwnerOrHere<T>(ctx: CliContext, call: { there: (client: SkilltrayClient) => Promise<T>; here: (core: SkilltrayCore) => T }): Promise<T> {
  const owner = await findRunningOwner(ctx.config().home);
  return owner === null ? call.here(await ctx.core()) : call.there(owner.client);
}

const run: Command = {
  name: 'run',
  summary: 'run a tool: render, decide, ask when needed (in the running app, a TTY prompt, or --yes), run bounded, record',
  positionals: [
    { name: 'skill', required: true, skill: true },
    { name: 'tool', required: true },
  ],
  options: {
    args: { type: 'string', value: '<json>', description: 'arguments as a JSON object' },
    arg: { type: 'list', value: '<key=value>', description: 'one argument, typed by the Parameters table (repeatable)' },
    cwd: { type: 'string', value: '<dir>', description: 'working directory (default: the current directory)' },
    'dry-run': { type: 'boolean', description: 'print the rendered request and the policy decision; run nothing' },
    yes: { type: 'boolean', description: 'approve this one call yourself when policy asks (never overrides a deny); runs here even when the app is running' },
    ...JSON_OPTION,
  },
  examples: [
    ['run system disk_usage', 'run a tool; bundled read-only tools run without asking'],
    ['run git git_log --arg count=5', 'with an argument, typed by its Parameters table'],
    ['run files find_files --args \'{"pattern": "*.pdf"}\'', 'arguments as a JSON object'],
    ['run git git_status --dry-run', 'the program, argv and decision, nothing run'],
    ['run network ping_host --arg host=1.1.1.1 --yes', 'approve this one call yourself'],
  ],
  async run(ctx, args) {
    const [skill, tool] = args.positionals as [string, string];
    const cwd = runCwd(ctx, args);
    const core = await ctx.core();
    const input = { skill, tool, args: collectArguments(core, skill, tool, args), surface: 'cli' as const, cwd };
    if (args.options['dry-run']) {
      const dry = core.dryRun(input);
      if (args.options.json) printJson(ctx, dry);
      else {
        const argv = dry.command.args.map((a, i) => `  arg ${String(i + 1).padEnd(5)} ${JSON.stringify(a)}\n`).join('');
        const sandbox = `${containment(dry.sandbox)}${dry.sandbox.contained ? ` (${dry.sandbox.mechanism ?? ''})` : `: ${dry.sandbox.why ?? ''}`}`;
        const network = dry.sandbox.network && dry.sandbox.contained ? `network   ${networkWords(dry.sandbox)}\n` : '';
        const box = boxLines(dry.sandbox, ctx.env.HOME).map((line) => `          ${line}\n`).join('');
        ctx.io.out(`program   ${dry.programPath ?? `${dry.command.program} (not found)`}\n${argv}cwd       ${dry.command.cwd}\ntimeout   ${dry.command.timeoutMs / 1000} s\nsandbox   ${sandbox}\n${network}${box}decision  ${dry.decision}: ${dry.reason}\n`);
      }
      return 0;
    }
    const report = await runHereOrThere(ctx, args, {
      there: (client, traceId) => client.run({ skill, tool, args: input.args, cwd, trace_id: traceId }),
      here: (approval) => core.run(input, { approval }),
    });
    if (args.options.json) printJson(ctx, report);
    else printReport(ctx, report);
    return report.result.exitCode === 0 ? 0 : 1;
  },
};

const resolve: Command = {
  name: 'resolve',
  summary: "render a Kode prompt skill's body with $ARGUMENTS",
  positionals: [
    { name: 'skill', required: true, skill: true },
    { name: 'args', required: false, variadic: true },
  ],
  options: { ...JSON_OPTION },
  examples: [
    ['resolve commit-message', 'the prompt with no notes'],
    ['resolve commit-message "fixes #12, touches the parser"', 'with $ARGUMENTS filled in'],
  ],
  async run(ctx, args) {
    const [skill, ...rest] = args.positionals as [string, ...string[]];
    const prompt = (await ctx.core()).resolvePrompt(skill, rest);
    if (args.options.json) printJson(ctx, { skill, arguments: rest, prompt });
    else ctx.io.out(prompt.endsWith('\n') ? prompt : `${prompt}\n`);
    return 0;
  },
};

/** The skills an allow rule covers, one line each, as they were when it was made. */
async function pinLines(rule: Rule): Promise<string> {
  if (rule.effect === 'deny') return '';
  if (rule.pins === null || rule.pins.length === 0) return '       covers no skill: add it again to cover the skills it names now\n';
  // Loaded only by `rules`: the other commands never describe a profile.
  const { describeProfile } = await import('../../core/policy/profile.js');
  return displayLines(rule.pins.map((pin) => `       for ${pin.skill}: ${describePin(pin)}, up to ${describeProfile(pin.profile)}`));
}

const rules: Command = {
  name: 'rules',
  summary:
    'list, add (allow|deny <pattern>) or remove (<id>) permission rules: skill:<glob>, skill:*, tool:<skill>/<tool>; ' +
    'unsandbox <skill> runs a skill without a sandbox (its runs then ask), sandbox <skill> puts it back',
  positionals: [
    { name: 'list|add|remove|sandbox|unsandbox', required: false },
    // sandbox/unsandbox take a skill here, whose name may start with '-'.
    { name: 'args', required: false, variadic: true, skill: true },
  ],
  options: { ...JSON_OPTION },
  examples: [
    ['rules', 'the rules, by id'],
    ['rules add allow tool:git/git_status', 'let one tool run without asking'],
    ['rules add deny "skill:*"', 'refuse every tool a narrower allow does not cover'],
    ['rules remove 3', 'remove rule #3'],
  ],
  async run(ctx, args) {
    const [action = 'list', ...rest] = args.positionals;
    if (action === 'add') {
      const [effect, pattern] = rest;
      if (effect === undefined || pattern === undefined || rest.length > 2) throw skillcErrors.usage('rules add expects <allow|deny> <pattern>');
      const { parseRuleEffect } = await import('../../core/policy/rules.js');
      const checked = parseRuleEffect(effect);
      const rule = await atOwnerOrHere(ctx, { there: (owner) => owner.addRule({ pattern, effect: checked }), here: (core) => core.addRule(pattern, checked) });
      if (args.options.json) printJson(ctx, rule);
      else ctx.io.out(`rule #${rule.id}: ${rule.effect} ${rule.pattern}\n${await pinLines(rule)}`);
      return 0;
    }
    if (action === 'remove') {
      const id = Number(rest[0]);
      if (rest.length !== 1 || !Number.isInteger(id)) throw skillcErrors.usage('rules remove expects <id>');
      await atOwnerOrHere(ctx, {
        there: async (owner) => {
          await owner.removeRule({ id });
        },
        here: (core) => core.removeRule(id),
      });
      if (args.options.json) printJson(ctx, { removed: id });
      else ctx.io.out(`rule #${id} removed\n`);
      return 0;
    }
    if (action === 'sandbox' || action === 'unsandbox') {
      const [skill] = rest;
      if (skill === undefined || rest.length !== 1) throw skillcErrors.usage(`rules ${action} takes one <skill>`);
      const sandboxed = action === 'sandbox';
      const status = await atOwnerOrHere(ctx, { there: (owner) => owner.setSkillSandbox({ skill, sandboxed }), here: (core) => core.setSkillSandboxed(skill, sandboxed) });
      if (args.options.json) printJson(ctx, status);
      else ctx.io.out(sandboxed ? `${skill} runs in the sandbox again\n` : `${skill} now runs without a sandbox: every run of it asks first (unless an allow rule says otherwise)\n`);
      return 0;
    }
    if (action !== 'list' || rest.length > 0) throw skillcErrors.usage(`rules takes list, add <allow|deny> <pattern>, remove <id>, sandbox <skill> or unsandbox <skill>, not '${[action, ...rest].join(' ')}'`);
    const [list, sandbox] = await atOwnerOrHere(ctx, {
      there: async (owner) => [await owner.rules({}), await owner.sandbox({})] as const,
      here: (core) => [core.rules(), core.sandboxStatus()] as const,
    });
    if (args.options.json) printJson(ctx, list);
    else {
      const lines = await Promise.all(list.map(async (r) => `#${r.id}  ${r.effect.padEnd(5)}  ${r.pattern}\n${await pinLines(r)}`));
      const machine = sandbox.available ? `runs are contained by ${sandbox.mechanism ?? 'a sandbox'}` : `runs are not contained: ${sandbox.why ?? ''}`;
      const off = sandbox.unsandboxed.length === 0 ? '' : `without a sandbox (you chose): ${sandbox.unsandboxed.join(', ')}\n`;
      ctx.io.out(`${list.length === 0 ? 'No rules.\n' : lines.join('')}${machine}\n${off}`);
    }
    return 0;
  },
};

const remembered: Command = {
  name: 'remembered',
  summary: 'list the tools you chose to always allow, or revoke one (<id>) so it asks again',
  positionals: [
    { name: 'list|revoke', required: false },
    { name: 'id', required: false },
  ],
  options: { ...JSON_OPTION },
  examples: [
    ['remembered', 'the tools you chose to always allow'],
    ['remembered revoke 2', 'make #2 ask again'],
  ],
  async run(ctx, args) {
    const [action = 'list', idText] = args.positionals;
    if (action === 'revoke') {
      const id = Number(idText);
      if (!Number.isInteger(id)) throw skillcErrors.usage('remembered revoke expects <id>');
      await atOwnerOrHere(ctx, {
        there: async (owner) => {
          await owner.revokeRemembered({ id });
        },
        here: (core) => core.revokeRemembered(id),
      });
      if (args.options.json) printJson(ctx, { revoked: id });
      else ctx.io.out(`approval #${id} revoked\n`);
      return 0;
    }
    if (action !== 'list' || idText !== undefined) throw skillcErrors.usage(`remembered takes list or revoke <id>, not '${[action, idText].filter(Boolean).join(' ')}'`);
    const list = await atOwnerOrHere(ctx, { there: (owner) => owner.remembered({}), here: (core) => core.remembered() });
    if (args.options.json) printJson(ctx, list);
    else {
      const line = (r: Remembered): string =>
        `#${r.id}  ${r.skill}/${r.tool}  ${folderText(r.folder)}  ${r.programPath}  ${r.profile.name}, ${networkWords(r.profile)}  ${r.expires === 'session' ? 'this session' : 'until revoked'}  skill ${r.skillHash.slice(0, 12)}`;
      ctx.io.out(list.length === 0 ? 'No remembered approvals.\n' : displayLines(list.map(line)));
    }
    return 0;
  },
};

const mode: Command = {
  name: 'mode',
  summary: 'show or set the mode (Global, Dev, Meeting): tools outside it are not offered and cannot run',
  positionals: [{ name: 'name', required: false }],
  options: { ...JSON_OPTION },
  examples: [
    ['mode', 'the current mode'],
    ['mode Meeting', 'offer only the tools meant for meetings'],
  ],
  async run(ctx, args) {
    const name = args.positionals[0];
    const current = await atOwnerOrHere(ctx, {
      there: async (owner) => (name === undefined ? await owner.settings({}) : await owner.setMode({ mode: name })).mode,
      here: (core) => (name === undefined ? core.settings().mode : core.setMode(name)),
    });
    if (args.options.json) printJson(ctx, { mode: current });
    else ctx.io.out(`${current}\n`);
    return 0;
  },
};

function pauseCommand(name: 'pause' | 'resume'): Command {
  return {
    name,
    summary: name === 'pause' ? 'pause every run until resumed' : 'resume runs after a pause',
    positionals: [],
    options: { ...JSON_OPTION },
    examples: name === 'pause' ? [['pause', 'refuse every run until resume']] : [['resume', 'let runs start again']],
    async run(ctx, args) {
      const paused = name === 'pause';
      const settings = await atOwnerOrHere(ctx, { there: (owner) => owner.setPaused({ paused }), here: (core) => core.setPaused(paused) });
      if (args.options.json) printJson(ctx, settings);
      else ctx.io.out(settings.paused ? 'Runs are paused.\n' : 'Runs are resumed.\n');
      return 0;
    },
  };
}

export const runCommands: Command[] = [run, resolve, historyCommand, rules, remembered, mode, pauseCommand('pause'), pauseCommand('resume')];
