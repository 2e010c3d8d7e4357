#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn cache_model plugin outputs into cache misses per operation.

Usage: cache.py OP OUTDIR KERNEL:MODE:COUNTS:LOG:BUILDDIR...
       cache.py --first-insns COUNTS LOG
  OP        the benchmark row (for the titles and file names)
  KERNEL    stock or patched; MODE selinux or none
  COUNTS    the cache_model plugin's output file, which names its cache
            geometry and whether the caches were emptied when each window
            began (evict=1: cold) or not (warm); the files may cover
            several geometries and both variants.  A cold run counts the
            first operation of each window (the plugin's first=N)
  LOG       the guest console log ("WINDOW N ops M" lines)
  BUILDDIR  the kernel's O= directory (vmlinux and security/*.o)
--first-insns prints the plugin's first= argument for a cold run of the
same guest: the instructions of one operation in each selected window of
the warm run COUNTS (its instructions over the operations LOG gives).
Environment: PROFILE_WINDOWS and PROFILE_UNIT, as for profile.py.
Writes OUTDIR/cache-OP.txt and OUTDIR/cache-OP.csv; prints the table.  Per
variant (warm, cold) and geometry: instructions, misses at each level and
the modelled cost per operation, for security/ (SELinux, the LSM dispatch,
capabilities) and the rest of the kernel, SELinux enforcing minus
lsm=capability, stock against patched; then the functions with misses.
"""
import bisect
import csv
import importlib.util
import os
import subprocess
import sys

# profile.py's symbol tables, window counts and error exit, imported from
# its file (the name "profile" is also a standard module's).
_spec = importlib.util.spec_from_file_location(
    'avc_profile', os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                'profile.py'))
profile = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(profile)
fail = profile.fail

COUNTS = ('insns', 'l1i', 'l1d', 'l2', 'llc')
LEVELS = ('l1i', 'l1d', 'l2', 'llc')
# Functions elsewhere in the kernel are listed when SELinux moves one of
# their miss counts by this much per operation (per run for a macro row).
OTHER_MIN = 0.01
OTHER_MIN_RUN = 100.0
FN_MIN = 0.005


def stall(lat, v):
    """Modelled cycles beyond the instructions (cache_sim.h's cache_stall):
    each access pays the load-to-use latency of the level that served it
    minus an L1 hit's."""
    l1, l2, llc, mem = lat
    return ((v['l1i'] + v['l1d']) * (l2 - l1) + v['l2'] * (llc - l2) +
            v['llc'] * (mem - llc))


def cost(lat, v):
    return v['insns'] + stall(lat, v)


def data_symbols(vmlinux):
    """Sorted data symbol addresses and names of vmlinux, its lowest symbol
    and its end (_end), to name the data lines that the plugin lists."""
    out = subprocess.run(['nm', '-n', '--defined-only', vmlinux],
                         capture_output=True, text=True, check=True).stdout
    addrs, names, low, end = [], [], None, None
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 3 or parts[2].startswith('$'):
            continue
        a = int(parts[0], 16)
        if parts[1] in 'tTwW' and (low is None or a < low):
            low = a
        if parts[2] == '_end':
            end = a
        if parts[1] in 'dDbBrRvV':
            addrs.append(a)
            names.append(parts[2])
    return addrs, names, low, end


def data_label(dsyms, addr):
    """What a data access at ADDR read: the kernel image's data symbol that
    holds it, or where in memory it is."""
    addrs, names, low, end = dsyms
    if low is None or end is None:
        return '?'
    if low <= addr < end:
        i = bisect.bisect_right(addrs, addr) - 1
        return names[i] if i >= 0 else '?'
    # The kernel's half of the address space: its top bit set.
    top = 63 if low >= 1 << 32 else 31
    if addr >> top:
        return 'outside the image (slab, per-CPU, pages)'
    return 'user memory'


def zero():
    return dict.fromkeys(COUNTS, 0.0)


def load(spec, mask, symcache):
    try:
        kernel, mode, counts, log, builddir = spec.split(':')
    except ValueError:
        fail('bad argument %r: KERNEL:MODE:COUNTS:LOG:BUILDDIR' % spec)
    vmlinux = os.path.join(builddir, 'vmlinux')
    if vmlinux not in symcache:
        symcache[vmlinux] = (profile.symbols(vmlinux),
                             profile.security_files(builddir), [])
    (addrs, names), files, dsyms = symcache[vmlinux]
    dlines = {}
    ops = profile.windows_ops(log, mask)
    head = {}
    per_fn = {}
    kern = zero()
    user = None
    with open(counts) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            key = parts[0]
            if key == 'user':
                user = dict(zip(COUNTS, map(int, parts[1:])))
                continue
            if key in ('windows', 'geometry', 'cache', 'latency', 'evict',
                       'io', 'virtual', 'first', 'dlines'):
                head[key] = parts[1:]
                continue
            if key == 'dmem' and len(parts) == 4:
                # A data line brought from memory, and the instruction.
                insn, data = int(parts[2], 16), int(parts[3], 16)
                i = bisect.bisect_right(addrs, insn) - 1
                if not insn or i < 0 or names[i] not in files:
                    continue
                if not dsyms:
                    dsyms.append(data_symbols(vmlinux))
                label = data_label(dsyms[0], data)
                dlines[label] = dlines.get(label, 0) + 1
                continue
            if key == 'window':
                continue
            if len(parts) != 1 + len(COUNTS):
                fail('%s: unexpected line %r' % (counts, line))
            addr = int(key, 16)
            i = bisect.bisect_right(addrs, addr) - 1
            name = names[i] if i >= 0 else '?'
            acc = per_fn.setdefault(name, zero())
            for k, v in zip(COUNTS, parts[1:]):
                acc[k] += int(v)
                kern[k] += int(v)
    if user is None or 'latency' not in head:
        fail('%s: incomplete cache_model output (did qemu exit normally?)'
             % counts)
    first = head.get('first', ['0'])[0]
    if first != '0':
        # Each selected window counted its first operation only: the
        # counts are one operation of each, as profile.py's per operation
        # figures are over all selected windows.
        ops = 1

    def per_op(v):
        return {k: x / ops for k, x in v.items()}
    return {
        'kernel_name': kernel, 'mode': mode,
        'geometry': head['geometry'][0],
        'cache': head['cache'],
        'lat': tuple(int(x) for x in head['latency']),
        'cold': head['evict'] == ['1'],
        'first': first,
        'io': int(head.get('io', ['0'])[0]),
        'virtual': int(head.get('virtual', ['0'])[0]),
        'ops': ops,
        'fn': {k: per_op(v) for k, v in per_fn.items()},
        'dlines': ({k: v / ops for k, v in dlines.items()}
                   if 'dlines' in head else None),
        'kernel': per_op(kern),
        'user': per_op(user),
        'files': files,
    }


def sub(a, b):
    return {k: a[k] - b[k] for k in COUNTS}


def add(a, b):
    return {k: a[k] + b[k] for k in COUNTS}


def size_text(n):
    n = int(n)
    if n % (1 << 20) == 0:
        return '%d MiB' % (n >> 20)
    return '%d KiB' % (n >> 10)


def geometry_text(run):
    c = run['cache']
    label = {'l1i': 'L1i', 'l1d': 'L1d', 'l2': 'L2', 'llc': 'LLC'}
    levels = ', '.join('%s %s %s-way' % (label.get(c[i], c[i]),
                                         size_text(c[i + 1]), c[i + 2])
                       for i in range(0, len(c), 3))
    return '%s; load-to-use %s cycles (L1/L2/LLC/memory)' % (
        levels, '/'.join(str(x) for x in run['lat']))


def report(op, unit, geom, runs, kernels, lines, rows):
    """The text and CSV rows of one geometry."""
    other_min = OTHER_MIN if unit == 'operation' else OTHER_MIN_RUN
    first = runs[(kernels[0], 'selinux')]
    lat = first['lat']
    lines.append('')
    lines.append('model %s: %s' % (geom, geometry_text(first)))
    files = {}
    for k in kernels:
        for name, src in runs[(k, 'selinux')]['files'].items():
            files.setdefault(name, src)

    def fn(k, mode, name):
        return runs[(k, mode)]['fn'].get(name, zero())

    names = set()
    for k in kernels:
        for mode in ('selinux', 'none'):
            names |= set(runs[(k, mode)]['fn'])
    sec = {}
    for k in kernels:
        for mode in ('selinux', 'none'):
            s = zero()
            for name in names:
                if name in files:
                    s = add(s, fn(k, mode, name))
            sec[(k, mode)] = s

    hdr = '%-34s %-8s %9s %7s %7s %7s %7s %9s' % (
        '', '', 'insns', 'L1i', 'L1d', 'L2', 'LLC', 'cycles')
    lines.append(hdr)
    lines.append('-' * len(hdr))

    def row(label, part, values):
        for i, k in enumerate(kernels):
            v = values[i]
            lines.append('%-34s %-8s %9.1f %7.3f %7.3f %7.3f %7.3f %9.1f' % (
                label if i == 0 else '', k, v['insns'], v['l1i'], v['l1d'],
                v['l2'], v['llc'], cost(lat, v)))
            rows.append([geom, part, '', k] +
                        ['%.3f' % v[c] for c in COUNTS] +
                        ['%.2f' % cost(lat, v)])

    for mode, label in (('none', 'kernel, lsm=capability'),
                        ('selinux', 'kernel, SELinux enforcing')):
        row(label, 'kernel_' + mode,
            [runs[(k, mode)]['kernel'] for k in kernels])
    lines.append('SELinux enforcing minus lsm=capability:')
    sec_d = [sub(sec[(k, 'selinux')], sec[(k, 'none')]) for k in kernels]
    kern_d = [sub(runs[(k, 'selinux')]['kernel'], runs[(k, 'none')]['kernel'])
              for k in kernels]
    row('security/ (SELinux, LSM, caps)', 'security', sec_d)
    row('rest of the kernel', 'rest', [sub(kd, sd)
                                       for kd, sd in zip(kern_d, sec_d)])
    row('kernel', 'kernel', kern_d)
    row('user space', 'user', [sub(runs[(k, 'selinux')]['user'],
                                   runs[(k, 'none')]['user'])
                               for k in kernels])
    lines.append('-' * len(hdr))

    # The functions under security/ that miss, SELinux minus none.
    fns = []
    for name in names:
        src = files.get(name)
        if not src:
            continue
        ds = [sub(fn(k, 'selinux', name), fn(k, 'none', name))
              for k in kernels]
        ons = [fn(k, 'selinux', name) for k in kernels]
        if max(max(abs(d[lv]) for lv in LEVELS) for d in ds) < FN_MIN and \
                max(max(o[lv] for lv in LEVELS) for o in ons) < FN_MIN:
            continue
        fns.append((name, src, ds))
    def fn_header(title):
        h = '%-34s' % title
        for k in kernels:
            h += ' | %-7s %6s %6s %6s %6s %7s' % (k, 'L1i', 'L1d', 'L2',
                                                   'LLC', 'stall')
        lines.append(h)

    def fn_line(name, ds):
        line = '  %-32s' % name[:32]
        for d in ds:
            line += ' | %7s %6.3f %6.3f %6.3f %6.3f %7.1f' % (
                '', d['l1i'], d['l1d'], d['l2'], d['llc'], stall(lat, d))
        lines.append(line)

    if fns:
        fns.sort(key=lambda r: (-max(stall(lat, d) for d in r[2]), r[0]))
        fn_header('security/ functions with misses')
        for name, src, ds in fns:
            fn_line(name, ds)
            for k, d in zip(kernels, ds):
                rows.append([geom, 'function', name, k] +
                            ['%.3f' % d[c] for c in COUNTS] +
                            ['%.2f' % cost(lat, d)])
    # Elsewhere: where SELinux makes the rest of the kernel miss.
    other = []
    for name in names:
        if name in files:
            continue
        ds = [sub(fn(k, 'selinux', name), fn(k, 'none', name))
              for k in kernels]
        if max(max(abs(d[lv]) for lv in LEVELS) for d in ds) >= other_min:
            other.append((name, ds))
    if other:
        other.sort(key=lambda r: (-max(abs(stall(lat, d)) for d in r[1]),
                                  r[0]))
        fn_header('elsewhere in the kernel, >= %g' % other_min)
        for name, ds in other[:20]:
            fn_line(name, ds)
        if len(other) > 20:
            lines.append('  (%d more in the CSV)' % (len(other) - 20))
        for name, ds in other:
            for k, d in zip(kernels, ds):
                rows.append([geom, 'elsewhere', name, k] +
                            ['%.3f' % d[c] for c in COUNTS] +
                            ['%.2f' % cost(lat, d)])
    # dlines=1: the data lines that security/ brought from memory in the
    # SELinux guests (not minus lsm=capability: what each line holds).
    dl = [runs[(k, 'selinux')]['dlines'] for k in kernels]
    if all(d is not None for d in dl) and any(dl):
        labels = sorted(set().union(*dl),
                        key=lambda x: (-max(d.get(x, 0) for d in dl), x))
        h = '%-42s' % 'data lines from memory, security/, SELinux'
        h += ''.join(' | %7s' % k for k in kernels)
        lines.append(h)
        for label in labels:
            lines.append('  %-40s' % label[:40] +
                         ''.join(' | %7.2f' % d.get(label, 0) for d in dl))
            for k, d in zip(kernels, dl):
                # In the llc column: lines that missed every level.
                rows.append([geom, 'dline', label, k, '', '', '', '',
                             '%.3f' % d.get(label, 0), ''])
        lines.append('  %-40s' % 'all' +
                     ''.join(' | %7.2f' % sum(d.values()) for d in dl))
    for key, what in (('io', 'MMIO accesses left out of the model'),
                      ('virtual', 'accesses without a physical address '
                       '(modelled at their virtual one)')):
        n = sum(runs[(k, m)][key] for k in kernels
                for m in ('selinux', 'none'))
        if n:
            lines.append('(%d %s in the windows of these runs)' % (n, what))


HEAD = {
    'warm': ['warm: the model runs from boot, and the window finds the '
             'caches as the benchmark (and its warm-up) left them'],
    'cold': ['cold: every level emptied when the window begins (evict=1), '
             'and only the first operation counted',
             '(first=N: the instructions of one operation in the warm run); '
             'the benchmark\'s own state and the',
             'kernel\'s software caches are as warm as its warm-up left '
             'them, the hardware caches empty'],
    'cold-window': ['cold, whole windows: every level emptied when the '
                    'window begins (evict=1), every operation counted:',
                    'the first operations\' misses spread over all of '
                    'them'],
    'warm-first': ['warm, first operation: the first operation of each '
                   'window (first=N), caches as the benchmark left them'],
}


def window_ops(log):
    """Operations of each window, from the guest log."""
    ops = {}
    with open(log, errors='replace') as f:
        for raw in f:
            i = raw.find(profile.MARK + 'WINDOW ')
            if i < 0:
                continue
            w = raw[i + len(profile.MARK) + 7:].split()
            if len(w) >= 3 and w[1] == 'ops':
                ops[int(w[0])] = int(w[2])
    return ops


def first_insns(counts, log):
    """first= for a cold run: instructions per operation of each selected
    window of the warm run COUNTS."""
    ops = window_ops(log)
    firsts = []
    with open(counts) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 4 and parts[0] == 'window' and \
                    parts[2] == 'insns':
                w, n = int(parts[1]), int(parts[3])
                if not ops.get(w):
                    fail('%s: no operations of window %d' % (log, w))
                firsts.append(str(max(1, round(n / ops[w]))))
    if not firsts:
        fail('%s: no window counted (an old or incomplete plugin output?)'
             % counts)
    return ':'.join(firsts)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--first-insns':
        print(first_insns(sys.argv[2], sys.argv[3]))
        return
    if len(sys.argv) < 4:
        fail(__doc__)
    op, outdir = sys.argv[1], sys.argv[2]
    mask = int(os.environ.get('PROFILE_WINDOWS', '1'), 0)
    unit = os.environ.get('PROFILE_UNIT', 'operation')
    runs, symcache = {}, {}
    for spec in sys.argv[3:]:
        r = load(spec, mask, symcache)
        if r['cold']:
            v = 'cold' if r['first'] != '0' else 'cold-window'
        else:
            v = 'warm' if r['first'] == '0' else 'warm-first'
        key = (v, r['geometry'], r['kernel_name'], r['mode'])
        if key in runs:
            fail('two runs of %s, %s, %s, %s' % key)
        runs[key] = r
    variants = [v for v in HEAD if any(k[0] == v for k in runs)]
    lines = []
    lines.append('%s: cache misses per %s in a model of one core\'s caches, '
                 '%s' % (op, unit, ' and '.join(variants)))
    lines.append('qemu TCG plugin cache_model: set-associative LRU, 64-byte '
                 'lines, non-inclusive; counts inside the window,')
    lines.append('charged to the instruction that fetched or accessed; '
                 'cycles = instructions + stall, stall = each miss')
    lines.append('times the latency it adds over an L1 hit (a modelled '
                 'cost, not a measurement: one instruction a cycle,')
    lines.append('misses never overlap, no prefetch)')
    rows = []
    for v in variants:
        lines.append('')
        lines.append('=== ' + HEAD[v][0])
        lines.extend('    ' + x for x in HEAD[v][1:])
        geoms = sorted({g for (w, g, _, _) in runs if w == v})
        for geom in geoms:
            sub_runs = {(k, m): runs[(w, g, k, m)]
                        for (w, g, k, m) in runs if w == v and g == geom}
            kernels = [k for k in ('stock', 'patched')
                       if (k, 'selinux') in sub_runs and
                       (k, 'none') in sub_runs]
            if not kernels:
                fail('%s: need a selinux and a none run of at least one '
                     'kernel' % geom)
            vrows = []
            report(op, unit, geom, sub_runs, kernels, lines, vrows)
            rows += [r[:1] + [v] + r[1:] for r in vrows]
    text = '\n'.join(lines) + '\n'
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, 'cache-%s.txt' % op), 'w') as f:
        f.write(text)
    with open(os.path.join(outdir, 'cache-%s.csv' % op), 'w',
              newline='') as f:
        w = csv.writer(f)
        w.writerow(['geometry', 'variant', 'part', 'function', 'kernel'] +
                   list(COUNTS) + ['cycles'])
        w.writerows(rows)
    sys.stdout.write(text)


if __name__ == '__main__':
    main()
