/**
 * Instructions that tell an assistant to fetch and run something without a shell pipe to give them
 * away: a package runner or installer handed a URL or a git source (`npx https://…`, `npx
 * github:…`, `pip install git+https://…`, `go run host/path@latest`, `deno run https://…`), a
 * sentence telling it to download something and run it, a link to a script with "run" beside it,
 * and a sentence telling it to decode base64 and execute the result. Each reads one line of
 * Markdown as a reader would (readerText), code spans and fences included.
 */

/** A package source that is no registry name: a URL, a git remote, a GitHub shorthand. */
const REMOTE_SOURCE = /^(?:git\+|https?:\/\/|git:\/\/|ssh:\/\/|github:|gitlab:|bitbucket:|gist:|git@)/i;

/** Runners that fetch a package and run it: the first operand is the package. */
const RUNNERS = new Set(['npx', 'bunx', 'pnpx', 'uvx']);
/** Package tools, and their subcommands that fetch: installing runs install scripts, `exec`/`dlx`/`run` run the package. */
const PACKAGE_TOOLS = /^(?:npm|pnpm|yarn|bun|pip[\d.]*|uv|cargo|gem|pipx|deno)$/;
const INSTALLS = /^(?:install|i|add)$/;
const RUNS = /^(?:exec|x|dlx|run)$/;
/** A word that may name a package tool or runner (a quick test before the words after it are read). */
const PACKAGE_WORD = /^(?:.*\/)?(?:npx|bunx|pnpx|uvx|npm|pnpm|yarn|bun|pip[\d.]*|uv|cargo|gem|pipx|deno|go)$/i;
/** Options whose value is the package fetched. */
const PACKAGE_OPTIONS = /^(?:-p|--package|--from|--spec|--with|--git|-e|--editable)$/;
/** Options whose value is no package (an index, a registry, an endpoint, a file). */
const VALUE_OPTIONS =
  /^(?:-i|--index-url|--extra-index-url|--registry|-r|--requirement|-c|--constraint|-f|--find-links|-t|--target|--prefix|--root|--cache-dir|--endpoint|--url|--source|--proxy|--cert|--trusted-host|--config|-C|--cwd|--dir)$/;

/** The words a package tool fetches: values of the package options, then its operands (all, or the first when it runs one). */
function fetched(rest: readonly string[], first: boolean): string[] {
  const named = rest.flatMap((w, i) => {
    const joined = /^(--?[\w-]+)=(.+)$/.exec(w);
    if (joined !== null) return PACKAGE_OPTIONS.test(joined[1] as string) ? [joined[2] as string] : [];
    return PACKAGE_OPTIONS.test(rest[i - 1] ?? '') ? [w] : [];
  });
  const operands = rest.filter((w, i) => !w.startsWith('-') && !VALUE_OPTIONS.test(rest[i - 1] ?? '') && !PACKAGE_OPTIONS.test(rest[i - 1] ?? ''));
  return [...named, ...(first ? operands.slice(0, 1) : operands)];
}

/** Why the words from `at` on (a sentence leads up to the command) run a package from a remote source, or null. */
function packageAt(words: readonly string[], at: number): string | null {
  const word = words[at] as string;
  if (!PACKAGE_WORD.test(word)) return null;
  const name = word.toLowerCase().replace(/^.*\//, '');
  const rest = words.slice(at + 1);
  if (name === 'go') {
    const run = rest.indexOf('run');
    const module = run === -1 ? undefined : rest.slice(run + 1).find((w) => !w.startsWith('-'));
    return module !== undefined && /^[\w-]+\.[\w.-]+\/\S*@\S+$/.test(module) ? `go run of a remote module (${module})` : null;
  }
  let what: string[] = [];
  if (RUNNERS.has(name)) {
    what = fetched(rest, true);
    // npx user/repo runs a GitHub repository.
    if (name !== 'uvx' && what[0] !== undefined && /^[\w-]+\/[\w.-]+$/.test(what[0])) return `${name} of a GitHub repository (${what[0]})`;
  } else if (PACKAGE_TOOLS.test(name)) {
    const sub = rest.findIndex((w) => INSTALLS.test(w) || RUNS.test(w));
    if (sub === -1) return null;
    what = fetched(rest.slice(sub + 1), RUNS.test(rest[sub] as string));
  }
  const remote = what.find((w) => REMOTE_SOURCE.test(w));
  return remote === undefined ? null : `${name} of ${remote}`;
}

/** Why a line's words run a package from a remote source, or null. */
function packageWhy(pipeline: readonly (readonly string[])[]): string | null {
  for (const words of pipeline) {
    for (let at = 0; at < words.length; at++) {
      const why = packageAt(words, at);
      if (why !== null) return why;
    }
  }
  return null;
}

/** Verbs that fetch, and verbs that run. */
const FETCH_VERB = /\b(?:download|fetch|grab|get|pull|save|retrieve)\b/i;
const RUN_VERB = /\b(?:run|execute|exec|launch|start|invoke|source|eval|evaluate)\b/i;
/** What a run verb's object is when it is the thing fetched. */
const FETCHED_OBJECT =
  /\b(?:run|execute|exec|launch|start|invoke|source|eval|evaluate)\s+(?:it|them|this|that|the\s+(?:script|binary|installer|file|executable|program|payload|result|output|download))\b/i;
/** A URL naming a file that runs: a script, a binary, an installer. */
const RUNNABLE_URL =
  /\bhttps?:\/\/[^\s)>"'`]+\.(?:sh|bash|zsh|ps1|psm1|bat|cmd|exe|msi|py|pl|rb|js|mjs|jar|bin|run|appimage|command|vbs|scr)(?=[\s)>"'`?#]|$)/i;
const URL = /\b(?:https?|ftp):\/\/\S+/i;

/** Why a sentence tells the reader to fetch something and run it, or null. */
function sentenceWhy(line: string): string | null {
  for (const sentence of line.split(/(?<=[.!?])\s+(?=[A-Z])/)) {
    const fetchAt = sentence.search(FETCH_VERB);
    const url = URL.test(sentence);
    const runnable = RUNNABLE_URL.test(sentence);
    const runs = RUN_VERB.test(sentence);
    if (runnable && runs) return 'run a script or program it names by URL';
    if (url && fetchAt !== -1 && (FETCHED_OBJECT.test(sentence.slice(fetchAt)) || /\bmake\s+(?:it|the\s+\w+)\s+executable\b|\bchmod\b/i.test(sentence)))
      return 'download something and run it';
    if (
      /\bbase ?64\b/i.test(sentence) &&
      /\bdecod/i.test(sentence) &&
      (FETCHED_OBJECT.test(sentence) || /\b(?:pipe|feed)\b.*\b(?:sh|bash|shell|powershell)\b/i.test(sentence))
    )
      return 'decode something and run it';
  }
  return null;
}

/** What a line of instructions tells a reader to fetch and run, in words (no shell pipe needed), or null. */
export function proseDropperWhy(line: string, pipelines: readonly (readonly (readonly string[])[])[]): string | null {
  for (const pipeline of pipelines) {
    const why = packageWhy(pipeline);
    if (why !== null) return `run a package fetched from a remote source: ${why}`;
  }
  return sentenceWhy(line);
}
