/** `list`, `check`, `describe` and `roots`: the loaded skills as data. */
import { relative } from 'node:path';
import { describeRoots } from '../../core/config.js';
import { ROLES, type CheckReport, type Diagnostic, type Skill, type SkillState } from '../../shared/model.js';
import { watchChecks } from './check-watch.js';
import { formatNames } from '../format/diagnostics.js';
import { displayLines } from '../../shared/display-text.js';
import { switchesText } from '../../shared/pack-text.js';
import { policyDifferences } from '../../shared/tool-policy.js';
import { JSON_OPTION, printJson, type Command } from '../command.js';
import { findRunningOwner } from '../owner-link.js';
import { clip, table } from '../table.js';

const HEALTH: readonly SkillState[] = ['ok', 'warnings', 'error'];

/**
 * One diagnostic as a line: `error[E411] SKILL.md:23 message (Skilltray will not run this skill; also breaks: gibb.eri.sh)`.
 * An error stops Skilltray itself (E507), whatever other formats it breaks, so it says that first.
 */
export function diagnosticLine(d: Diagnostic, skillDir: string): string {
  const at = d.column === undefined ? `${d.line}` : `${d.line}:${d.column}`;
  const where = `${relative(skillDir, d.file) || d.file}:${at}`;
  const effect =
    d.severity === 'error'
      ? `Skilltray will not run this skill${d.breaks.length === 0 ? '' : `; also breaks: ${formatNames(d.breaks)}`}`
      : `breaks: ${formatNames(d.breaks)}`;
  return `${d.severity}[${d.code}] ${where} ${d.message} (${effect})`;
}

const list: Command = {
  name: 'list',
  summary: 'list the loaded skills with version, trust, status (their health), tools; filter by status, lifecycle, domain, role',
  positionals: [],
  options: {
    status: {
      type: 'string',
      value: '<status>',
      choices: HEALTH,
      description: `only skills whose STATUS column says this (${HEALTH.join(', ')})`,
      hint: (value) => `; '${value}' is not a health: for the lifecycle (stable, experimental, …) use --lifecycle ${value}`,
    },
    lifecycle: { type: 'string', value: '<lifecycle>', description: "only this lifecycle, the classification's status (stable, experimental, …)" },
    domain: { type: 'string', value: '<domain>', description: 'only skills of this domain' },
    role: { type: 'string', value: '<role>', choices: ROLES, description: `only this role (${ROLES.join(', ')})` },
    offered: { type: 'boolean', description: 'only skills offered in the current mode' },
    limit: { type: 'integer', value: '<n>', min: 1, description: 'at most n skills' },
    offset: { type: 'integer', value: '<n>', min: 0, description: 'skip the first n' },
    ...JSON_OPTION,
  },
  examples: [
    ['list', 'every loaded skill'],
    ['list --status error', 'the skills that failed to load (STATUS error)'],
    ['list --lifecycle stable --role utility', 'stable building blocks'],
    ['list --json | jq -r ".skills[].name"', 'the names, for a script'],
  ],
  async run(ctx, args) {
    const o = args.options;
    const result = (await ctx.core()).skills.listSkills({
      ...(typeof o.domain === 'string' ? { domain: o.domain } : {}),
      ...(typeof o.role === 'string' ? { role: o.role } : {}),
      ...(typeof o.lifecycle === 'string' ? { status: o.lifecycle } : {}),
      ...(typeof o.status === 'string' ? { health: o.status as SkillState } : {}),
      ...(o.offered ? { offeredOnly: true } : {}),
      ...(typeof o.offset === 'number' ? { offset: o.offset } : {}),
      ...(typeof o.limit === 'number' ? { limit: o.limit } : {}),
    });
    if (args.options.json) {
      printJson(ctx, result);
      return 0;
    }
    const filtered = ['status', 'lifecycle', 'domain', 'role', 'offered'].some((name) => o[name] !== undefined);
    if (result.skills.length === 0) {
      ctx.io.out(filtered ? 'No skill matches those filters.\n' : 'No skills found. Put skills in one of the directories `skilltray roots` shows.\n');
      return 0;
    }
    const rows = [['NAME', 'VERSION', 'TRUST', 'STATUS', 'ON', 'TOOLS', 'DESCRIPTION']];
    for (const s of result.skills) {
      rows.push([s.name, s.version ?? '-', s.trust, s.status, s.enabled ? 'on' : 'off', String(s.tools.length), clip(s.description.replace(/\s+/g, ' '), 60)]);
    }
    const notes = [
      ...result.skills
        .filter((s) => s.switches.length > 0)
        .map((s) => `note: ${s.name} is ${switchesText(s.switches)} (skilltray enable ${s.name} turns it back on)`),
      ...result.shadowed.map((s) => `note: ${s.name} in ${s.winner.root.path} hides ${s.name} in ${s.loser.root.path}`),
      ...result.skills
        .filter((s) => s.name.startsWith('-'))
        .map((s) => `warning: ${s.name} starts with '-', which other hosts' command lines read as an option (W440); rename its folder`),
    ];
    ctx.io.out(`${table(rows)}\n${notes.length === 0 ? '' : displayLines(notes)}`);
    return 0;
  },
};

