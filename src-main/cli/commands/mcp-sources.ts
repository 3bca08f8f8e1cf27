/**
 * `skilltray sources` with no skill, and its MCP forms: the MCP servers Skilltray takes skills from
 * (the Skills extension, SEP-2640). `sources` lists them and what each serves; `add-mcp` adds one by
 * the command that starts it (after `--`) or its `--url`; `remove-mcp`, `refresh-mcp`; `approve-mcp
 * <source>.<skill>` shows the skill (its files, what it declares, what changed since you last
 * approved it) and approves it as shown. Through the running owner when there is one, so its skills
 * follow at once; else on the home directly. Everything a server wrote is printed escaped.
 */
import type { SkilltrayClient } from '../../shared/contract.js';
import type { McpSourceStatus, ServedSkillStatus } from '../../shared/served.js';
import { displayLines } from '../../shared/display-text.js';
import { servedErrors } from '../../shared/error-messages/served.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import type { ParsedArgs } from '../args.js';
import { printJson, type CliContext } from '../command.js';
import { findRunningOwner } from '../owner-link.js';
import { confirmed } from './packs.js';
import { wantsJson } from './read-options.js';

type Target = Pick<SkilltrayClient, 'mcpSources' | 'addMcpSource' | 'removeMcpSource' | 'refreshMcpSources' | 'approveServedSkill'>;

async function target(ctx: CliContext): Promise<Target> {
  const owner = await findRunningOwner(ctx.config().home);
  if (owner !== null) return owner.client;
  const core = await ctx.core();
  return {
    mcpSources: () => core.sources.list(),
    addMcpSource: (input) => core.sources.add(input),
    removeMcpSource: async (input) => (await core.sources.remove(input.name), { ok: true }),
    refreshMcpSources: (input) => core.sources.refresh(input.name),
    approveServedSkill: (input) => core.sources.approve(input.skill, input.confirm, input.grants ?? false),
  };
}

/** `K=V` (env) or `K: V` (header) pairs. */
function pairs(values: readonly string[] | undefined, separator: '=' | ':', what: string): Record<string, string> | undefined {
  if (values === undefined) return undefined;
  return Object.fromEntries(
    values.map((value) => {
      const at = value.indexOf(separator);
      if (at <= 0) throw skillcErrors.invalidOption(`--${what} expects NAME${separator === '=' ? '=' : ': '}VALUE, got '${value}'`);
      return [value.slice(0, at).trim(), value.slice(at + 1).trim()];
    }),
  );
}

const STATE_WORDS: Record<ServedSkillStatus['state'], string> = {
  approved: 'approved',
  pending: 'waits for your approval',
  changed: 'changed since you approved it: waits for your approval again',
  refused: 'refused',
  gone: 'no longer served',
};

function skillLine(skill: ServedSkillStatus): string[] {
  const refusal = skill.refusal === null ? '' : `: ${skill.refusal.message}`;
  return [
    `  ${skill.name}  ${STATE_WORDS[skill.state]}${refusal}${skill.state === 'approved' && !skill.grants && Object.keys(skill.declares).length > 0 ? ' (what it declares is ignored)' : ''}`,
    ...(skill.description === '' ? [] : [`      ${skill.description}`]),
    ...(skill.clash === null ? [] : [`      note: ${skill.clash}`]),
  ];
}

function sourceLines(source: McpSourceStatus): string[] {
  const how = source.endpoint.kind === 'stdio' ? [source.endpoint.command, ...source.endpoint.args].join(' ') : source.endpoint.url;
  return [
    `${source.name}  (${source.endpoint.kind}: ${how})`,
    ...(source.error === null ? [] : [`  last check failed: error[${source.error.code}]: ${source.error.message}`]),
    ...(source.skills.length === 0 ? ['  serves no skills'] : source.skills.flatMap(skillLine)),
  ];
}

/** What the person approves: the files, what it declares, and what changed since the last approval with its lines. */
function skillDetail(skill: ServedSkillStatus): string[] {
  const declared = Object.entries(skill.declares).map(([key, value]) => `  ${key}: ${JSON.stringify(value)}`);
  return [
    `${skill.name}  (${skill.uri})`,
    `  ${skill.description}`,
    `files (${skill.files.length}):`,
    ...skill.files.map((file) => `  ${file.path}  ${file.size} bytes  ${file.digest}`),
    ...(declared.length === 0 ? [] : ['it declares (ignored unless you approve with --grants):', ...declared]),
    ...(skill.changes.length === 0 ? [] : ['changed since you approved it:']),
    ...skill.changes.flatMap((change) => [
      `  ${change.change} ${change.path}${change.diff?.omitted ? ` (${change.diff.omitted})` : ''}`,
      ...(change.diff?.lines ?? []).map((line) => `    ${line}`),
      ...(change.diff !== null && change.diff.more > 0 ? [`    … ${change.diff.more} more lines`] : []),
    ]),
    ...(skill.clash === null ? [] : [`note: ${skill.clash}`]),
  ];
}

