/** `history`: runs as a table with a header, or one run whole (request, decision, command, result, output). */
import {
  RUN_STATUSES,
  SURFACES,
  type NetworkDenial,
  type RunRecord,
  type RunStatus,
  type RunSummary,
  type SandboxView,
  type Surface,
} from '../../shared/runs.js';
import { displayText } from '../../shared/display-text.js';
import { networkWords } from '../../shared/network-reach.js';
import { boxLines, LIMIT_HIT } from '../../shared/approval-text.js';
import { JSON_OPTION, printJson, type Command } from '../command.js';
import { localTime, table } from '../table.js';

/** What was decided and by whom, as one phrase: `approved by user (ann@box (terminal))`. */
function decision(r: RunSummary): string {
  if (r.outcome === null) return 'undecided';
  const by = r.decidedBy === 'rule' && r.ruleId !== null ? `rule #${r.ruleId}` : (r.decidedBy ?? '-');
  return `${r.outcome} by ${by}${r.actor ? ` (${r.actor})` : ''}`;
}

/** How the run ended: `exit 0`, `killed by SIGKILL`, `timed out`, `E601` before it started. */
function ending(r: RunSummary): string {
  if (r.timedOut) return 'timed out';
  if (r.cancelled) return 'cancelled';
  if (r.signal) return `killed by ${r.signal}`;
  if (r.exitCode !== null) return `exit ${r.exitCode}`;
  return r.errorCode ?? '-';
}

function indented(text: string): string {
  return text
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

/** The profile and what contained it, `workspace, network to api.github.com (bubblewrap)`, or why nothing did. */
function sandboxLine(s: SandboxView): string {
  if (!s.contained) return `${s.name}, not contained: ${s.why ?? 'no sandbox'}`;
  return `${s.name}, ${networkWords(s)}${s.mechanism === null ? '' : ` (${s.mechanism})`}`;
}

/** A connection the run's proxy refused: `evil.example:443, 3 times: not in the skill's network list`; the tool chose the host, so it is shown escaped. */
export function refusedConnection(d: NetworkDenial): string {
  return `${displayText(d.host)}:${d.port}${d.count > 1 ? `, ${d.count} times` : ''}: ${d.why}`;
}

/** Every field of a run record a person may need, labelled, then its output. */
function formatRunRecord(r: RunRecord): string {
  const lines: [string, string][] = [
    ['run', r.id],
    ['trace', r.traceId],
    ['tool', `${r.skill}/${r.tool}`],
    ['asked', `${localTime(r.requestedAt)} over ${r.surface}`],
    ['arguments', JSON.stringify(r.args)],
    ['status', r.status],
    ['decision', `${decision(r)}${r.decidedAt === null ? '' : ` at ${localTime(r.decidedAt)}`}`],
  ];
  if (r.reason) lines.push(['reason', r.reason]);
  if (r.command) {
    lines.push(['program', r.programPath ?? `${r.command.program} (not found)`]);
    r.command.args.forEach((arg, i) => lines.push([`arg ${i + 1}`, JSON.stringify(arg)]));
    lines.push(
      ['cwd', r.command.cwd],
      ['timeout', `${r.command.timeoutMs / 1000} s`],
      ['env', r.command.env.length > 0 ? r.command.env.join(', ') : '(allow-list only)'],
    );
  }
  if (r.sandbox) {
    lines.push(['sandbox', sandboxLine(r.sandbox)]);
    for (const line of boxLines(r.sandbox)) lines.push(['', line]);
  }
  for (const denial of r.networkDenied) lines.push(['refused', refusedConnection(denial)]);
  // The tool chose these names: shown escaped.
  for (const path of r.swept) lines.push(['removed', `${displayText(path)} (hidden, made by the run without declaring it)`]);
  lines.push(['skill hash', r.skillHash]);
  if (r.startedAt !== null) lines.push(['started', localTime(r.startedAt)]);
  if (r.endedAt !== null) lines.push(['ended', localTime(r.endedAt)]);
  if (r.durationMs !== null) lines.push(['duration', `${Math.round(r.durationMs)} ms`]);
  lines.push(['result', `${ending(r)}${r.limitHit === null ? '' : `, stopped at ${LIMIT_HIT[r.limitHit]}`}`]);
  if (r.droppedStdout + r.droppedStderr > 0) lines.push(['dropped', `${r.droppedStdout} bytes of stdout, ${r.droppedStderr} of stderr (over the output cap)`]);
  const width = Math.max(...lines.map(([label]) => label.length));
  let text = `${lines.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n')}\n`;
  for (const [name, output] of [
    ['stdout', r.stdout],
    ['stderr', r.stderr],
  ] as const) {
    text += output ? `\n${name}:\n${indented(output)}\n` : `\n${name}: (empty)\n`;
  }
  return text;
}

/** Runs as a table: WHEN (local date and time), TOOL, STATUS, DECISION, RESULT, VIA, ID. */
function formatRunTable(runs: readonly RunSummary[]): string {
  const rows = [['WHEN', 'TOOL', 'STATUS', 'DECISION', 'RESULT', 'VIA', 'ID']];
  for (const r of runs)
    rows.push([localTime(r.requestedAt), `${r.skill}/${r.tool}`, r.status, `${r.outcome ?? '-'} by ${r.decidedBy ?? '-'}`, ending(r), r.surface, r.id]);
  return `${table(rows)}\n`;
}

export const historyCommand: Command = {
  name: 'history',
  summary: 'runs, newest first: when, which tool, what was decided and by whom, how it ended; or one run whole',
  positionals: [{ name: 'run-id', required: false }],
  options: {
    skill: { type: 'string', value: '<name>', description: 'only this skill' },
    tool: { type: 'string', value: '<name>', description: 'only this tool' },
    status: { type: 'string', value: '<status>', choices: RUN_STATUSES, description: `only this status (${RUN_STATUSES.join(', ')})` },
    surface: { type: 'string', value: '<surface>', choices: SURFACES, description: `only runs asked for over ${SURFACES.join(', ')}` },
    limit: { type: 'integer', value: '<n>', min: 1, description: 'at most n runs (default 100)' },
    ...JSON_OPTION,
  },
  examples: [
    ['history', 'the latest runs'],
    ['history --skill git --status failed', "git's failed runs"],
    ['history 0197a3c2-5d1e-7c4b-9f1a-2b3c4d5e6f70', 'one run whole: argv, cwd, sandbox, decision, exit, durations, output'],
  ],
  async run(ctx, args) {
    const core = await ctx.core();
    const id = args.positionals[0];
    if (id !== undefined) {
      const record = core.runs.getRun(id);
      if (args.options.json) printJson(ctx, record);
      else ctx.io.out(formatRunRecord(record));
      return 0;
    }
    const o = args.options;
    const runs = core.runs.history({
      ...(typeof o.skill === 'string' ? { skill: o.skill } : {}),
      ...(typeof o.tool === 'string' ? { tool: o.tool } : {}),
      ...(typeof o.status === 'string' ? { status: o.status as RunStatus } : {}),
      ...(typeof o.surface === 'string' ? { surface: o.surface as Surface } : {}),
      ...(typeof o.limit === 'number' ? { limit: o.limit } : {}),
    });
    if (o.json) printJson(ctx, runs);
    else ctx.io.out(runs.length === 0 ? 'No runs yet.\n' : formatRunTable(runs));
    return 0;
  },
};
