/** A child process's memory as Linux reports it, for the soak suite's figures. */
import { readFileSync } from 'node:fs';

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (match === null) throw new Error(`no ${field} for process ${pid}`);
  return Number(match[1]) / 1024;
}

/** Resident memory now, in MiB. */
export function residentMb(pid: number): number {
  return statusField(pid, 'VmRSS');
}

/** The most resident memory the process has had so far, in MiB. */
export function peakResidentMb(pid: number): number {
  return statusField(pid, 'VmHWM');
}

/** One line of the soak suite's figures, easy to find in the test output. */
export function figure(name: string, text: string): void {
  console.log(`[soak] ${name}: ${text}`);
}
