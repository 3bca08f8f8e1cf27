/** Runs the CLI in-process with captured output, and the real `skilltray` bin as a child process. */
import { join } from 'node:path';
import { execa } from 'execa';
import { runCli } from '../../src-main/cli/main.js';
import type { TestHome } from './temp.js';

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `skilltray …` in this process over the test home's config; `answers` feed an interactive prompt
 * when given; `tty` makes stdout a terminal; `env` adds to the home's environment.
 */
export async function cli(argv: string[], home: TestHome, options: { cwd?: string; answers?: string[]; tty?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<CliOutcome> {
  let stdout = '';
  let stderr = '';
  const answers = [...(options.answers ?? [])];
  const code = await runCli(argv, {
    cwd: options.cwd ?? process.cwd(),
    env: { ...home.env, ...options.env },
    bundledDir: home.bundled,
    version: '0.0.0-test',
    config: () => home.config(),
    io: {
      out: (t) => void (stdout += t),
      err: (t) => void (stderr += t),
      interactive: options.answers !== undefined,
      stdoutIsTty: options.tty ?? false,
      ask: async (question) => {
        stdout += question;
        return answers.shift() ?? '';
      },
    },
  });
  return { code, stdout, stderr };
}

/** The built `bin/skilltray.js` as a real process (needs `npm run build:node`, which `npm test` runs first). */
export async function cliProcess(argv: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): Promise<CliOutcome> {
  const result = await execa(process.execPath, [join(import.meta.dirname, '..', '..', 'bin', 'skilltray.js'), ...argv], {
    env,
    extendEnv: false,
    cwd,
    reject: false,
    stdin: 'ignore',
  });
  return { code: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr };
}
