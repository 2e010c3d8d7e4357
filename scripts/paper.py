#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make paper: the 2007 SH4 experiment's table, answered per architecture.

Reads the bench.csv of every make bench / make bench-os run found under
RESULTS (results/ for x86_64 at -O2, results/<flavor>/ for the others:
x86_64-guest+os, arm64-guest, arm64-guest+os, ...) and prints, per row,
SELinux over no SELinux (enforcing over lsm=capability on the same kernel)
for stock and for the patched series, beside the 2007 paper's ratios
(lmbench microseconds on an SH4 board: no SELinux, SELinux at -O2, at -Os,
and at -Os with the AVC hot path inlined by hand).  Ours are guest
instructions under qemu -icount, not microseconds on a board: only the
ratios compare.  Writes RESULTS/paper.csv and RESULTS/paper.txt.

Usage: paper.py RESULTS
"""
import csv
import os
import sys

# The benchmark's rows (tools/testing/selinux-avc-bench/rows.py reads
# rows.conf); no __pycache__ in the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'tools', 'testing', 'selinux-avc-bench'))
import rows as rowsconf  # noqa: E402

# The 2007 table (microseconds): no SELinux, -O2, -Os, -Os + inlining.
PAPER = {
    'read': (2.36, 6.03, 4.24, 3.64),
    'write': (2.06, 5.92, 3.88, 3.34),
}
# The rows of the table: rows.conf's marked "paper".
ROWS = [r.key for r in rowsconf.load()[2] if r.paper]


def runs(results):
    """(arch, opt, path of bench.csv) of every run under RESULTS."""
    found = []
    for d in sorted(os.listdir(results)):
        path = os.path.join(results, d, 'bench.csv')
        if d.endswith('-guest') or d.endswith('-guest+os'):
            if os.path.isfile(path):
                arch = d.split('-guest')[0]
                found.append((arch, '-Os' if d.endswith('+os') else '-O2', path))
    top = os.path.join(results, 'bench.csv')
    if os.path.isfile(top):
        found.append(('x86_64', '-O2', top))
    return sorted(found)


def load(path):
    with open(path) as f:
        return {r['test']: r for r in csv.DictReader(f)}


def ratio(sel, none):
    try:
        return float(sel) / float(none)
    except (TypeError, ValueError, ZeroDivisionError):
        return None


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    results = sys.argv[1]
    found = runs(results)
    if not found:
        sys.exit('paper.py: no bench.csv under %s: run make bench (and make bench-os, '
                 'BENCH_ARCH=arm64 ...) first' % results)
    table = []
    for arch, opt, path in found:
        data = load(path)
        for row in ROWS:
            r = data.get(row)
            if not r:
                continue
            table.append({
                'arch': arch, 'opt': opt, 'test': row,
                'none': r['stock_none'],
                'stock_ratio': ratio(r['stock_selinux'], r['stock_none']),
                'patched_ratio': ratio(r['patched_selinux'], r['patched_none']),
                'overhead': r.get('ratio', ''),
                'source': os.path.relpath(path, results),
            })
    with open(os.path.join(results, 'paper.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['arch', 'opt', 'test', 'none_insns', 'stock_selinux_over_none',
                    'patched_selinux_over_none', 'patched_over_stock_overhead', 'source'])
        for t in table:
            w.writerow([t['arch'], t['opt'], t['test'], t['none'],
                        '%.3f' % t['stock_ratio'] if t['stock_ratio'] else '',
                        '%.3f' % t['patched_ratio'] if t['patched_ratio'] else '',
                        t['overhead'], t['source']])
    lines = ['SELinux over no SELinux (the same kernel booted with lsm=capability)',
             'ours: guest instructions per operation under qemu -icount; 2007: lmbench '
             'microseconds on an SH4 board', '']
    lines.append('%-8s %-4s %-10s %12s %8s %8s %9s' % ('arch', 'opt', 'test', 'none', 'stock',
                                                       'patched', 'overhead'))
    for t in table:
        lines.append('%-8s %-4s %-10s %12s %8s %8s %9s' % (
            t['arch'], t['opt'], t['test'], t['none'],
            '%.2fx' % t['stock_ratio'] if t['stock_ratio'] else '-',
            '%.2fx' % t['patched_ratio'] if t['patched_ratio'] else '-',
            t['overhead'] or '-'))
    lines.append('(overhead: the patched series\' SELinux overhead over stock\'s, '
                 'the figure issue targets compare across architectures)')
    # Issue target: each row's overhead ratio within 0.1 of x86_64's at
    # the same optimization level; and no row slower than stock.
    ref = {opt: load(path) for arch, opt, path in found if arch == 'x86_64'}
    for arch, opt, path in found:
        if arch == 'x86_64' or opt not in ref:
            continue
        data = load(path)
        lines.append('')
        lines.append('%s %s against x86_64 %s: patched overhead over stock\'s, every row'
                     % (arch, opt, opt))
        lines.append('%-18s %8s %8s %7s  %s' % ('test', arch, 'x86_64', 'delta', 'within 0.1'))
        for test, r in data.items():
            x = ref[opt].get(test)
            if not x or not r.get('ratio') or not x.get('ratio'):
                continue
            a, b = float(r['ratio']), float(x['ratio'])
            lines.append('%-18s %8.2f %8.2f %+7.2f  %s%s' % (
                test, a, b, a - b, 'yes' if abs(a - b) <= 0.1 else 'no',
                '; slower than stock' if a > 1 else ''))
    lines.append('')
    lines.append('2007, SH4 (lmbench us): SELinux over no SELinux')
    lines.append('%-10s %8s %8s %8s %16s' % ('test', 'none', '-O2', '-Os', '-Os+inlining'))
    for test, (none, o2, os_, inl) in PAPER.items():
        lines.append('%-10s %7.2fus %7.2fx %7.2fx %15.2fx' % (test, none, o2 / none,
                                                              os_ / none, inl / none))
    text = '\n'.join(lines) + '\n'
    with open(os.path.join(results, 'paper.txt'), 'w') as f:
        f.write(text)
    sys.stdout.write(text)


if __name__ == '__main__':
    main()
