import re, sys
for p in sys.argv[1:]:
    s = open(p).read()
    def fix(m):
        kw, names, rest = m.group(1), m.group(2), m.group(3)
        parts = [n.strip() for n in names.split(',') if n.strip()]
        if kw == 'import ' and all(n.startswith('type ') for n in parts):
            kw = 'import type '; parts = [n[5:] for n in parts]
        return f"{kw}{{ {', '.join(parts)} }}{rest}"
    s = re.sub(r"^(import (?:type )?)\{([^}]*)\}( from '[^']+';)$", fix, s, flags=re.M)
    open(p, 'w').write(s)
