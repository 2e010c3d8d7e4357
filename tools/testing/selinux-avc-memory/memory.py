#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the console logs of the memory guests (guest/init) into what the
series costs in memory, stock against patched: memory.txt (the table, also
printed), memory.csv and memory.json in OUTDIR.

Usage: memory.py OUTDIR [--flavor F] [--base B] [--sizes SIZE_CSV]
                 KERNEL:CPUS:LOG...
  KERNEL is stock or patched, CPUS the guest's -smp; every CPU count
  needs both kernels.  SIZE_CSV is make bench's size.csv (text sizes),
  put beside the figures; without it they are "not measured".

Derived figures, each patched minus stock:
  per inode   the growth of the inode blob cache (lsm_inode_cache, or the
              whole slab where the blob has no cache of its own) over the
              memfill step, divided by the inodes memfill made (files and
              directories); and the blob's object size in slabinfo;
  per CPU     meminfo's Percpu at boot (and the static per-CPU area of the
              boot line "percpu: Embedded ... s<static>"), and used memory
              once enforcing (ready): with two or more CPU counts, the
              slope over the CPUs (per CPU) and what is left at zero CPUs
              (global); with one, Percpu's difference divided by it;
  per policy  Slab, Percpu and used memory (MemTotal - MemFree) across the
              policy load, split per CPU and global the same way.