async function approve(ctx: CliContext, args: ParsedArgs, to: Target, name: string | undefined): Promise<number> {
  if (name === undefined) throw skillcErrors.usage('sources approve-mcp needs <source>.<skill>');
  const skill = (await to.mcpSources({})).flatMap((source) => source.skills).find((s) => s.name === name);
  if (skill === undefined) throw servedErrors.notServed(name, "is served by no MCP source you added ('skilltray sources' lists them)");
  if (skill.digest === null)
    throw servedErrors.notServed(name, `is refused, so it cannot be approved: ${skill.refusal?.message ?? 'its server no longer serves it'}`);
  const json = wantsJson(args);
  if (!json) ctx.io.out(displayLines(skillDetail(skill)));
  const grants = args.options.grants === true;
  if (args.options.yes !== true && !(await confirmed(ctx, `Approve ${name} as shown${grants ? ', with what it declares' : ''}?`))) {
    throw skillcErrors.invalidOption('not approved: answer y at the terminal, or pass --yes');
  }
  const approved = await to.approveServedSkill({ skill: name, confirm: skill.digest, grants });
  if (json) printJson(ctx, approved);
  else ctx.io.out(displayLines([`approved ${approved.name}: its tools ask before each run${grants ? '' : '; what it declares stays ignored'}`]));
  return 0;
}

/**
 * Runs `sources` without a skill, or one of its MCP forms. Ctrl+C ends it by exiting (130): a server
 * it started leads a process group of its own, which the terminal's signal does not reach, and an
 * exit kills it (core/served/bounded-child.ts) where a signal's own default would end this process alone.
 */
export async function runMcpSources(ctx: CliContext, args: ParsedArgs): Promise<number> {
  const interrupted = (): never => process.exit(130);
  process.once('SIGINT', interrupted);
  try {
    return await runForm(ctx, args);
  } finally {
    process.off('SIGINT', interrupted);
  }
}

async function runForm(ctx: CliContext, args: ParsedArgs): Promise<number> {
  const [form, name, ...rest] = args.positionals;
  const skillOnly = ['depth', 'dir', 'limit', 'pattern'].find((option) => args.options[option] !== undefined);
  if (skillOnly !== undefined) throw skillcErrors.invalidOption(`--${skillOnly} lists a skill's files: skilltray sources <skill> --${skillOnly} …`);
  const to = await target(ctx);
  const json = wantsJson(args);
  const show = (list: readonly McpSourceStatus[], empty: string): number => {
    if (json) printJson(ctx, list);
    else ctx.io.out(list.length === 0 ? `${empty}\n` : displayLines(list.flatMap(sourceLines)));
    return 0;
  };
  switch (form) {
    case undefined:
      return show(await to.mcpSources({}), "No MCP source is added. Add one with 'skilltray sources add-mcp <name> -- <command…>' or '--url <url>'.");
    case 'add-mcp': {
      if (name === undefined) throw skillcErrors.usage('sources add-mcp needs <name>');
      const url = args.options.url as string | undefined;
      if ((url === undefined) === (rest.length === 0)) throw skillcErrors.usage("sources add-mcp needs the server's command after -- or its --url, not both");
      const headers = pairs(args.options.header as string[] | undefined, ':', 'header');
      const env = pairs(args.options.env as string[] | undefined, '=', 'env');
      const added = await to.addMcpSource({
        name,
        ...(url === undefined ? { command: rest } : { url }),
        ...(headers === undefined ? {} : { headers }),
        ...(env === undefined ? {} : { env }),
      });
      if (json) printJson(ctx, added);
      else ctx.io.out(displayLines([...sourceLines(added), `approve a skill with 'skilltray sources approve-mcp <name>' once you have looked at it`]));
      return 0;
    }
    case 'remove-mcp':
      if (name === undefined) throw skillcErrors.usage('sources remove-mcp needs <name>');
      await to.removeMcpSource({ name });
      if (json) printJson(ctx, { source: name, removed: true });
      else ctx.io.out(displayLines([`removed MCP source ${name}, its cached files and its approvals`]));
      return 0;
    case 'refresh-mcp':
      return show(await to.refreshMcpSources(name === undefined ? {} : { name }), 'No MCP source is added.');
    case 'approve-mcp':
      return approve(ctx, args, to, name);
    default:
      throw skillcErrors.usage(`unknown form 'sources ${form}'`);
  }
}
