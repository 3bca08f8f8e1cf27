/**
 * Issue #20: "no network" still reached host services, because filesystem Unix sockets ignore
 * network namespaces — a read-only tool talked to a password manager's agent socket in the home and
 * to a Docker API under /run. A listener is put where each would be (the home, /run, the project
 * folder itself), shown reachable without a sandbox, then attacked from every profile, the network
 * tool included, as root and as an ordinary user. The listener counts what reaches it.
 */
import { chownSync, chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { dirname, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { asActor, asRootAndUser, attack, resultOf, type Actor } from './actors.js';

const LONG = { timeout: 120_000 };

const servers: (Server | NetServer)[] = [];
const made: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()));
  for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
});

/** An HTTP listener on a Unix socket at `path` the actor may connect to; counts its connections. */
async function listener(actor: Actor, path: string): Promise<() => number> {
  mkdirSync(dirname(path), { recursive: true });
  let count = 0;
  const server = createServer((_req, res) => res.end('reached-host-service\n'));
  server.on('connection', () => count++);
  await new Promise<void>((resolve) => server.listen(path, resolve));
  servers.push(server);
  chmodSync(path, 0o777);
  chownSync(dirname(path), actor.uid, actor.gid);
  return () => count;
}

const connect = (path: string): string => `curl -s --max-time 3 --unix-socket ${path} http://host/ || echo "refused $?"`;

asRootAndUser((actor) => {
  it('a listener on a home socket, under /run and in the project folder is unreachable from every profile, network included', LONG, async () => {
    const sockets = [join(actor.home, '.1password', 'agent.sock'), join(actor.project, '.dev', 'app.sock')];
    // /run is root's to write: as root a Docker-style socket is put there too, and the session bus
    // and keyring agent under /run/user/<uid>, which the suite's Skilltray, started without
    // XDG_RUNTIME_DIR (su, cron), must not find its way to either.
    if (process.getuid?.() === 0) {
      const run = join('/run', `skilltray-hostile-${process.pid}`);
      made.push(run);
      sockets.push(join(run, 'docker.sock'));
      const runtime = join('/run', 'user', String(actor.uid));
      if (!existsSync(runtime)) {
        made.push(existsSync('/run/user') ? runtime : '/run/user');
        sockets.push(join(runtime, 'bus'), join(runtime, 'keyring', 'ssh'));
      }
    }
    expect(actor.env.XDG_RUNTIME_DIR).toBeUndefined();
    const counts = await Promise.all(sockets.map((path) => listener(actor, path)));
    const script = sockets.map(connect).join('; ');
    const control = await asActor(actor, 'bash', ['-c', script]);
    expect(control.stdout.match(/reached-host-service/g)).toHaveLength(sockets.length);
    const reached = counts.map((count) => count());
    for (const skill of ['probe-ro', 'probe-ws', 'probe-net']) {
      const { report } = await attack(actor, skill, 'sh', { script });
      expect(report.sandbox, skill).toMatchObject({ contained: true });
      expect(resultOf(report).stdout, skill).not.toContain('reached-host-service');
      expect(resultOf(report).stdout.match(/refused/g), skill).toHaveLength(sockets.length);
    }
    expect(counts.map((count) => count())).toEqual(reached);
  });

  it('an abstract socket (the X11 and D-Bus kind) is unreachable from a tool without network', LONG, async () => {
    const name = `skilltray-hostile-${process.pid}-${actor.name}`;
    let count = 0;
    const server = createNetServer((socket) => {
      count++;
      socket.end('reached-host-service\n');
    });
    await new Promise<void>((resolve) => server.listen(`\0${name}`, resolve));
    servers.push(server);
    // Node binds an abstract name padded with NULs to the whole sun_path, so the client does the same; a box refuses the socket itself (the socket filter).
    const script = `perl -MSocket -e 'socket(S, AF_UNIX, SOCK_STREAM, 0) or do { print "refused\\n"; exit }; my $p = "\\0${name}"; $p .= "\\0" x (108 - length $p); if (connect(S, pack_sockaddr_un($p))) { print while <S> } else { print "refused\\n" }'`;
    expect((await asActor(actor, 'bash', ['-c', script])).stdout).toBe('reached-host-service');
    const reached = count;
    for (const skill of ['probe-ro', 'probe-ws']) {
      const { report } = await attack(actor, skill, 'sh', { script });
      expect(resultOf(report).stdout, skill).toBe('refused\n');
    }
    expect(count).toBe(reached);
  });

  it('a run that declares a folder of the home still cannot reach the sockets in it', LONG, async () => {
    const socket = join(actor.home, '.config', 'app', 'agent.sock');
    const count = await listener(actor, socket);
    const { report } = await attack(actor, 'probe-reads', 'sh', { script: connect(socket) });
    expect(report.sandbox).toMatchObject({ reads: ['~/.config/app'] });
    expect(resultOf(report).stdout).toMatch(/^refused/);
    expect(count()).toBe(0);
  });
});
