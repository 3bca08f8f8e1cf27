# split.py SRC SPEC.json : SPEC = {"imports_end": N, "files": [{"path":..., "header":..., "ranges":[[a,b],...], "extra_imports": "...", "rewrite": [[old,new],...]}], "keep": [[a,b]], "keep_extra": "..."}
import json, sys, re
src_path, spec_path = sys.argv[1], sys.argv[2]
lines = open(src_path).read().split('\n')
spec = json.load(open(spec_path))
imports = '\n'.join(l for l in lines[:spec['imports_end']] if l.startswith('import ') or l.startswith('  ') and False)
# collect full import statements (may span lines)
imp_lines=[]; buf=None
for l in lines[:spec['imports_end']]:
    if buf is not None:
        buf.append(l)
        if l.rstrip().endswith(';'): imp_lines.append('\n'.join(buf)); buf=None
    elif l.startswith('import '):
        if l.rstrip().endswith(';'): imp_lines.append(l)
        else: buf=[l]
imports='\n'.join(imp_lines)
for f in spec['files']:
    body = '\n\n'.join('\n'.join(lines[a-1:b]) for a, b in f['ranges'])
    imp = imports
    for old, new in f.get('rewrite', []): imp = imp.replace(old, new)
    text = f['header'].rstrip('\n') + '\n' + imp + '\n' + f.get('extra_imports', '') + '\n' + body + '\n'
    text = re.sub(r'\n{3,}', '\n\n', text)
    open(f['path'], 'w').write(text)
keep = '\n\n'.join('\n'.join(lines[a-1:b]) for a, b in spec['keep'])
text = spec['keep_header'].rstrip('\n') + '\n' + imports + '\n' + spec.get('keep_extra', '') + '\n' + keep + '\n'
open(src_path, 'w').write(re.sub(r'\n{3,}', '\n\n', text))
