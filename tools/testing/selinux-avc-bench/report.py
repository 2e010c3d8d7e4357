#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the guest console logs of a bench run into the comparison table,
results/bench.csv, results/bench.json and the gnuplot input for
results/bench.png.

Usage: report.py RESULTS_DIR KERNEL:MODE:LOG...
  KERNEL is stock or patched, MODE is selinux or none, or churn-selinux
  or churn-none for the permissive churn scenario (BENCH_SCENARIO=churn),
  whose rows go to a table of their own and after the suite's rows in
  bench.csv and bench.json; or na-selinux for the neveraudit scenario
  (BENCH_SCENARIO=neveraudit: the permissive domain, also neveraudit),
  whose baseline is the none guest's, and whose rows come last.  The macro rows (RUN_TESTS) are per run of a
  whole workload: a table of their own too, after the per-operation rows
  in bench.csv and bench.json, and in bench-run.dat (bench.png's second
  panel) instead of bench.dat.
The rows, their labels and descriptions are rows.conf's.
Exits 1 with a message when a log is incomplete or a check failed.
"""
import json
import os
import re
import sys

# rows.py, beside this file; no __pycache__ in the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rows as rowsconf  # noqa: E402

MARK = 'SELINUX-AVC-BENCH: '

# The rows (rows.conf): lmbench-style label -> (key, description), in
# table order, and the guest benchmark (op) of each key.
_, _SCEN, _ROWS = rowsconf.load_scenarios()
_CHURN = _SCEN['churn']
TESTS = [(r.label, r.key, r.description) for r in _ROWS if r.unit == 'op']
# Macro rows: one figure per run of a whole workload, not per operation.
# They print in a table of their own and follow TESTS in bench.csv and
# bench.json, where each carries its unit.
RUN_TESTS = [(r.label, r.key, r.description) for r in _ROWS if r.unit == 'run']
RUN_UNIT = 'guest instructions per run'
# The churn scenario's rows: its ops' rows, printed by the guest with the
# suite's labels, under keys of their own in bench.csv and bench.json.
CHURN_TESTS = [(r.label, 'churn_' + r.key, r.description)
               for op in _CHURN for r in _ROWS if r.op == op and r.unit == 'op']
# The neveraudit scenario's rows, under keys na_KEY.
NA_TESTS = [(r.label, 'na_' + r.key, r.description)
            for op in _SCEN['neveraudit'] for r in _ROWS if r.op == op and r.unit == 'op']
ROW_OP = {r.key: r.op for r in _ROWS}
ROW_OP.update({'churn_' + r.key: r.op for r in _ROWS})
ROW_OP.update({'na_' + r.key: r.op for r in _ROWS})
KERNELS = ['stock', 'patched']
MODES = ['none', 'selinux']
CHURN_MODES = ['churn-none', 'churn-selinux']
# The neveraudit scenario: no LSM from the none guests.
NA_MODES = ['none', 'na-selinux']
# Counters of /sys/fs/selinux/avc/cache_stats and pcpu_cache_stats.
AVC_FIELDS = ['lookups', 'hits', 'misses', 'allocations', 'reclaims', 'frees']
PCPU_FIELDS = ['lookups', 'hits', 'misses', 'fills', 'bypasses']


def fail(msg):
    print('error: ' + msg, file=sys.stderr)
    sys.exit(1)


def parse(kernel, mode, path, tests=None):
    """The checked log of one guest.  TESTS: the (label, key, description)
    rows its RESULT lines must give (default: MODE's); lines of a tag
    this parser does not know go to run['tags'][TAG] (make lmbench's)."""
    try:
        with open(path, errors='replace') as f:
            text = f.read()
    except OSError as e:
        fail('%s %s: cannot read %s: %s' % (kernel, mode, path, e))
    churn = mode.startswith('churn-')
    if tests is None:
        tests = CHURN_TESTS if churn else NA_TESTS if mode == 'na-selinux' else TESTS + RUN_TESTS
    run = {'results': {}, 'stats': {}, 'checks': [], 'denied': [],
           'begin': None, 'context': None, 'end': False, 'churn': [],
           'skipped': {}, 'tags': {}}
    for raw in text.splitlines():
        i = raw.find(MARK)
        if i < 0:
            continue
        line = raw[i + len(MARK):].strip()
        tag, _, rest = line.partition(' ')
        if tag == 'BEGIN':
            run['begin'] = rest
        elif tag == 'END':
            run['end'] = True
        elif tag == 'ERROR':
            fail('%s %s: guest error: %s (log: %s)' % (kernel, mode, rest, path))
        elif tag == 'SKIP':
            # A benchmark (op) this guest cannot run (sinit.c: no
            # shell), with why.
            op, _, why = rest.partition(' ')
            run['skipped'][op] = why
        elif tag == 'CONTEXT':
            run['context'] = rest
        elif tag == 'CHECK':
            run['checks'].append(rest)
        elif tag == 'DENIED':
            run['denied'].append(rest)
        elif tag == 'CHURN':
            run['churn'].append(rest)
        elif tag == 'STAT':
            name, _, val = rest.partition(' ')
            run['stats'].setdefault(name, []).append(val)
        elif tag == 'RESULT':
            m = re.match(r'(.*?)(?: \d+ files depth \d+)?: ([0-9.]+) microseconds$', rest)
            if not m:
                fail('%s %s: benchmark failed: %s (log: %s)' % (kernel, mode, rest, path))
            for label, key, _ in tests:
                if m.group(1) == label:
                    # microseconds of guest time; with -icount shift=0
                    # one nanosecond is one instruction
                    run['results'][key] = round(float(m.group(2)) * 1000.0, 1)
        else:
            run['tags'].setdefault(tag, []).append(rest)
    where = '%s %s (log: %s)' % (kernel, mode, path)
    if not run['begin']:
        fail('%s: no start marker; the guest did not boot or init failed' % where)
    if not run['end']:
        fail('%s: no end marker; the guest crashed or timed out' % where)
    selinux = mode.endswith('selinux')
    want = 'mode=enforcing' if selinux else 'mode=none'
    if not run['begin'].startswith(want):
        fail('%s: guest reports "%s", expected %s' % (where, run['begin'], want))
    if selinux and (not run['context'] or run['context'] == 'none'
                    or ':kernel_t:' in run['context']):
        fail('%s: benchmark did not run in a confined domain (%s)'
             % (where, run['context']))
    bad = [c for c in run['checks'] if not c.startswith('ok ')]
    if bad:
        fail('%s: policy check failed: %s' % (where, bad[0]))
    missing = [k for _, k, _ in tests
               if k not in run['results'] and ROW_OP[k] not in run['skipped']]
    if missing:
        fail('%s: missing results: %s' % (where, ', '.join(missing)))
    if churn:
        parse_churn(run, where)
    return run


def parse_churn(run, where):
    """The churner's start and end lines: it must have run to the end,
    and none of its denials may have reached the log."""
    run['churner'] = {}
    for line in run['churn']:
        m = re.match(r'start: (\d+) files, a stat every (\d+) us', line)
        if m:
            run['churner']['files'] = int(m.group(1))
            run['churner']['pause_us'] = int(m.group(2))
            continue
        m = re.match(r'churn: (\d+) stats of (\d+) files$', line)
        if not m:
            fail('%s: churner: %s' % (where, line))
        run['churner']['stats'] = int(m.group(1))
    if 'stats' not in run['churner'] or 'files' not in run['churner']:
        fail('%s: the churner did not report its start and end' % where)
    bad = [d for d in run['denied'] if ':churn' in d]
    if bad:
        fail('%s: a churner denial was audited (dontaudit missing?): %s'
             % (where, bad[0]))
    # Counters over the churn run: the end minus the start, summed over
    # the CPUs.
    for name, fields in (('cache_stats', AVC_FIELDS),
                         ('pcpu_cache_stats', PCPU_FIELDS)):
        if name not in run['stats']:
            continue
        delta = [a - b for a, b in zip(stat_sum(run['stats'][name], fields),
                                       stat_sum(run['stats'].get(name + '_start', []),
                                                fields))]
        run['churner'][name] = dict(zip(fields, delta))
    avc = run['churner'].get('cache_stats')
    if avc:
        # avc_update_node() allocates a node for each grant, an AVC miss
        # one for its insert; nothing else allocates.  In the patched
        # kernel each grant on a fresh node moves the generation on.  (A
        # grant whose node the allocation itself reclaimed is counted but
        # changes nothing: now and then one in a run.)
        run['churner']['grants'] = avc['allocations'] - avc['misses']


def stat_sum(lines, fields):
    """Sum the per-CPU lines of a cache_stats-style file (header skipped)."""
    total = [0] * len(fields)
    for line in lines:
        vals = line.split()
        if len(vals) != len(fields) or not all(v.isdigit() for v in vals):
            continue
        total = [t + int(v) for t, v in zip(total, vals)]
    return total


def fmt(v, nd=0):
    return '-' if v is None else ('%.*f' % (nd, v))


def make_rows(runs, kernels, tests, modes):
    """One row per test: each kernel's figures without and with SELinux
    (MODES[i] is read from modes[i]), the SELinux overhead, and patched
    overhead over stock overhead."""
    rows = []
    for _, key, desc in tests:
        row = {'test': key, 'description': desc}
        for k in kernels:
            for m, src in zip(MODES, modes):
                r = runs.get((k, src))
                row['%s_%s' % (k, m)] = r['results'][key] if r else None
            a, b = row['%s_selinux' % k], row['%s_none' % k]
            row['%s_overhead' % k] = round(a - b, 1) if a is not None and b is not None else None
        so, po = row.get('stock_overhead'), row.get('patched_overhead')
        # Below one instruction per operation, stock's overhead is the
        # guests' noise (getppid: +0.1 and -0.1), and so is the ratio.
        row['ratio'] = round(po / so, 3) if so is not None and po is not None and so >= 1 else None
        rows.append(row)
    return rows


def print_table(rows, kernels, extra, unit='instructions/op', cw=8):
    """One table: per kernel no LSM, SELinux, overhead; then the extra
    columns, each (header, second header line, value of a row).  UNIT
    heads the first column, CW is the width of a figure."""
    w = 30
    head1 = '%-*s' % (w, unit)
    head2 = '%-*s' % (w, '')
    for k in kernels:
        head1 += '| %-*s' % (3 * cw + 2, k)
        head2 += '| %*s %*s %*s' % (cw, 'no LSM', cw, 'SELinux', cw, '+SELinux')
    for h1, h2, _ in extra:
        head1 += '| %-9s' % h1
        head2 += '| %9s' % h2
    print(head1)
    print(head2)
    print('-' * len(head2))
    for row in rows:
        line = '%-*s' % (w, row['description'])
        for k in kernels:
            line += '| %*s %*s %*s' % (cw, fmt(row['%s_none' % k]), cw, fmt(row['%s_selinux' % k]),
                                       cw, ('%+.0f' % row['%s_overhead' % k])
                                       if row['%s_overhead' % k] is not None else '-')
        for _, _, val in extra:
            line += '| %9s' % val(row)
        print(line)


def print_churn(runs, kernels, rows):
    """The churn scenario's table, then what the churner did to the AVC."""
    both = 'stock' in kernels and 'patched' in kernels
    info = [r['churner'] for (k, m), r in sorted(runs.items())
            if m.startswith('churn-')][0]
    print()
    print('Permissive churn (BENCH_SCENARIO=churn): on the benchmark\'s CPU, a SCHED_FIFO')
    print('process of the permissive domain stats one of %d files of %d types every %d us.'
          % (info['files'], info['files'], info['pause_us']))
    print('With the AVC cache_threshold at %d nearly every stat is a fresh key: a'
          % (info['files'] // 2))
    print('permissive grant (which emptied the per-CPU cache until grants stopped')
    print('moving its generation) and an AVC reclaim.')
    print('The figures include the churner\'s instructions; no LSM: the same churner.')
    cols = [('SELinux', 'pat/stock', lambda r: fmt(r.get('selinux_ratio'), 2)),
            ('overhead', 'pat/stock', lambda r: fmt(r['ratio'], 2))]
    print_table(rows, kernels, cols if both else [])
    print()
    for k in kernels:
        r = runs.get((k, 'churn-selinux'))
        if not r:
            continue
        c = r['churner']
        line = '%-8s churner: %d stats' % (k, c['stats'])
        if 'grants' in c:
            line += ', %d grants (avc_update_node(): AVC allocations - misses)' % c['grants']
        print(line)
        if 'cache_stats' in c:
            print('%-8s AVC during the run:  %s' % ('', '  '.join(
                '%s %d' % (f, c['cache_stats'][f]) for f in AVC_FIELDS)))
        if 'pcpu_cache_stats' in c:
            p = c['pcpu_cache_stats']
            print('%-8s per-CPU cache:       %s  (%.1f%% hits)' % ('', '  '.join(
                '%s %d' % (f, p[f]) for f in PCPU_FIELDS),
                100.0 * p['hits'] / p['lookups'] if p['lookups'] else 0.0))


def main():
    if len(sys.argv) < 3:
        fail(__doc__.strip())
    outdir = sys.argv[1]
    runs = {}
    for spec in sys.argv[2:]:
        kernel, mode, path = spec.split(':', 2)
        if kernel not in KERNELS or mode not in MODES + CHURN_MODES + NA_MODES:
            fail('bad run %s: want KERNEL:MODE:LOG, KERNEL one of %s, MODE one of %s'
                 % (spec, ' '.join(KERNELS), ' '.join(MODES + CHURN_MODES + NA_MODES[1:])))
        runs[(kernel, mode)] = parse(kernel, mode, path)
    # The neveraudit rows' baseline: the none guest's figures of their ops.
    for (k, m), r in runs.items():
        if m == 'none':
            for _, key, _ in NA_TESTS:
                if key[len('na_'):] in r['results']:
                    r['results'][key] = r['results'][key[len('na_'):]]
    kernels = [k for k in KERNELS if any((k, m) in runs for m in MODES)]
    # Rows of benchmarks that a guest could not run are left out of every
    # output.
    skipped = {}
    for r in runs.values():
        skipped.update(r['skipped'])
    tests = [t for t in TESTS if ROW_OP[t[1]] not in skipped]
    run_tests = [t for t in RUN_TESTS if ROW_OP[t[1]] not in skipped]
    churn_kernels = [k for k in KERNELS if any((k, m) in runs for m in CHURN_MODES)]

    rows = make_rows(runs, kernels, tests, MODES)
    run_rows = make_rows(runs, kernels, run_tests, MODES)
    for row in run_rows:
        row['unit'] = RUN_UNIT
    churn_rows = make_rows(runs, kernels, CHURN_TESTS, CHURN_MODES) if churn_kernels else []
    na_kernels = [k for k in KERNELS if (k, 'na-selinux') in runs]
    na_rows = make_rows(runs, kernels, NA_TESTS, NA_MODES) if na_kernels else []
    for row in churn_rows:
        ss, ps = row.get('stock_selinux'), row.get('patched_selinux')
        row['selinux_ratio'] = round(ps / ss, 3) if ss and ps is not None else None

    cols = []
    for k in kernels:
        cols += ['%s_none' % k, '%s_selinux' % k, '%s_overhead' % k]
    if 'stock' in kernels and 'patched' in kernels:
        cols.append('ratio')

    # The per-run rows follow the per-operation ones, and the churn rows
    # follow the suite's, in the same columns.
    with open(outdir + '/bench.csv', 'w') as f:
        f.write(','.join(['test', 'description'] + cols) + '\n')
        for row in rows + run_rows + churn_rows + na_rows:
            desc = row['description']
            if 'unit' in row:
                desc += ' (%s)' % row['unit'].replace('guest ', '')
            f.write(','.join([row['test'], '"%s"' % desc] +
                             ['' if row[c] is None else str(row[c]) for c in cols]) + '\n')

    meta = {
        'unit': 'guest instructions per operation (qemu TCG -icount shift=0: 1 ns = 1 instruction)',
        'modes': {'selinux': 'SELinux enforcing, benchmark confined',
                  'none': 'lsm=capability'},
        'per_run': {row['test']: '%s: one whole run of the workload, not '
                    'one operation' % RUN_UNIT for row in run_rows},
        'skipped': skipped,
        'runs': {'%s_%s' % k: {'begin': r['begin'], 'context': r['context'],
                               'checks': r['checks'], 'stats': r['stats'],
                               'denied': r['denied']}
                 for k, r in sorted(runs.items())},
    }
    if churn_rows:
        meta['churn'] = {
            'tests': [row['test'] for row in churn_rows],
            'description': 'BENCH_SCENARIO=churn: the churn_* tests beside a '
                           'SCHED_FIFO process in the permissive domain that '
                           'stats files of more types than the AVC may hold nodes '
                           '(the *_none columns: lsm=capability, the same churner); '
                           'selinux_ratio is patched_selinux / stock_selinux',
            'churner': {'%s_%s' % k: r['churner']
                        for k, r in sorted(runs.items()) if 'churner' in r},
        }
    if na_rows:
        meta['neveraudit'] = {
            'tests': [row['test'] for row in na_rows],
            'description': 'BENCH_SCENARIO=neveraudit: the na_* tests in the '
                           'permissive domain, which the policy (version 35) '
                           'also marks neveraudit; the *_none columns are the '
                           'lsm=capability guests\' figures of the same ops',
        }
    with open(outdir + '/bench.json', 'w') as f:
        json.dump({'meta': meta, 'tests': rows + run_rows + churn_rows + na_rows}, f, indent=2)
        f.write('\n')

    # gnuplot data: test, SELinux overhead per kernel; the per-run rows
    # in a file of their own (a panel of their own in bench.png).
    for name, dat_rows in (('bench.dat', rows), ('bench-run.dat', run_rows)):
        with open(outdir + '/' + name, 'w') as f:
            f.write('# test ' + ' '.join('%s_overhead' % k for k in kernels) + '\n')
            for row in dat_rows:
                f.write(row['test'] + ' ' + ' '.join(
                    fmt(row['%s_overhead' % k], 1) if row['%s_overhead' % k] is not None else '0'
                    for k in kernels) + '\n')

    with open(outdir + '/avc_stats.txt', 'w') as f:
        for (k, m), r in sorted(runs.items()):
            for name, lines in sorted(r['stats'].items()):
                f.write('## %s %s: /sys/fs/selinux/avc/%s\n' % (k, m, name))
                f.write('\n'.join(lines) + '\n')

    # The table, lmbench-comparison style.
    ratio = ([('overhead', 'pat/stock', lambda r: fmt(r['ratio'], 2))]
             if 'ratio' in cols else [])
    print_table(rows, kernels, ratio)
    for key, why in sorted(skipped.items()):
        print('not run: %s (%s)' % (key, why))
    if run_rows:
        print()
        print_table(run_rows, kernels, ratio, unit='instructions per run', cw=10)
    if churn_rows:
        print_churn(runs, kernels, churn_rows)
    if na_rows:
        print()
        print('Neveraudit (BENCH_SCENARIO=neveraudit): the benchmark in the permissive domain,')
        print('which the policy also marks neveraudit (where the base answers such a domain')
        print('early in inode_permission and inode_getattr); no LSM: the none guests.')
        print_table(na_rows, kernels, ratio)


if __name__ == '__main__':
    main()
