/** What `skilltray doctor` finds on this machine: one check a line, each with what to do about it. */

/** The parts of the machine a check is about, in the order a report lists them. */
export const DOCTOR_AREAS = ['containment', 'roots', 'clients', 'voice', 'node'] as const;
export type DoctorArea = (typeof DOCTOR_AREAS)[number];

/** `ok`: as it should be; `note`: worth knowing, nothing is lost; `problem`: something Skilltray cannot do here until fixed. */
export type DoctorState = 'ok' | 'note' | 'problem';

export interface DoctorCheck {
  area: DoctorArea;
  /** What was checked, in a few words (`bubblewrap`, `~/.local/share/skilltray/skills`, `Claude Code`). */
  name: string;
  state: DoctorState;
  /** What was found, one sentence. */
  detail: string;
  /** The line that fixes it (a command, or where to change what), or null when there is nothing to do. */
  fix: string | null;
}

export interface DoctorReport {
  /** True when no check is a problem. */
  ok: boolean;
  platform: string;
  checks: DoctorCheck[];
}
