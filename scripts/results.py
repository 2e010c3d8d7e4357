#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write results/RESULTS.md from whatever the runs left in results/.

Usage: results.py [--source ID] [--top DIR] [RESULTS_DIR]

RESULTS_DIR (default: results/ of this repository) is read, never changed,
except for two files this script owns: RESULTS.md, the document, and
.provenance.json, which notes for each result file, the first time this
script sees it (make bench and make check call it as they end), the
series in patches/, the machine and the kernel source it was made with.
A file noted long after it was written says so in the document.

--source ID names the kernel source of the run that just ended (build/src/
ID: debian or ksrc-<hash>, scripts/lib.sh's SRCID); without it the only
source under build/src/ is taken, or the base is left unknown.  --top DIR
is the repository (patches/, configs/, build/); default: this script's.

Layout read (what the tools write):
  bench.csv, bench.json, avc_stats.txt, size.csv, profile-OP.txt (make
  bench, make profile: x86_64 -O2 in RESULTS_DIR, every other architecture
  and -Os in RESULTS_DIR/<arch>-guest[+os]/, with its matrix.txt);
  microbench.csv, matrix.txt, stress*.txt, debug.txt, window.txt,
  coverage.txt, testsuite.txt, mutants.txt, litmus.txt, paper.txt.
Missing or unreadable files leave their section out; nothing here fails
on a partial RESULTS_DIR.
"""
import csv
import datetime
import glob
import hashlib
import json
import os
import re
import subprocess
import sys

SELF_TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_NAME = 'RESULTS.md'
PROV_NAME = '.provenance.json'
# A file noted more than this long after it was written says so.
LATE = 3600

METHOD = {
    'bench': (
        'Guest instructions per operation. Each kernel boots under qemu TCG '
        'with `-icount shift=0,sleep=off` (one guest nanosecond is one '
        'instruction, so a run repeats exactly), `-smp 1` and a fixed guest '
        'clock; the lmbench-style programs of tools/testing/selinux-avc-bench/ '
        'run once with SELinux enforcing the project policy (benchmark '
        'confined in `bench_t`) and once with `lsm=capability` (no LSM). '
        '"+SELinux" is the difference, the SELinux overhead; the last column '
        'is the patched overhead over stock\'s. Stock and patched are built '
        'from the same source and configuration (tinyconfig plus '
        'configs/<arch>-guest.config, and configs/os.config for -Os).'),
    'churn': (
        'The same measure beside a SCHED_FIFO process of a permissive domain '
        'that stats files of more types than the AVC may hold, so nearly '
        'every one of its checks is a permissive grant and an AVC reclaim '
        '(`BENCH_SCENARIO=churn`). The figures include that process\'s '
        'instructions, in the no-LSM boots too.'),
    'profile': (
        'One benchmark row under a qemu TCG plugin '
        '(tools/testing/selinux-avc-profile/) that counts guest instructions '
        'per kernel function inside the measured window, SELinux enforcing '
        'minus `lsm=capability`, per operation (per run for `macro`). '
        '`security/` sums every function under security/ (SELinux, the LSM '
        'dispatch, capabilities); "kernel" is the whole kernel.'),
    'microbench': (
        'The `selinux_avc_bench` KUnit suite: the stock AVC lookup and the '
        'per-CPU cache on a hit, a miss and 512 keys cycling through the '
        'slots (thrash), timed in one boot. UML gives host nanoseconds (good '
        'as ratios within one run); x86_64 under qemu `-icount` gives guest '
        'instructions. Figures are per check and include the loop and '
        'indirect call (case `call`).'),
    'sweep': (
        'The same suite over working sets of 16 to 8,192 keys, each cycled '
        'in order on one CPU (every check allowed): cost per check of the '
        'stock lookup and of the per-CPU cache, and the share of the '
        'cache\'s checks that hit or wrote a slot; '
        '`MICROBENCH_SLOTS="16 32 64 256"` adds other slot counts on UML. '
        'Plot: microbench-sweep.png.'),
    'matrix': (
        'The decision matrix (tools/testing/selinux-avc-matrix/): every '
        'case in every phase (policy reload, setenforce, permissive domain, '
        'boolean, relabel) on the stock kernel, the patched kernel and the '
        'patched kernel booted with `selinux_avc_pcpu=0`; outcomes, audit '
        'records and labels must be identical and equal to what the policy '
        'source predicts.'),
    'stress': (
        'qemu `-smp 2`: policy reloads, setenforce toggles, CPU hotplug and '
        'relabels race processes that check files and read held '
        'descriptors; a check that began after a change returned must see '
        'it, and the kernel must report no warning.'),
    'debug': (
        'The KUnit suites and the stress on a KASAN + lockdep + '
        'atomic-sleep + preempt kernel and on a KCSAN kernel; any kernel '
        'report fails.'),
    'window': (
        'Stock\'s setenforce window and the series\' reset window, widened '
        'by inserted delays (tools/testing/selinux-avc-matrix/window.txt); '
        'the stress must fail where the fix is missing and pass with it.'),
    'coverage': (
        'The matrix on a patched kernel that records every AVC decision with '
        'its caller: per SELinux hook, whether it ran, with an allow and '
        'with a denial.'),
    'testsuite': (
        'The SELinux project\'s selinux-testsuite in a Debian guest on the '
        'stock and the patched kernel; the pass/fail lists must be the same.'),
    'mutants': (
        'Deliberate breakages of the series (scripts/mutants.txt), each run '
        'against every tool its line names; every tool must catch it.'),
    'litmus': (
        'herd7 runs the litmus tests of tools/testing/selinux-avc-litmus/ '
        'under the kernel\'s memory model: the series\' orderings must be '
        '"Never", each broken variant "Sometimes".'),
    'paper': (
        'SELinux over no SELinux (enforcing over `lsm=capability` on the same '
        'kernel) for every bench run above, beside the 2007 SH4 lmbench '
        'figures. The units differ (guest instructions against '
        'microseconds on a board): only the ratios compare.'),
    'size': (
        'Text bytes (`size`) of the kernels the benchmark booted; vmlinux.o '
        '.text shows what vmlinux\'s 2 MiB padding hides.'),
}

# How each kind is made, for the "not run" list.
COMMANDS = {
    'bench': 'make bench', 'bench-os': 'make bench-os',
    'profile': 'make profile OP=<row>', 'microbench': 'make microbench',
    'matrix': 'make matrix', 'stress': 'make stress', 'debug': 'make debug',
    'window': 'make window', 'coverage': 'make coverage',
    'testsuite': 'make testsuite TESTSUITE=DIR', 'mutants': 'make mutants',
    'litmus': 'make litmus', 'paper': 'make paper',
}


def read(path, limit=None):
    try:
        with open(path, errors='replace') as f:
            return f.read(limit) if limit else f.read()
    except OSError:
        return None


def run(cmd, timeout=10):
    """First line of a command's output, or None."""
    try:
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             timeout=timeout, check=False, text=True).stdout
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    line = out.strip().splitlines()[0] if out.strip() else ''
    return line or None


