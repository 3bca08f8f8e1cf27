/**
 * The little languages a tool may write inline and still run nothing it is handed: a sed script
 * of the commands that only edit the text (no `e`, no `w`, no `s///e` or `s///w`), and an awk
 * program that neither calls `system()`, nor reads or prints through a command or a file, nor
 * loads anything. Each is an allow-list read by a small parser: what it does not know is refused.
 */

/** sed commands that take no argument and only move text between the pattern and hold spaces and the output. */
const SED_PLAIN = new Set([...'pPdDnNgGhHxlz=FqQ']);

/** Where a sed command ends: a newline, `;`, `}` or the end. */
const SED_END = /^[ \t]*(?:[;\n}]|$)/;

/** Reads one sed address at `at` (a line number, `$`, `/re/` or `\cREc` with its I/M flags, `first~step`, `+N`, `~N`); returns where it ends. */
function sedAddress(script: string, at: number): number {
  const rest = script.slice(at);
  const number = /^(?:\d+(?:~\d+)?|\$|[+~]\d+)/.exec(rest);
  if (number !== null) return at + number[0].length;
  let delim: string | null = null;
  let i = at;
  if (rest.startsWith('/')) delim = '/';
  else if (rest.startsWith('\\') && rest.length > 1) {
    delim = rest[1] as string;
    i++;
  }
  if (delim === null) return at;
  const close = delimited(script, i + 1, delim);
  if (close === -1) return -1;
  let end = close + 1;
  while (script[end] === 'I' || script[end] === 'M') end++;
  return end;
}

/** The index of the next unescaped `delim` from `from`, or -1. */
function delimited(script: string, from: number, delim: string): number {
  for (let i = from; i < script.length; i++) {
    if (script[i] === '\\') i++;
    else if (script[i] === delim) return i;
    else if (script[i] === '\n') return -1;
  }
  return -1;
}

/** Why a sed script could run or write something (its first such command), or null when every command only edits text. */
export function sedScriptWhy(script: string): string | null {
  let i = 0;
  let depth = 0;
  while (i < script.length) {
    const skip = /^[\s;]*/.exec(script.slice(i)) as RegExpExecArray;
    i += skip[0].length;
    if (i >= script.length) break;
    if (script[i] === '#') {
      const nl = script.indexOf('\n', i);
      i = nl === -1 ? script.length : nl;
      continue;
    }
    i = sedAddress(script, i);
    if (i !== -1 && script[i] === ',') i = sedAddress(script, i + 1);
    if (i === -1) return 'its script does not parse';
    while (script[i] === ' ' || script[i] === '!') i++;
    const command = script[i] ?? '';
    i++;
    if (command === '{') {
      // A block opens: its first command follows at once.
      depth++;
      continue;
    }
    if (command === '}') depth--;
    else if (SED_PLAIN.has(command)) i += (/^\d*/.exec(script.slice(i)) as RegExpExecArray)[0].length;
    else if (':btTaicrRv'.includes(command)) {
      // A label, a branch, text to add, a file to read, a version: to the end of the line (GNU's one-line forms).
      const nl = script.indexOf('\n', i);
      i = nl === -1 ? script.length : nl;
      continue;
    } else if (command === 's' || command === 'y') {
      const delim = script[i] ?? '';
      if (delim === '' || delim === '\n' || delim === '\\') return 'its script does not parse';
      const middle = delimited(script, i + 1, delim);
      const end = middle === -1 ? -1 : delimited(script, middle + 1, delim);
      if (end === -1) return 'its script does not parse';
      i = end + 1;
      if (command === 's') {
        const flags = (/^[gpiImM0-9]*/.exec(script.slice(i)) as RegExpExecArray)[0];
        i += flags.length;
        if (/^[ew]/.test(script.slice(i))) return `its s command has the ${script[i]} flag, which ${script[i] === 'e' ? 'runs the result' : 'writes a file'}`;
      }
    } else if ('ewW'.includes(command) && command !== '')
      return `its script has the ${command} command, which ${command === 'e' ? 'runs a command' : 'writes a file'}`;
    else return `its script has ${JSON.stringify(command)}, no command vetted here`;
    if (!SED_END.test(script.slice(i))) return 'its script does not parse';
  }
  return depth === 0 ? null : 'its script does not parse';
}

/** awk's string and regex literals blanked, so what they hold is neither a pipe nor a redirection. */
function awkCode(program: string): string {
  return program.replace(/"(?:[^"\\\n]|\\.)*"/g, '""').replace(/(^|[(,{;!~&|\n]\s*)\/(?:[^/\\\n]|\\.)+\//g, '$1//');
}

/** Why an awk program could run or write something, or null when it only reads its input and prints. */
export function awkProgramWhy(program: string): string | null {
  const code = awkCode(program);
  if (/\bsystem\s*\(/.test(code)) return 'its program calls system()';
  if (/\bgetline\b/.test(code)) return 'its program reads with getline (from a command or a file)';
  if (/@/.test(code)) return 'its program loads, includes or calls indirectly (@)';
  if (code.replace(/\|\|/g, '').includes('|')) return 'its program pipes into or out of a command';
  for (const statement of code.split(/[;{}\n]/)) {
    if (/^\s*printf?\b/.test(statement) && />/.test(statement.replace(/\([^()]*\)/g, ''))) return 'its program prints into a file';
  }
  return null;
}
