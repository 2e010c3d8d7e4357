#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Sum up make scale's guests (scripts/scale.sh).

Usage: scale.py RESULTS ITERS KERNEL:MODE:LOG...

Each LOG is a benchmark guest's console in the scale scenario, whose
lat_kill printed, per working set of K keys, "kill0 K keys: N
microseconds" and, with SELinux, the AVC's counters right before and right
after the ITERS timed signals ("stats K FILE before|after ...").  Writes
RESULTS/scale.txt, .csv, .json and .dat (the plot's data) and prints the
table.
"""
import csv
import json
import os
import re
import sys

M = 'SELINUX-AVC-BENCH: RESULT '
TIME = re.compile(r'kill0 (\d+) keys: ([0-9.]+) microseconds$')
STAT = re.compile(r'stats (\d+) (\w+) (before|after) (.*)$')


def fail(msg):
    sys.exit('scale.py: ' + msg)


def parse(path):
    times, stats, heads = {}, {}, {}
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\r\n')
            i = line.find(M)
            if i < 0:
                continue
            body = line[i + len(M):]
            m = TIME.match(body)
            if m:
                times[int(m.group(1))] = float(m.group(2)) * 1000.0
                continue
            m = STAT.match(body)
            if not m:
                continue
            keys, name, when, rest = (int(m.group(1)), m.group(2),
                                      m.group(3), m.group(4).split())
            if rest and not rest[0].isdigit():
                heads[name] = rest
            else:
                stats[(keys, name, when)] = [int(x) for x in rest]
    return times, stats, heads


def delta(stats, heads, keys, name, field):
    """The change of counter @field of /sys/fs/selinux/avc/@name over
    the timed signals of the working set @keys, or None."""
    b = stats.get((keys, name, 'before'))
    a = stats.get((keys, name, 'after'))
    if b is None or a is None or name not in heads:
        return None
    try:
        i = heads[name].index(field)
    except ValueError:
        return None
    return a[i] - b[i]


def pct(n, d):
    return None if n is None or not d else 100.0 * n / d


def fmt(v, spec):
    return '-' if v is None else spec % v


def main():
    if len(sys.argv) < 4:
        fail(__doc__)
    out, iters = sys.argv[1], int(sys.argv[2])
    runs = {}
    for spec in sys.argv[3:]:
        kernel, mode, path = spec.split(':', 2)
        runs[(kernel, mode)] = parse(path)
    kernels = [k for k in ('stock', 'patched')
               if (k, 'selinux') in runs and (k, 'none') in runs]
    if not kernels:
        fail('need a selinux and a none guest of at least one kernel')
    keysets = sorted(set.intersection(*(set(r[0]) for r in runs.values())))
    if not keysets:
        fail('no working set has a result in every guest')
    for (k, mode), r in runs.items():
        missing = sorted(set().union(*(set(x[0]) for x in runs.values()))
                         - set(r[0]))
        if missing:
            fail('%s %s has no result for %s keys' % (k, mode, missing))

    rows = []
    for n in keysets:
        row = {'keys': n}
        for k in kernels:
            sel = runs[(k, 'selinux')]
            row[k + '_selinux'] = sel[0][n]
            row[k + '_none'] = runs[(k, 'none')][0][n]
            row[k + '_over'] = sel[0][n] - row[k + '_none']
            st, hd = sel[1], sel[2]
            look = delta(st, hd, n, 'cache_stats', 'lookups')
            hits = delta(st, hd, n, 'cache_stats', 'hits')
            miss = delta(st, hd, n, 'cache_stats', 'misses')
            plook = delta(st, hd, n, 'pcpu_cache_stats', 'lookups')
            phits = delta(st, hd, n, 'pcpu_cache_stats', 'hits')
            # The checks of the window: the signals, and the few the
            # guest made besides (under 1%: its output, for one); those
            # the first level saw, if it saw more than the signals.
            total = max(iters, plook if plook is not None else look or 0)
            row[k + '_checks'] = total
            row[k + '_avc_hits_pct'] = pct(hits, total)
            row[k + '_avc_computed_pct'] = pct(miss, total)
            row[k + '_pcpu_hits_pct'] = pct(phits, total)
            row[k + '_pcpu_bypassed_pct'] = (
                None if plook is None else
                max(0.0, 100.0 * (iters - plook) / total))
        if 'stock' in kernels and 'patched' in kernels and row['stock_over']:
            row['ratio'] = row['patched_over'] / row['stock_over']
        else:
            row['ratio'] = None
        rows.append(row)

    lines = [
        'Working-set sweep, whole system (make scale): kill(pid, 0) to K '
        'processes in turn, each',
        'at a level of its own, one check of (sender, target, process) per '
        'signal; %d timed signals' % iters,
        'per K.  Instructions per signal under qemu -icount, SELinux '
        'enforcing minus lsm=capability.',
        'Shares of the timed checks: answered by the per-CPU cache (hits), '
        'sent past it (bypassed),',
        'answered by the AVC (AVC hits) and computed by the security server '
        '(AVC misses).', '']
    hdr = '%6s %9s %9s %8s %9s %9s %10s %10s %10s %10s' % (
        'keys', 'stock', 'patched', 'pat/stk', 'pcpu hit', 'bypassed',
        'stock AVC', 'pat AVC', 'stock cmp', 'pat cmp')
    lines += [hdr, '-' * len(hdr)]
    for r in rows:
        lines.append('%6d %9s %9s %8s %9s %9s %10s %10s %10s %10s' % (
            r['keys'],
            fmt(r.get('stock_over'), '%+.0f'),
            fmt(r.get('patched_over'), '%+.0f'),
            fmt(r['ratio'], '%.2f'),
            fmt(r.get('patched_pcpu_hits_pct'), '%.1f%%'),
            fmt(r.get('patched_pcpu_bypassed_pct'), '%.1f%%'),
            fmt(r.get('stock_avc_hits_pct'), '%.1f%%'),
            fmt(r.get('patched_avc_hits_pct'), '%.1f%%'),
            fmt(r.get('stock_avc_computed_pct'), '%.1f%%'),
            fmt(r.get('patched_avc_computed_pct'), '%.1f%%')))
    text = '\n'.join(lines) + '\n'
    with open(os.path.join(out, 'scale.txt'), 'w') as f:
        f.write(text)
    sys.stdout.write(text)

    cols = ['keys']
    for k in kernels:
        cols += [k + s for s in ('_none', '_selinux', '_over',
                                 '_pcpu_hits_pct', '_pcpu_bypassed_pct',
                                 '_avc_hits_pct', '_avc_computed_pct')]
    cols.append('ratio')
    with open(os.path.join(out, 'scale.csv'), 'w', newline='') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(cols)
        for r in rows:
            w.writerow(['' if r.get(c) is None else
                        (r[c] if c == 'keys' else '%.3f' % r[c])
                        for c in cols])
    with open(os.path.join(out, 'scale.json'), 'w') as f:
        json.dump({'unit': 'guest instructions per kill(pid, 0)',
                   'timed_signals': iters, 'rows': rows}, f, indent=1)
    with open(os.path.join(out, 'scale.dat'), 'w') as f:
        f.write('# keys stock patched pcpu_hits bypassed stock_avc_hits '
                'patched_avc_hits\n')
        for r in rows:
            f.write('%d %s %s %s %s %s %s\n' % tuple(
                [r['keys']] + [fmt(r.get(c), '%.3f') for c in (
                    'stock_over', 'patched_over', 'patched_pcpu_hits_pct',
                    'patched_pcpu_bypassed_pct', 'stock_avc_hits_pct',
                    'patched_avc_hits_pct')]))


if __name__ == '__main__':
    main()
