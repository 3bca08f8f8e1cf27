/**
 * `skilltray projects`, `trust-project <dir>` and `untrust-project <dir>`: which project folders'
 * own skills (.claude/skills, .agents/skills) the person trusts. Through the running owner when
 * there is one, so its skills follow at once; else on the home directly.
 */
import { resolve } from 'node:path';
import type { SkilltrayClient } from '../../shared/contract.js';
import type { ProjectInspection, TrustedProject } from '../../shared/model.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { JSON_OPTION, printJson, type CliContext, type Command } from '../command.js';
import { findRunningOwner } from '../owner-link.js';
import { confirmed } from './packs.js';

/** The steps, at the owner or on this process's core. */
interface ProjectTarget {
  list(): Promise<TrustedProject[]>;
  inspect(path: string): Promise<ProjectInspection>;
  trust(path: string, confirm: string): Promise<TrustedProject>;
  untrust(path: string): Promise<void>;
}

async function target(ctx: CliContext): Promise<ProjectTarget> {
  const owner = await findRunningOwner(ctx.config().home);
  if (owner !== null) {
    const client: SkilltrayClient = owner.client;
    return {
      list: () => client.projects({}),
      inspect: (path) => client.inspectProject({ path }),
      trust: (path, confirm) => client.trustProject({ path, confirm }),
      untrust: async (path) => void (await client.untrustProject({ path })),
    };
  }
  const core = await ctx.core();
  return {
    list: async () => core.projects.list(),
    inspect: async (path) => core.projects.inspect(path),
    trust: (path, confirm) => core.projects.trust(path, confirm),
    untrust: (path) => core.projects.untrust(path),
  };
}

const projects: Command = {
  name: 'projects',
  summary: 'the project folders whose own skills (.claude/skills, .agents/skills) you trust, and whether they changed since',
  positionals: [],
  options: { ...JSON_OPTION },
  examples: [['projects', 'each trusted folder: trusted, or changed (its skills are not loaded until trusted again)']],
  async run(ctx, args) {
    const list = await (await target(ctx)).list();
    if (args.options.json) printJson(ctx, list);
    else if (list.length === 0) ctx.io.out("No project folder is trusted. Trust one with 'skilltray trust-project <dir>'.\n");
    else
      for (const p of list)
        ctx.io.out(`${p.path}  ${p.state === 'trusted' ? 'trusted' : 'changed since you trusted it: not loaded'}  ${p.skills.join(', ') || 'no skills'}\n`);
    return 0;
  },
};

const trust: Command = {
  name: 'trust-project',
  summary: "load a project folder's own skills (.claude/skills, .agents/skills) as user skills, as they are now; any later change untrusts them",
  positionals: [{ name: 'dir', required: true }],
  options: { yes: { type: 'boolean', description: 'trust the skills shown without asking' }, ...JSON_OPTION },
  examples: [
    ['trust-project .', "this repository's skills, after you see which they are"],
    ['trust-project ~/code/app --yes', 'without asking'],
  ],
  async run(ctx, args) {
    const to = await target(ctx);
    const found = await to.inspect(resolve(ctx.cwd, args.positionals[0] as string));
    if (found.skills.length === 0) throw skillcErrors.invalidOption(`${found.path} holds no skills in .claude/skills or .agents/skills`);
    if (!args.options.json)
      ctx.io.out(`${found.path} holds these skills (each of their tools will ask before it runs):\n${found.skills.map((s) => `  ${s}\n`).join('')}`);
    if (!args.options.yes && !(await confirmed(ctx, 'Trust them as they are now?'))) {
      throw skillcErrors.invalidOption('not trusted: answer y at the terminal, or pass --yes');
    }
    const trusted = await to.trust(found.path, found.digest);
    if (args.options.json) printJson(ctx, trusted);
    else ctx.io.out(`trusted ${trusted.path}: ${trusted.skills.length} skill${trusted.skills.length === 1 ? '' : 's'}\n`);
    return 0;
  },
};

const untrust: Command = {
  name: 'untrust-project',
  summary: "stop loading a project folder's own skills",
  positionals: [{ name: 'dir', required: true }],
  options: { ...JSON_OPTION },
  examples: [['untrust-project ~/code/app', 'its skills are no longer loaded']],
  async run(ctx, args) {
    const path = resolve(ctx.cwd, args.positionals[0] as string);
    await (await target(ctx)).untrust(path);
    if (args.options.json) printJson(ctx, { path, trusted: false });
    else ctx.io.out(`no longer trusted: ${path}\n`);
    return 0;
  },
};

export const projectCommands: Command[] = [projects, trust, untrust];