def utc(ts):
    return datetime.datetime.fromtimestamp(ts, datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')


def num(v, nd=0):
    """A CSV figure as text: thousands separated, '-' when empty."""
    try:
        f = float(v)
    except (TypeError, ValueError):
        return '-'
    if nd:
        return '%.*f' % (nd, f)
    return '{:,.0f}'.format(f)


def signed(v):
    try:
        f = float(v)
    except (TypeError, ValueError):
        return '-'
    return '{:+,.0f}'.format(f)


def table(head, rows):
    out = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    for r in rows:
        out.append('| ' + ' | '.join(str(c).replace('|', '\\|') for c in r) + ' |')
    return out


# ---------------------------------------------------------------- context

def series_info(top):
    """The series in patches/<base>/ (the base named by the BASE variable
    that scripts/lib.sh exports, default 6.12): patch count, cover letter
    version and subject, a digest of the patches' text, the repository
    commit."""
    pdir = os.path.join(top, 'patches', os.environ.get('BASE') or '6.12')
    info = {'patches': 0}
    if not os.path.isdir(pdir):
        info['note'] = 'no patches/ directory'
        return info
    names = []
    lines = (read(os.path.join(pdir, 'series')) or '').splitlines()
    for line in lines:
        line = line.split('#', 1)[0].strip()
        if line and not line.startswith('-'):
            names.append(line.split()[0])
    names = [n for n in names if os.path.isfile(os.path.join(pdir, n))]
    if not names:
        names = sorted(n for n in os.listdir(pdir)
                       if re.match(r'\d{4}-.*\.patch$', n) and not n.startswith('0000-'))
    names = [n for n in names if 'cover-letter' not in n]
    info['patches'] = len(names)
    h = hashlib.sha256()
    for n in names:
        try:
            with open(os.path.join(pdir, n), 'rb') as f:
                h.update(f.read())
        except OSError:
            pass
    if names:
        info['digest'] = h.hexdigest()[:12]
    for cl in ('0000-cover-letter.patch', 'cover-letter'):
        text = read(os.path.join(pdir, cl))
        if text is None:
            continue
        m = re.search(r'^Subject:\s*\[PATCH\s+(v\d+)?[^\]]*\]\s*(.*)$', text, re.M)
        if m:
            if m.group(1):
                info['version'] = m.group(1)
            subj = m.group(2).strip()
        else:
            subj = text.strip().splitlines()[0].strip() if text.strip() else ''
        if subj and '*** SUBJECT HERE ***' not in subj:
            info['title'] = subj
        if 'version' not in info:
            m = re.search(r'^\s*(?:changes\s+(?:in|since)\s+)?(v\d+)\b', text, re.M | re.I)
            if m:
                info['version'] = m.group(1).lower()
        break
    commit = run(['git', '-C', top, 'log', '-1', '--format=%h', '--', 'patches'])
    if commit and re.match(r'^[0-9a-f]{4,40}$', commit):
        info['commit'] = commit
        if run(['git', '-C', top, 'status', '--porcelain', '--', 'patches']):
            info['commit'] += ' with uncommitted changes'
    return info


def series_text(s):
    if not s or not s.get('patches'):
        return 'not known (%s)' % (s or {}).get('note', 'no patches found in patches/')
    t = '%d patches' % s['patches']
    if s.get('version'):
        t = '%s, %s' % (s['version'], t)
    if s.get('commit'):
        t += ', patches/ at commit %s' % s['commit']
    if s.get('digest'):
        t += ', digest %s' % s['digest']
    return t


def arch_conf(top, arch):
    text = read(os.path.join(top, 'configs', 'arch', arch + '.conf')) or ''
    m = re.search(r'^BA_QEMU=["\']?([A-Za-z0-9_.+-]+)', text, re.M)
    return m.group(1) if m else None


def machine_info(top, arch):
    u = os.uname()
    m = {'os': '%s %s %s' % (u.sysname, u.release, u.machine),
         'cpus': os.cpu_count()}
    deb = (read('/etc/debian_version') or '').strip()
    if deb:
        m['debian'] = deb
    for line in (read('/proc/cpuinfo', 1 << 16) or '').splitlines():
        if line.startswith('model name'):
            m['cpu'] = line.split(':', 1)[1].strip()
            break
    qemu = arch_conf(top, arch) if arch else None
    if qemu:
        v = run([qemu, '--version'])
        m['qemu'] = '%s: %s' % (qemu, v) if v else '%s not found' % qemu
    gcc = run(['gcc', '--version'])
    if gcc:
        m['gcc'] = gcc
    return m


def machine_text(m):
    if not m:
        return 'not known'
    parts = [m.get('os', '?')]
    if m.get('debian'):
        parts.append('Debian %s' % m['debian'])
    if m.get('cpu'):
        parts.append(m['cpu'])
    if m.get('cpus'):
        parts.append('%s CPUs' % m['cpus'])
    for k in ('qemu', 'gcc'):
        if m.get(k):
            parts.append(m[k])
    return '; '.join(parts)


def kernel_version(pristine):
    """The base's version as scripts/source.sh recorded it when it unpacked
    the pristine tree."""
    v = (read(os.path.join(pristine, '.git', 'avc-base-version'), 64) or '').strip()
    return v or None


def base_info(top, source):
    """{'id', 'version'} of the kernel source: --source, else the only one
    under build/src/."""
    src = os.path.join(top, 'build', 'src')
    if not source:
        try:
            ids = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
        except OSError:
            ids = []
        if len(ids) == 1:
            source = ids[0]
        elif ids:
            return {'note': 'one of %s under build/src/' % ', '.join(ids)}
        else:
            return {}
    b = {'id': source}
    v = kernel_version(os.path.join(src, source, 'pristine'))
    if v:
        b['version'] = v
    return b


def base_text(b):
    if not b or (not b.get('id') and not b.get('version')):
        return 'Linux 6.12 (source not recorded%s)' % ('; ' + b['note'] if b and b.get('note') else '')
    v = 'Linux ' + b.get('version', '6.12.y')
    i = b.get('id')
    if i and i.startswith('debian-'):
        return v + ', Debian linux-source-' + i[len('debian-'):]
    if i:
        return v + ', a tree given as KSRC (build/src/%s)' % i
    return v


# ---------------------------------------------------------------- provenance

class Provenance:
    """The series, machine and base each result file was first seen with."""

    def __init__(self, results, top, source, now):
        self.path = os.path.join(results, PROV_NAME)
        self.top, self.source, self.now = top, source, now
        self.old = {}
        text = read(self.path)
        if text:
            try:
                data = json.loads(text)
                if isinstance(data, dict):
                    self.old = {k: v for k, v in data.items() if isinstance(v, dict)}
            except ValueError:
                pass
        self.new = {}
        self._series = self._base = None
        self._machine = {}

    def note(self, results, rel, arch):
        """The stamp of RESULTS/REL, made now if the file is new or changed."""
        try:
            mtime = os.stat(os.path.join(results, rel)).st_mtime
        except OSError:
            return None
        st = self.old.get(rel)
        if not st or st.get('mtime') != mtime:
            if self._series is None:
                self._series = series_info(self.top)
                self._base = base_info(self.top, self.source)
            if arch not in self._machine:
                self._machine[arch] = machine_info(self.top, arch)
            st = {'mtime': mtime, 'noted': self.now, 'series': self._series,
                  'base': self._base, 'machine': self._machine[arch]}
        self.new[rel] = st
        return st

    def save(self):
        try:
            with open(self.path + '.tmp', 'w') as f:
                json.dump(self.new, f, indent=1, sort_keys=True)
                f.write('\n')
            os.replace(self.path + '.tmp', self.path)
        except OSError as e:
            print('results.py: cannot write %s: %s' % (self.path, e), file=sys.stderr)


def when_line(st):
    """'Run: DATE.' of one stamp, and when it was noted if that was late."""
    if not st:
        return 'Run: date not known.'
    line = 'Run: %s.' % utc(st['mtime'])
    late = st['noted'] - st['mtime']
    if late > LATE:
        line += (' Series and machine as found %s, %s after the run.'
                 % (utc(st['noted']), ('%.0f hours' % (late / 3600)) if late < 172800
                    else ('%.0f days' % (late / 86400))))
    return line


# ---------------------------------------------------------------- readers

def load_csv(path):
    try:
        with open(path, newline='', errors='replace') as f:
            return list(csv.DictReader(f))
    except (OSError, csv.Error):
        return None


def bench_part(path_dir, kernels_note=True):
    """Markdown lines of one bench run directory, or None."""
    rows = load_csv(os.path.join(path_dir, 'bench.csv'))
    if not rows or 'test' not in rows[0]:
        return None
    meta = {}
    text = read(os.path.join(path_dir, 'bench.json'))
    if text:
        try:
            meta = json.loads(text).get('meta', {}) or {}
        except (ValueError, AttributeError):
            meta = {}
    kernels = [k for k in ('stock', 'patched') if '%s_overhead' % k in rows[0]]
    head = ['row']
    for k in kernels:
        head += ['%s no LSM' % k, '%s SELinux' % k, '%s +SELinux' % k]
    if 'ratio' in rows[0]:
        head.append('patched/stock')

    def line(r):
        cells = [(r.get('description') or r.get('test') or '?').replace(
            ' (instructions per run)', '')]
        for k in kernels:
            cells += [num(r.get('%s_none' % k)), num(r.get('%s_selinux' % k)),
                      signed(r.get('%s_overhead' % k))]
        if 'ratio' in rows[0]:
            cells.append(num(r.get('ratio'), 2))
        return cells

    per_op = [r for r in rows if not (r.get('test') or '').startswith('churn_')
              and 'per run' not in (r.get('description') or '')]
    per_run = [r for r in rows if 'per run' in (r.get('description') or '')]
    churn = [r for r in rows if (r.get('test') or '').startswith('churn_')]
    out = []
    if per_op:
        out += ['Instructions per operation:', ''] + table(head, [line(r) for r in per_op]) + ['']
    if per_run:
        out += ['Instructions per run of the whole workload:', ''] + \
            table(head, [line(r) for r in per_run]) + ['']
    skipped = meta.get('skipped') if isinstance(meta.get('skipped'), dict) else {}
    if skipped:
        out += ['Not run by this guest: %s.' % '; '.join(
            '%s (%s)' % (k, v) for k, v in sorted(skipped.items())), '']
    if churn:
        out += ['Permissive churn. ' + METHOD['churn'], ''] + \
            table(head, [line(r) for r in churn]) + ['']
    return out


def avc_part(path):
    """The patched SELinux boot's per-CPU cache hit rate."""
    text = read(path)
    if not text:
        return []
    out = []
    cur = None
    sums = {}
    for ln in text.splitlines():
        m = re.match(r'## (\S+) (\S+): /sys/fs/selinux/avc/(\S+)$', ln)
        if m:
            cur = m.groups()
            continue
        vals = ln.split()
        if cur and vals and all(v.isdigit() for v in vals):
            acc = sums.setdefault(cur, [0] * len(vals))
            if len(acc) == len(vals):
                sums[cur] = [a + int(v) for a, v in zip(acc, vals)]
    for (k, mode, name), v in sorted(sums.items()):
        if name == 'pcpu_cache_stats' and mode == 'selinux' and len(v) >= 2 and v[0]:
            out.append('Per-CPU cache of the %s SELinux boot (avc_stats.txt): %s hits in %s '
                       'lookups (%.1f%%).' % (k, '{:,}'.format(v[1]), '{:,}'.format(v[0]),
                                              100.0 * v[1] / v[0]))
    return out + [''] if out else []


def size_part(path):
    rows = load_csv(path)
    if not rows or 'object' not in rows[0]:
        return []
    text = {}
    objs = []
    for r in rows:
        o = r.get('object')
        if o not in objs:
            objs.append(o)
        text[(r.get('kernel'), o)] = r.get('text')
    body = []
    for o in objs:
        s, p = text.get(('stock', o)), text.get(('patched', o))
        try:
            d = '{:+,}'.format(int(p) - int(s))
        except (TypeError, ValueError):
            d = '-'
        body.append([o, num(s), num(p), d])
    return ['Code size (size.csv). ' + METHOD['size'], ''] + \
        table(['object', 'stock text', 'patched text', 'delta'], body) + ['']


def profile_rows(path):
    """op, unit, {kernel: (security, kernel, ops)} of one profile-OP.txt."""
    text = read(path)
    if not text:
        return None
    lines = text.splitlines()
    m = re.match(r'(\S+): guest instructions per (\w+)', lines[0] if lines else '')
    if not m:
        return None
    kernels = []
    for ln in lines:
        if ln.startswith('function'):
            kernels = ln.split()[2:]
            break
    if not kernels:
        return None
    vals = {}
    for ln in lines:
        for label, key in (('security/ (', 'security'), ('kernel ', 'kernel'),
                           ('operations counted', 'ops'), ('runs counted', 'ops')):
            if ln.startswith(label) and (key != 'kernel' or ln.split()[0] == 'kernel'
                                         and len(ln.split()) == len(kernels) + 1):
                nums = ln.split()[-len(kernels):]
                try:
                    vals[key] = [float(x) for x in nums]
                except ValueError:
                    pass
    if 'security' not in vals:
        return None
    return m.group(1), m.group(2), kernels, vals


def profile_part(paths):
    body = []
    kernels_all = []
    parsed = []
    for p in paths:
        r = profile_rows(p)
        if r:
            parsed.append(r)
            for k in r[2]:
                if k not in kernels_all:
                    kernels_all.append(k)
    if not parsed:
        return None
    head = ['row', 'per']
    for k in kernels_all:
        head += ['%s security/' % k, '%s kernel' % k]
    for op, unit, kernels, vals in parsed:
        cells = [op, unit]
        for k in kernels_all:
            i = kernels.index(k) if k in kernels else None
            for key in ('security', 'kernel'):
                v = vals.get(key)
                cells.append(num(v[i], 1) if v is not None and i is not None else '-')
        body.append(cells)
    return table(head, body) + ['']


def microbench_part(path):
    rows = load_csv(path)
    if not rows or 'case' not in rows[0]:
        return None
    arches = []
    cases = []
    val = {}
    for r in rows:
        a = '%s (%s)' % (r.get('arch'), r.get('unit'))
        if a not in arches:
            arches.append(a)
        if r.get('case') not in cases:
            cases.append(r.get('case'))
        val[(a, r.get('case'))] = r.get('per_check')
    body = [[c] + [num(val.get((a, c)), 2) for a in arches] for c in cases]
    return table(['case, per check'] + arches, body) + ['']


def sweep_part(path):
    rows = load_csv(path)
    if not rows or 'keys' not in rows[0]:
        return None
    head = ['arch', 'slots', 'keys', 'stock', 'per-CPU cache', 'cache / stock',
            'hits', 'fills']
    body = [[r.get('arch') + ' (' + r.get('unit') + ')', r.get('slots') or '-',
             r.get('keys'), num(r.get('stock_per_check'), 2),
             num(r.get('pcpu_per_check'), 2), num(r.get('pcpu_vs_stock'), 3),
             '%.1f%%' % (100 * float(r.get('hit_rate') or 0)),
             '%.1f%%' % (100 * float(r.get('fill_rate') or 0))] for r in rows]
    return table(head, body) + ['']


def lines_matching(text, pattern):
    return [ln for ln in (text or '').splitlines() if re.search(pattern, ln)]


def quote(lines):
    return ['```'] + lines + ['```', ''] if lines else []


def matrix_part(path):
    text = read(path)
    if text is None:
        return None
    first = text.splitlines()[:1]
    verdict = lines_matching(text, r'^matrix: (PASS|FAIL)') or \
        ['(no verdict line in matrix.txt; the run may not have finished)']
    timing = lines_matching(text, r'^matrix: total time')
    return quote(first + verdict + timing)


def verdict_part(path, pattern, keep=12):
    text = read(path)
    if text is None:
        return None
    got = lines_matching(text, pattern)
    if not got:
        got = ['(no result line in %s; the run may not have finished)' % os.path.basename(path)]
    return quote(got[:keep] + (['... %d more' % (len(got) - keep)] if len(got) > keep else []))


def mutants_part(path):
    text = read(path)
    if text is None:
        return None
    ok = lines_matching(text, r'^ok - ')
    bad = lines_matching(text, r'^not ok - ')
    out = ['%d caught, %d survived (mutants.txt%s).' % (
        len(ok), len(bad), '' if ok or bad else ': empty; the run may not have finished'), '']
    return out + quote(bad)


def litmus_part(path):
    text = read(path)
    if text is None:
        return None, None
    head = lines_matching(text, r'^# make litmus')
    tail = lines_matching(text, r'^\d+ passed, \d+ failed$')
    bad = lines_matching(text, r'^not ok ')
    m = re.search(r'Linux (\d+\.\d+\.\d+) memory model', text)
    return quote(head + bad + (tail or ['(no summary line: the run may not have finished)'])), \
        (m.group(1) if m else None)


def paper_part(path):
    text = read(path)
    if not text:
        return None
    return quote(text.rstrip('\n').splitlines())


# ---------------------------------------------------------------- document

def flavor_dirs(results):
    """(arch, opt, directory relative to RESULTS) of every run directory;
    other directories come back with arch None."""
    out = [('x86_64', '-O2', '')]
    try:
        names = sorted(os.listdir(results))
    except OSError:
        names = []
    for d in names:
        if not os.path.isdir(os.path.join(results, d)) or d in ('logs',):
            continue
        m = re.match(r'^([a-z0-9_]+)-guest(\+os)?$', d)
        if m:
            out.append((m.group(1), '-Os' if m.group(2) else '-O2', d))
        else:
            out.append((None, None, d))
    return out


def build(results, top, source, now):
    prov = Provenance(results, top, source, now)
    sections = {}    # (base text, arch) -> [lines]
    order = []
    missing = []

    def add(arch, rel_for_stamp, title, kind, body, recorded_base=None):
        st = prov.note(results, rel_for_stamp, arch if arch and arch != 'all' else None)
        stamped = st.get('base') if st else {}
        if recorded_base and (stamped or {}).get('version') != recorded_base:
            b = 'Linux %s' % recorded_base
        else:
            b = base_text(stamped)
        key = (b, arch or 'other')
        if key not in sections:
            sections[key] = []
            order.append(key)
        sections[key].append((title, kind, body, st))

    # The benchmark architectures: configs/arch/ files with a guest
    # fragment (the others are KUnit-only).
    arches = sorted(os.path.basename(p)[:-5] for p in
                    glob.glob(os.path.join(top, 'configs', 'arch', '*.conf'))
                    if re.search(r'^BA_FRAGMENT=\S', read(p) or '', re.M)) or ['x86_64']
    seen = set()
    others = []
    for arch, opt, d in flavor_dirs(results):
        base_dir = os.path.join(results, d)
        rel = (lambda f, d=d: os.path.join(d, f) if d else f)
        if arch is None:
            others.append(d)
            continue
        cmd = ('make bench-os' if opt == '-Os' else 'make bench')
        if arch != 'x86_64':
            cmd = 'BENCH_ARCH=%s %s' % (arch, cmd)
        body = bench_part(base_dir)
        if body is not None:
            seen.add((arch, opt))
            body += avc_part(os.path.join(base_dir, 'avc_stats.txt'))
            body += size_part(os.path.join(base_dir, 'size.csv'))
            add(arch, rel('bench.csv'), 'Syscall benchmark, %s (`%s`)' % (opt, cmd), 'bench', body)
        profs = sorted(glob.glob(os.path.join(base_dir, 'profile-*.txt')))
        body = profile_part(profs) if profs else None
        if body:
            newest = max(profs, key=lambda p: os.stat(p).st_mtime)
            add(arch, rel(os.path.basename(newest)),
                'Where the overhead goes, %s (`%smake profile OP=<row>`)'
                % (opt, '' if arch == 'x86_64' else 'BENCH_ARCH=%s ' % arch), 'profile', body)
        body = matrix_part(os.path.join(base_dir, 'matrix.txt'))
        if body:
            add(arch, rel('matrix.txt'), 'Decision matrix (`%s`)' % (
                'make matrix' if not d else 'BENCH_ARCH=%s scripts/matrix.sh' % arch),
                'matrix', body)
        elif not d:
            missing.append('make matrix')
    for arch in arches:
        for opt, kind in (('-O2', 'bench'), ('-Os', 'bench-os')):
            if (arch, opt) not in seen:
                missing.append(COMMANDS[kind] if arch == 'x86_64'
                               else 'BENCH_ARCH=%s %s' % (arch, COMMANDS[kind]))

    x = 'x86_64'
    body = microbench_part(os.path.join(results, 'microbench.csv'))
    if body:
        add(x, 'microbench.csv', 'The AVC check itself (`make microbench`)', 'microbench', body)
    else:
        missing.append(COMMANDS['microbench'])
    body = sweep_part(os.path.join(results, 'microbench-sweep.csv'))
    if body:
        add(x, 'microbench-sweep.csv', 'The AVC check by working set (`make microbench`)', 'sweep', body)
    stress = sorted(glob.glob(os.path.join(results, 'stress*.txt')))
    for p in stress:
        name = os.path.basename(p)
        body = verdict_part(p, r'stress (PASS|FAIL)|qemu exit|did not bring up|kernel reported')
        if body:
            extra = name[len('stress-'):-len('.txt')] if name != 'stress.txt' else ''
            add(x, name, 'Stress%s (`%s`)' % (
                ' on the %s kernel' % extra if extra else '',
                'make debug' if extra.startswith('debug') else 'make stress'), 'stress', body)
    if not stress:
        missing.append(COMMANDS['stress'])
    for kind, name, pattern in (
            ('debug', 'debug.txt', r'^(not )?ok - '),
            ('window', 'window.txt', r'expected'),
            ('coverage', 'coverage.txt', r'^(hook functions|reached:|coverage:)'),
            ('testsuite', 'testsuite.txt', r'^(selinux-testsuite:|guest kernels:|testsuite: )')):
        body = verdict_part(os.path.join(results, name), pattern)
        if body:
            add(x, name, '%s (`%s`)' % (kind.capitalize() if kind != 'debug' else
                                        'Debug kernels', COMMANDS[kind]), kind, body)
        else:
            missing.append(COMMANDS[kind])
    body = mutants_part(os.path.join(results, 'mutants.txt'))
    if body:
        add(x, 'mutants.txt', 'Mutants (`make mutants`)', 'mutants', body)
    else:
        missing.append(COMMANDS['mutants'])
    body, lver = litmus_part(os.path.join(results, 'litmus.txt'))
    if body:
        add('all', 'litmus.txt', 'Memory-model litmus tests (`make litmus`)', 'litmus', body,
            recorded_base=lver)
    else:
        missing.append(COMMANDS['litmus'])
    body = paper_part(os.path.join(results, 'paper.txt'))
    if body:
        add('all', 'paper.txt', 'The 2007 SH4 table (`make paper`)', 'paper', body)
    else:
        missing.append(COMMANDS['paper'])
    for d in others:
        body = bench_part(os.path.join(results, d))
        if body:
            add(None, os.path.join(d, 'bench.csv'), 'Benchmark in results/%s/' % d,
                'bench', body)
    prov.save()
    return sections, order, missing


NOT_RUN_ORDER = ['make bench', 'make bench-os', 'BENCH_ARCH=', 'make profile',
                 'make microbench', 'make matrix', 'make stress', 'make debug',
                 'make window', 'make coverage', 'make testsuite', 'make mutants',
                 'make litmus', 'make paper']


def not_run_key(cmd):
    for i, p in enumerate(NOT_RUN_ORDER):
        if cmd.startswith(p):
            return (i, cmd)
    return (len(NOT_RUN_ORDER), cmd)


def render_section(entries):
    """One base and architecture: the series and machine once when every
    entry shares them, else with each entry; each entry with its method
    and run date."""
    out = []
    stamps = [st for _, _, _, st in entries if st]
    common = {}
    for what, text in (('Series', lambda st: series_text(st.get('series'))),
                       ('Machine', lambda st: machine_text(st.get('machine')))):
        values = {text(st) for st in stamps}
        if len(values) == 1:
            out += ['%s: %s.' % (what, values.pop()), '']
        else:
            common[what] = text
    for title, kind, body, st in entries:
        out += ['### ' + title, '']
        if kind in METHOD:
            out += [METHOD[kind], '']
        line = when_line(st)
        for what, text in common.items():
            if st:
                line += ' %s: %s.' % (what, text(st))
        out += [line, ''] + body
    return out


def render(results, top, source, now):
    sections, order, missing = build(results, top, source, now)
    out = ['# Results', '',
           'Written by `scripts/results.py` from the files in `results/`, as `make bench` '
           'and `make check` end; do not edit. Generated %s.' % utc(now), '']
    if not order:
        out += ['Nothing has been run: `results/` holds no output of `make bench`, '
                '`make check` or the other targets. `make bench` measures the series; '
                '`make check` runs its tests.', '']
    else:
        out += ['One section per kernel base and architecture. The series (patches/) '
                'and the machine of each result are as noted when the result was first '
                'seen, at the end of the run that wrote it.', '']
        for b, arch in order:
            label = {'all': 'all architectures', 'other': 'other result directories'}.get(arch, arch)
            out += ['## %s: %s' % (b, label), '']
            out += render_section(sections[(b, arch)])
    if missing:
        out += ['## Not run', '',
                'No output in results/ of: %s.' % ', '.join(
                    '`%s`' % m for m in sorted(set(missing), key=not_run_key)), '']
    while out and out[-1] == '':
        out.pop()
    return '\n'.join(out) + '\n'


def main(argv):
    source = None
    top = SELF_TOP
    args = []
    it = iter(argv)
    for a in it:
        if a in ('--source', '--top'):
            v = next(it, None)
            if v is None:
                sys.exit('results.py: %s needs a value\n%s' % (a, __doc__))
            if a == '--source':
                source = v
            else:
                top = v
        elif a in ('-h', '--help'):
            print(__doc__.strip())
            return 0
        elif a.startswith('-'):
            sys.exit('results.py: unknown option %s\n%s' % (a, __doc__))
        else:
            args.append(a)
    if len(args) > 1:
        sys.exit(__doc__)
    results = args[0] if args else os.path.join(top, 'results')
    if source is not None and not re.match(r'^[A-Za-z0-9._+-]+$', source):
        sys.exit('results.py: --source %s: not a source id (debian, ksrc-<hash>)' % source)
    try:
        os.makedirs(results, exist_ok=True)
    except OSError as e:
        sys.exit('results.py: cannot create %s: %s' % (results, e))
    import time
    text = render(results, top, source, time.time())
    path = os.path.join(results, OUT_NAME)
    try:
        with open(path + '.tmp', 'w') as f:
            f.write(text)
        os.replace(path + '.tmp', path)
    except OSError as e:
        sys.exit('results.py: cannot write %s: %s' % (path, e))
    print('results.py: wrote %s' % path)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
