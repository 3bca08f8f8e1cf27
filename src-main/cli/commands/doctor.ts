/** `doctor`: what this machine has for Skilltray, as the core finds it (the running app's or serve's view when one runs: it watches the roots). */
import { DOCTOR_AREAS, type DoctorArea, type DoctorReport } from '../../shared/doctor.js';
import { displayLines } from '../../shared/display-text.js';
import { JSON_OPTION, printJson, type Command } from '../command.js';
import { findRunningOwner } from '../owner-link.js';

const AREA_TITLES: Record<DoctorArea, string> = {
  containment: 'Containment',
  roots: 'Skill roots',
  clients: 'Assistants',
  voice: 'Voice',
  node: 'Node',
};

const STATE_WORDS = { ok: 'ok', note: 'note', problem: 'PROBLEM' } as const;

/** The report as people read it: by area, one check a line, each fix under its check. */
export function doctorText(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((c) => c.name.length));
  const lines: string[] = [];
  for (const area of DOCTOR_AREAS) {
    const checks = report.checks.filter((c) => c.area === area);
    if (checks.length === 0) continue;
    lines.push(AREA_TITLES[area]);
    for (const c of checks) {
      lines.push(`  ${STATE_WORDS[c.state].padEnd(7)} ${c.name.padEnd(width)}  ${c.detail}`);
      if (c.fix !== null && c.state !== 'ok') lines.push(`  ${''.padEnd(7)} ${''.padEnd(width)}  fix: ${c.fix}`);
    }
    lines.push('');
  }
  const problems = report.checks.filter((c) => c.state === 'problem').length;
  lines.push(problems === 0 ? 'All is well.' : `${problems} problem${problems === 1 ? '' : 's'}: each has its fix above.`);
  return displayLines(lines);
}

export const doctorCommand: Command = {
  name: 'doctor',
  summary: "check this machine for Skilltray: containment, skill roots, assistants' entries, voice, Node; exit 1 when something needs fixing",
  positionals: [],
  options: { ...JSON_OPTION },
  notes: ['It only reads: it changes nothing. Each problem comes with the line that fixes it.'],
  examples: [
    ['doctor', 'every check, grouped, with fixes'],
    ['doctor --json', 'the same as data (ok, checks with area, state, detail, fix)'],
  ],
  async run(ctx, args) {
    // The owner watches the roots, so its view says how each is watched; without one, this process looks itself.
    const owner = await findRunningOwner(ctx.config().home);
    const report = owner === null ? await (await ctx.core()).doctor() : await owner.client.doctor({});
    if (args.options.json) printJson(ctx, report);
    else ctx.io.out(doctorText(report));
    return report.ok ? 0 : 1;
  },
};
