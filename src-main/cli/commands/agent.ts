/** ADR-001's agent operations on the command line: discover a skill for an intent, attach one to a target. */
import { roleWords } from '../../shared/agent.js';
import { ATTACH_TARGETS, ROLES, type AttachTarget, type Role } from '../../shared/model.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { JSON_OPTION, printJson, type Command } from '../command.js';
import { runHereOrThere } from '../here-or-there.js';
import { collectArguments, printReport, runCwd } from './run.js';

const discover: Command = {
  name: 'discover',
  summary:
    'rank the skills that do a job (score 0–1: how much of the request they match, procedures and stable skills first; no checking sidecars unless --role sidecar)',
  positionals: [{ name: 'intent', required: true }],
  options: {
    domain: { type: 'list', value: '<domain>', description: 'only skills of this domain (repeatable)' },
    role: { type: 'string', value: '<role>', choices: ROLES, description: `only this role (${ROLES.join(', ')})` },
    limit: { type: 'integer', value: '<n>', min: 1, description: 'at most n results (default 10)' },
    ...JSON_OPTION,
  },
  examples: [
    ['discover "show me the git status"', 'which skill (and tool) does this'],
    ['discover "fingerprint the build artifact" --role sidecar', 'a sidecar to attach'],
    ['discover "free disk space" --domain system --limit 1', 'the best match in one domain'],
  ],
  async run(ctx, args) {
    const domains = args.options.domain as string[] | undefined;
    const answer = (await ctx.core()).agent.discover(args.positionals[0] as string, {
      ...(domains === undefined ? {} : { domain: domains }),
      ...(typeof args.options.role === 'string' ? { roleFilter: args.options.role as Role } : {}),
      ...(typeof args.options.limit === 'number' ? { limit: args.options.limit } : {}),
    });
    if (args.options.json) {
      printJson(ctx, answer);
      return 0;
    }
    const { results, also } = answer;
    if (results.length === 0) ctx.io.out('No skill matches that intent.\n');
    else {
      const width = Math.max(...results.map((r) => r.skill_id.length));
      ctx.io.out(
        results
          .map(
            (r, i) => `${i + 1}. ${r.skill_id.padEnd(width)}  ${r.score.toFixed(2)}  ${r.reason}\n${r.tools.length ? `   tools: ${r.tools.join(', ')}\n` : ''}`,
          )
          .join(''),
      );
    }
    for (const r of also) ctx.io.out(`also: ${r.skill_id}, ${roleWords(r.role)}, ${r.score.toFixed(2)}${r.role === null ? '' : ` (--role ${r.role})`}\n`);
    return 0;
  },
};

const attach: Command = {
  name: 'attach',
  summary: "apply a skill to a target (task, run, output, transcript, artifact): validated first, then run like 'run'",
  positionals: [{ name: 'skill', required: true, skill: true }],
  options: {
    'target-type': { type: 'string', value: '<type>', choices: ATTACH_TARGETS, description: `what the target is (${ATTACH_TARGETS.join(', ')})` },
    'target-ref': { type: 'string', value: '<ref>', description: 'which one: a run id, a path, …' },
    tool: { type: 'string', value: '<name>', description: 'the tool to run (needed when the skill has several)' },
    args: { type: 'string', value: '<json>', description: 'further arguments as a JSON object' },
    arg: { type: 'list', value: '<key=value>', description: 'one further argument (repeatable)' },
    cwd: { type: 'string', value: '<dir>', description: 'working directory (default: the current directory)' },
    'trace-id': { type: 'string', value: '<id>', description: 'your trace id, kept with the run' },
    yes: { type: 'boolean', description: 'approve this one call yourself when policy asks' },
    ...JSON_OPTION,
  },
  examples: [
    ['attach artifact-checksum --target-type artifact --target-ref dist/app.tar.gz', "fingerprint a build's artifact"],
    ['attach artifact-checksum --target-type output --target-ref out.log --yes --json', 'approve it here, the result as data'],
  ],
  async run(ctx, args) {
    const skillId = args.positionals[0] as string;
    const core = await ctx.core();
    const targetType = args.options['target-type'] as AttachTarget | undefined;
    const targetRef = args.options['target-ref'] as string | undefined;
    if (targetType === undefined || targetRef === undefined) throw skillcErrors.usage('attach needs --target-type and --target-ref');
    const toolOption = args.options.tool as string | undefined;
    const tools = core.registry.get(skillId)?.tools ?? [];
    const toolName = toolOption ?? (tools.length === 1 ? tools[0]?.name : undefined);
    const inputs = toolName === undefined ? {} : collectArguments(core, skillId, toolName, args);
    const traceId = args.options['trace-id'] as string | undefined;
    const cwd = runCwd(ctx, args);
    const result = await runHereOrThere(ctx, args, {
      operation: 'attach',
      ...(traceId === undefined ? {} : { traceId }),
      there: (client, trace) =>
        client.attach({
          skill_id: skillId,
          target_type: targetType,
          target_ref: targetRef,
          inputs,
          ...(toolOption === undefined ? {} : { tool: toolOption }),
          trace_id: trace,
          cwd,
        }),
      here: (approval) =>
        core.agent.attach(
          {
            skillId,
            targetType,
            targetRef,
            inputs,
            surface: 'cli',
            cwd,
            ...(toolOption === undefined ? {} : { tool: toolOption }),
            ...(traceId === undefined ? {} : { traceId }),
          },
          { approval },
        ),
    });
    if (args.options.json) printJson(ctx, result);
    else printReport(ctx, result.execution);
    return result.execution.result.exitCode === 0 ? 0 : 1;
  },
};

export const agentCommands: Command[] = [discover, attach];