Exits 1 with a message when a log is incomplete or a guest failed.
"""
import csv
import json
import os
import re
import sys

MARK = 'SELINUX-AVC-BENCH: '
KERNELS = ['stock', 'patched']
SNAPS = ['boot', 'policy', 'ready', 'bench', 'files']
# The caches that hold inode security blobs, by kernel: the LSM's
# composite blob (5.1 and later), SELinux's own (before).
BLOB_CACHES = ['lsm_inode_cache', 'selinux_inode_security']
# The caches shown in the table: the LSM's and SELinux's, and the ones
# every file costs.
SHOWN = re.compile(r'^(lsm_|avc_|selinux|sidtab|ebitmap|hashtab|avtab|cond_'
                   r'|inode_cache$|shmem_inode_cache$|dentry$|filp$)')
AVC_FIELDS = ['lookups', 'hits', 'misses', 'allocations', 'reclaims', 'frees']
PCPU_FIELDS = ['lookups', 'hits', 'misses', 'fills', 'bypasses']


class LogError(Exception):
    pass


def parse_log(path):
    """One guest's figures: its CPUs, the boot line of the per-CPU
    allocator, each snapshot's meminfo (bytes), slab caches and AVC
    statistics, the policy's size and memfill's line."""
    try:
        with open(path, errors='replace') as f:
            text = f.read()
    except OSError as e:
        raise LogError('cannot read %s: %s' % (path, e))
    g = {'log': path, 'cpus': None, 'snaps': {}, 'order': [], 'end': False,
         'percpu': None, 'policy': {}, 'memfill': None, 'bench_results': None,
         'denied': None, 'pagesize': 4096}
    for raw in text.splitlines():
        i = raw.find(MARK)
        if i < 0:
            continue
        tag, _, rest = raw[i + len(MARK):].strip().partition(' ')
        if tag == 'ERROR':
            raise LogError('guest error: %s (log: %s)' % (rest, path))
        if tag == 'END':
            g['end'] = True
        elif tag == 'MEM':
            kv = dict(w.split('=', 1) for w in rest.split()[1:] if '=' in w)
            g['cpus'] = int(kv['cpus'])
            g['files_asked'] = int(kv.get('files', 0))
        elif tag == 'KERNEL':
            g['kernel'] = rest
        elif tag == 'PERCPU':
            m = re.search(r'Embedded (\d+) pages/cpu s(\d+) r(\d+) d(\d+) u(\d+)', rest)
            if m:
                g['percpu'] = dict(zip(['pages', 'static', 'reserved', 'dynamic', 'unit'],
                                       map(int, m.groups())))
        elif tag == 'SNAP':
            g['snaps'][rest] = {'meminfo': {}, 'slab': {}, 'avc': {}}
            g['order'].append(rest)
        elif tag in ('MEMINFO', 'SLABINFO', 'AVC'):
            name, _, line = rest.partition(' ')
            if name not in g['snaps']:
                raise LogError('%s line before SNAP %s (log: %s)' % (tag, name, path))
            snap = g['snaps'][name]
            if tag == 'MEMINFO':
                m = re.match(r'(\S+):\s+(\d+)(?: kB)?$', line.strip())
                if m:
                    mult = 1024 if line.strip().endswith('kB') else 1
                    snap['meminfo'][m.group(1)] = int(m.group(2)) * mult
            elif tag == 'SLABINFO':
                parse_slab(snap['slab'], line, path)
            else:
                f, _, vals = line.partition(' ')
                snap['avc'].setdefault(f, []).append(vals)
        elif tag == 'POLICY':
            m = re.match(r'file (\d+) loaded (\d*)', rest)
            if m:
                g['policy'] = {'file': int(m.group(1)),
                               'loaded': int(m.group(2)) if m.group(2) else None}
        elif tag == 'BENCH':
            g['bench_results'] = int(rest.split()[-1])
        elif tag == 'MEMFILL':
            m = re.search(r'files (\d+) dirs (\d+) stat (\d+) pagesize (\d+)', rest)
            if not m:
                raise LogError('memfill did not report: %s (log: %s)' % (rest, path))
            g['memfill'] = dict(zip(['files', 'dirs', 'stat', 'pagesize'],
                                    map(int, m.groups())))
            g['pagesize'] = g['memfill']['pagesize']
        elif tag == 'DENIED':
            g['denied'] = int(rest)
    if g['cpus'] is None:
        raise LogError('no start marker; the guest did not boot or its init failed (log: %s)'
                       % path)
    if not g['end']:
        raise LogError('no end marker; the guest crashed or timed out (log: %s)' % path)
    missing = [s for s in SNAPS if s not in g['snaps']]
    if missing:
        raise LogError('snapshots missing: %s (log: %s)' % (', '.join(missing), path))
    if g['memfill'] is None:
        raise LogError('no memfill line (log: %s)' % path)
    for s in SNAPS:
        for k in ('MemTotal', 'MemFree', 'Slab', 'Percpu'):
            if k not in g['snaps'][s]['meminfo']:
                raise LogError('snapshot %s: no %s in meminfo (log: %s)' % (s, k, path))
        if not g['snaps'][s]['slab']:
            raise LogError('snapshot %s: no slabinfo (log: %s)' % (s, path))
    for s in g['snaps'].values():
        for c in s['slab'].values():
            c['bytes'] = c['slabs'] * c['pages_per_slab'] * g['pagesize']
        s['avc_sum'] = avc_sums(s['avc'])
    return g


def parse_slab(caches, line, path):
    """A /proc/slabinfo 2.1 line: name active_objs num_objs objsize
    objperslab pagesperslab : tunables ... : slabdata active_slabs
    num_slabs sharedavail."""
    w = line.split()
    try:
        i = w.index('slabdata')
        caches[w[0]] = {'active_objs': int(w[1]), 'objs': int(w[2]),
                        'objsize': int(w[3]), 'per_slab': int(w[4]),
                        'pages_per_slab': int(w[5]),
                        'slabs': int(w[i + 2])}
    except (ValueError, IndexError):
        raise LogError('bad slabinfo line: %s (log: %s)' % (line, path))


def avc_sums(avc):
    """cache_stats and pcpu_cache_stats summed over the CPUs, hash_stats
    as numbers."""
    out = {}
    for name, fields in (('cache_stats', AVC_FIELDS), ('pcpu_cache_stats', PCPU_FIELDS)):
        rows = [ln.split() for ln in avc.get(name, [])]
        rows = [r for r in rows if len(r) == len(fields) and all(v.isdigit() for v in r)]
        if rows:
            out[name] = {f: sum(int(r[j]) for r in rows) for j, f in enumerate(fields)}
    h = {}
    for ln in avc.get('hash_stats', []):
        m = re.match(r'(entries|buckets used|longest chain):\s*(\d+)(?:/(\d+))?', ln.strip())
        if m:
            h[m.group(1).replace(' ', '_')] = int(m.group(2))
            if m.group(3):
                h['buckets'] = int(m.group(3))
    if h:
        out['hash_stats'] = h
    return out


def used(snap):
    m = snap['meminfo']
    return m['MemTotal'] - m['MemFree']


def blob_cache(g):
    for c in BLOB_CACHES:
        if c in g['snaps']['files']['slab']:
            return c
    return None


def split_cpus(diffs):
    """{cpus: value} -> {'total': the values, 'per_cpu', 'global'}: the
    least-squares line over the CPU counts (slope, value at zero CPUs);
    with one CPU count they cannot be told apart: both None."""
    pairs = sorted(diffs.items())
    out = {'total': dict(pairs), 'per_cpu': None, 'global': None}
    if len(pairs) > 1:
        mx = sum(n for n, _ in pairs) / len(pairs)
        my = sum(v for _, v in pairs) / len(pairs)
        slope = (sum((n - mx) * (v - my) for n, v in pairs) /
                 sum((n - mx) ** 2 for n, _ in pairs))
        out['per_cpu'], out['global'] = slope, my - slope * mx
    return out


def derive(guests):
    """guests: {(kernel, cpus): parsed log}.  Returns the rows of the
    report: (section, item, unit, {cpus: (stock, patched)}) and the
    derived figures."""
    cpus = sorted({n for _, n in guests})
    for n in cpus:
        for k in KERNELS:
            if (k, n) not in guests:
                raise LogError('no %s guest with %d CPUs: each CPU count needs both kernels'
                               % (k, n))
    rows = []

    def row(section, item, unit, fn):
        vals = {}
        for n in cpus:
            s, p = fn(guests[('stock', n)]), fn(guests[('patched', n)])
            if s is None and p is None:
                continue
            vals[n] = (s, p)
        if vals:
            rows.append((section, item, unit, vals))
        return vals

    def snapv(name, fn):
        return lambda g: fn(g['snaps'][name])

    def slabv(name, cache, field='bytes'):
        return lambda g: g['snaps'][name]['slab'].get(cache, {}).get(field)

    def delta(a, b, fn):
        return lambda g: fn(g['snaps'][b]) - fn(g['snaps'][a])

    def diff(vals):
        return {n: p - s for n, (s, p) in vals.items()}

    d = {'cpus': cpus}
    # Per inode: memfill's inodes, the blob cache across them.
    sec = 'inodes'
    inodes = {}
    for n in cpus:
        mf = [guests[(k, n)]['memfill'] for k in KERNELS]
        if mf[0]['files'] != mf[1]['files'] or mf[0]['dirs'] != mf[1]['dirs']:
            raise LogError('the two kernels made different file counts with %d CPUs' % n)
        inodes[n] = mf[0]['files'] + mf[0]['dirs']
    row(sec, 'inodes made (files and directories)', 'count',
        lambda g: g['memfill']['files'] + g['memfill']['dirs'])
    blob = blob_cache(guests[('stock', cpus[0])]) or blob_cache(guests[('patched', cpus[0])])
    d['blob_cache'] = blob
    per_inode = {}
    if blob:
        v = row(sec, '%s object size' % blob, 'bytes', slabv('files', blob, 'objsize'))
        per_inode['object_size'] = diff(v)
        row(sec, '%s objects per slab' % blob, 'count', slabv('files', blob, 'per_slab'))
        row(sec, '%s objects, growth' % blob, 'count',
            lambda g: g['snaps']['files']['slab'][blob]['active_objs'] -
            g['snaps']['bench']['slab'][blob]['active_objs'])
        v = row(sec, '%s, growth' % blob, 'bytes',
                lambda g: g['snaps']['files']['slab'][blob]['bytes'] -
                g['snaps']['bench']['slab'][blob]['bytes'])
        per_inode['blob_cache'] = {n: x / inodes[n] for n, x in diff(v).items()}
    v = row(sec, 'Slab (meminfo), growth', 'bytes',
            delta('bench', 'files', lambda s: s['meminfo']['Slab']))
    per_inode['slab'] = {n: x / inodes[n] for n, x in diff(v).items()}
    v = row(sec, 'used (MemTotal - MemFree), growth', 'bytes', delta('bench', 'files', used))
    per_inode['used'] = {n: x / inodes[n] for n, x in diff(v).items()}
    d['per_inode'] = per_inode

    # Per CPU: the per-CPU allocator's pages, and its static area.
    sec = 'cpus'
    per_cpu = {}
    v = row(sec, 'Percpu (meminfo), at boot', 'bytes', snapv('boot', lambda s: s['meminfo']['Percpu']))
    per_cpu['percpu'] = split_cpus(diff(v))
    v = row(sec, 'static per-CPU area (boot line s), per CPU', 'bytes',
            lambda g: g['percpu'] and g['percpu']['static'])
    if v:
        per_cpu['static_area'] = diff(v)
    row(sec, 'per-CPU unit (boot line u)', 'bytes', lambda g: g['percpu'] and g['percpu']['unit'])
    # Used memory once the initramfs is unpacked and freed, which at boot
    # it may not be yet.
    v = row(sec, 'used (MemTotal - MemFree), at ready', 'bytes', snapv('ready', used))
    per_cpu['used'] = split_cpus(diff(v))
    d['per_cpu'] = per_cpu

    # Per policy: across the load.
    sec = 'policy'
    per_policy = {}
    row(sec, 'policy file', 'bytes', lambda g: g['policy'].get('file'))
    row(sec, 'policy as loaded (/sys/fs/selinux/policy)', 'bytes', lambda g: g['policy'].get('loaded'))
    for key, item, fn in (('slab', 'Slab (meminfo)', lambda s: s['meminfo']['Slab']),
                          ('percpu', 'Percpu (meminfo)', lambda s: s['meminfo']['Percpu']),
                          ('used', 'used (MemTotal - MemFree)', used)):
        v = row(sec, '%s, growth across the load' % item, 'bytes', delta('boot', 'policy', fn))
        per_policy[key] = split_cpus(diff(v))
    d['per_policy'] = per_policy

    # The benchmark guest after its workload.
    sec = 'bench'
    names = sorted({c for g in guests.values() for c in g['snaps']['bench']['slab'] if SHOWN.match(c)})
    for c in names:
        row(sec, 'slab %s' % c, 'bytes', slabv('bench', c))
    for k in ('Slab', 'SUnreclaim', 'Percpu'):
        row(sec, '%s (meminfo)' % k, 'bytes', snapv('bench', lambda s, k=k: s['meminfo'].get(k)))
    row(sec, 'used (MemTotal - MemFree)', 'bytes', snapv('bench', used))
    for name, fields in (('cache_stats', AVC_FIELDS), ('pcpu_cache_stats', PCPU_FIELDS)):
        for f in fields:
            row(sec, 'AVC %s %s' % (name, f), 'count',
                snapv('bench', lambda s, name=name, f=f: s['avc_sum'].get(name, {}).get(f)))
    for f in ('entries', 'buckets_used', 'buckets', 'longest_chain'):
        row(sec, 'AVC hash_stats %s' % f, 'count',
            snapv('bench', lambda s, f=f: s['avc_sum'].get('hash_stats', {}).get(f)))
    return rows, d


def read_sizes(path):
    """make bench's size.csv: {(kernel, object): (text, data, bss)}."""
    sizes = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            sizes[(r['kernel'], r['object'])] = tuple(
                int(r[c]) if r.get(c) else None for c in ('text', 'data', 'bss'))
    return sizes


