/** `list`, `check` and `describe`: the loaded skills as data. */
import { relative } from 'node:path';
import { ROLES, type Diagnostic, type Skill } from '../../shared/model.js';
import { formatNames } from '../../core/skills/diagnostics.js';
import { findOwner, ownerClient } from '../../server/app-link.js';
import { JSON_OPTION, printJson, type Command } from '../command.js';

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd()).join('\n');
}

function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

/** One diagnostic as a line: `error[E411] SKILL.md:23 message (breaks gibb.eri.sh)`. */
export function diagnosticLine(d: Diagnostic, skillDir: string): string {
  return `${d.severity}[${d.code}] ${relative(skillDir, d.file) || d.file}:${d.line} ${d.message} (breaks: ${formatNames(d.breaks)})`;
}

const list: Command = {
  name: 'list',
  summary: 'list the loaded skills with source, trust, tools and status; filter as ADR-001 lists (domain, role, status)',
  positionals: [],
  options: {
    domain: { type: 'string', value: '<domain>', description: 'only skills of this domain' },
    role: { type: 'string', value: '<role>', choices: ROLES, description: `only this role (${ROLES.join(', ')})` },
    status: { type: 'string', value: '<status>', description: 'only this classification status (stable, experimental, …)' },
    offered: { type: 'boolean', description: 'only skills offered in the current mode' },
    limit: { type: 'integer', value: '<n>', min: 1, description: 'at most n skills' },
    offset: { type: 'integer', value: '<n>', min: 0, description: 'skip the first n' },
    ...JSON_OPTION,
  },
  run(ctx, args) {
    const o = args.options;
    const result = ctx.core().listSkills({
      ...(typeof o.domain === 'string' ? { domain: o.domain } : {}),
      ...(typeof o.role === 'string' ? { role: o.role } : {}),
      ...(typeof o.status === 'string' ? { status: o.status } : {}),
      ...(o.offered ? { offeredOnly: true } : {}),
      ...(typeof o.offset === 'number' ? { offset: o.offset } : {}),
      ...(typeof o.limit === 'number' ? { limit: o.limit } : {}),
    });
    if (args.options.json) {
      printJson(ctx, result);
      return 0;
    }
    if (result.skills.length === 0) {
      ctx.io.out('No skills found. Put skills in one of the directories `skilltray roots` shows.\n');
      return 0;
    }
    const rows = [['NAME', 'VERSION', 'TRUST', 'STATUS', 'TOOLS', 'DESCRIPTION']];
    for (const s of result.skills) {
      rows.push([s.name, s.version ?? '-', s.trust, s.status, String(s.tools.length), clip(s.description.replace(/\s+/g, ' '), 60)]);
    }
    let text = `${table(rows)}\n`;
    for (const s of result.shadowed) text += `note: ${s.name} in ${s.winner.root.path} hides ${s.name} in ${s.loser.root.path}\n`;
    ctx.io.out(text);
    return 0;
  },
};

const check: Command = {
  name: 'check',
  summary: 'report the diagnostics of a skill, a skill directory or a directory of skills (exit 1 on errors)',
  positionals: [{ name: 'skill-or-path', required: true }],
  options: { ...JSON_OPTION },
  run(ctx, args) {
    const report = ctx.core().check(args.positionals[0] as string, ctx.cwd);
    if (args.options.json) {
      printJson(ctx, report);
    } else {
      let text = '';
      for (const s of report.skills) {
        text += `${s.name} ${s.status} ${s.path}\n`;
        for (const d of s.diagnostics) text += `  ${diagnosticLine(d, s.path)}\n`;
      }
      const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
      text += `${plural(report.skills.length, 'skill')} checked: ${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}\n`;
      ctx.io.out(text);
    }
    return report.errors > 0 ? 1 : 0;
  },
};

function describeText(skill: Skill): string {
  const lines = [
    `${skill.name} ${skill.version ?? ''}`.trimEnd(),
    skill.description,
    '',
    `path:      ${skill.dir}`,
    `root:      ${skill.root.path} (${skill.root.kind}, ${skill.trust})`,
    `hash:      ${skill.hash}`,
    `status:    ${skill.state}`,
    `modes:     ${skill.modes.join(', ') || '(none)'}`,
    `read_only: ${skill.readOnly}   always_ask: ${skill.alwaysAsk}   timeout: ${skill.timeoutSec}s   placeholders: ${skill.syntax}`,
  ];
  if (skill.requires.bins.length + skill.requires.env.length > 0) {
    lines.push(`requires:  bins [${skill.requires.bins.join(', ')}]  env [${skill.requires.env.join(', ')}]`);
  }
  const c = skill.classification;
  if (c) {
    lines.push(`class:     role ${c.role ?? '-'}, invocation ${c.invocation ?? '-'}, effect ${c.effectMode ?? '-'}, targets [${c.attachTargets.join(', ')}]`);
  }
  if (skill.tags.length + skill.domain.length > 0 || skill.status) {
    lines.push(`discovery: domain [${skill.domain.join(', ')}] tags [${skill.tags.join(', ')}] status ${skill.status ?? '-'}`);
  }
  for (const tool of skill.tools) {
    lines.push('', `tool ${tool.name}: ${tool.description}`, `  command: ${tool.command.trim()}`);
    for (const p of tool.params) {
      const type = p.type === 'enum' ? `enum: ${p.enumValues.join(', ')}` : p.type;
      lines.push(`  - ${p.name} (${type}${p.allowDash ? ', allow-dash' : ''}, ${p.required ? 'required' : 'optional'}) ${p.description}`);
    }
  }
  if (skill.diagnostics.length > 0) {
    lines.push('', 'diagnostics:', ...skill.diagnostics.map((d) => `  ${diagnosticLine(d, skill.dir)}`));
  }
  return `${lines.join('\n')}\n`;
}

const describe: Command = {
  name: 'describe',
  summary: 'show one skill whole: frontmatter, tools with parameters, classification, requirements',
  positionals: [{ name: 'skill', required: true }],
  options: { ...JSON_OPTION },
  run(ctx, args) {
    const skill = ctx.core().getSkill(args.positionals[0] as string);
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
  async run(ctx, args) {
    // How roots are watched is the running owner's to say; this process watches nothing.
    const link = await findOwner(ctx.config().home);
    const result = link === null ? ctx.core().roots() : await ownerClient(link, 'cli').roots({});
    if (args.options.json) {
      printJson(ctx, result);
      return 0;
    }
    const rows = [['#', 'KIND', 'TRUST', 'PLACEHOLDERS', 'WATCHED', 'PATH']];
    result.roots.forEach((r, i) => rows.push([String(i + 1), r.kind, r.trust, r.syntax, r.watch?.mode ?? '-', `${r.path}${r.exists ? '' : ' (missing)'}`]));
    let text = `home: ${result.home}\n${table(rows)}\n`;
    if (link === null) text += 'note: no Skilltray app or serve is running, so no root is being watched\n';
    for (const r of result.roots) for (const p of r.watch?.problems ?? []) text += `warning: ${p.path}: ${p.message}\n`;
    ctx.io.out(text);
    return 0;
  },
};

export const skillCommands: Command[] = [list, check, describe, roots];
