/**
 * What the words of one shell pipeline do, as the scan needs to know it: which program a segment
 * runs (past `sudo`, `env`, `exec` and the like), whether it is a downloader or an interpreter,
 * whether that interpreter is handed inline code (`bash -c`, `python3 -c`, `node -e`) or reads
 * its program from stdin or a file, which file a download is saved to, and which files a
 * statement runs, sources or makes executable.
 */
import { baseName } from './shell-text.js';

/** Programs that fetch from the network. */
const DOWNLOADERS = new Set([
  'curl',
  'wget',
  'fetch',
  'aria2c',
  'http',
  'https',
  'xh',
  'curlie',
  'lwp-download',
  'lwp-request',
  'iwr',
  'invoke-webrequest',
  'irm',
  'invoke-restmethod',
  'start-bitstransfer',
  'bitsadmin',
  'certutil',
]);

/** Words that run the program after them (and their own options). */
const WRAPPERS = new Set([
  'sudo',
  'doas',
  'env',
  'exec',
  'nohup',
  'time',
  'command',
  'builtin',
  'nice',
  'ionice',
  'timeout',
  'xargs',
  'busybox',
  'stdbuf',
  'setsid',
  'chronic',
  'unbuffer',
]);

/** Which flags hand an interpreter its code inline, by interpreter family. */
const INLINE_FLAGS: { name: RegExp; inline: RegExp }[] = [
  // sh -c, bash -lc, zsh -ec: a short-flag cluster holding c
  { name: /^(?:(?:ba|z|da|k|mk|fi|c|tc|a)?sh)$/, inline: /^-[A-Za-z]*c[A-Za-z]*$/ },
  { name: /^(?:python[0-9.]*|py|pypy[0-9.]*)$/, inline: /^-[A-Za-z]*[cm]$/ },
  { name: /^(?:node|nodejs|bun)$/, inline: /^(?:-[ep]|--eval|--print)$/ },
  { name: /^deno$/, inline: /^eval$/ },
  { name: /^perl[0-9.]*$/, inline: /^-[A-Za-z]*[eEnp][A-Za-z]*$/ },
  { name: /^ruby[0-9.]*$/, inline: /^-[A-Za-z]*[enp][A-Za-z]*$/ },
  { name: /^php[0-9.]*$/, inline: /^-[rRBFE]$/ },
  { name: /^(?:lua[0-9.]*|luajit|osascript|tclsh|rscript|r|elixir|groovy)$/, inline: /^-e$/ },
  { name: /^julia[0-9.]*$/, inline: /^(?:-[eE]|--eval|--print)$/ },
  { name: /^(?:pwsh|powershell)$/, inline: /^-(?:c|command|e|ec|enc|encodedcommand)$/i },
  { name: /^cmd$/, inline: /^\/[ck]$/i },
];

/** Always runs what it is given as code. */
const EVALUATORS = new Set(['iex', 'invoke-expression', 'eval']);

/** The program of a segment's words, lowercased and without `.exe`, and where it stands. */
export function commandOf(words: readonly string[]): { name: string; at: number } | null {
  let at = 0;
  while (at < words.length) {
    const word = words[at] as string;
    const name = baseName(word)
      .toLowerCase()
      .replace(/\.exe$/, '');
    if (/^\w+=/.test(word) || (at > 0 && word.startsWith('-'))) {
      at++;
      continue;
    }
    if (WRAPPERS.has(name)) {
      at++;
      // timeout's duration, nice's -n value: a bare number after a wrapper is its argument
      while (at < words.length && /^-|^\d[\d.]*[smhd]?$/.test(words[at] as string)) at++;
      continue;
    }
    return { name, at };
  }
  return null;
}

export const isDownloader = (name: string): boolean => DOWNLOADERS.has(name);

/** The interpreter family `name` belongs to, or null when it is no interpreter. */
function family(name: string): RegExp | null {
  return INLINE_FLAGS.find((f) => f.name.test(name))?.inline ?? null;
}

/** Whether `name` is a shell or a language interpreter (or an evaluator like `iex`). */
export const isInterpreter = (name: string): boolean => family(name) !== null || EVALUATORS.has(name);

/** The inline code an interpreter segment is handed (the word after `-c`, `-e`, …), or null when it reads a file or stdin. */
export function inlineCodeOf(words: readonly string[]): { flag: string; code: string } | null {
  const command = commandOf(words);
  if (command === null) return null;
  const inline = family(command.name);
  if (inline === null) return null;
  for (let i = command.at + 1; i < words.length; i++) {
    const word = words[i] as string;
    if (inline.test(word)) return { flag: word, code: words.slice(i + 1).join(' ') };
    if (!word.startsWith('-')) return null;
  }
  return null;
}