def num(v, nd=0):
    if v is None:
        return '-'
    if nd:
        return '%+.*f' % (nd, v) if v else '0'
    return '{:,}'.format(v)


def signed(v, nd=0):
    return '-' if v is None else ('{:+,.%df}' % nd).format(v)


def split_text(f, per_cpu=False):
    """A split_cpus() result as text: per CPU and global where the CPU
    counts tell them apart; else the difference (divided by the CPUs for
    a figure that is per CPU by nature)."""
    if f['per_cpu'] is not None:
        return '%s bytes per CPU, %s global' % (signed(f['per_cpu']), signed(f['global']))
    (n, v), = f['total'].items()
    if per_cpu:
        return '%s bytes per CPU (-smp %d, all of it taken as per CPU)' % (signed(v / n), n)
    return '%s bytes (-smp %d: per CPU and global not told apart)' % (signed(v), n)


def render(rows, d, meta, sizes, sizes_path):
    cpus = d['cpus']
    out = []
    out.append('Memory, stock vs patched %s (%s), SELinux enforcing, %s policy, slab_nomerge'
               % (meta.get('base', ''), meta.get('flavor', ''), meta.get('policy', 'project')))
    head = '%-58s' % ''
    sub = '%-58s' % 'item (unit)'
    for n in cpus:
        head += '%40s' % ('-smp %d' % n)
        sub += '%14s%14s%12s' % ('stock', 'patched', 'delta')
    titles = {'inodes': 'Inodes: memfill, files on tmpfs in the confined domain (bench -> files)',
              'cpus': 'Per CPU: at boot, before the policy load (used memory: at ready)',
              'policy': 'Per policy: across the policy load (boot -> policy)',
              'bench': 'The benchmark guest after its policy load and a short run of the suite'}
    last = None
    for sec, item, unit, vals in rows:
        if sec != last:
            out += ['', titles[sec], head, sub]
            last = sec
        line = '%-58s' % ('%s (%s)' % (item, unit))[:58]
        for n in cpus:
            if n in vals:
                s, p = vals[n]
                dl = None if s is None or p is None else p - s
                line += '%14s%14s%12s' % (num(s), num(p), signed(dl))
            else:
                line += '%40s' % '-'
        out.append(line.rstrip())
    out += ['', 'Derived, patched minus stock:']
    pi = d['per_inode']
    for n in cpus:
        parts = []
        if 'blob_cache' in pi:
            parts.append('%s %s bytes (object size %s)' % (
                d['blob_cache'], signed(pi['blob_cache'][n], 1), signed(pi['object_size'][n])))
        parts.append('all slab %s' % signed(pi['slab'][n], 1))
        parts.append('all used memory %s' % signed(pi['used'][n], 1))
        out.append('  per inode, -smp %d: %s' % (n, ', '.join(parts)))
    pc = d['per_cpu']
    out.append('  per CPU: Percpu %s; used memory %s; static per-CPU area (boot line) %s'
               % (split_text(pc['percpu'], per_cpu=True), split_text(pc['used']),
                  ', '.join('%s bytes (-smp %d)' % (signed(v), n)
                            for n, v in sorted(pc.get('static_area', {}).items())) or '-'))
    pp = d['per_policy']
    out.append('  per policy: Slab %s; Percpu %s; used memory %s'
               % tuple(split_text(pp[k]) for k in ('slab', 'percpu', 'used')))
    if len(cpus) > 1:
        out.append('  (per CPU and global: the line through the -smp %s figures, its slope '
                   'and its value at zero CPUs)' % ', '.join(map(str, cpus)))
    out.append('  (used memory counts as used the free pages the page allocator keeps on its '
               'per-CPU lists:\n   differences of a few hundred KiB in it are noise; Slab '
               'counts whole slab pages,\n   of which each cache keeps a partial one per CPU)')
    out.append('')
    if sizes:
        out.append('Text sizes (%s, make bench):' % sizes_path)
        out.append('%-36s%14s%14s%12s' % ('text bytes', 'stock', 'patched', 'delta'))
        objs = []
        for (k, o) in sizes:
            if o not in objs:
                objs.append(o)
        for o in objs:
            s = sizes.get(('stock', o), (None,))[0]
            p = sizes.get(('patched', o), (None,))[0]
            out.append('%-36s%14s%14s%12s' % (o, num(s), num(p),
                                              signed(None if s is None or p is None else p - s)))
    else:
        out.append('Text sizes: not measured (make bench writes size.csv%s)'
                   % (': no %s' % sizes_path if sizes_path else ''))
    return '\n'.join(out) + '\n'


