#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn insn_profile plugin outputs into per-function instruction counts.

Usage: profile.py OP OUTDIR KERNEL:MODE:COUNTS:LOG:BUILDDIR...
  OP        the benchmark row (for the titles and file names)
  KERNEL    stock or patched; MODE selinux or none
  COUNTS    the plugin's output file; LOG the guest console log (its
            "WINDOW N ops M" lines give the operations per window)
  BUILDDIR  the kernel's O= directory (vmlinux and security/*.o)
Environment: PROFILE_WINDOWS, the window mask the plugin was given;
PROFILE_UNIT, what a window's "ops" count ("operation", the default, or
"run" for a macro row whose window is one run of a whole workload).
Writes OUTDIR/profile-OP.txt and OUTDIR/profile-OP.csv; prints the table.
"""
import bisect
import csv
import os
import re
import subprocess
import sys

MARK = 'SELINUX-AVC-BENCH: '
OTHER_MIN = 5.0
# The same for a macro row (PROFILE_UNIT=run), per run of ~10^8 instructions.
OTHER_MIN_RUN = 10000.0


def fail(msg):
    print('error: ' + msg, file=sys.stderr)
    sys.exit(1)


def symbols(vmlinux):
    """Sorted text symbol addresses and names of vmlinux."""
    out = subprocess.run(['nm', '-n', '--defined-only', vmlinux],
                         capture_output=True, text=True, check=True).stdout
    addrs, names = [], []
    for line in out.splitlines():
        parts = line.split()
        # arm64's mapping symbols ($x, $d) mark code and data, not functions.
        if len(parts) != 3 or parts[1] not in 'tTwW' or \
                parts[2].startswith('$'):
            continue
        addrs.append(int(parts[0], 16))
        names.append(parts[2])
    return addrs, names


def security_files(builddir):
    """Function name -> source file, for the objects under security/."""
    files = {}
    top = os.path.join(builddir, 'security')
    for root, _, fs in os.walk(top):
        for f in fs:
            if not f.endswith('.o') or f.endswith('.mod.o'):
                continue
            path = os.path.join(root, f)
            res = subprocess.run(['nm', '--defined-only', path],
                                 capture_output=True, text=True)
            if res.returncode:
                continue
            src = os.path.relpath(path, builddir)[:-2] + '.c'
            for line in res.stdout.splitlines():
                parts = line.split()
                if len(parts) == 3 and parts[1] in 'tTwW' and \
                        not parts[2].startswith('$'):
                    files.setdefault(parts[2], src)
    return files


def windows_ops(log, mask):
    """Operations per measured window, from the guest log."""
    ops = {}
    with open(log, errors='replace') as f:
        for raw in f:
            i = raw.find(MARK + 'WINDOW ')
            if i < 0:
                continue
            m = re.match(r'(\d+) ops (\d+)', raw[i + len(MARK) + 7:])
            if m:
                ops[int(m.group(1))] = int(m.group(2))
    chosen = [w for w in sorted(ops) if mask >> (w - 1) & 1]
    if not chosen:
        fail('%s: no measured window selected by mask %#x (windows: %s)'
             % (log, mask, sorted(ops)))
    # Windows of one row measure the same operations (create and unlink
    # of the same files): divide by the operations of one of them.
    return ops[chosen[0]]


def load(spec, mask, symcache):
    kernel, mode, counts, log, builddir = spec.split(':')
    vmlinux = os.path.join(builddir, 'vmlinux')
    if vmlinux not in symcache:
        symcache[vmlinux] = (symbols(vmlinux), security_files(builddir))
    (addrs, names), files = symcache[vmlinux]
    ops = windows_ops(log, mask)
    per_fn = {}
    user = None
    total = 0
    with open(counts) as f:
        for line in f:
            key, _, val = line.partition(' ')
            if key == 'windows':
                continue
            if key == 'user':
                user = int(val)
                continue
            addr, n = int(key, 16), int(val)
            i = bisect.bisect_right(addrs, addr) - 1
            name = names[i] if i >= 0 else '?'
            per_fn[name] = per_fn.get(name, 0) + n
            total += n
    if user is None:
        fail('%s: incomplete plugin output (did qemu exit normally?)' % counts)
    return kernel, mode, {
        'ops': ops,
        'fn': {k: v / ops for k, v in per_fn.items()},
        'kernel': total / ops,
        'user': user / ops,
        'files': files,
    }


def main():
    if len(sys.argv) < 4:
        fail(__doc__)
    op, outdir = sys.argv[1], sys.argv[2]
    mask = int(os.environ.get('PROFILE_WINDOWS', '1'), 0)
    unit = os.environ.get('PROFILE_UNIT', 'operation')
    other_min = OTHER_MIN if unit == 'operation' else OTHER_MIN_RUN
    runs, symcache = {}, {}
    for spec in sys.argv[3:]:
        kernel, mode, data = load(spec, mask, symcache)
        runs[(kernel, mode)] = data
    kernels = [k for k in ('stock', 'patched')
               if (k, 'selinux') in runs and (k, 'none') in runs]
    if not kernels:
        fail('need a selinux and a none run of at least one kernel')
    files = {}
    for k in kernels:
        for name, src in runs[(k, 'selinux')]['files'].items():
            files.setdefault(name, src)

    def get(k, mode, name):
        return runs[(k, mode)]['fn'].get(name, 0.0)

    names = set()
    for k in kernels:
        for mode in ('selinux', 'none'):
            names |= set(runs[(k, mode)]['fn'])
    rows = []
    for name in names:
        src = files.get(name)
        if not src:
            continue
        deltas = [get(k, 'selinux', name) - get(k, 'none', name)
                  for k in kernels]
        ons = [get(k, 'selinux', name) for k in kernels]
        if max(abs(d) for d in deltas) < 0.05 and max(ons) < 0.05:
            continue
        rows.append((name, src, deltas, ons))
    rows.sort(key=lambda r: (-max(r[3]), r[0]))

    lines = []
    title = ('%s: guest instructions per %s, SELinux enforcing minus '
             'lsm=capability' % (op, unit))
    lines.append(title)
    lines.append('(qemu TCG plugin count inside the measured window; '
                 'inlined code counts in its caller)')
    hdr = '%-40s %-28s' % ('function', 'file')
    for k in kernels:
        hdr += ' %10s' % k
    lines.append(hdr)
    lines.append('-' * len(hdr))
    sums = [0.0] * len(kernels)
    for name, src, deltas, _ in rows:
        line = '%-40s %-28s' % (name[:40], src[:28])
        for i, d in enumerate(deltas):
            line += ' %10.1f' % d
            sums[i] += d
        lines.append(line)
    lines.append('-' * len(hdr))

    def total_line(label, vals):
        line = '%-69s' % label
        for v in vals:
            line += ' %10.1f' % v
        lines.append(line)

    total_line('security/ (SELinux, LSM dispatch, capabilities)', sums)
    # The rest of the kernel: what SELinux makes it do (blob allocation,
    # the slab, RCU), or noise from one-off events such as page faults.
    other = []
    for name in names:
        if name in files:
            continue
        deltas = [get(k, 'selinux', name) - get(k, 'none', name)
                  for k in kernels]
        if max(abs(d) for d in deltas) >= other_min:
            other.append((name, deltas))
    if other:
        other.sort(key=lambda r: (-max(abs(d) for d in r[1]), r[0]))
        lines.append('elsewhere in the kernel, where |SELinux - none| >= %g:'
                     % other_min)
        for name, deltas in other:
            line = '  %-67s' % name[:67]
            for d in deltas:
                line += ' %10.1f' % d
            lines.append(line)
    kdelta = [runs[(k, 'selinux')]['kernel'] - runs[(k, 'none')]['kernel']
              for k in kernels]
    total_line('rest of the kernel', [kd - s for kd, s in zip(kdelta, sums)])
    total_line('kernel', kdelta)
    total_line('user space (to within a few per window)',
               [runs[(k, 'selinux')]['user'] - runs[(k, 'none')]['user']
                for k in kernels])
    for mode in ('none', 'selinux'):
        total_line('kernel total, %s' % mode,
                   [runs[(k, mode)]['kernel'] for k in kernels])
    total_line('operations counted' if unit == 'operation' else '%ss counted' % unit,
               [runs[(k, 'selinux')]['ops'] for k in kernels])
    text = '\n'.join(lines) + '\n'
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, 'profile-%s.txt' % op), 'w') as f:
        f.write(text)
    with open(os.path.join(outdir, 'profile-%s.csv' % op), 'w',
              newline='') as f:
        w = csv.writer(f)
        head = ['function', 'file']
        for k in kernels:
            head += ['%s_selinux' % k, '%s_none' % k, '%s_delta' % k]
        w.writerow(head)
        for name, src, deltas, _ in rows:
            row = [name, src]
            for i, k in enumerate(kernels):
                row += ['%.2f' % get(k, 'selinux', name),
                        '%.2f' % get(k, 'none', name), '%.2f' % deltas[i]]
            w.writerow(row)
        for label, vals in (('(kernel)', kdelta),):
            w.writerow([label, ''] + sum([['', '', '%.2f' % v]
                                          for v in vals], []))
    sys.stdout.write(text)


if __name__ == '__main__':
    main()
