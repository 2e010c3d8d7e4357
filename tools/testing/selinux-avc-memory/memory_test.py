#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of memory.py on made-up guest logs: the per-inode, per-CPU and
per-policy figures it derives, its files, and the logs it refuses.
Run: python3 memory_test.py (scripts/test-scripts.sh runs it)."""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import memory  # noqa: E402

M = 'SELINUX-AVC-BENCH: '
FILES, DIRS = 1000, 10
# Per kernel: the blob's object size and objects per slab, the per-CPU
# area in KiB per CPU, what the policy load adds (Slab KiB, Percpu KiB
# per CPU, used KiB global).
KERN = {'stock': {'objsize': 56, 'per_slab': 73, 'pcpu': 80, 'pol_slab': 1000,
                  'pol_pcpu': 0, 'pol_glob': 0},
        'patched': {'objsize': 80, 'per_slab': 51, 'pcpu': 88, 'pol_slab': 1004,
                    'pol_pcpu': 1, 'pol_glob': 4}}


def slabline(name, active, objsize, per_slab):
    slabs = math.ceil(active / per_slab)
    return '%s %d %d %d %d 1 : tunables 0 0 0 : slabdata %d %d 0' % (
        name, active, slabs * per_slab, objsize, per_slab, slabs, slabs)


def log_text(kernel, cpus, end=True, snaps=None):
    k = KERN[kernel]
    out = ['[    0.000000] percpu: Embedded %d pages/cpu s%d r8192 d28672 u2097152'
           % (k['pcpu'] // 4, k['pcpu'] * 1024 - 36864),
           M + 'MEM BEGIN cpus=%d possible=0-%d files=%d scale=2' % (cpus, cpus - 1, FILES),
           M + 'PERCPU percpu: Embedded %d pages/cpu s%d r8192 d28672 u2097152'
           % (k['pcpu'] // 4, k['pcpu'] * 1024 - 36864)]
    # Slab, Percpu and MemFree (KiB) and the blob cache's objects at each
    # snapshot.
    pcpu = k['pcpu'] * cpus
    slab, free, blobs = 20000, 400000, 1000
    for s in snaps or memory.SNAPS:
        if s == 'policy':
            slab += k['pol_slab']
            pcpu += k['pol_pcpu'] * cpus
            free -= k['pol_slab'] + k['pol_pcpu'] * cpus + k['pol_glob']
        if s == 'files':
            blobs += FILES + DIRS
            grow = (math.ceil(blobs / k['per_slab']) -
                    math.ceil((blobs - FILES - DIRS) / k['per_slab'])) * 4
            slab += grow + 300
            free -= grow + 300
        out.append(M + 'SNAP ' + s)
        for key, v in (('MemTotal', 500000), ('MemFree', free), ('Slab', slab),
                       ('SUnreclaim', slab // 2), ('Percpu', pcpu)):
            out.append(M + 'MEMINFO %s %s:%s%d kB' % (s, key, ' ' * 8, v))
        out.append(M + 'SLABINFO %s ' % s + slabline('lsm_inode_cache', blobs, k['objsize'],
                                                     k['per_slab']))
        out.append(M + 'SLABINFO %s ' % s + slabline('avc_node', 300, 72, 56))
        out.append(M + 'AVC %s cache_stats lookups hits misses allocations reclaims frees' % s)
        for _ in range(cpus):
            out.append(M + 'AVC %s cache_stats 100 90 10 10 0 0' % s)
        out.append(M + 'AVC %s hash_stats entries: 300' % s)
        out.append(M + 'AVC %s hash_stats buckets used: 200/512' % s)
        out.append(M + 'AVC %s hash_stats longest chain: 4' % s)
        if s == 'policy':
            out.append(M + 'POLICY file 12345 loaded 12345')
        if s == 'bench':
            out.append(M + 'BENCH results 26')
    out.append(M + 'MEMFILL memfill: files %d dirs %d stat %d pagesize 4096'
               % (FILES, DIRS, FILES + DIRS))
    out.append(M + 'DENIED 0')
    if end:
        out.append(M + 'END')
    return '\r\n'.join(out) + '\r\n'


class MemoryTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, 'w') as f:
            f.write(text)
        return path

    def guests(self, cpus=(1, 4)):
        specs = []
        for n in cpus:
            for k in memory.KERNELS:
                specs.append('%s:%d:%s' % (k, n, self.write('%s-%d.log' % (k, n),
                                                            log_text(k, n))))
        return specs

    def run_main(self, specs, *extra):
        out = os.path.join(self.dir, 'out')
        p = subprocess.run([sys.executable, os.path.join(HERE, 'memory.py'), out] +
                           list(extra) + specs, capture_output=True, text=True)
        return p, out

    def test_derived(self):
        guests = {}
        for n in (1, 4):
            for k in memory.KERNELS:
                guests[(k, n)] = memory.parse_log(self.write('%s%d' % (k, n), log_text(k, n)))
        _, d = memory.derive(guests)
        self.assertEqual(d['blob_cache'], 'lsm_inode_cache')
        inodes = FILES + DIRS
        # 1010 more blobs: 14 more slabs of 73 (stock), 20 of 51 (patched).
        for n in (1, 4):
            self.assertAlmostEqual(d['per_inode']['blob_cache'][n], (20 - 14) * 4096 / inodes)
            self.assertEqual(d['per_inode']['object_size'][n], 24)
            self.assertAlmostEqual(d['per_inode']['slab'][n], (20 - 14) * 4096 / inodes)
        self.assertAlmostEqual(d['per_cpu']['percpu']['per_cpu'], 8 * 1024)
        self.assertAlmostEqual(d['per_cpu']['percpu']['global'], 0)
        self.assertEqual(d['per_cpu']['static_area'], {1: 8192, 4: 8192})
        self.assertAlmostEqual(d['per_policy']['slab']['global'], 4 * 1024)
        self.assertAlmostEqual(d['per_policy']['slab']['per_cpu'], 0)
        self.assertAlmostEqual(d['per_policy']['percpu']['per_cpu'], 1024)
        self.assertAlmostEqual(d['per_policy']['used']['per_cpu'], 1024)
        self.assertAlmostEqual(d['per_policy']['used']['global'], 8 * 1024)
        self.assertEqual(guests[('stock', 4)]['snaps']['bench']['avc_sum']['cache_stats']['lookups'],
                         400)
        self.assertEqual(guests[('stock', 1)]['snaps']['bench']['avc_sum']['hash_stats'],
                         {'entries': 300, 'buckets_used': 200, 'buckets': 512,
                          'longest_chain': 4})

    def test_files(self):
        sizes = self.write('size.csv', 'kernel,object,text,data,bss\n'
                           'stock,vmlinux.o:.text,1000,,\npatched,vmlinux.o:.text,1500,,\n')
        p, out = self.run_main(self.guests(), '--flavor', 'x86_64-guest', '--base', '6.12',
                               '--sizes', sizes)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(out, 'memory.txt')) as f:
            text = f.read()
        self.assertEqual(p.stdout, text)
        self.assertIn('per inode, -smp 4: lsm_inode_cache +24.3 bytes (object size +24)', text)
        self.assertIn('per CPU: Percpu +8,192 bytes per CPU, +0 global', text)
        self.assertRegex(text, r'vmlinux\.o:\.text +1,000 +1,500 +\+500')
        with open(os.path.join(out, 'memory.csv')) as f:
            rows = list(csv.DictReader(f))
        obj = [r for r in rows if r['item'] == 'lsm_inode_cache object size' and r['cpus'] == '1']
        self.assertEqual((obj[0]['stock'], obj[0]['patched'], obj[0]['delta']), ('56', '80', '24'))
        with open(os.path.join(out, 'memory.json')) as f:
            doc = json.load(f)
        self.assertEqual(doc['guests']['patched-smp4']['memfill']['files'], FILES)
        self.assertEqual(doc['sizes_source'], sizes)

    def test_one_cpu_count_and_no_sizes(self):
        p, out = self.run_main(self.guests(cpus=(2,)), '--sizes',
                               os.path.join(self.dir, 'none.csv'))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn('Percpu +8,192 bytes per CPU (-smp 2, all of it taken as per CPU)', p.stdout)
        self.assertIn('Text sizes: not measured', p.stdout)

    def test_refused(self):
        cases = [
            ([self.write('noend', log_text('stock', 1, end=False))], 'no end marker'),
            ([self.write('nosnap', log_text('stock', 1, snaps=['boot', 'policy']))],
             'snapshots missing: ready, bench, files'),
            ([self.write('err', M + 'MEM BEGIN cpus=1\n' + M + 'ERROR memfill: boom\n')],
             'guest error: memfill: boom'),
            ([self.write('empty', 'Kernel panic\n')], 'no start marker'),
        ]
        for logs, msg in cases:
            p, _ = self.run_main(['stock:1:' + logs[0]])
            self.assertEqual(p.returncode, 1)
            self.assertIn(msg, p.stderr)
        p, _ = self.run_main(['stock:1:' + self.write('s1', log_text('stock', 1))])
        self.assertIn('no patched guest with 1 CPUs', p.stderr)
        p, _ = self.run_main(['stock:2:' + self.write('s1', log_text('stock', 1))])
        self.assertIn('the guest saw 1 CPUs, not 2', p.stderr)
        p, _ = self.run_main(['mutant:1:x'])
        self.assertIn('want KERNEL:CPUS:LOG', p.stderr)


if __name__ == '__main__':
    unittest.main()