def write_csv(path, rows, d, sizes):
    with open(path, 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['section', 'item', 'unit', 'cpus', 'stock', 'patched', 'delta'])
        for sec, item, unit, vals in rows:
            for n, (s, p) in sorted(vals.items()):
                w.writerow([sec, item, unit, n, '' if s is None else s, '' if p is None else p,
                            '' if s is None or p is None else p - s])
        pi = d['per_inode']
        for key in ('blob_cache', 'object_size', 'slab', 'used'):
            for n, v in sorted(pi.get(key, {}).items()):
                w.writerow(['derived', 'per inode: %s' % key, 'bytes', n, '', '', round(v, 2)])
        for part, figures in (('per CPU', d['per_cpu']), ('per policy', d['per_policy'])):
            for key, f in figures.items():
                if key == 'static_area':
                    for n, x in sorted(f.items()):
                        w.writerow(['derived', '%s: static per-CPU area' % part, 'bytes', n,
                                    '', '', x])
                    continue
                for n, x in sorted(f['total'].items()):
                    w.writerow(['derived', '%s: %s' % (part, key), 'bytes', n, '', '', x])
                if f['per_cpu'] is not None:
                    w.writerow(['derived', '%s: %s, per CPU' % (part, key), 'bytes', 'all',
                                '', '', round(f['per_cpu'], 1)])
                    w.writerow(['derived', '%s: %s, global' % (part, key), 'bytes', 'all',
                                '', '', round(f['global'], 1)])
        for (k, o), (t, da, b) in sorted(sizes.items()):
            w.writerow(['text', '%s %s' % (k, o), 'bytes', '', '', '', t])


