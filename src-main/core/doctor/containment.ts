/**
 * What this machine has for containing runs: bubblewrap and whether it works, unprivileged user
 * namespaces and AppArmor's restriction of them, the socket filter (seccomp), the network relay,
 * resource limits and what holds a run's processes and memory (a cgroup, a systemd user scope, or
 * rlimits). Read-only: probes run `true` at most, and change nothing.
 */
import { readFileSync } from 'node:fs';
import type { DoctorCheck } from '../../shared/doctor.js';
import { resolveProgram } from '../process/resolve-program.js';
import { relayMissing } from '../process/sandbox/bubblewrap-network.js';
import { cgroupUnavailable, userScopeUnavailable } from '../process/sandbox/cgroup.js';
import type { Sandbox } from '../process/sandbox/sandbox.js';
import { socketFilter } from '../process/network/socket-filter.js';

/** A kernel setting's value, or null where this kernel has none. */
function sysctl(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

const check = (name: string, state: DoctorCheck['state'], detail: string, fix: string | null = null): DoctorCheck => ({
  area: 'containment',
  name,
  state,
  detail,
  fix,
});

/** The kernel's side: user namespaces, AppArmor's restriction, seccomp. `works` says whether bubblewrap made its box anyway. */
function kernelChecks(works: boolean, asRoot: boolean): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  const clone = sysctl('/proc/sys/kernel/unprivileged_userns_clone');
  const max = sysctl('/proc/sys/user/max_user_namespaces');
  if (asRoot) checks.push(check('user namespaces', 'ok', 'Skilltray runs as root, which needs no unprivileged user namespace'));
  else if (clone === '0')
    checks.push(
      check(
        'user namespaces',
        'problem',
        'unprivileged user namespaces are turned off (kernel.unprivileged_userns_clone = 0)',
        'sudo sysctl -w kernel.unprivileged_userns_clone=1',
      ),
    );
  else if (max === '0')
    checks.push(
      check('user namespaces', 'problem', 'no user namespace may be made (user.max_user_namespaces = 0)', 'sudo sysctl -w user.max_user_namespaces=15000'),
    );
  else checks.push(check('user namespaces', 'ok', `unprivileged user namespaces are allowed${max === null ? '' : ` (up to ${max})`}`));
  const apparmor = sysctl('/proc/sys/kernel/apparmor_restrict_unprivileged_userns');
  if (apparmor === '1' && !asRoot) {
    checks.push(
      works
        ? check('AppArmor', 'ok', 'AppArmor restricts unprivileged user namespaces, and a profile lets bwrap make them')
        : check(
            'AppArmor',
            'problem',
            'AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1) and no profile lets bwrap make them',
            'sudo apt-get install apparmor && sudo systemctl reload apparmor (its bwrap-userns-restrict profile), or: sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0',
          ),
    );
  } else {
    checks.push(
      check(
        'AppArmor',
        'ok',
        apparmor === null ? 'no AppArmor restriction of user namespaces in this kernel' : 'AppArmor does not restrict user namespaces here',
      ),
    );
  }
  const range = (sysctl('/proc/sys/net/ipv4/ping_group_range') ?? '').split(/\s+/).map(Number);
  const gid = process.getgid?.() ?? 0;
  const [low = 1, high = 0] = range;
  checks.push(
    gid >= low && gid <= high
      ? check('ICMP', 'ok', `ping works in a run that shares this computer's network (net.ipv4.ping_group_range includes group ${gid})`)
      : check(
          'ICMP',
          'note',
          `ping cannot work in a run that shares this computer's network (the network pack's ping_host): net.ipv4.ping_group_range (${range.join(' ')}) leaves out group ${gid}, and no run keeps the raw-socket capability`,
          'sudo sysctl -w net.ipv4.ping_group_range="0 2147483647" (persist it in /etc/sysctl.d/)',
        ),
  );
  const status = sysctl('/proc/self/status') ?? '';
  if (socketFilter() === null)
    checks.push(check('seccomp', 'problem', `Skilltray has no socket filter for this processor (${process.arch}): only x64 and arm64`));
  else if (!/^Seccomp:/m.test(status))
    checks.push(
      check('seccomp', 'problem', 'this kernel has no seccomp filters, so the socket filter cannot be applied', 'a kernel built with CONFIG_SECCOMP_FILTER'),
    );
  else if (!works) checks.push(check('seccomp', 'note', `the socket filter (no Unix sockets, ${process.arch}) is ready, for runs once they are contained`));
  else checks.push(check('seccomp', 'ok', `the socket filter (no Unix sockets) is applied to every run (${process.arch})`));
  return checks;
}