/** The words a shell segment runs: for `sh -c code…` (quotes gone) the code's own words, else the segment itself. */
export function shellWords(words: readonly string[]): readonly string[] {
  const inline = inlineCodeOf(words);
  const command = commandOf(words);
  return inline !== null && command !== null && INLINE_FLAGS[0]?.name.test(command.name) === true ? inline.code.split(' ').filter((w) => w !== '') : words;
}

/** Whether this segment runs what is piped into it as a program. */
export function runsStdin(words: readonly string[]): boolean {
  const command = commandOf(words);
  return command !== null && isInterpreter(command.name) && inlineCodeOf(words) === null;
}

/** The URL a download names, its last path segment (what `wget URL` or `curl -O` saves it as). */
function urlName(words: readonly string[]): string {
  const url = words.find((w) => /^[a-z][a-z0-9+.-]*:\/\//i.test(w));
  return url === undefined ? '' : baseName(url.replace(/[?#].*$/, '').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, ''));
}

/** Where a download in this pipeline is saved (base names; `''` when it is saved under a name the text does not show), or nothing when it goes to stdout. */
export function savedNames(pipeline: readonly (readonly string[])[]): string[] {
  const first = pipeline.findIndex((words) => {
    const command = commandOf(words);
    return command !== null && isDownloader(command.name);
  });
  if (first === -1) return [];
  const words = pipeline[first] as string[];
  const tool = commandOf(words)?.name ?? '';
  const names: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const next = words[i + 1] ?? '';
    if (/^--output(?:-document)?=/.test(word)) names.push(word.slice(word.indexOf('=') + 1));
    else if (tool === 'curl' && (/^-[A-Za-z]*o$/.test(word) || word === '--output')) names.push(next);
    else if (tool === 'curl' && (/^-[A-Za-z]*O[A-Za-z]*$/.test(word) || word === '--remote-name')) names.push(urlName(words));
    else if (tool === 'wget' && (/^-[A-Za-z]*O$/.test(word) || word === '--output-document')) names.push(next);
    else if (tool === 'wget' && /^-[A-Za-z]*O-$/.test(word)) names.push('-');
    else if (/^-outfile$/i.test(word)) names.push(next);
    else if (tool === 'certutil' || tool === 'bitsadmin' || tool === 'start-bitstransfer') names.push(baseName(words.at(-1) ?? ''));
  }
  // What the rest of the pipeline writes (> file, tee file) is the download too.
  for (const segment of pipeline.slice(first)) {
    segment.forEach((word, i) => {
      if (/^>>?$/.test(word)) names.push(segment[i + 1] ?? '');
      else if (/^>>?[^&>]/.test(word)) names.push(word.replace(/^>>?/, ''));
    });
    if (commandOf(segment)?.name === 'tee') names.push(...segment.slice((commandOf(segment)?.at ?? 0) + 1).filter((w) => !w.startsWith('-')));
  }
  // wget saves under the URL's name unless told otherwise.
  if (tool === 'wget' && !words.some((w) => /^-[A-Za-z]*O|^--output-document/.test(w))) names.push(urlName(words));
  return names.filter((n) => n !== '-' && n !== '/dev/null' && !n.startsWith('&')).map((n) => baseName(n));
}

/** Files a statement's words run as a program, source, hand to an interpreter, or make executable (base names). */
export function runNames(words: readonly string[]): string[] {
  const command = commandOf(words);
  // A URL standing alone is what a sentence or a call was saying, not a program.
  if (command === null || /^[a-z][\w+.-]*:\/\//i.test(words[command.at] as string)) return [];
  const rest = words.slice(command.at + 1);
  const operand = (): string[] => {
    const found = rest.find((w) => !w.startsWith('-'));
    return found === undefined ? [] : [baseName(found)];
  };
  if (command.name === '.' || command.name === 'source' || command.name === '&' || command.name === 'start-process') return operand();
  if (command.name === 'chmod')
    return rest.some((w) => /^(?:[ugoa]*\+[rwX]*x[rwX]*|[0-7]*[1357][0-7]?[0-7]?)$/.test(w))
      ? rest.filter((w) => !w.startsWith('-') && !/^[ugoa]*[+=]|^[0-7]+$/.test(w)).map(baseName)
      : [];
  if (isInterpreter(command.name)) {
    if (inlineCodeOf(words) !== null) return [];
    const file = rest.findIndex((w) => /^-file$/i.test(w));
    return file !== -1 ? [baseName(rest[file + 1] ?? '')] : operand();
  }
  return [baseName(words[command.at] as string)];
}