/** A check report as `check` prints it. */
function checkLines(report: CheckReport): string[] {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const lines = report.skills.flatMap((s) => [`${s.name} ${s.status} ${s.path}`, ...s.diagnostics.map((d) => `  ${diagnosticLine(d, s.path)}`)]);
  lines.push(`${plural(report.skills.length, 'skill')} checked: ${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}`);
  for (const root of report.unreadable_roots)
    lines.push(`warning: the skill root ${root.path} cannot be read (${root.why}): its skills are neither loaded nor checked`);
  return lines;
}

const check: Command = {
  name: 'check',
  summary: 'report the diagnostics of a skill, a skill directory or a directory of skills (exit 1 on errors); --watch checks again on every change',
  positionals: [{ name: 'skill-or-path', required: true, skill: true }],
  options: {
    watch: { type: 'boolean', description: 'check again each time a file of it changes, printing the new diagnostics, until Ctrl+C' },
    ...JSON_OPTION,
  },
  examples: [
    ['check git', 'a loaded skill, by name'],
    ['check ./my-skill', 'a skill directory that is not installed'],
    ['check ~/skills --json', 'every skill in a directory, as data'],
    ['check ./my-skill --watch', 'again on every save, until Ctrl+C'],
  ],
  async run(ctx, args) {
    const target = args.positionals[0] as string;
    const core = await ctx.core();
    const print = (report: CheckReport): void => {
      if (args.options.json) printJson(ctx, report);
      else ctx.io.out(displayLines(checkLines(report)));
    };
    const report = core.skills.check(target, ctx.cwd);
    print(report);
    if (!args.options.watch) return report.errors > 0 ? 1 : 0;
    await watchChecks(ctx, target, report, () => core.skills.check(target, ctx.cwd, { asWritten: true }), print);
    return 0;
  },
};

/** A frontmatter value as one line: text as written, a list joined, anything else as JSON. */
function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) return value.map(String).join(', ');
  return JSON.stringify(value);
}

/** The Agent Skills fields and the metadata, in this order, each only when written. */
function frontmatterLines(skill: Skill, field: (label: string, value: string) => string): string[] {
  const fm = skill.frontmatter;
  const lines: string[] = [];
  for (const key of ['license', 'compatibility', 'allowed-tools']) {
    if (fm[key] !== undefined && fm[key] !== null && fm[key] !== '') lines.push(field(key, valueText(fm[key])));
  }
  const metadata = fm.metadata;
  if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)) {
    // Written order; classification has its own line above.
    const entries = Object.entries(metadata).filter(([key, value]) => key !== 'classification' && value !== undefined && value !== null && value !== '');
    if (entries.length > 0) lines.push('metadata:', ...entries.map(([key, value]) => `  ${key}: ${valueText(value)}`));
  }
  return lines;
}