/** What holds a run's processes and memory: a cgroup as root, a systemd user scope, or rlimits (a note, not a problem). */
function limitsChecks(sandbox: Sandbox, env: NodeJS.ProcessEnv, asRoot: boolean, enterCgroup: string): DoctorCheck[] {
  const limits = sandbox.limitsUnavailable();
  const checks = [
    limits === null
      ? check('resource limits', 'ok', 'prlimit sets each run’s file size and CPU limits')
      : sandbox.unavailable() !== null
        ? check('resource limits', 'note', 'runs get no resource limits while none is contained (the bubblewrap line above)')
        : check('resource limits', 'problem', limits, 'sudo apt-get install util-linux'),
  ];
  if (asRoot) {
    const why = cgroupUnavailable(enterCgroup);
    checks.push(
      why === null
        ? check('cgroup', 'ok', 'each run gets a cgroup of its own for its processes and memory')
        : check('cgroup', 'note', `${why}; runs are bound by rlimits instead`),
    );
    return checks;
  }
  const why = userScopeUnavailable(env);
  checks.push(
    why === null
      ? check('cgroup', 'ok', "each run gets a scope of your systemd's, which bounds its processes and memory as a whole")
      : check(
          'cgroup',
          'note',
          `${why}: each process of a run is bound by rlimits instead (memory per process, not the run as a whole)`,
          'log in through a systemd user session whose user@.service delegates memory and pids (docs/runner.md)',
        ),
  );
  return checks;
}

/** Every containment check for Linux (bubblewrap). */
function linuxChecks(sandbox: Sandbox, env: NodeJS.ProcessEnv, relay: string | null, enterCgroup: string): DoctorCheck[] {
  const bwrap = resolveProgram('bwrap', env, '/');
  const why = sandbox.unavailable();
  const asRoot = process.getuid?.() === 0;
  const checks: DoctorCheck[] = [];
  if (bwrap === null)
    checks.push(
      check(
        'bubblewrap',
        'problem',
        'bubblewrap (bwrap) is not installed, so no run is contained: tools that would run unasked ask instead',
        'sudo apt-get install bubblewrap',
      ),
    );
  else if (why !== null) checks.push(check('bubblewrap', 'problem', why, 'see the user namespace and AppArmor lines below'));
  else checks.push(check('bubblewrap', 'ok', `${bwrap} contains every run (checked by making a box and running true in it)`));
  checks.push(...kernelChecks(bwrap !== null && why === null, asRoot));
  const relayWhy = relayMissing(relay);
  checks.push(
    relayWhy === null
      ? check('network relay', 'ok', `${relay ?? ''} carries a run's traffic to its proxy`)
      : check('network relay', 'problem', relayWhy, 'npm run build:node'),
  );
  checks.push(...limitsChecks(sandbox, env, asRoot, enterCgroup));
  return checks;
}

/** What this machine has for containing runs, on `platform`. */
export function containmentChecks(
  platform: NodeJS.Platform,
  sandbox: Sandbox,
  env: NodeJS.ProcessEnv,
  relay: string | null,
  enterCgroup: string,
): DoctorCheck[] {
  if (platform === 'linux') return linuxChecks(sandbox, env, relay, enterCgroup);
  const why = sandbox.unavailable();
  if (why !== null) return [check(sandbox.mechanism ?? 'sandbox', 'problem', why)];
  return [check(sandbox.mechanism ?? 'sandbox', 'ok', `${sandbox.mechanism ?? 'the sandbox'} contains every run`)];
}
