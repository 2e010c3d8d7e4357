#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Expected results and comparison for the SELinux decision matrix.

  matrix.py expect POLICYDIR OBJECTS PHASES OUT
      Predict every case's outcome from the policy source (POLICYDIR/<v>.conf,
      the exact text given to checkpolicy) and write "R ..." lines.
  matrix.py check POLICYDIR OBJECTS PHASES SUMMARY NAME=RUN...
      Compare the runs with each other (any difference fails), with the
      prediction, and the phases that must repeat an earlier one.  Writes a
      summary; exit status 1 on any difference.

Each phase ends with a "tail" run of the next phase's lead domain (phase
name PHASE/tail in the run files; phases.conf names the leads): it must
repeat that domain's results and audit records from earlier in the phase,
is compared across kernels, and is not counted as cases of the phase.
The next phase runs its lead domain first, so its first cases look up,
right after the policy load or enforce/boolean change, decisions the AVC
took just before it, with no permissive grant in between (that moves the
per-CPU cache's generation on and would hide a reset that does not).

The prediction models what each operation in avcmatrix.c asks the kernel:
a list of steps, each a set of (target, class, permissions) checks; the
first step with a denied permission decides the outcome.  The model is
deliberately separate from the kernel's code: a mistake both kernels share
shows up as a mismatch against it.

A relabel phase (relabel=FROM,TO in phases.conf) relabels the objects a
warm-up run of the same domain has just used from FROM to TO (maps of
"relabel MAP TYPE NEW" lines in objects.conf; "base": no change) before
the recorded run: its cases keep the objects.conf type as their name and
are predicted for the type TO gives it.  The summary says how many
outcomes the relabel changed against the phase before.
"""
import re
import sys
from collections import defaultdict

# ---------------------------------------------------------------- policy


def tokens(text):
    text = re.sub(r'#[^\n]*', '', text)
    return re.findall(r'[A-Za-z0-9_.]+|[{}();:,*~]|[^\sA-Za-z0-9_]', text)


class Policy:
    def __init__(self, path):
        self.classes = {}       # class -> [perms]
        self.types = set()
        self.attrs = defaultdict(set)   # attribute -> types
        self.bools = {}
        self.permissive = set()
        # rules: (kind, srcs, tgts, classes, perms, cond) cond=(bool, value)
        self.rules = []
        self._parse(open(path).read())

    def _parse(self, text):
        t = tokens(text)
        i = 0
        cond = []

        def names(i):
            if t[i] == '{':
                j = t.index('}', i)
                return t[i + 1:j], j + 1
            return [t[i]], i + 1

        while i < len(t):
            w = t[i]
            if w == 'class' and i + 2 < len(t) and t[i + 2] == '{':
                j = t.index('}', i)
                self.classes[t[i + 1]] = t[i + 3:j]
                i = j + 1
            elif w == 'type' and t[i + 2] in (',', ';'):
                name = t[i + 1]
                self.types.add(name)
                i += 2
                while t[i] == ',':
                    self.attrs[t[i + 1]].add(name)
                    i += 2
                i += 1
            elif w == 'attribute':
                self.attrs.setdefault(t[i + 1], set())
                i += 3
            elif w == 'typeattribute':
                name = t[i + 1]
                i += 2
                while True:
                    self.attrs[t[i]].add(name)
                    i += 1
                    if t[i] == ';':
                        break
                    i += 1      # ','
                i += 1
            elif w == 'permissive':
                self.permissive.add(t[i + 1])
                i += 3
            elif w == 'bool':
                self.bools[t[i + 1]] = t[i + 2] == 'true'
                i += 4
            elif w == 'if':
                cond.append((t[i + 2], True))
                i += 5          # if ( name ) {
            elif w == '}' and cond:
                c = cond.pop()
                i += 1
                if i < len(t) and t[i] == 'else':
                    cond.append((c[0], False))
                    i += 2
            elif w in ('allow', 'auditallow', 'dontaudit', 'neverallow'):
                srcs, i = names(i + 1)
                tgts, i = names(i)
                assert t[i] == ':', t[i - 3:i + 3]
                cls, i = names(i + 1)
                perms, i = names(i)
                assert t[i] == ';'
                i += 1
                if w != 'neverallow':
                    self.rules.append((w, srcs, tgts, cls, perms,
                                       cond[-1] if cond else None))
            else:
                i += 1

    def expand(self, name):
        if name in self.attrs:
            return set(self.attrs[name])
        return {name}

    def compute(self, bools):
        """allowed/auditallow/dontaudit: (src, tgt, cls) -> perms"""
        av = {k: defaultdict(set) for k in ('allow', 'auditallow', 'dontaudit')}
        for kind, srcs, tgts, clss, perms, c in self.rules:
            if c and bools.get(c[0], self.bools[c[0]]) != c[1]:
                continue
            S = set().union(*(self.expand(s) for s in srcs))
            for cls in clss:
                P = set(self.classes[cls]) if perms == ['*'] else set(perms)
                unknown = P - set(self.classes[cls])
                assert not unknown, f'{cls}: unknown permissions {unknown}'
                for s in S:
                    for tg in tgts:
                        T = {s} if tg == 'self' else self.expand(tg)
                        for x in T:
                            av[kind][(s, x, cls)] |= P
        return av


# ---------------------------------------------------------------- operations

# What each avcmatrix case asks, as steps [(outcome if denied, checks)],
# a final outcome, and which single check (if any) the audit prediction
# can model exactly.  T: the object type, S: the domain ("self").
def steps(kind, op, T):
    d = 'EACCES'
    if kind == 'file':
        return {
            'open_r': ([(d, [(T, 'file', 'read open')])], 'ok'),
            'open_w': ([(d, [(T, 'file', 'write open')])], 'ok'),
            'open_rw': ([(d, [(T, 'file', 'read write open')])], 'ok'),
            'append': ([(d, [(T, 'file', 'append open')])], 'ok'),
            'read': ([('revoked', [(T, 'file', 'read')])], 'ok'),
            'write': ([('revoked', [(T, 'file', 'write')])], 'ok'),
            'ioctl': ([('revoked', [(T, 'file', 'read')]),
                       (d, [(T, 'file', 'ioctl')])], 'ENOTTY'),
            'stat': ([(d, [(T, 'file', 'getattr')])], 'ok'),
            'fstat': ([(d, [(T, 'file', 'getattr')])], 'ok'),
            'chmod': ([(d, [(T, 'file', 'setattr')])], 'ok'),
            'exec': ([(d, [(T, 'file', 'execute read open execute_no_trans')]),
                      ('sig11', [(T, 'file', 'map')])], 'ok'),
            'unlink': ([(d, [(T, 'file', 'unlink')])], 'ok'),
            'rename': ([(d, [(T, 'file', 'rename')])], 'ok'),
        }[op]
    if kind == 'dir':
        dw = (T, 'dir', 'search write add_name')
        return {
            'ls': ([(d, [(T, 'dir', 'read open')])], 'ok'),
            'stat': ([(d, [(T, 'dir', 'getattr')])], 'ok'),
            'search': ([(d, [(T, 'dir', 'search')])], 'ok'),
            'mkdir': ([(d, [dw, (T, 'dir', 'create')])], 'ok'),
            'rmdir': ([(d, [(T, 'dir', 'search write remove_name rmdir')])], 'ok'),
            'create': ([(d, [dw, (T, 'file', 'create write open')])], 'ok'),
            'unlink': ([(d, [(T, 'dir', 'search write remove_name'),
                             (T, 'file', 'unlink')])], 'ok'),
            'rename': ([(d, [(T, 'dir', 'search write add_name remove_name'),
                             (T, 'file', 'rename')])], 'ok'),
            'mkfifo': ([(d, [dw, (T, 'fifo_file', 'create')])], 'ok'),
            'bind': ([(d, [('self', 'unix_stream_socket', 'create')]),
                      (d, [('self', 'unix_stream_socket', 'bind'), dw,
                           (T, 'sock_file', 'create')])], 'ok'),
        }[op]
    if kind == 'fifo':
        inh = ('revoked', [(T, 'fifo_file', 'read write')])
        return {
            'open_r': ([(d, [(T, 'fifo_file', 'read open')])], 'ok'),
            'open_w': ([(d, [(T, 'fifo_file', 'write open')])], 'ok'),
            'stat': ([(d, [(T, 'fifo_file', 'getattr')])], 'ok'),
            'read': ([inh], 'ok'),
            'write': ([inh], 'ok'),
            'ioctl': ([inh, (d, [(T, 'fifo_file', 'ioctl')])], 'ENOTTY'),
        }[op]
    if kind == 'sock':
        return {
            'stat': ([(d, [(T, 'sock_file', 'getattr')])], 'ok'),
            'connect': ([(d, [('self', 'unix_stream_socket', 'create')]),
                         (d, [('self', 'unix_stream_socket', 'connect'),
                              (T, 'sock_file', 'write'),
                              ('kernel_t', 'unix_stream_socket', 'connectto')])], 'ok'),
            'sendto': ([(d, [('self', 'unix_dgram_socket', 'create')]),
                        (d, [('self', 'unix_dgram_socket', 'write'),
                             (T, 'sock_file', 'write'),
                             ('kernel_t', 'unix_dgram_socket', 'sendto')])], 'ok'),
        }[op]
    if kind == 'self':
        return {
            'pipe': ([(d, [('self', 'fifo_file', 'write read')])], 'ok'),
            'pipe_ioctl': ([(d, [('self', 'fifo_file', 'ioctl')])], 'ENOTTY'),
            'socket': ([(d, [('self', 'unix_stream_socket', 'create')])], 'ok'),
            'dgram': ([(d, [('self', 'unix_dgram_socket', 'create')])], 'ok'),
        }[op]
    raise KeyError(kind)


OPS = {
    'file': 'open_r open_w open_rw append read write ioctl stat fstat chmod '
            'exec unlink rename'.split(),
    'dir': 'ls stat search mkdir rmdir create unlink rename mkfifo bind'.split(),
    'fifo': 'open_r open_w stat read write ioctl'.split(),
    'sock': 'stat connect sendto'.split(),
    'self': 'pipe pipe_ioctl socket dgram'.split(),
}
# Single-check cases whose audit records the model predicts exactly
# (enforcing, non-permissive domain): op -> (class from kind, permission)
AUDIT_OPS = {('file', 'stat'): 'getattr', ('file', 'fstat'): 'getattr',
             ('file', 'chmod'): 'setattr', ('dir', 'stat'): 'getattr',
             ('fifo', 'stat'): 'getattr', ('sock', 'stat'): 'getattr'}
KCLASS = {'file': 'file', 'dir': 'dir', 'fifo': 'fifo_file',
          'sock': 'sock_file'}


def read_objects(path):
    """-> {kind: [types]}; objs['relabel']: [(map, type, new type)]"""
    objs = defaultdict(list)
    for line in open(path):
        f = line.split()
        if f and not f[0].startswith('#'):
            if f[0] == 'relabel':
                if len(f) != 4:
                    sys.exit(f'{path}: "{line.strip()}": want relabel MAP TYPE NEW')
                objs['relabel'].append(tuple(f[1:4]))
            else:
                objs[f[0]].append(f[1])
    return objs


def relabelled(objs, mapname, T):
    """the label objects of objects.conf type T have under map MAPNAME"""
    if mapname in (None, 'base'):
        return T
    maps = {m for m, _, _ in objs['relabel']}
    if mapname not in maps:
        sys.exit(f'phases.conf: relabel map {mapname} is not in objects.conf')
    for m, t, n in objs['relabel']:
        if m == mapname and t == T:
            return n
    return T


def read_phases(path):
    phases = []
    for line in open(path):
        f = line.split()
        if f and not f[0].startswith('#'):
            if len(f) < 5:
                sys.exit(f'{path}: "{line.strip()}": want NAME POLICY ENFORCE BOOL LEAD [SAME_AS]')
            ph = {'name': f[0], 'policy': f[1], 'enforce': f[2] == '1',
                  'bool': f[3] == '1', 'lead': f[4], 'same': None, 'relabel': None}
            for x in f[5:]:
                if x.startswith('relabel='):
                    r = x[len('relabel='):].split(',')
                    if len(r) != 2:
                        sys.exit(f'{path}: "{line.strip()}": want relabel=FROM,TO')
                    ph['relabel'] = tuple(r)
                else:
                    ph['same'] = x
            phases.append(ph)
    # the tail run at the end of a phase repeats the next phase's lead
    for ph, nxt in zip(phases, phases[1:] + phases[-1:]):
        ph['tail'] = nxt['lead']
    return phases


def cases(objs):
    for dom in objs['domain']:
        for kind in ('file', 'dir', 'fifo', 'sock'):
            for T in objs[kind]:
                for op in OPS[kind]:
                    yield dom, kind, T, op
        for op in OPS['self']:
            yield dom, 'self', 'self', op


def predict(policydir, objs, phases):
    """-> {(phase, dom, kind, type, op): outcome}, {key: [audit tuples]}"""
    res, aud = {}, {}
    pols = {}
    for ph in phases:
        if ph['policy'] not in pols:
            pols[ph['policy']] = Policy(f"{policydir}/{ph['policy']}.conf")
        pol = pols[ph['policy']]
        av = pol.compute({'m_bool': ph['bool']})
        to = ph['relabel'][1] if ph['relabel'] else None
        for dom, kind, name, op in cases(objs):
            free = not ph['enforce'] or dom in pol.permissive
            key = (ph['name'], dom, kind, name, op)
            T = relabelled(objs, to, name) if kind != 'self' else name
            stp, ok = steps(kind, op, T)
            out = ok
            for fail, checks in stp:
                denied = False
                for tgt, cls, perms in checks:
                    tgt = dom if tgt == 'self' else tgt
                    if set(perms.split()) - av['allow'][(dom, tgt, cls)]:
                        denied = True
                if denied and not free:
                    out = fail
                    break
            if kind == 'file' and op == 'exec':
                a = av['allow'][(dom, T, 'file')]
                assert 'execute' not in a or 'map' in a, \
                    f'{dom} may execute {T} without map: not modelled'
            res[key] = out
            perm = AUDIT_OPS.get((kind, op))
            if perm and not free:
                cls = KCLASS[kind]
                k3 = (dom, T, cls)
                if perm in av['allow'][k3]:
                    a = [('granted', perm, T, cls)] if perm in av['auditallow'][k3] else []
                else:
                    a = [] if perm in av['dontaudit'][k3] else [('denied', perm, T, cls)]
                aud[key] = a
    return res, aud


# ---------------------------------------------------------------- runs

REC = re.compile(r'avc: (granted|denied) \{ ([a-z_ ]+) \} .*tcontext=[^:]+:[^:]+:([a-z0-9_]+):\S+ tclass=(\S+)')


TAIL = '/tail'


def read_run(path):
    """-> results, audit, phase info, tail results, tail audit; the tail
    run's keys carry the phase's own name"""
    res, aud, info = {}, defaultdict(list), {}
    tres, taud = {}, defaultdict(list)
    for line in open(path, errors='replace'):
        f = line.rstrip('\n').split(' ')
        tail = len(f) > 1 and f[1].endswith(TAIL)
        if tail:
            f[1] = f[1][:-len(TAIL)]
        if f[0] == 'R' and len(f) == 7:
            (tres if tail else res)[tuple(f[1:6])] = f[6]
        elif f[0] == 'A' and len(f) > 6:
            (taud if tail else aud)[tuple(f[1:6])].append(' '.join(f[6:]))
        elif f[0] == 'P':
            info[f[1]] = dict(x.split('=', 1) for x in f[2:])
    return res, aud, info, tres, taud


def audit_tuples(records):
    out = []
    for r in records:
        m = REC.search(r)
        if not m:
            out.append(('unparsed', r, '', ''))
            continue
        for p in m.group(2).split():
            out.append((m.group(1), p, m.group(3), m.group(4)))
    return sorted(out)


def fmt(key):
    return ' '.join(key)


def check(policydir, objects, phasesf, summary, runs):
    objs = read_objects(objects)
    phases = read_phases(phasesf)
    names = [p['name'] for p in phases]
    exp, exp_aud = predict(policydir, objs, phases)
    data = {}
    for spec in runs:
        name, path = spec.split('=', 1)
        data[name] = read_run(path)
    lines, bad = [], 0

    def fail(msg):
        nonlocal bad
        bad += 1
        print(msg)

    kernels = list(data)
    # 1. every run complete and healthy
    for ph in phases:
        if ph['lead'] not in objs['domain']:
            fail(f'CONFIG: phase {ph["name"]}: lead {ph["lead"]} is not a domain')
    tdom = {ph['name']: ph['tail'] for ph in phases}
    for k in kernels:
        res, aud, info, tres, _ = data[k]
        for ph in names:
            if ph not in info:
                fail(f'MISSING {k}: phase {ph} did not finish')
            elif info[ph].get('problems') != '0':
                fail(f'AUDIT {k}: phase {ph}: audit records lost or unattributed ({info[ph]})')
        missing = set(exp) - set(res)
        extra = set(res) - set(exp)
        for key in sorted(missing):
            fail(f'MISSING {k}: {fmt(key)}')
        for key in sorted(extra):
            fail(f'EXTRA {k}: {fmt(key)} -> {res[key]}')
        texp = {key for key in exp if key[1] == tdom[key[0]]}
        for key in sorted(texp - set(tres)):
            fail(f'MISSING {k}: tail {fmt(key)}')
        for key in sorted(set(tres) - texp):
            fail(f'EXTRA {k}: tail {fmt(key)} -> {tres[key]}')
    # 2. the kernels against each other: outcomes and audit records
    #    (the tail runs too, their keys marked "tail")
    ref = kernels[0]
    for k, (r0, a0, r1, a1, tag) in (
            (k, x) for k in kernels[1:] for x in
            ((data[ref][0], data[ref][1], data[k][0], data[k][1], ''),
             (data[ref][3], data[ref][4], data[k][3], data[k][4], 'tail '))):
        for key in sorted(set(r0) | set(r1)):
            if r0.get(key) != r1.get(key):
                fail(f'DIFF {tag}{fmt(key)}: {ref}={r0.get(key)} {k}={r1.get(key)}')
        for key in sorted(set(a0) | set(a1)):
            if a0.get(key, []) != a1.get(key, []):
                fail(f'AUDIT-DIFF {tag}{fmt(key)}:')
                for x in a0.get(key, []):
                    if x not in a1.get(key, []):
                        print(f'    only {ref}: {x}')
                for x in a1.get(key, []):
                    if x not in a0.get(key, []):
                        print(f'    only {k}: {x}')
                if sorted(a0.get(key, [])) == sorted(a1.get(key, [])):
                    print('    (same records, different order)')
    # 3. each kernel against the prediction from the policy source
    for k in kernels:
        res, aud = data[k][:2]
        for key in sorted(exp):
            if key in res and res[key] != exp[key]:
                fail(f'EXPECT {k}: {fmt(key)}: expected {exp[key]}, got {res[key]}')
        for key in sorted(exp_aud):
            if key not in res:
                continue
            got = audit_tuples(aud.get(key, []))
            if got != sorted(exp_aud[key]):
                fail(f'EXPECT-AUDIT {k}: {fmt(key)}: expected {exp_aud[key]}, got {got}')
    # 4. phases that must repeat an earlier one exactly (permissive-mode
    #    grants, a permissive domain and a boolean must not survive)
    for k in kernels:
        res, aud = data[k][:2]
        for ph in phases:
            if not ph['same']:
                continue
            for key in sorted(x for x in res if x[0] == ph['same']):
                k2 = (ph['name'],) + key[1:]
                if res.get(k2) != res[key]:
                    fail(f'REPEAT {k}: {fmt(k2)}: {res.get(k2)}, but {ph["same"]} gave {res[key]}')
            akeys = {x[1:] for x in aud if x[0] in (ph['same'], ph['name'])}
            if ph['relabel']:
                # a relabel phase's warm-up has already met a permissive
                # domain's denials: the grants that silence them stay
                pol = Policy(f"{policydir}/{ph['policy']}.conf")
                akeys = {x for x in akeys if ph['enforce'] and x[0] not in pol.permissive}
            for key in sorted(akeys):
                if aud.get((ph['same'],) + key, []) != aud.get((ph['name'],) + key, []):
                    fail(f'REPEAT-AUDIT {k}: {ph["name"]} {" ".join(key)}: records differ from {ph["same"]}')
    # 5. the tail run of each phase repeats its domain's results in the
    #    phase; its audit records too, unless permissive grants (enforce=0,
    #    or a permissive domain) have already silenced the denials
    pols = {}
    ntail = 0
    for k in kernels:
        res, aud, _, tres, taud = data[k]
        for ph in phases:
            if ph['policy'] not in pols:
                pols[ph['policy']] = Policy(f"{policydir}/{ph['policy']}.conf")
            td = ph['tail']
            for key in sorted(x for x in res if x[0] == ph['name'] and x[1] == td):
                ntail += 1
                if tres.get(key) != res[key]:
                    fail(f'REPEAT-TAIL {k}: {fmt(key)}: tail run {tres.get(key)}, '
                         f'but the phase gave {res[key]}')
            if not ph['enforce'] or td in pols[ph['policy']].permissive:
                continue
            akeys = {x for x in set(aud) | set(taud) if x[0] == ph['name'] and x[1] == td}
            for key in sorted(akeys):
                if aud.get(key, []) != taud.get(key, []):
                    fail(f'REPEAT-TAIL-AUDIT {k}: {fmt(key)}: tail run records differ from the phase\'s')

    # summary
    per_phase = defaultdict(int)
    for key in exp:
        per_phase[key[0]] += 1
    lines.append(f'decision matrix: {len(objs["domain"])} domains, '
                 f'{sum(len(objs[x]) for x in ("file", "dir", "fifo", "sock"))} object types, '
                 f'{sum(len(v) for v in OPS.values())} operations; '
                 f'{len(exp) // len(names)} cases per phase, {len(names)} phases, {len(exp)} cases')
    for ph in phases:
        counts = defaultdict(int)
        for key, v in exp.items():
            if key[0] == ph['name']:
                counts['ok' if v in ('ok', 'ENOTTY') else 'denied'] += 1
        lines.append(f'  phase {ph["name"]:<11} policy={ph["policy"]} enforce={int(ph["enforce"])} '
                     f'm_bool={int(ph["bool"])}: {per_phase[ph["name"]]} cases, '
                     f'{counts["ok"]} allowed, {counts["denied"]} denied (expected)'
                     + (f', must equal {ph["same"]}' if ph['same'] else '')
                     + (f', objects relabelled {"->".join(ph["relabel"])}' if ph['relabel'] else ''))
    for k in kernels:
        res, aud, info, tres, taud = data[k]
        nrec = sum(len(v) for v in aud.values()) + sum(len(v) for v in taud.values())
        lines.append(f'  {k}: {len(res)} results + {len(tres)} tail, {nrec} audit records '
                     f'({sum(int(i.get("records", 0)) for i in info.values())} reported by the guest)')
    lines.append(f'  audit predictions checked: {len(exp_aud)} cases per kernel')
    # what each relabel phase changed against the phase before it
    for prev, ph in zip(phases, phases[1:]):
        if not ph['relabel']:
            continue
        if (prev['policy'], prev['enforce'], prev['bool']) != \
                (ph['policy'], ph['enforce'], ph['bool']):
            fail(f'CONFIG: relabel phase {ph["name"]}: policy, enforce and m_bool must be '
                 f'those of {prev["name"]}, so that only the relabel changes outcomes')
        ex = [x for x in exp if x[0] == ph['name']]
        chg = [x for x in ex if exp[(prev['name'],) + x[1:]] != exp[x]]
        lead = [x for x in chg if x[1] == ph['lead']]

        def grant(x):
            return exp[x] in ('ok', 'ENOTTY')
        lines.append(f'  relabel {ph["name"]} ({"->".join(ph["relabel"])}): {len(chg)} of {len(ex)} '
                     f'expected outcomes differ from {prev["name"]} '
                     f'({sum(1 for x in chg if not grant(x))} now denied, '
                     f'{sum(1 for x in chg if grant(x))} now allowed; lead {ph["lead"]}: '
                     f'{sum(1 for x in lead if not grant(x))} denied, {sum(1 for x in lead if grant(x))} allowed)')
        for k in kernels:
            res = data[k][0]
            got = sum(1 for x in ex if x in res and (prev['name'],) + x[1:] in res
                      and res[(prev['name'],) + x[1:]] != res[x])
            lines.append(f'    {k}: {got} outcomes differ from {prev["name"]}')
    lines.append('  tail runs (the next phase\'s lead domain again at the end of each phase: '
                 + ', '.join(f'{ph["name"]}->{ph["tail"]}' for ph in phases) + '): '
                 f'{ntail // max(len(kernels), 1)} results per kernel must repeat the phase\'s')
    lines.append(f'matrix: {"PASS" if not bad else "FAIL"}: {bad} differences '
                 f'({" vs ".join(kernels)}, and against the policy source)')
    text = '\n'.join(lines) + '\n'
    print(text, end='')
    with open(summary, 'w') as f:
        f.write(text)
    return 1 if bad else 0


def main(argv):
    if len(argv) >= 5 and argv[0] == 'expect':
        res, _ = predict(argv[1], read_objects(argv[2]), read_phases(argv[3]))
        with open(argv[4], 'w') as f:
            for key in res:
                f.write(f'R {fmt(key)} {res[key]}\n')
        return 0
    if len(argv) >= 6 and argv[0] == 'check':
        return check(argv[1], argv[2], argv[3], argv[4], argv[5:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
