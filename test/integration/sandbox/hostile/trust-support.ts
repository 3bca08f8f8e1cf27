/**
 * What the trust-*.test.ts files share: the people who run Skilltray (root, and an ordinary user made
 * for the tests when they run as root), a user-writable install of it owned by that person (a copy of
 * the built CLI, the bundled skills and their manifest, as `npm -g` with a user prefix leaves it), and
 * the real `skilltray` command and `skilltray serve` run as that person.
 */
import { cpSync, lchownSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterEach } from 'vitest';
import { BUNDLED_MANIFEST } from '../../../../src-main/core/config.js';
import type { ServerEvent } from '../../../../src-main/shared/contract.js';
import type { PendingEntry } from '../../../../src-main/shared/runs.js';
import { ROOT } from '../../../support/fresh-build.js';
import { madeUser } from '../../../support/ordinary-user.js';
import { appForOrdinaryUser, reachableDir } from '../../../support/reachable.js';

/** Who runs Skilltray: root, or an ordinary user (uid and gid set), or whoever runs the tests. */
export interface Person {
  label: string;
  uid?: number;
  gid?: number;
}

const USER = 'skilltray-trust';

/** The tests' ordinary user, made once (no home, no login shell). */
function ordinaryUser(): Person {
  const { uid, gid } = madeUser(USER);
  return { label: `ordinary user ${USER}`, uid, gid };
}

/** Root and an ordinary user when the tests run as root (most people are not root); else the person running them. */
export function people(): Person[] {
  return process.getuid?.() === 0 ? [{ label: 'root' }, ordinaryUser()] : [{ label: 'the user running the tests' }];
}

