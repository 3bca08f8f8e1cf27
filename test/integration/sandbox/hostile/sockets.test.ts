/**
 * Issue #20: "no network" still reached host services, because filesystem Unix sockets ignore
 * network namespaces — a read-only tool talked to a password manager's agent socket in the home and
 * to a Docker API under /run. A listener is put where each would be (the home, /run, the project
 * folder itself), shown reachable without a sandbox, then attacked from every profile, the network
 * tool included, as root and as an ordinary user. The listener counts what reaches it.
 */
import { chownSync, chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { asActor, asRootAndUser, attack, resultOf, type Actor } from './actors.js';

const LONG = { timeout: 120_000 };

const servers: Server[] = [];
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
    // /run is root's to write: as root a Docker-style socket is put there too.
    if (process.getuid?.() === 0) {
      const run = join('/run', `skilltray-hostile-${process.pid}`);
      made.push(run);
      sockets.push(join(run, 'docker.sock'));
    }
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

  it('a read-only run in the home folder (asked) still cannot reach the sockets in it', LONG, async () => {
    const socket = join(actor.home, '.1password', 'agent.sock');
    const count = await listener(actor, socket);
    const { report } = await attack(actor, 'probe-ro', 'sh', { script: connect(socket) }, actor.home);
    expect(report.sandbox).toMatchObject({ wholeHome: true });
    expect(resultOf(report).stdout).toMatch(/^refused/);
    expect(count()).toBe(0);
  });
});
