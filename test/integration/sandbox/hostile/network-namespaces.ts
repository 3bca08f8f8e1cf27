/**
 * A network of the test's own, so the proxy's refusals can be tried against private addresses
 * without sending a packet to this computer's real network: two network namespaces joined by a
 * veth pair. `here` is where Skilltray runs; `there` is another computer on a private network.
 * Each side has addresses of its own in 10.77/16, CGNAT 100.64/10 and a ULA (fd00::/8), and
 * `here` also an address that would be public (1.2.3.4) on its veth, to show that this computer's
 * own addresses are refused by being its own, not only by their range. Made with iproute2, as
 * root; removed (with the veth pair) by remove().
 */
import { execFileSync } from 'node:child_process';
import { execa } from 'execa';

/** Addresses of each side. */
export const HERE = { private: '10.77.0.1', cgnat: '100.64.77.1', ula: 'fd00:77::1', own: '1.2.3.4' } as const;
export const THERE = { private: '10.77.0.2', cgnat: '100.64.77.2', ula: 'fd00:77::2' } as const;

/** An HTTP listener in a namespace, on every address of it, counting its connections. */
export interface NamespaceListener {
  port: number;
  connections: () => number;
  close: () => void;
}

export interface TestNetwork {
  here: string;
  there: string;
  /** Starts a listener (`reached` to every request) in `netns`, on `::` (so IPv4 too). */
  listen(netns: string): Promise<NamespaceListener>;
  remove(): void;
}

const ip = (...args: string[]): void => {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
};

const SERVER = `const s = require('http').createServer((q, r) => r.end('reached\\n'));
s.on('connection', () => console.log('connection'));
s.listen(0, '::', () => console.log('port ' + s.address().port));`;

/** Makes the two namespaces (names from `tag`, short enough for interface names). */
export function makeTestNetwork(tag: string): TestNetwork {
  const here = `skt-${tag}-here`;
  const there = `skt-${tag}-there`;
  const [vethHere, vethThere] = [`v${tag}h`, `v${tag}t`];
  const listeners: NamespaceListener[] = [];
  ip('netns', 'add', here);
  ip('netns', 'add', there);
  ip('link', 'add', vethHere, 'type', 'veth', 'peer', 'name', vethThere);
  ip('link', 'set', vethHere, 'netns', here);
  ip('link', 'set', vethThere, 'netns', there);
  for (const [netns, veth, side] of [
    [here, vethHere, HERE],
    [there, vethThere, THERE],
  ] as const) {
    ip('-n', netns, 'link', 'set', 'lo', 'up');
    ip('-n', netns, 'addr', 'add', `${side.private}/16`, 'dev', veth);
    ip('-n', netns, 'addr', 'add', `${side.cgnat}/10`, 'dev', veth);
    ip('-n', netns, '-6', 'addr', 'add', `${side.ula}/64`, 'dev', veth, 'nodad');
    ip('-n', netns, 'link', 'set', veth, 'up');
  }
  ip('-n', here, 'addr', 'add', `${HERE.own}/32`, 'dev', vethHere);
  return {
    here,
    there,
    async listen(netns) {
      const child = execa('ip', ['netns', 'exec', netns, process.execPath, '-e', SERVER], { reject: false, stdin: 'ignore' });
      let count = 0;
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          for (const line of chunk.toString('utf8').split('\n')) {
            if (line.startsWith('port ')) resolve(Number(line.slice(5)));
            else if (line === 'connection') count++;
          }
        });
        void child.then((ended) => reject(new Error(`the listener in ${netns} ended: ${String(ended.stderr)}`)));
      });
      const listener = {
        port,
        connections: () => count,
        close: () => {
          if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
        },
      };
      listeners.push(listener);
      return listener;
    },
    remove() {
      for (const listener of listeners) listener.close();
      // Deleting a namespace destroys the veth end in it, and with it the pair.
      for (const netns of [here, there]) {
        try {
          ip('netns', 'del', netns);
        } catch {
          // already gone
        }
      }
    },
  };
}