def main(argv):
    args = argv[1:]
    meta = {}
    sizes_path = None
    if not args:
        raise LogError(__doc__.split('\n\n')[1])
    outdir = args.pop(0)
    specs = []
    while args:
        a = args.pop(0)
        if a in ('--flavor', '--base', '--policy', '--sizes'):
            if not args:
                raise LogError('%s needs a value' % a)
            v = args.pop(0)
            if a == '--sizes':
                sizes_path = v
            else:
                meta[a[2:]] = v
        else:
            specs.append(a)
    if not specs:
        raise LogError('no guest logs (KERNEL:CPUS:LOG)')
    guests = {}
    for spec in specs:
        parts = spec.split(':', 2)
        if len(parts) != 3 or parts[0] not in KERNELS or not parts[1].isdigit():
            raise LogError('bad guest %r: want KERNEL:CPUS:LOG, KERNEL stock or patched' % spec)
        g = parse_log(parts[2])
        if g['cpus'] != int(parts[1]):
            raise LogError('%s: the guest saw %d CPUs, not %s' % (parts[2], g['cpus'], parts[1]))
        guests[(parts[0], int(parts[1]))] = g
    rows, d = derive(guests)
    sizes = {}
    if sizes_path and os.path.exists(sizes_path):
        sizes = read_sizes(sizes_path)
    text = render(rows, d, meta, sizes, sizes_path)
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, 'memory.txt'), 'w') as f:
        f.write(text)
    write_csv(os.path.join(outdir, 'memory.csv'), rows, d, sizes)
    doc = {'meta': meta, 'derived': d,
           'rows': [{'section': s, 'item': i, 'unit': u,
                     'values': {str(n): {'stock': a, 'patched': b} for n, (a, b) in v.items()}}
                    for s, i, u, v in rows],
           'sizes': [{'kernel': k, 'object': o, 'text': t, 'data': da, 'bss': b}
                     for (k, o), (t, da, b) in sorted(sizes.items())],
           'sizes_source': sizes_path if sizes else None,
           'guests': {'%s-smp%d' % k: {'log': g['log'], 'cpus': g['cpus'],
                                       'percpu_boot': g['percpu'], 'policy': g['policy'],
                                       'memfill': g['memfill'], 'denied': g['denied'],
                                       'bench_results': g['bench_results'],
                                       'snapshots': {s: {'meminfo': g['snaps'][s]['meminfo'],
                                                         'slab': g['snaps'][s]['slab'],
                                                         'avc': g['snaps'][s]['avc_sum']}
                                                     for s in g['order']}}
                      for k, g in sorted(guests.items())}}
    with open(os.path.join(outdir, 'memory.json'), 'w') as f:
        json.dump(doc, f, indent=1, sort_keys=True)
    sys.stdout.write(text)


if __name__ == '__main__':
    try:
        main(sys.argv)
    except LogError as e:
        print('error: %s' % e, file=sys.stderr)
        sys.exit(1)
