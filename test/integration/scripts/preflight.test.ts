/** npm test's preflight: names every missing system program with the command that installs it, or says nothing. */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { bundledPackBins, checkoutProblem, chromiumExecutable, onPath } from '../../../scripts/system-deps.js';
import { loadPacks } from '../packs/bundled-packs.js';
import { tempDir } from '../../support/temp.js';

const PREFLIGHT = fileURLToPath(new URL('../../../scripts/preflight.js', import.meta.url));
const SYSTEM_DEPS = fileURLToPath(new URL('../../../scripts/system-deps.js', import.meta.url));

/** A PATH holding only these programs of this machine's. */
function pathWith(programs: string[]): string {
  const dir = tempDir();
  for (const program of programs) {
    const real = onPath(program);
    if (real !== null) symlinkSync(real, join(dir, program));
  }
  return dir;
}

async function preflight(args: string[], env: NodeJS.ProcessEnv) {
  const result = await execa(process.execPath, [PREFLIGHT, ...args], { env, extendEnv: false, reject: false });
  return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}

describe('the preflight of npm test', () => {
  it('refuses a Linux checkout under /tmp or /var/tmp, which sandboxed runs see empty, and accepts one elsewhere', () => {
    expect(checkoutProblem('/tmp', 'linux')).toContain('is under /tmp');
    expect(checkoutProblem('/var/tmp', 'linux')).toContain('is under /var/tmp');
    expect(checkoutProblem('/tmp', 'darwin')).toBeNull();
    expect(checkoutProblem('/usr/share', 'linux')).toBeNull();
  });

  it('knows every program the bundled packs require, as the loader reads them', () => {
    const loaded = new Set(
      loadPacks()
        .list()
        .flatMap((skill) => skill.requires.bins),
    );
    expect([...bundledPackBins().keys()].sort()).toEqual([...loaded].sort());
  });

  it('names each missing program with why and the command that installs it, then all at once, and fails', async () => {
    const env = { PATH: pathWith(['git', 'bash', 'getent', 'lsof', 'file', 'uptime', 'free', 'ps', 'shasum', 'perl']), HOME: tempDir() };
    const { code, stderr } = await preflight([], env);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^npm test needs programs this machine lacks:\n/);
    expect(stderr).toMatch(/^ {2}ping +the bundled network pack runs it, and the tests run it for real\n +install: sudo apt-get install -y iputils-ping$/m);
    expect(stderr).toMatch(/^ {2}bwrap +runs are contained in a bubblewrap sandbox on Linux\n +install: sudo apt-get install -y bubblewrap$/m);
    expect(stderr).toMatch(/^ {2}ssh-keygen +the pack tests sign commits with SSH keys they generate\n +install: sudo apt-get install -y openssh-client$/m);
    expect(stderr).toMatch(/^ {2}zsh +the completion tests parse and ask skilltray's zsh completion\n +install: sudo apt-get install -y zsh$/m);
    const browser = await chromiumExecutable(env);
    expect(stderr.includes('install: sudo apt-get install -y chromium')).toBe(browser === null);
    expect(stderr).toMatch(
      /^ {2}cc +the build compiles the relay a sandboxed run starts first, and the state.db salvage test compiles sqlite3.s shell \(for its .recover\)\n +install: sudo apt-get install -y gcc$/m,
    );
    expect(stderr).toMatch(
      /^ {2}ip +the network tests make network namespaces of their own \(ip netns\) to try the proxy against private addresses\n +install: sudo apt-get install -y iproute2$/m,
    );
    expect(stderr).toMatch(
      /^ {2}pocketsphinx_batch +the voice tests hear spoken answers with it \(docs\/voice.md\)\n +install: sudo apt-get install -y pocketsphinx$/m,
    );
    const all = `iputils-ping openssh-client zsh fish gcc curl python3 bubblewrap iproute2 espeak-ng pocketsphinx${browser === null ? ' chromium' : ''}`;
    expect(stderr).toContain(`All at once:\n  sudo apt-get install -y ${all}\n`);
    expect(stderr).not.toMatch(/^ {2}(git|lsof|file|ps) /m);
    expect((await preflight(['--apt-packages'], env)).stdout).toBe(all);
  });

  it('says nothing and passes where everything is installed', async () => {
    const { code, stdout, stderr } = await preflight([], { PATH: process.env.PATH, HOME: process.env.HOME });
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: '', stderr: '' });
    expect((await preflight(['--apt-packages'], { PATH: process.env.PATH, HOME: process.env.HOME })).stdout).toBe('');
  });

  it("prefers Playwright's own Chromium where it is installed, else the system's", async () => {
    const home = tempDir();
    const env = { PATH: process.env.PATH, HOME: home };
    const browser = async () =>
      (
        await execa(
          process.execPath,
          ['--input-type=module', '-e', `const m = await import(${JSON.stringify(SYSTEM_DEPS)}); process.stdout.write(String(await m.chromiumExecutable()))`],
          { env, extendEnv: false },
        )
      ).stdout;
    expect(await browser()).toBe(String(onPath('chromium')));
    const own = (
      await execa(
        process.execPath,
        ['--input-type=module', '-e', "const { chromium } = await import('playwright-core'); process.stdout.write(chromium.executablePath())"],
        { env, extendEnv: false, cwd: dirname(SYSTEM_DEPS) },
      )
    ).stdout;
    expect(own.startsWith(join(home, '.cache', 'ms-playwright'))).toBe(true);
    mkdirSync(dirname(own), { recursive: true });
    writeFileSync(own, '');
    expect(await browser()).toBe(own);
  });
});