/** Gives `dir` and everything in it to `person`; a link is given, never what it points to (node_modules links to the shared packages). */
function giveTo(person: Person, dir: string): void {
  if (person.uid === undefined || person.gid === undefined) return;
  const { uid, gid } = person;
  const walk = (path: string): void => {
    lchownSync(path, uid, gid);
    if (lstatSync(path).isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
}

/** A Skilltray installed where its owner can write, with that person's home, state and workspace. */
export interface Install {
  person: Person;
  /** The node the person runs it with. */
  node: string;
  /** The installed package: bin/, dist/cli/, dist/native/ (the network relay), skills/ (the bundled folder) and bundled-manifest.json. */
  app: string;
  bundled: string;
  /** The person's HOME, SKILLTRAY_HOME and the skills folder in it, and a folder to work in. */
  userHome: string;
  home: string;
  userSkills: string;
  work: string;
  env: NodeJS.ProcessEnv;
  /** Writes files (relative path → content) under `dir`, owned by the person. */
  write(dir: string, files: Record<string, string>): void;
  /** Runs `skilltray …` as the person. */
  cli(argv: string[], options?: { cwd?: string }): Promise<{ code: number; stdout: string; stderr: string }>;
}

const bases: string[] = [];

/** Copies the fresh build (vitest's global setup made it) into a folder the person owns and can reach, as an install. */
export function install(person: Person): Install {
  const base = reachableDir('trust-');
  bases.push(base);
  const runnable = appForOrdinaryUser();
  const app = join(base, 'app');
  mkdirSync(join(app, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(app, 'package.json'));
  cpSync(join(ROOT, 'bin'), join(app, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'dist', 'cli'), join(app, 'dist', 'cli'), { recursive: true });
  // The network relay, where the CLI looks for it beside the bundled folder: a run with a network is contained only with it.
  cpSync(join(ROOT, 'dist', 'native'), join(app, 'dist', 'native'), { recursive: true });
  cpSync(join(ROOT, 'skills'), join(app, 'skills'), { recursive: true });
  cpSync(join(ROOT, BUNDLED_MANIFEST), join(app, BUNDLED_MANIFEST));
  // Packages resolve from the install's own node_modules, as after npm install: the packages the person can read.
  symlinkSync(join(runnable.root, 'node_modules'), join(app, 'node_modules'));
  const dirs = { userHome: join(base, 'user'), home: join(base, 'state'), work: join(base, 'work') };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  const userSkills = join(dirs.home, 'skills');
  mkdirSync(userSkills, { recursive: true });
  giveTo(person, base);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dirs.userHome,
    SKILLTRAY_HOME: dirs.home,
    XDG_DATA_HOME: join(dirs.userHome, '.local', 'share'),
    LANG: 'C.UTF-8',
  };
  const ids = person.uid === undefined ? {} : { uid: person.uid, gid: person.gid };
  return {
    person,
    node: runnable.node,
    app,
    bundled: join(app, 'skills'),
    ...dirs,
    userSkills,
    env,
    write(dir, files) {
      for (const [rel, content] of Object.entries(files)) {
        const path = join(dir, rel);
        mkdirSync(join(path, '..'), { recursive: true });
        writeFileSync(path, content);
      }
      giveTo(person, dir);
    },
    async cli(argv, options = {}) {
      const result = await execa(runnable.node, [join(app, 'bin', 'skilltray.js'), ...argv], {
        env,
        extendEnv: false,
        cwd: options.cwd ?? dirs.work,
        reject: false,
        stdin: 'ignore',
        ...ids,
      });
      return { code: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr };
    },
  };
}

/** A SKILL.md with one tool `go` running `command` (one optional string parameter `a`). */
export function toolSkill(name: string, command: string, frontmatter: Record<string, unknown> = {}): string {
  const yaml = Object.entries({ name, description: `The ${name} skill. Use when testing.`, version: '1.0.0', ...frontmatter })
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join('\n');
  return `---\n${yaml}\n---\n\n### go\n\nRuns it.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| a | string | no | first |\n\n#### Command\n\n\`\`\`\n${command}\n\`\`\`\n`;
}

const servers: { child: ResultPromise; events: AbortController }[] = [];
afterEach(async () => {
  for (const { child, events } of servers.splice(0)) {
    events.abort();
    // Only the serve this test started, by its own handle.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await child.catch(() => undefined);
  }
  // Once nothing runs from them.
  for (const base of bases.splice(0)) rmSync(base, { recursive: true, force: true });
});

/** `skilltray serve` as the person, and the approvals it adds, as they arrive. */
export interface Serving {
  /** Resolves with the next approval the server asks for. */
  nextApproval(): Promise<PendingEntry>;
  /** Where it listens, and its token. */
  url: string;
  token: string;
}

/** The waiting approval `id` as `approvals` lists it. */
async function pendingEntry(url: string, token: string, id: string): Promise<PendingEntry> {
  const res = await fetch(`${url}/api/approvals`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const envelope = (await res.json()) as { ok: boolean; value?: PendingEntry[] };
  const entry = envelope.value?.find((e) => e.id === id);
  if (entry === undefined) throw new Error(`approval ${id} is not in the queue: ${JSON.stringify(envelope)}`);
  return entry;
}

/** Starts `skilltray serve --port 0` for `install` and follows its event stream. */
export async function serve(at: Install): Promise<Serving> {
  const ids = at.person.uid === undefined ? {} : { uid: at.person.uid, gid: at.person.gid };
  const child = execa(at.node, [join(at.app, 'bin', 'skilltray.js'), 'serve', '--port', '0'], {
    env: at.env,
    extendEnv: false,
    stdin: 'ignore',
    reject: false,
    ...ids,
  });
  const events = new AbortController();
  servers.push({ child, events });
  const [, url, tokenFile] = await new Promise<RegExpExecArray>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const found = /^Skilltray API on (http:\/\/127\.0\.0\.1:\d+) \(token in (.+)\)$/m.exec(out);
      if (found) resolve(found);
    });
    void child.then((result) => reject(new Error(`serve exited before listening: ${String(result.stderr)}`)));
  });
  const token = readFileSync(tokenFile as string, 'utf8').trim();
  const response = await fetch(`${url}/api/events`, { headers: { authorization: `Bearer ${token}` }, signal: events.signal });
  if (response.body === null) throw new Error('no event stream');
  const added: PendingEntry[] = [];
  const waiting: ((entry: PendingEntry) => void)[] = [];
  void (async () => {
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += Buffer.from(chunk).toString('utf8');
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const data = buffer
            .slice(0, end)
            .split('\n')
            .find((line) => line.startsWith('data: '));
          buffer = buffer.slice(end + 2);
          if (data === undefined) continue;
          const event = JSON.parse(data.slice('data: '.length)) as ServerEvent;
          if (event.type !== 'approval.added') continue;
          // The event names the run; the approval itself is read from the queue.
          const entry = await pendingEntry(url as string, token, event.entry.id);
          const next = waiting.shift();
          if (next) next(entry);
          else added.push(entry);
        }
      }
    } catch {
      // the stream was aborted after the test
    }
  })();
  return {
    url: url as string,
    token,
    nextApproval: () => {
      const entry = added.shift();
      return entry ? Promise.resolve(entry) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}
