/**
 * `install`, `update`, `uninstall`, `packs`, `enable`, `disable` and `trust-key`: skill packs and
 * switches from the terminal. Nothing is installed before its scan report is shown and confirmed:
 * `--yes`, or `y` at a terminal; otherwise E304. `--verbose` prints each step on stderr.
 */
import { MODES } from '../../shared/model.js';
import type { PackChange } from '../../shared/packs.js';
import type { PackProgress } from '../../core/api.js';
import { SkilltrayError, toSkilltrayError } from '../../shared/skilltray-error.js';
import { displayLines } from '../../shared/display-text.js';
import { JSON_OPTION, printJson, type CliContext, type Command } from '../command.js';
import { lockCheckText, packListText, scanReportText, updateReportText } from './pack-report.js';

const CONFIRM = {
  yes: { type: 'boolean', description: 'confirm the scan report without being asked (it is still printed)' },
  force: { type: 'boolean', description: 'install despite high-severity findings (never an archive unsafe to extract, never a name clash)' },
  verbose: { type: 'boolean', description: 'print each step (fetch, every file, scan, commit) on stderr' },
} as const;

function progress(ctx: CliContext, verbose: boolean): (p: PackProgress) => void {
  return (p) => {
    if (verbose) ctx.io.err(`progress: ${p.step}${'path' in p ? ` ${p.path}` : ''}\n`);
  };
}

/** Asks at a terminal; elsewhere nobody can say yes. */
export async function confirmed(ctx: CliContext, question: string): Promise<boolean> {
  if (!ctx.io.interactive) return false;
  return /^y(es)?$/i.test((await ctx.io.ask(`${question} [y/N] `)).trim());
}

function changeText(change: PackChange): string {
  const revoked = change.revoked.length === 0 ? '' : `; remembered approvals revoked: ${change.revoked.map((r) => `${r.skill}/${r.tool}`).join(', ')}`;
  return displayLines([`${change.action} pack ${change.pack}: ${change.skills.join(', ') || 'no skills'}${revoked}`]);
}

/** Prints the report a refusal carries before the error itself (unless the person already saw it), so they see why. */
function withReport(ctx: CliContext, shown: boolean, error: unknown): never {
  const coded = toSkilltrayError(error);
  const report = coded.details?.report as Parameters<typeof scanReportText>[0] | undefined;
  if (!shown && report !== undefined) ctx.io.out(scanReportText(report));
  throw coded;
}

const install: Command = {
  name: 'install',
  summary: 'install a skill pack from a git URL or repository, a folder, a .zip or a .tar.gz, after showing its scan report',
  positionals: [{ name: 'source', required: true }],
  options: {
    ref: { type: 'string', value: '<ref>', description: 'a git branch, tag or commit' },
    path: { type: 'string', value: '<dir>', description: 'the folder inside the source that holds the skill or skills' },
    as: { type: 'string', value: '<name>', description: 'install a one-skill pack under this name (when its own would clash)' },
    repair: { type: 'boolean', description: 'put the installed pack SOURCE names back to the files its lock records, fetched again from where it came' },
    ...CONFIRM,
    ...JSON_OPTION,
  },
  examples: [
    ['install https://github.com/you/skills.git --path pdf', 'one folder of a repository, after its scan report and a y'],
    ['install ./my-skills --yes', 'a local folder, confirmed without asking (the report is still printed)'],
    ['install pack.tar.gz --as notes-plus', 'a one-skill archive under another name, when its own would clash'],
    ['install git@github.com:you/skills.git --ref v1.2.0 --json', 'a tag over SSH; the change and its report as data'],
    ['install --repair pdf', 'restore an installed pack edited behind its lock (skilltray packs --check lists what differs)'],
  ],
  async run(ctx, args) {
    const o = args.options;
    const json = o.json === true;
    if (o.repair === true) {
      const change = await (await (await ctx.core()).packs()).repair(args.positionals[0] as string, progress(ctx, o.verbose === true));
      if (json) printJson(ctx, change);
      else ctx.io.out(changeText(change));
      return 0;
    }
    const request = {
      source: args.positionals[0] as string,
      ref: (o.ref as string | undefined) ?? null,
      path: (o.path as string | undefined) ?? null,
      as: (o.as as string | undefined) ?? null,
    };
    const core = await ctx.core();
    const onProgress = progress(ctx, o.verbose === true);
    let change: PackChange;
    try {
      if (o.yes === true) {
        change = await (await core.packs()).install(request, ctx.cwd, { confirm: 'yes', force: o.force === true }, onProgress);
      } else {
        const report = await (await core.packs()).preview(request, ctx.cwd, onProgress);
        if (!json) ctx.io.out(scanReportText(report));
        const yes = report.skills.length > 0 && (await confirmed(ctx, `Install pack ${report.pack}?`));
        change = await (await core.packs()).install(request, ctx.cwd, { confirm: yes ? report.digest : null, force: o.force === true }, onProgress);
      }
    } catch (error) {
      // Without --yes the report was printed before the question; in JSON the error carries it.
      withReport(ctx, json || o.yes !== true, error);
    }
    if (json) printJson(ctx, change);
    else {
      if (o.yes === true && change.report !== null) ctx.io.out(scanReportText(change.report));
      ctx.io.out(changeText(change));
    }
    return 0;
  },
};

