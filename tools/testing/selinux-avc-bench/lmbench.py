#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make lmbench's report: the console logs of the lmbench guests (lmbench's
own programs, guest/lmbench.sh) turned into results/lmbench.txt (the
table, also printed), lmbench.csv and lmbench.json, beside make bench's
rows of the same kernels (bench.csv) where there are any.

Usage: lmbench.py [--bench CSV] [--source TEXT] RESULTS_DIR KERNEL:MODE:LOG...
  KERNEL is stock or patched, MODE selinux or none (lsm=capability).
  --bench: make bench's bench.csv for the agreement columns (absent or
  missing: those columns say so); --source: the lmbench checkout, for
  the header and the JSON.
The runs and rows are lmbench.conf's; each row's figure is lmbench's time
per operation in microseconds, times 1000: guest instructions under qemu
-icount shift=0.  Exits 1 with a message when a log is incomplete, a run
failed or the benchmark domain met a denial.
"""
import argparse
import csv
import json
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402

CONF = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lmbench.conf')
UNIT = ('guest instructions per operation: lmbench\'s microseconds x 1000 '
        '(qemu TCG -icount shift=0: one guest nanosecond is one instruction)')


def load_conf(path=CONF):
    """(runs, rows): the "run" lines as {name: (server, program, args)}
    in order, the "row" lines as dicts, in order."""
    runs, rows = {}, []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            words = line.split()
            if not words or words[0].startswith('#') or words[0] in ('copy', 'file'):
                continue
            where = '%s:%d' % (path, n)
            if words[0] == 'run' and len(words) >= 4 and words[2] in ('server', '-'):
                runs[words[1]] = (words[2], words[3], words[4:])
            elif words[0] == 'row':
                head, sep, desc = line.partition(' | ')
                f5 = head.split()
                if not sep or len(f5) != 5 or \
                        not re.match(r'(micro|mmap|(create|unlink):\w+)$', f5[3]):
                    report.fail('%s: not "row KEY RUN micro|mmap|create:SIZE|unlink:SIZE '
                                'BENCH | DESCRIPTION"' % where)
                rows.append({'key': f5[1], 'run': f5[2], 'figure': f5[3],
                             'bench': None if f5[4] == '-' else f5[4],
                             'description': desc.strip()})
            else:
                report.fail('%s: not a copy, file, run or row line' % where)
    for r in rows:
        if r['run'] not in runs:
            report.fail('%s: row %s: no run line for %s' % (path, r['key'], r['run']))
    return runs, rows


def figure(lines, fig, where):
    """Microseconds per operation of FIG in a run's output LINES."""
    if fig == 'micro':
        found = [m for m in (re.match(r'(.+): ([0-9.]+) microseconds$', x) for x in lines) if m]
        if len(found) != 1:
            report.fail('%s: want one "LABEL: N microseconds" line, got: %s' % (where, lines))
        return float(found[0].group(2))
    if fig == 'mmap':
        found = [m for m in (re.match(r'([0-9.]+) ([0-9.]+)$', x) for x in lines) if m]
        if len(found) != 1:
            report.fail('%s: want lat_mmap\'s one "MB MICROSECONDS" line, got: %s' % (where, lines))
        return float(found[0].group(2))
    what, size = fig.split(':')
    for x in lines:
        f = x.split()
        if len(f) == 4 and f[0] == size:
            rate = float(f[2] if what == 'create' else f[3])
            if rate <= 0:
                report.fail('%s: lat_fs measured no %s rate for %s: %s' % (where, what, size, x))
            return 1e6 / rate
    report.fail('%s: no lat_fs line for size %s in: %s' % (where, size, lines))


def parse(kernel, mode, path, runs, rows):
    """One guest's log, checked by report.parse, with the rows' figures
    in instructions in run['results'] and each run's lines in run['lmbench']."""
    run = report.parse(kernel, mode, path, tests=[])
    where = '%s %s (log: %s)' % (kernel, mode, path)
    out = {name: [] for name in runs}
    status = {}
    for rest in run['tags'].get('LMBENCH', []):
        name, _, line = rest.partition(' ')
        out.setdefault(name, []).append(line.strip())
    for rest in run['tags'].get('LMBENCH-END', []):
        name, _, st = rest.partition(' ')
        status[name] = st.strip()
    for name in runs:
        if name not in status:
            report.fail('%s: lmbench run %s did not finish' % (where, name))
    if mode == 'selinux':
        bad = [d for d in run['denied'] if 'scontext=%s ' % run['context'] in d + ' ']
        if bad:
            report.fail('%s: the benchmark domain met a denial, which lmbench would '
                        'have measured: %s' % (where, bad[0]))
    # A run failed when it printed no figure: its exit status alone does
    # not tell (lat_unix_connect's client returns what its last fprintf()
    # did), so it only goes with the message.
    for r in rows:
        run_ = runs[r['run']]
        us = figure(out[r['run']], r['figure'], '%s: lmbench run %s (%s, exit status %s)' % (
            where, r['run'], ' '.join([run_[1]] + run_[2]), status[r['run']]))
        run['results'][r['key']] = round(us * 1000.0, 1)
    run['lmbench'] = out
    run['status'] = status
    env = run['tags'].get('LMBENCH-ENV', [])
    run['env'] = env[0] if env else None
    return run


def read_bench(path):
    """make bench's rows by key (bench.csv as report.py writes it), or None."""
    if not path or not os.path.isfile(path):
        return None
    with open(path) as f:
        return {r['test']: r for r in csv.DictReader(f)}


