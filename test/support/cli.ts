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

/** A CLI outcome with stdout as the exact bytes written. */
export interface CliBytesOutcome extends CliOutcome {
  stdoutBytes: Buffer;
}

/**
 * `skilltray …` in this process over the test home's config; `answers` feed an interactive prompt
 * when given; `tty` makes stdout a terminal; `env` adds to the home's environment.
 */
export async function cli(
  argv: string[],
  home: TestHome,
  options: { cwd?: string; answers?: string[]; tty?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<CliBytesOutcome> {
  let stdout = '';
  let stderr = '';
  const bytes: Buffer[] = [];
  const answers = [...(options.answers ?? [])];
  const code = await runCli(argv, {
    cwd: options.cwd ?? process.cwd(),
    env: { ...home.env, ...options.env },
    bundledDir: home.bundled,
    version: '0.0.0-test',
    config: () => home.config(),
    io: {
      out: (t) => {
        stdout += typeof t === 'string' ? t : Buffer.from(t).toString('utf8');
        bytes.push(Buffer.from(t));
      },
      err: (t) => void (stderr += t),
      interactive: options.answers !== undefined,
      stdoutIsTty: options.tty ?? false,
      stderrIsTty: options.tty ?? false,
      ask: async (question) => {
        stdout += question;
        bytes.push(Buffer.from(question));
        return answers.shift() ?? '';
      },
    },
  });
  return { code, stdout, stderr, stdoutBytes: Buffer.concat(bytes) };
}

/** The built bin as a real process, its stdout kept as the exact bytes it wrote. */
export async function cliProcessBytes(argv: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  const result = await execa(process.execPath, [join(import.meta.dirname, '..', '..', 'bin', 'skilltray.js'), ...argv], {
    env,
    extendEnv: false,
    cwd,
    reject: false,
    stdin: 'ignore',
    encoding: 'buffer',
    stripFinalNewline: false,
  });
  return { code: result.exitCode ?? -1, stdout: Buffer.from(result.stdout), stderr: Buffer.from(result.stderr).toString('utf8') };
}

/** The built `bin/skilltray.js` as a real process (vitest's global setup rebuilds dist/node when it is stale); output as text, final newline stripped. */
export async function cliProcess(argv: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): Promise<CliOutcome> {
  const { code, stdout, stderr } = await cliProcessBytes(argv, env, cwd);
  return { code, stdout: withoutFinalNewline(stdout.toString('utf8')), stderr: withoutFinalNewline(stderr) };
}

function withoutFinalNewline(text: string): string {
  return text.replace(/\r?\n$/, '');
}
