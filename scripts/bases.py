#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench BASE=7.3's comparison across bases: what upstream gained from
the default base (6.12) to the other base, and what the series adds on top.

Reads OTHER/bench.csv (make bench on the other base: no LSM, stock and
patched) and DEFAULT/bench.csv (the default base's stock kernel, benchmarked
in the same run, and its patched kernel where that run had one).  Prints,
per row, the SELinux overhead (enforcing minus lsm=capability, guest
instructions per operation) of each kernel, and the ratios that answer the
two questions: stock OTHER / stock DEFAULT (upstream's own gain) and
patched OTHER / stock OTHER (the series on top).  The neveraudit rows
(na_*), where the other base has them, follow.  Writes OUT/bases.csv,
OUT/bases.txt and OUT/bases.png (gnuplot, if present).

Usage: bases.py DEFAULT_NAME DEFAULT_DIR OTHER_NAME OTHER_DIR OUT
"""
import csv
import os
import shutil
import subprocess
import sys


def load(path):
    try:
        with open(path) as f:
            return [r for r in csv.DictReader(f)]
    except OSError:
        return []


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def ratio(a, b):
    return a / b if a is not None and b is not None and b >= 1 else None


def fmt(v, form):
    return '-' if v is None else form % v


def main(argv):
    if len(argv) != 6:
        sys.exit(__doc__.strip())
    dname, ddir, oname, odir, out = argv[1:]
    other = load(os.path.join(odir, 'bench.csv'))
    default = {r['test']: r for r in load(os.path.join(ddir, 'bench.csv'))}
    if not other:
        sys.exit('error: no %s/bench.csv: run make bench BASE=%s' % (odir, oname))
    cols = ['test', 'description',
            'stock_%s_none' % dname, 'stock_%s_overhead' % dname,
            'patched_%s_overhead' % dname,
            'stock_%s_none' % oname, 'stock_%s_overhead' % oname,
            'patched_%s_overhead' % oname,
            'stock_%s_over_stock_%s' % (oname, dname),
            'patched_%s_over_stock_%s' % (oname, oname),
            'patched_%s_over_patched_%s' % (oname, dname)]
    rows = []
    for r in other:
        key = r['test']
        if key.startswith('churn_'):
            continue
        d = default.get(key, {})
        so, po = num(r.get('stock_overhead')), num(r.get('patched_overhead'))
        dso, dpo = num(d.get('stock_overhead')), num(d.get('patched_overhead'))
        rows.append({
            'test': key,
            'description': ('neveraudit: ' if key.startswith('na_') else '') + r['description'],
            cols[2]: num(d.get('stock_none')), cols[3]: dso, cols[4]: dpo,
            cols[5]: num(r.get('stock_none')), cols[6]: so, cols[7]: po,
            cols[8]: ratio(so, dso), cols[9]: ratio(po, so),
            cols[10]: ratio(po, dpo) if po is not None and po > 0 else None,
        })
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, 'bases.csv'), 'w', newline='') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(cols)
        for r in rows:
            w.writerow([r[c] if not isinstance(r[c], float) else round(r[c], 3)
                        for c in cols[:2]] +
                       ['' if r[c] is None else round(r[c], 3) for c in cols[2:]])
    lines = ['SELinux overhead (enforcing minus lsm=capability), guest instructions per',
             'operation under qemu -icount; %s stock: its stock kernel in the same run.' % dname,
             'upstream: stock %s / stock %s; series: patched %s / stock %s.' % (oname, dname, oname, oname),
             '']
    head = '%-34s|%9s %9s|%9s %9s|%9s %9s|%9s' % (
        'row', 'stock', 'patched', 'stock', 'patched', 'upstream', 'series', 'pat/pat')
    lines.append('%-34s|%-19s|%-19s|%-19s|%9s' % ('', ' ' + dname, ' ' + oname, ' ratios', dname))
    lines.append(head)
    lines.append('-' * len(head))
    for r in rows:
        lines.append('%-34s|%9s %9s|%9s %9s|%9s %9s|%9s' % (
            r['description'][:34],
            fmt(r[cols[3]], '%+.0f'), fmt(r[cols[4]], '%+.0f'),
            fmt(r[cols[6]], '%+.0f'), fmt(r[cols[7]], '%+.0f'),
            fmt(r[cols[8]], '%.2f'), fmt(r[cols[9]], '%.2f'), fmt(r[cols[10]], '%.2f')))
    text = '\n'.join(lines) + '\n'
    with open(os.path.join(out, 'bases.txt'), 'w') as f:
        f.write(text)
    sys.stdout.write(text)
    plot(rows, cols, dname, oname, out)


def plot(rows, cols, dname, oname, out):
    """Bars per row: stock and patched overhead on both bases."""
    if not shutil.which('gnuplot'):
        return
    per_op = [r for r in rows if 'per run' not in r['description']
              and not r['test'].startswith('na_')]
    dat = os.path.join(out, 'bases.dat')
    with open(dat, 'w') as f:
        f.write('# test stock_%s patched_%s stock_%s patched_%s\n' % (dname, dname, oname, oname))
        for r in per_op:
            f.write('%s %s\n' % (r['test'], ' '.join(
                '%.1f' % (r[c] if r[c] is not None else 0) for c in (cols[3], cols[4], cols[6], cols[7]))))
    script = '''set terminal pngcairo size 1300,600 noenhanced font ",10"
set output '%s'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set xtics rotate by -30
set title "SELinux overhead per operation: stock and patched, %s and %s (qemu -icount)"
set ylabel 'guest instructions per operation'
set key top left
plot '%s' using 2:xtic(1) title 'stock %s', '' using 3 title 'patched %s', '' using 4 title 'stock %s', '' using 5 title 'patched %s'
''' % (os.path.join(out, 'bases.png'), dname, oname, dat, dname, dname, oname, oname)
    subprocess.run(['gnuplot'], input=script, text=True, check=False)


if __name__ == '__main__':
    main(sys.argv)