def num(v):
    return float(v) if v not in (None, '') else None


def quotient(a, b):
    # Below one instruction, an overhead is the guests' noise.
    return round(a / b, 3) if a is not None and b is not None and b >= 1 else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--bench')
    ap.add_argument('--source', default='')
    ap.add_argument('outdir')
    ap.add_argument('specs', nargs='+')
    args = ap.parse_args()
    runs_conf, conf_rows = load_conf()
    runs = {}
    for spec in args.specs:
        kernel, mode, path = spec.split(':', 2)
        if kernel not in report.KERNELS or mode not in report.MODES:
            report.fail('bad run %s: want KERNEL:MODE:LOG, KERNEL one of %s, MODE one of %s'
                        % (spec, ' '.join(report.KERNELS), ' '.join(report.MODES)))
        runs[(kernel, mode)] = parse(kernel, mode, path, runs_conf, conf_rows)
    kernels = [k for k in report.KERNELS if any((k, m) in runs for m in report.MODES)]
    tests = [(None, r['key'], r['description']) for r in conf_rows]
    rows = report.make_rows(runs, kernels, tests, report.MODES)

    bench = read_bench(args.bench)
    for row, c in zip(rows, conf_rows):
        row['lmbench_run'] = ' '.join([runs_conf[c['run']][1]] + runs_conf[c['run']][2])
        row['bench_row'] = c['bench']
        b = bench.get(c['bench']) if bench and c['bench'] else None
        for k in kernels:
            row['bench_%s_overhead' % k] = num(b.get('%s_overhead' % k)) if b else None
            row['agree_%s' % k] = quotient(row['%s_overhead' % k], row['bench_%s_overhead' % k])
        row['bench_ratio'] = num(b.get('ratio')) if b else None

    both = 'stock' in kernels and 'patched' in kernels
    cols = []
    for k in kernels:
        cols += ['%s_none' % k, '%s_selinux' % k, '%s_overhead' % k]
    if both:
        cols.append('ratio')
    cols += ['bench_row'] + ['bench_%s_overhead' % k for k in kernels]
    if both:
        cols.append('bench_ratio')
    cols += ['agree_%s' % k for k in kernels]
    with open(os.path.join(args.outdir, 'lmbench.csv'), 'w') as f:
        f.write(','.join(['test', 'description', 'lmbench_run'] + cols) + '\n')
        for row in rows:
            f.write(','.join([row['test'], '"%s"' % row['description'], '"%s"' % row['lmbench_run']] +
                             ['' if row[c] is None else str(row[c]) for c in cols]) + '\n')

    meta = {
        'unit': UNIT,
        'lmbench': args.source,
        'modes': {'selinux': 'SELinux enforcing, project policy (plus policy/lmbench.te), '
                             'benchmark confined',
                  'none': 'lsm=capability'},
        'bench_csv': args.bench if bench is not None else None,
        'agree': 'agree_KERNEL: lmbench\'s SELinux overhead over make bench\'s row '
                 'bench_row (bench_KERNEL_overhead) on the same kernel',
        'runs': {'%s_%s' % k: {'begin': r['begin'], 'context': r['context'], 'env': r['env'],
                               'checks': r['checks'], 'lmbench': r['lmbench'],
                               'exit_status': r['status']}
                 for k, r in sorted(runs.items())},
    }
    with open(os.path.join(args.outdir, 'lmbench.json'), 'w') as f:
        json.dump({'meta': meta, 'tests': rows}, f, indent=2)
        f.write('\n')

    env = sorted({r['env'] for r in runs.values() if r['env']})
    where = args.bench or 'RESULTS/bench.csv'
    if not os.path.relpath(where).startswith('..'):
        where = os.path.relpath(where)
    print('lmbench%s: its own programs in make bench\'s guests (%s).' % (
        ' (%s)' % args.source if args.source else '', ', '.join(env) or 'lmbench\'s settings'))
    print('Guest instructions per operation: lmbench\'s microseconds x 1000 (qemu -icount')
    print('shift=0: one guest nanosecond is one instruction).  bench +: make bench\'s SELinux')
    if bench is not None:
        print('overhead for the same operation (%s); lm/bench: lmbench\'s over it.' % where)
    else:
        print('overhead for the same operation: none here, as there is no')
        print('%s (make bench, or scripts/bench.sh FLAVOR, on these kernels writes it).' % where)
    def val(key, nd=0, sign=False):
        def get(row):
            if row['bench_row'] is None and key.startswith(('bench', 'agree')):
                return 'no row'
            v = row[key]
            return '-' if v is None else ('%+.0f' % v if sign else '%.*f' % (nd, v))
        return get
    extra = ([('overhead', 'pat/stock', val('ratio', 2))] if both else [])
    extra += [('bench +', k, val('bench_%s_overhead' % k, sign=True)) for k in kernels]
    extra += ([('bench', 'pat/stock', val('bench_ratio', 2))] if both else [])
    extra += [('lm/bench', k, val('agree_%s' % k, 2)) for k in kernels]
    report.print_table(rows, kernels, extra)
    none = [row['description'] for row in rows if row['bench_row'] is None]
    if none:
        print('no make bench row for: %s' % ', '.join(none))
    if any(c['figure'] == 'mmap' for c in conf_rows):
        print('lat_mmap prints whole microseconds from 10 up: its row is exact to +-500 instructions.')


if __name__ == '__main__':
    main()
