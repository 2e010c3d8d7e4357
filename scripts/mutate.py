#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Apply one mutant of scripts/mutants.txt to a kernel tree.

Usage: mutate.py MUTANTS_TXT TREE NAME
Each line is "name @@ file @@ exact text @@ replacement" (\\n, \\t and
\\\\ are expanded); every line of NAME is applied, and each text must occur once.
Where a base's series words the code differently, lines named "NAME@BASE"
replace NAME's lines on that base (BASE from the environment, as
scripts/lib.sh exports it; default 6.12).
Lines "name @@ catch @@ TOOL... [@@ BASE...]" name the tools that must
catch a mutant (scripts/mutants.sh) and, optionally, the only bases whose
series has the code it breaks; they are skipped here.
"""
import os
import re
import sys


def unescape(text):
    return re.sub(r'\\([nt\\])',
                  lambda m: {'n': '\n', 't': '\t', '\\': '\\'}[m.group(1)], text)


def main():
    spec, tree, name = sys.argv[1:]
    base = os.environ.get('BASE') or '6.12'
    lines = []
    for line in open(spec):
        if line.startswith('#') or not line.strip():
            continue
        fields = [f.strip() for f in line.rstrip('\n').split(' @@ ')]
        if len(fields) >= 3 and fields[1] == 'catch':
            continue
        lines.append(fields)
    own = f'{name}@{base}'
    if any(f[0] == own for f in lines):
        name = own
    hit = 0
    for fields in lines:
        n, path, old, new = fields
        if n != name:
            continue
        old = unescape(old)
        new = unescape(new)
        src = open(f'{tree}/{path}').read()
        if src.count(old) != 1:
            sys.exit(f'mutant {name}: text not found once in {path}')
        open(f'{tree}/{path}', 'w').write(src.replace(old, new))
        hit += 1
    if not hit:
        sys.exit(f'no mutant {name} in {spec}')


if __name__ == '__main__':
    main()