function describeText(skill: Skill): string {
  const field = (label: string, value: string): string => `${`${label}:`.padEnd(15)} ${value}`;
  const lines = [
    `${skill.name} ${skill.version ?? ''}`.trimEnd(),
    skill.description,
    '',
    field('path', skill.dir),
    // A root's kind and the trust it gives often share a word ("bundled"): say it once.
    field('root', `${skill.root.path} (${skill.root.kind === skill.trust ? skill.trust : `${skill.root.kind} root, ${skill.trust} trust`})`),
    field('hash', skill.hash),
    field('status', skill.state),
    field('modes', skill.modes.join(', ') || '(none)'),
    field('read_only', `${skill.readOnly}   always_ask: ${skill.alwaysAsk}   timeout: ${skill.timeoutSec}s   placeholders: ${skill.syntax}`),
  ];
  if (skill.requires.bins.length + skill.requires.env.length > 0) {
    lines.push(field('requires', `bins [${skill.requires.bins.join(', ')}]  env [${skill.requires.env.join(', ')}]`));
  }
  const c = skill.classification;
  if (c) {
    lines.push(
      field(
        'classification',
        `role ${c.role ?? '-'}, invocation ${c.invocation ?? '-'}, effect ${c.effectMode ?? '-'}, targets [${c.attachTargets.join(', ')}]`,
      ),
    );
  }
  if (skill.tags.length + skill.domain.length > 0 || skill.status) {
    lines.push(field('discovery', `domain [${skill.domain.join(', ')}] tags [${skill.tags.join(', ')}] status ${skill.status ?? '-'}`));
  }
  lines.push(...frontmatterLines(skill, field));
  for (const tool of skill.tools) {
    lines.push('', `tool ${tool.name}: ${tool.description}`, `  command: ${tool.command.trim()}`);
    const own = policyDifferences(skill, tool);
    if (own.length > 0) lines.push(`  policy: ${own.join(', ')} (its own, over the skill's)`);
    for (const p of tool.params) {
      const type = p.type === 'enum' ? `enum: ${p.enumValues.join(', ')}` : p.type;
      lines.push(`  - ${p.name} (${type}${p.allowDash ? ', allow-dash' : ''}, ${p.required ? 'required' : 'optional'}) ${p.description}`);
    }
  }
  if (skill.diagnostics.length > 0) {
    lines.push('', 'diagnostics:', ...skill.diagnostics.map((d) => `  ${diagnosticLine(d, skill.dir)}`));
  }
  return displayLines(lines);
}

const describe: Command = {
  name: 'describe',
  summary: 'show one skill whole: frontmatter (license, compatibility, allowed-tools, metadata), tools with parameters, classification, requirements',
  positionals: [{ name: 'skill', required: true, skill: true }],
  options: { ...JSON_OPTION },
  examples: [
    ['describe git', 'the git skill: tools, parameters, classification'],
    ['describe git --json', 'the same as data, frontmatter included'],
  ],
  async run(ctx, args) {
    const skill = (await ctx.library()).getSkill(args.positionals[0] as string);
    if (args.options.json) printJson(ctx, skill);
    else ctx.io.out(describeText(skill));
    return 0;
  },
};

const roots: Command = {
  name: 'roots',
  summary: 'show the skill roots in precedence order (first match wins on a name), and how the running app or serve watches each',
  positionals: [],
  options: { ...JSON_OPTION },
  examples: [
    ['roots', 'where skills are looked for, first match wins, and how the running app watches each'],
    ['roots --json', 'the same as data'],
  ],
  async run(ctx, args) {
    // How roots are watched is the running owner's to say; this process watches nothing.
    const owner = await findRunningOwner(ctx.config().home);
    const result = owner === null ? describeRoots(ctx.config()) : await owner.client.roots({});
    if (args.options.json) {
      printJson(ctx, result);
      return 0;
    }
    const rows = [['#', 'KIND', 'TRUST', 'PLACEHOLDERS', 'WATCHED', 'PATH']];
    result.roots.forEach((r, i) =>
      rows.push([
        String(i + 1),
        r.kind,
        r.trust,
        r.syntax,
        r.watch?.mode ?? '-',
        `${r.path}${!r.exists ? ' (missing)' : typeof r.unreadable === 'string' ? ' (unreadable)' : ''}`,
      ]),
    );
    let text = `home: ${result.home}\n${table(rows)}\n`;
    if (owner === null) text += 'note: no Skilltray app or serve is running, so no root is being watched\n';
    for (const r of result.roots) {
      if (typeof r.unreadable === 'string') text += `warning: ${r.path} cannot be read (${r.unreadable}): its skills are not loaded\n`;
      for (const p of r.watch?.problems ?? []) text += `warning: ${p.path}: ${p.message}\n`;
    }
    ctx.io.out(text);
    return 0;
  },
};

export const skillCommands: Command[] = [list, check, describe, roots];