const update: Command = {
  name: 'update',
  summary: 'fetch installed packs again and show, tool by tool, what an update changes before applying it',
  positionals: [{ name: 'pack', required: false }],
  options: { ...CONFIRM, ...JSON_OPTION },
  examples: [
    ['update', 'every installed pack: fetch, scan, show the diff, ask'],
    ['update pdf --yes', 'one pack, confirmed without asking (the diff is still printed)'],
  ],
  async run(ctx, args) {
    const o = args.options;
    const json = o.json === true;
    const core = await ctx.core();
    const named = args.positionals[0];
    const packs = named === undefined ? (await (await core.packs()).list()).map((p) => p.name) : [named];
    const onProgress = progress(ctx, o.verbose === true);
    const results = [];
    for (const pack of packs) {
      const report = await (await core.packs()).previewUpdate(pack, onProgress);
      if (!json) ctx.io.out(updateReportText(report));
      if (report.upToDate) {
        results.push({ report, change: null });
        continue;
      }
      const yes = o.yes === true || (await confirmed(ctx, `Update pack ${pack}?`));
      try {
        const change = await (await core.packs()).update(pack, { confirm: yes ? report.scan.digest : null, force: o.force === true }, onProgress);
        if (!json) ctx.io.out(changeText(change));
        results.push({ report, change });
      } catch (error) {
        // In JSON the update report itself rides on the refusal: a script sees the diff it was not allowed to apply.
        const coded = toSkilltrayError(error);
        if (json) throw new SkilltrayError(coded.code, coded.message, { details: { ...coded.details, update: report }, cause: coded });
        withReport(ctx, true, coded);
      }
    }
    if (json) printJson(ctx, results);
    return 0;
  },
};

const uninstall: Command = {
  name: 'uninstall',
  summary: 'remove an installed pack: its files, lock entry, search indexes and remembered approvals (history stays)',
  positionals: [{ name: 'pack', required: true }],
  options: { verbose: CONFIRM.verbose, ...JSON_OPTION },
  examples: [['uninstall pdf', 'remove the pack; its run history stays']],
  async run(ctx, args) {
    const core = await ctx.core();
    const change = await (await core.packs()).uninstall(args.positionals[0] as string, progress(ctx, args.options.verbose === true));
    if (args.options.json) printJson(ctx, change);
    else ctx.io.out(changeText(change));
    return 0;
  },
};

