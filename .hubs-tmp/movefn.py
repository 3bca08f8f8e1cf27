import sys, re
def extract(path, name):
    src = open(path).read()
    lines = src.split('\n')
    # find declaration line
    idx = None
    for i, l in enumerate(lines):
        if re.match(r'^(export )?(async )?(function|const) ' + re.escape(name) + r'\b', l):
            idx = i; break
    if idx is None: raise SystemExit(f'{name} not found in {path}')
    start = idx
    # include preceding doc comment
    j = idx - 1
    if j >= 0 and lines[j].strip().endswith('*/'):
        while not lines[j].lstrip().startswith('/**'): j -= 1
        start = j
    # end: first line == '}' or ends with ';' for const one-liners
    end = idx
    if lines[idx].rstrip().endswith(';') and not lines[idx].rstrip().endswith('{'):
        end = idx
    else:
        while lines[end] != '}' and not (lines[end].endswith(');') and lines[end].startswith(')')): end += 1
    block = '\n'.join(lines[start:end+1])
    rest = lines[:start] + lines[end+1:]
    # collapse triple blank lines
    out = '\n'.join(rest)
    out = re.sub(r'\n{3,}', '\n\n', out)
    out = out.rstrip('\n') + '\n'
    open(path, 'w').write(out)
    return block
if __name__ == '__main__':
    path, dest = sys.argv[1], sys.argv[2]
    blocks = [extract(path, n) for n in sys.argv[3:]]
    with open(dest, 'a') as f:
        for b in blocks: f.write('\n' + b + '\n')
