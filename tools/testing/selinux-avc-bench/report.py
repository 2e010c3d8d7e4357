#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the guest console logs of a bench run into the comparison table,
results/bench.csv, results/bench.json and the gnuplot input for
results/bench.png.

Usage: report.py RESULTS_DIR KERNEL:MODE:LOG...
  KERNEL is stock or patched, MODE is selinux or none.
Exits 1 with a message when a log is incomplete or a check failed.
"""
import json
import re
import sys

MARK = 'SELINUX-AVC-BENCH: '

# lmbench-style label -> (key, description), in table order.
TESTS = [
    ('Simple syscall', 'null', 'null call (getppid)'),
    ('Simple read', 'read', 'read 1 byte /dev/zero'),
    ('Simple write', 'write', 'write 1 byte /dev/null'),
    ('Simple stat', 'stat', 'stat'),
    ('Simple fstat', 'fstat', 'fstat'),
    ('Simple open/close', 'open', 'open+close'),
    ('Pipe self write+read', 'pipe_self', 'pipe write+read, 1 process'),
    ('Pipe latency', 'pipe', 'pipe round trip, 2 processes'),
    ('AF_UNIX sock stream latency', 'unix', 'AF_UNIX round trip'),
    ('File create', 'fs_create', 'tmpfs create'),
    ('File unlink', 'fs_unlink', 'tmpfs unlink'),
    ('File create+unlink', 'fs_create_unlink', 'tmpfs create+unlink'),
    ('Path walk', 'pathwalk', 'stat, 4096 files, depth 4'),
]
KERNELS = ['stock', 'patched']
MODES = ['none', 'selinux']


def fail(msg):
    print('error: ' + msg, file=sys.stderr)
    sys.exit(1)


def parse(kernel, mode, path):
    try:
        with open(path, errors='replace') as f:
            text = f.read()
    except OSError as e:
        fail('%s %s: cannot read %s: %s' % (kernel, mode, path, e))
    run = {'results': {}, 'stats': {}, 'checks': [], 'denied': [],
           'begin': None, 'context': None, 'end': False}
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
        elif tag == 'CONTEXT':
            run['context'] = rest
        elif tag == 'CHECK':
            run['checks'].append(rest)
        elif tag == 'DENIED':
            run['denied'].append(rest)
        elif tag == 'STAT':
            name, _, val = rest.partition(' ')
            run['stats'].setdefault(name, []).append(val)
        elif tag == 'RESULT':
            m = re.match(r'(.*?)(?: \d+ files depth \d+)?: ([0-9.]+) microseconds$', rest)
            if not m:
                fail('%s %s: benchmark failed: %s (log: %s)' % (kernel, mode, rest, path))
            for label, key, _ in TESTS:
                if m.group(1) == label:
                    # microseconds of guest time; with -icount shift=0
                    # one nanosecond is one instruction
                    run['results'][key] = round(float(m.group(2)) * 1000.0, 1)
    where = '%s %s (log: %s)' % (kernel, mode, path)
    if not run['begin']:
        fail('%s: no start marker; the guest did not boot or init failed' % where)
    if not run['end']:
        fail('%s: no end marker; the guest crashed or timed out' % where)
    want = 'mode=enforcing' if mode == 'selinux' else 'mode=none'
    if not run['begin'].startswith(want):
        fail('%s: guest reports "%s", expected %s' % (where, run['begin'], want))
    if mode == 'selinux' and (not run['context'] or run['context'] == 'none'
                              or ':kernel_t:' in run['context']):
        fail('%s: benchmark did not run in a confined domain (%s)'
             % (where, run['context']))
    bad = [c for c in run['checks'] if not c.startswith('ok ')]
    if bad:
        fail('%s: policy check failed: %s' % (where, bad[0]))
    missing = [k for _, k, _ in TESTS if k not in run['results']]
    if missing:
        fail('%s: missing results: %s' % (where, ', '.join(missing)))
    return run


def fmt(v, nd=0):
    return '-' if v is None else ('%.*f' % (nd, v))


def main():
    if len(sys.argv) < 3:
        fail(__doc__.strip())
    outdir = sys.argv[1]
    runs = {}
    for spec in sys.argv[2:]:
        kernel, mode, path = spec.split(':', 2)
        runs[(kernel, mode)] = parse(kernel, mode, path)
    kernels = [k for k in KERNELS if (k, 'none') in runs or (k, 'selinux') in runs]

    rows = []
    for _, key, desc in TESTS:
        row = {'test': key, 'description': desc}
        for k in kernels:
            for m in MODES:
                r = runs.get((k, m))
                row['%s_%s' % (k, m)] = r['results'][key] if r else None
            a, b = row['%s_selinux' % k], row['%s_none' % k]
            row['%s_overhead' % k] = round(a - b, 1) if a is not None and b is not None else None
        so, po = row.get('stock_overhead'), row.get('patched_overhead')
        row['ratio'] = round(po / so, 3) if so and po is not None and so > 0 else None
        rows.append(row)

    cols = []
    for k in kernels:
        cols += ['%s_none' % k, '%s_selinux' % k, '%s_overhead' % k]
    if 'stock' in kernels and 'patched' in kernels:
        cols.append('ratio')

    with open(outdir + '/bench.csv', 'w') as f:
        f.write(','.join(['test', 'description'] + cols) + '\n')
        for row in rows:
            f.write(','.join([row['test'], '"%s"' % row['description']] +
                             ['' if row[c] is None else str(row[c]) for c in cols]) + '\n')

    meta = {
        'unit': 'guest instructions per operation (qemu TCG -icount shift=0: 1 ns = 1 instruction)',
        'modes': {'selinux': 'SELinux enforcing, benchmark confined',
                  'none': 'lsm=capability'},
        'runs': {'%s_%s' % k: {'begin': r['begin'], 'context': r['context'],
                               'checks': r['checks'], 'stats': r['stats'],
                               'denied': r['denied']}
                 for k, r in sorted(runs.items())},
    }
    with open(outdir + '/bench.json', 'w') as f:
        json.dump({'meta': meta, 'tests': rows}, f, indent=2)
        f.write('\n')

    # gnuplot data: test, SELinux overhead per kernel
    with open(outdir + '/bench.dat', 'w') as f:
        f.write('# test ' + ' '.join('%s_overhead' % k for k in kernels) + '\n')
        for row in rows:
            f.write(row['test'] + ' ' + ' '.join(
                fmt(row['%s_overhead' % k], 1) if row['%s_overhead' % k] is not None else '0'
                for k in kernels) + '\n')

    with open(outdir + '/avc_stats.txt', 'w') as f:
        for (k, m), r in sorted(runs.items()):
            for name, lines in sorted(r['stats'].items()):
                f.write('## %s %s: /sys/fs/selinux/avc/%s\n' % (k, m, name))
                f.write('\n'.join(lines) + '\n')

    # The table, lmbench-comparison style.
    w = 30
    head1 = '%-*s' % (w, 'instructions/op')
    head2 = '%-*s' % (w, '')
    for k in kernels:
        head1 += '| %-26s' % k
        head2 += '| %8s %8s %8s' % ('no LSM', 'SELinux', '+SELinux')
    if 'ratio' in cols:
        head1 += '| %-9s' % 'overhead'
        head2 += '| %9s' % 'pat/stock'
    print(head1)
    print(head2)
    print('-' * len(head2))
    for row in rows:
        line = '%-*s' % (w, row['description'])
        for k in kernels:
            line += '| %8s %8s %8s' % (fmt(row['%s_none' % k]), fmt(row['%s_selinux' % k]),
                                       ('%+.0f' % row['%s_overhead' % k])
                                       if row['%s_overhead' % k] is not None else '-')
        if 'ratio' in cols:
            line += '| %9s' % fmt(row['ratio'], 2)
        print(line)


if __name__ == '__main__':
    main()