const packs: Command = {
  name: 'packs',
  summary:
    'list installed packs: source, commit, signature, whether the files still match the lock, and (--check) every file that differs and whether an update is waiting',
  positionals: [],
  options: {
    check: { type: 'boolean', description: 'list every file that differs from the lock, and fetch each pack again to see whether an update is waiting' },
    ...JSON_OPTION,
  },
  examples: [
    ['packs', 'source, commit, signature and whether the files still match the lock'],
    ['packs --check', 'every file edited behind the lock, and whether an update is waiting'],
    ['packs --check --json', 'the same as data'],
  ],
  async run(ctx, args) {
    const core = await ctx.core();
    const list = await (await core.packs()).list();
    const updates = new Map<string, boolean>();
    if (args.options.check) for (const p of list) updates.set(p.name, !(await (await core.packs()).previewUpdate(p.name)).upToDate);
    if (args.options.json) {
      printJson(
        ctx,
        list.map((p) => ({ ...p, ...(updates.has(p.name) ? { updateAvailable: updates.get(p.name) } : {}) })),
      );
      return 0;
    }
    let text = packListText(list);
    if (args.options.check) text += lockCheckText(list);
    for (const [name, waiting] of updates) text += displayLines([`${name}: ${waiting ? `an update is waiting (skilltray update ${name})` : 'up to date'}`]);
    ctx.io.out(text);
    return 0;
  },
};

function switchCommand(enabled: boolean): Command {
  return {
    name: enabled ? 'enable' : 'disable',
    summary: enabled
      ? 'turn a skill back on, everywhere or in one mode'
      : 'turn a skill off, everywhere or in one mode: it is not offered anywhere and its runs are refused (E618)',
    positionals: [{ name: 'skill', required: true, skill: true }],
    options: { mode: { type: 'string', value: '<mode>', description: `only in this mode (${MODES.join(', ')})` }, ...JSON_OPTION },
    examples: enabled
      ? [
          ['enable git', 'on everywhere again (every switch of git is cleared)'],
          ['enable git --mode Dev', 'on in Dev mode, whatever the everywhere switch says'],
        ]
      : [
          ['disable git', 'off everywhere: not offered to assistants, its runs refused (E618)'],
          ['disable git --mode Meeting', 'off in Meeting mode only'],
        ],
    async run(ctx, args) {
      const core = await ctx.core();
      const skill = args.positionals[0] as string;
      const switches = core.skills.setSkillEnabled(skill, enabled, (args.options.mode as string | undefined) ?? null);
      if (args.options.json) printJson(ctx, switches);
      else {
        const where = args.options.mode === undefined ? 'everywhere' : `in ${String(args.options.mode)} mode`;
        ctx.io.out(
          `${skill} is ${enabled ? 'on' : 'off'} ${where}${switches.length === 0 ? '' : ` (switches: ${switches.map((s) => `${s.scope} ${s.enabled ? 'on' : 'off'}`).join(', ')})`}\n`,
        );
      }
      return 0;
    },
  };
}

const trustKey: Command = {
  name: 'trust-key',
  summary: 'trust a public key (an SSH key file or line, or an armored GPG key) to sign packs',
  positionals: [{ name: 'key', required: true }],
  options: { principal: { type: 'string', value: '<email>', description: "the signer's email for an SSH key (default: the key's comment)" }, ...JSON_OPTION },
  examples: [
    ['trust-key ~/.ssh/alice.pub --principal alice@example.com', 'trust an SSH key to sign packs as alice'],
    ['trust-key release-key.asc', 'trust an armored GPG public key'],
  ],
  async run(ctx, args) {
    const core = await ctx.core();
    const trusted = await (await core.packs()).trustKey(args.positionals[0] as string, (args.options.principal as string | undefined) ?? null);
    if (args.options.json) printJson(ctx, trusted);
    else ctx.io.out(`trusted ${trusted.format} key ${trusted.key} for ${trusted.principal}\n`);
    return 0;
  },
};

/** The pack and switch commands. */
export const packCommands: Command[] = [install, update, uninstall, packs, switchCommand(true), switchCommand(false), trustKey];
