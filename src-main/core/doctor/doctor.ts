/**
 * `skilltray doctor`: what this machine has for Skilltray, each finding with the line that fixes it.
 * Containment, the skill roots and how each is watched, the assistants found and whether each one's
 * entry works, voice, and the Node that runs it. Read-only: it never changes anything.
 */
import type { AssistantStatus } from '../../shared/connect.js';
import type { DoctorCheck, DoctorReport } from '../../shared/doctor.js';
import type { RootStatus } from '../../shared/model.js';
import type { Sandbox } from '../process/sandbox/sandbox.js';
import { containmentChecks } from './containment.js';
import { voiceChecks } from './voice-check.js';

export interface DoctorDeps {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  sandbox: Sandbox;
  relay: string | null;
  /** The cgroup launcher (Config.enterCgroup). */
  enterCgroup: string;
  /** The roots, with how the process asking watches each (null: it watches none). */
  roots: readonly RootStatus[];
  /** Whether this process owns runs (the app or serve), whose roots are watched. */
  owner: boolean;
  /** The assistants, each with whether its entry works (a real handshake). */
  assistants(): Promise<AssistantStatus[]>;
  /** The Node running Skilltray. */
  nodeVersion: string;
}

function rootChecks(roots: readonly RootStatus[], owner: boolean): DoctorCheck[] {
  const checks = roots.map((root): DoctorCheck => {
    const name = root.path;
    if (!root.exists) {
      // Your own skills' folder missing is worth a word; another root (packs, with none installed) is simply empty.
      if (root.kind === 'home')
        return { area: 'roots', name, state: 'note', detail: 'your skills folder: not made yet', fix: 'skilltray new <name> makes it with your first skill' };
      return { area: 'roots', name, state: 'ok', detail: `${root.kind} root: nothing there yet`, fix: null };
    }
    if (root.unreadable !== null)
      return {
        area: 'roots',
        name,
        state: 'problem',
        detail: `${root.kind} root cannot be read (${root.unreadable}): its skills are not loaded`,
        fix: `chmod u+rx ${name}`,
      };
    const watch = root.watch;
    if (watch === null) return { area: 'roots', name, state: 'ok', detail: `${root.kind} root, ${root.trust} trust`, fix: null };
    const problems = watch.problems.map((p) => `${p.path}: ${p.message}`).join('; ');
    if (watch.mode === 'off' || problems !== '') {
      return {
        area: 'roots',
        name,
        state: 'problem',
        detail: `${root.kind} root, not watched${problems === '' ? '' : ` (${problems})`}: changes show only after a restart`,
        fix: 'sudo sysctl fs.inotify.max_user_watches=524288',
      };
    }
    return { area: 'roots', name, state: 'ok', detail: `${root.kind} root, ${root.trust} trust, watched (${watch.mode})`, fix: null };
  });
  if (!owner)
    checks.push({
      area: 'roots',
      name: 'watching',
      state: 'note',
      detail: 'no Skilltray app or serve is running, so no root is being watched now',
      fix: 'npm start, or skilltray serve',
    });
  return checks;
}

function clientChecks(statuses: readonly AssistantStatus[]): DoctorCheck[] {
  const found = statuses.filter((s) => s.foundBy !== null);
  const checks = found.map((s): DoctorCheck => {
    const check = (state: DoctorCheck['state'], detail: string, fix: string | null): DoctorCheck => ({ area: 'clients', name: s.name, state, detail, fix });
    if (s.error !== null)
      return check('problem', `its config cannot be read: ${s.error.message}`, `fix ${s.configPath ?? 'its config file'}, then skilltray connect ${s.id}`);
    if (s.personToken)
      return check('problem', 'its entry holds your own token, so it can act as you', `skilltray connect ${s.id}, then skilltray token --rotate`);
    if (s.state === 'not_connected') return check('note', 'found, not connected to Skilltray', `skilltray connect ${s.id}`);
    if (s.state === 'outdated') return check('problem', "its entry is outdated: it no longer starts this Skilltray's bridge", `skilltray connect ${s.id}`);
    if (s.works === false) return check('problem', `its entry does not answer: ${s.worksError ?? 'no MCP handshake'}`, `skilltray connect ${s.id}`);
    return check('ok', `connected${s.transport === 'http' ? ' over HTTP' : ''}, and its entry answers an MCP handshake`, null);
  });
  const missing = statuses.filter((s) => s.foundBy === null).map((s) => s.name);
  if (found.length === 0)
    checks.push({ area: 'clients', name: 'assistants', state: 'note', detail: 'no MCP client Skilltray connects was found on this machine', fix: null });
  if (missing.length > 0 && found.length > 0)
    checks.push({ area: 'clients', name: 'others', state: 'ok', detail: `not on this machine: ${missing.join(', ')}`, fix: null });
  return checks;
}

/** The Node in use: the CLI wants 20.19, the desktop app (Electron's tooling) 22.12. */
function nodeChecks(version: string): DoctorCheck[] {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const atLeast = (m: number, n: number) => major > m || (major === m && minor >= n);
  if (!atLeast(20, 19))
    return [
      {
        area: 'node',
        name: `Node ${version}`,
        state: 'problem',
        detail: 'Skilltray needs Node 20.19 or later',
        fix: 'install Node 22 LTS (nodejs.org, or your package manager)',
      },
    ];
  if (!atLeast(22, 12)) {
    return [
      {
        area: 'node',
        name: `Node ${version}`,
        state: 'note',
        detail: 'the CLI, MCP and browser mode run; the desktop app (npm start) needs Node 22.12 or later',
        fix: 'install Node 22 LTS for npm start',
      },
    ];
  }
  return [{ area: 'node', name: `Node ${version}`, state: 'ok', detail: 'runs the CLI and the desktop app', fix: null }];
}

/** Every check, in DOCTOR_AREAS' order. */
export async function doctorReport(deps: DoctorDeps): Promise<DoctorReport> {
  const checks = [
    ...containmentChecks(deps.platform, deps.sandbox, deps.env, deps.relay, deps.enterCgroup),
    ...rootChecks(deps.roots, deps.owner),
    ...clientChecks(await deps.assistants()),
    ...voiceChecks(deps.env),
    ...nodeChecks(deps.nodeVersion),
  ];
  return { ok: checks.every((c) => c.state !== 'problem'), platform: deps.platform, checks };
}
