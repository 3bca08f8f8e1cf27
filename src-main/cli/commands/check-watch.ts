/** `check --watch`: the same check again each time a file of the skill changes, until SIGINT. */
import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CheckReport } from '../../shared/model.js';
import { toSkilltrayError } from '../../shared/skilltray-error.js';
import type { CliContext } from '../command.js';

/** How long a burst of writes (an editor's save is several) settles before the check runs again. */
const SETTLE_MS = 100;

/** The folders to watch: the path given (a skill, its SKILL.md or a folder of skills), else the folders of the skills the name found. */
function watchedFolders(target: string, cwd: string, report: CheckReport): string[] {
  const asPath = resolve(cwd, target);
  if (existsSync(asPath)) return [statSync(asPath).isDirectory() ? asPath : dirname(asPath)];
  return [...new Set(report.skills.map((s) => s.path))];
}

/**
 * Watches the skill's folders and calls `recheck` after each change settles, printing its report
 * (an error, such as the folder gone, as one line); resolves on SIGINT, the watchers closed.
 */
export function watchChecks(
  ctx: CliContext,
  target: string,
  first: CheckReport,
  recheck: () => CheckReport,
  print: (report: CheckReport) => void,
): Promise<void> {
  const folders = watchedFolders(target, ctx.cwd, first);
  return new Promise((done) => {
    let timer: NodeJS.Timeout | undefined;
    const changed = new Set<string>();
    const run = (): void => {
      const names = [...changed].sort().join(', ');
      changed.clear();
      ctx.io.err(`\n${new Date().toLocaleTimeString()} changed: ${names}; checked again\n`);
      try {
        print(recheck());
      } catch (error) {
        ctx.io.err(`${toSkilltrayError(error).format()}\n`);
      }
    };
    const watchers: FSWatcher[] = folders.map((folder) =>
      watch(folder, { recursive: true }, (_event, name) => {
        changed.add(name === null ? folder : resolve(folder, name.toString()));
        clearTimeout(timer);
        timer = setTimeout(run, SETTLE_MS);
      }).on('error', (error) => ctx.io.err(`cannot watch ${folder} any more (${error.message}); Ctrl+C stops\n`)),
    );
    ctx.io.err(`watching ${folders.join(', ')}: checked again on every change; Ctrl+C stops\n`);
    process.once('SIGINT', () => {
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
      ctx.io.err('stopped watching\n');
      done();
    });
  });
}
