#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Which SELinux hooks the guest tests made reach the AVC, and how.

Usage:
  coverage.py report TREE BUILD OUTDIR BOOT=DUMP...
    TREE   the kernel tree the coverage kernel was built from (patched)
    BUILD  a copy of its build: .config, System.map, and calls.txt, the
           direct calls of security_*() functions in its vmlinux, one
           "caller callee" per line (coverage.sh makes it with objdump)
    OUTDIR where coverage.csv and coverage.txt go
    BOOT=DUMP  /sys/fs/selinux/avc/coverage as read at the end of a guest
           run; BOOT is the kernel's name in make matrix (NAME-off: booted
           with selinux_avc_pcpu=0, which registers the stock hooks)
  coverage.py static TREE [CONFIG]
    print every hook function, whether it reaches the AVC and, with the
    .config, whether its array entry is compiled

The denominator is every function of hooks.c's hook arrays that is
compiled into the guest and reaches the AVC (a static call graph over
security/selinux/*.c down to the AVC's checks); a hook whose function is
in the kernel but that nothing in the kernel calls (security_X() without a
caller: the subsystem is not configured) does not count, and is listed
with the reason.  A dump line is one stack (return addresses) with its
counts of allows, denials (-EACCES) and permissive grants; the first
frame that is a hook function names the hook.  Without it (a hook that
the compiler inlined into another, or whose frame a tail call left), the
first security_X() frame gives the hook, if only one function of this
boot's arrays implements it.
"""
import bisect
import csv
import os
import re
import subprocess
import sys

# The AVC's checks: the inline entries of include/avc.h, the out-of-line
# ones they and the hooks call, and the probes of the per-CPU cache and of
# the objects' blobs.
SINKS = {
    'avc_has_perm', 'avc_has_perm_noaudit', 'avc_has_extended_perms',
    'avc_has_perm_slow', 'avc_has_perm_noaudit_slow', 'avc_has_perm_nocache',
    'avc_has_perm_noaudit_nocache', 'avc_pcpu_probe', 'avc_pcpu_probe_gen',
    'avc_obj_probe',
}
ARRAYS = ('selinux_hooks', 'selinux_fast_hooks', 'selinux_nocache_hooks')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'typeof',
            'defined', 'case', 'do', 'else', '__typeof__', 'offsetof'}


def die(msg):
    sys.exit(f'coverage.py: error: {msg}')


def read(path):
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except OSError as e:
        die(f'cannot read {path}: {e.strerror}')


def strip_comments(src):
    """Comments and string literals out, line breaks kept."""
    def blank(m):
        return re.sub(r'[^\n]', ' ', m.group(0))
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', blank, src,
                  flags=re.S)


def functions(src):
    """{name: body} of the function definitions of a kernel-style C file
    (the body ends at the first '}' in column 0).  Definitions of one name
    under #ifdef and #else are merged."""
    src = strip_comments(src)
    out = {}
    head = re.compile(r'^(?![\s#}])[^;{}=]*?\b([A-Za-z_]\w*)\s*\([^;{]*?\)'
                      r'\s*(?:__\w+(?:\([^)]*\))?\s*)*\n?\{', re.M | re.S)
    pos = 0
    while True:
        m = head.search(src, pos)
        if not m:
            break
        end = src.find('\n}', m.end())
        end = len(src) if end < 0 else end
        name = m.group(1)
        out[name] = out.get(name, '') + src[m.end():end]
        pos = end + 2
    return out


def calls(body):
    return {n for n in re.findall(r'\b([A-Za-z_]\w*)\s*\(', body)
            if n not in KEYWORDS}


def hook_arrays(hooks_c):
    """[(array, hook, function, [CONFIG_ conditions])] in array order."""
    src = strip_comments(read(hooks_c))
    out = []
    for arr in ARRAYS:
        m = re.search(r'struct security_hook_list\s+%s\[\][^=]*=\s*\{' % arr,
                      src)
        if not m:
            if arr == 'selinux_hooks':
                die(f'no selinux_hooks[] in {hooks_c}')
            continue
        body = src[m.end():src.find('\n};', m.end())]
        # Entries may span lines: match on the whole body, and find each
        # entry's conditions from the lines before it.
        lines = body.split('\n')
        offs = []
        n = 0
        for line in lines:
            offs.append(n)
            n += len(line) + 1
        for e in re.finditer(r'LSM_HOOK_INIT\(\s*(\w+)\s*,\s*(\w+)\s*\)',
                             body):
            ln = bisect.bisect_right(offs, e.start()) - 1
            cs = []
            for line in lines[:ln]:
                s = line.strip()
                d = re.match(r'#\s*(ifdef|ifndef|if|else|elif|endif)\b\s*(.*)',
                             s)
                if not d:
                    continue
                kind, arg = d.groups()
                if kind in ('ifdef', 'if'):
                    cs.append(arg.replace('defined', '').strip('() '))
                elif kind == 'ifndef':
                    cs.append('!' + arg)
                elif kind in ('else', 'elif'):
                    cs[-1] = cs[-1][1:] if cs[-1].startswith('!') else '!' + cs[-1]
                else:
                    cs.pop()
            out.append((arr, e.group(1), e.group(2), cs))
    return out


def reaching(tree):
    """The functions of security/selinux/*.c that reach an AVC check."""
    funcs = {}
    d = os.path.join(tree, 'security/selinux')
    for f in sorted(os.listdir(d)):
        if f.endswith('.c') and not f.endswith('_test.c'):
            for name, body in functions(read(os.path.join(d, f))).items():
                funcs[name] = funcs.get(name, set()) | calls(body)
    reach = set()
    changed = True
    while changed:
        changed = False
        for name, cs in funcs.items():
            if name not in reach and (cs & SINKS or cs & reach):
                reach.add(name)
                changed = True
    return reach, funcs


def config(path):
    conf = {}
    for line in read(path).split('\n'):
        m = re.match(r'(CONFIG_\w+)=(.*)', line)
        if m:
            conf[m.group(1)] = m.group(2)
    return conf


def cond_ok(c, conf):
    neg = c.startswith('!')
    c = c.lstrip('!').strip()
    on = conf.get(c, 'n') in ('y', 'm')
    return on != neg


def security_callers(security_c):
    """{hook: [security_X functions that call it]} from security.c."""
    out = {}
    for name, body in functions(read(security_c)).items():
        for h in re.findall(r'\b(?:call_int_hook|call_void_hook)\(\s*(\w+)'
                            r'|lsm_for_each_hook\(\s*\w+\s*,\s*(\w+)', body):
            h = h[0] or h[1]
            out.setdefault(h, [])
            if name not in out[h]:
                out[h].append(name)
    return out


def called_security(path):
    """The security_*() functions that vmlinux calls, from calls.txt
    ("caller callee" per line): called from outside security_*(), or from
    a security_*() that is called itself."""
    edges = [line.split() for line in read(path).split('\n') if line.strip()]
    called = {t for f, t in edges if not f.startswith('security_')}
    changed = True
    while changed:
        changed = False
        for f, t in edges:
            if f in called and t not in called:
                called.add(t)
                changed = True
    return called


def object_config(tree, path, conf):
    """The unset CONFIG_ options that keep source file @path (relative to
    the tree) out of the build, from the Makefiles of its directory and of
    the directories above it (and composite objects in them)."""
    out = set()
    d, f = os.path.split(path)
    objs = {os.path.splitext(f)[0] + '.o'}
    while True:
        text = ''
        for mk in ('Makefile', 'Kbuild'):
            p = os.path.join(tree, d, mk)
            if os.path.exists(p):
                text += read(p).replace('\\\n', ' ') + '\n'
        lines = [l for l in text.split('\n') if not l.lstrip().startswith('#')]
        changed = True
        while changed:
            changed = False
            for line in lines:
                words = set(re.split(r'[\s=]+', line))
                if not words & objs:
                    continue
                for c in re.findall(r'\$\((CONFIG_\w+)\)', line):
                    if conf.get(c, 'n') not in ('y', 'm'):
                        out.add(c)
                m = re.match(r'\s*([A-Za-z_][\w.]*)-(?:y|objs|\$\(CONFIG_\w+\))\s*[:+]?=',
                             line)
                if m and m.group(1) not in ('obj', 'core', 'lib', 'drivers',
                                            'libs', 'net', 'subdir') \
                        and m.group(1) + '.o' not in objs:
                    objs.add(m.group(1) + '.o')
                    changed = True
        if not d:
            break
        objs = {os.path.basename(d) + '/'}
        d = os.path.dirname(d)
    return sorted(out)


def why_not_called(tree, sfuncs, conf, users):
    """Why the security_X() functions @sfuncs have no caller in vmlinux;
    @users: {security_X: [source files naming it]}."""
    files = sorted({f for s in sfuncs for f in users.get(s, [])})
    if not files:
        return 'nothing in the kernel calls ' + ', '.join(sfuncs)
    opts = set()
    for f in files:
        opts |= set(object_config(tree, f, conf))
    where = ', '.join(files[:4]) + (' ...' if len(files) > 4 else '')
    if opts:
        return f'not in the guest config ({" ".join(sorted(opts))} not set): called from {where}'
    return f'called from {where}, where the calls are compiled out (#ifdef) in the guest config'


def security_users(tree, names):
    """{security_X: [source files outside security/ that name it]}."""
    out = {}
    if not names:
        return out
    args = ['git', '-C', tree, 'grep', '-ow', '-E',
            r'(%s)' % '|'.join(sorted(names)), '--', '*.c',
            ':!security/', ':!tools/']
    try:
        r = subprocess.run(args, capture_output=True, text=True)
    except OSError as e:
        die(f'git grep in {tree}: {e.strerror}')
    for line in r.stdout.split('\n'):
        f, _, name = line.rpartition(':')
        if f:
            out.setdefault(name, set()).add(f)
    return {k: sorted(v) for k, v in out.items()}


def symbols(system_map):
    syms = []
    for line in read(system_map).split('\n'):
        p = line.split()
        if len(p) >= 3 and p[1] in 'tTwW':
            syms.append((int(p[0], 16), p[2]))
    syms.sort()
    if not syms:
        die(f'no text symbols in {system_map}')
    return [a for a, _ in syms], [n for _, n in syms]


def parse_dump(path):
    """(text address, dropped, [(allow, deny, permissive, [ip...])])."""
    lines = [l for l in read(path).split('\n') if l.strip()]
    m = re.fullmatch(r'text ([0-9a-f]+) used (\d+) dropped (\d+)',
                     lines[0].strip()) if lines else None
    if not m:
        die(f'{path}: no header line; not a coverage dump')
    entries = []
    for n, line in enumerate(lines[1:], 2):
        if not re.fullmatch(r'\d+ \d+ \d+( [0-9a-f]+)+', line.strip()):
            die(f'{path}:{n}: not a coverage record: {line[:80]}')
        p = line.split()
        entries.append((int(p[0]), int(p[1]), int(p[2]),
                        [int(x, 16) for x in p[3:]]))
    return int(m.group(1), 16), int(m.group(3)), entries


def main_static(tree, conf_path=None):
    reach, _ = reaching(tree)
    conf = config(conf_path) if conf_path else None
    for arr, hook, fn, cs in hook_arrays(os.path.join(tree, 'security/selinux/hooks.c')):
        built = '' if conf is None else (
            ' compiled' if all(cond_ok(c, conf) for c in cs) else ' not-compiled')
        print(f'{arr} {hook} {fn} {"avc" if fn in reach else "-"}{built}'
              f'{" " + " ".join(cs) if cs else ""}')


def main_report(tree, build, outdir, dumps):
    hooks_c = os.path.join(tree, 'security/selinux/hooks.c')
    entries = hook_arrays(hooks_c)
    reach, _ = reaching(tree)
    conf = config(os.path.join(build, '.config'))
    addrs, names = symbols(os.path.join(build, 'System.map'))
    symset = set(names)
    called = called_security(os.path.join(build, 'calls.txt'))
    scallers = security_callers(os.path.join(tree, 'security/security.c'))
    notes = {}
    notes_path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              'notes.conf')
    if os.path.exists(notes_path):
        for line in read(notes_path).split('\n'):
            if line.strip() and not line.startswith('#'):
                k, _, v = line.partition(' ')
                notes[k] = v.strip()

    rows = {}
    for arr, hook, fn, cs in entries:
        r = rows.setdefault(fn, dict(hook=hook, function=fn, array=arr,
                                     avc=fn in reach, compiled=True,
                                     allow=0, deny=0, permissive=0,
                                     boots=set(), reason=''))
        unset = [c for c in cs if not cond_ok(c, conf)]
        sf = scallers.get(hook, [])
        if unset:
            r['compiled'] = False
            r['reason'] = 'not in the guest config (%s)' % ', '.join(
                c.lstrip('!') + (' set' if c.startswith('!') else ' not set')
                for c in unset)
        elif fn not in symset:
            r['compiled'] = False
            r['reason'] = f'{fn} is not in the guest kernel'
        elif not sf:
            r['compiled'] = False
            r['reason'] = f'no security_*() in security.c calls hook {hook}'
        elif not any(s in called for s in sf):
            r['compiled'] = False
            r['reason'] = sf

    # One git grep for all the security_*() functions nothing calls.
    users = security_users(tree, {s for r in rows.values()
                                  if isinstance(r['reason'], list)
                                  for s in r['reason']})
    for r in rows.values():
        if isinstance(r['reason'], list):
            r['reason'] = why_not_called(tree, r['reason'], conf, users)

    for r in rows.values():
        note = notes.get(r['hook'], '')
        if r['compiled'] and note.startswith('unreachable:'):
            r['compiled'] = False
            r['reason'] = ('in the kernel, unreachable in the guest config:' +
                           note[len('unreachable:'):])

    by_hook = {}
    for arr, hook, fn, cs in entries:
        by_hook.setdefault(hook, []).append((arr, fn))
    sec_to_hooks = {}
    for hook, sfs in scallers.items():
        for s in sfs:
            sec_to_hooks.setdefault(s, []).append(hook)

    other = {}
    total_dropped = 0
    for boot, path in dumps:
        off = boot.endswith('-off')
        arrays = {'selinux_hooks', 'selinux_nocache_hooks' if off else 'selinux_fast_hooks'}
        text, dropped, ents = parse_dump(path)
        total_dropped += dropped
        # The build's System.map against the running kernel: KASLR moves
        # the whole text by the same offset.
        delta = text - addrs[names.index('_stext')] if '_stext' in symset else 0
        for allow, deny, perm, ips in ents:
            chain = []
            for ip in ips:
                i = bisect.bisect_right(addrs, ip - delta - 1) - 1
                chain.append(names[i] if i >= 0 else '?')
            fn = next((n for n in chain if n in rows), None)
            if fn is None:
                for n in chain:
                    cands = [f for h in sec_to_hooks.get(n, [])
                             for a, f in by_hook.get(h, []) if a in arrays]
                    if len(cands) == 1:
                        fn = cands[0]
                        break
                    if cands:
                        break
            if fn is None:
                key = ' < '.join(n for n in chain
                                 if n not in ('avc_cov_record', 'stack_trace_save',
                                              'arch_stack_walk'))[:160]
                o = other.setdefault(key, [0, 0, 0])
                o[0] += allow
                o[1] += deny
                o[2] += perm
                continue
            r = rows[fn]
            r['allow'] += allow
            r['deny'] += deny
            r['permissive'] += perm
            r['boots'].add(boot)

    # Reasons for the compiled hooks that reach the AVC and were not seen
    # with both outcomes.
    for r in rows.values():
        if not (r['compiled'] and r['avc']) or r['reason']:
            continue
        if not r['allow'] + r['deny'] + r['permissive']:
            r['reason'] = 'not exercised by the tests'
        elif not r['deny']:
            r['reason'] = 'no denial' + (' (only permissive ones)' if r['permissive'] else '')
        elif not r['allow']:
            r['reason'] = 'no allow'
    for r in rows.values():
        note = notes.get(r['hook'], '')
        if note and r['reason'] and not note.startswith('unreachable:'):
            r['reason'] += '; ' + note

    os.makedirs(outdir, exist_ok=True)
    order = [fn for _, _, fn, _ in entries]
    seen = set()
    order = [f for f in order if not (f in seen or seen.add(f))]
    with open(os.path.join(outdir, 'coverage.csv'), 'w', newline='') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(['hook', 'function', 'array', 'reaches_avc', 'compiled_in',
                    'ran', 'allows', 'denials', 'permissive_grants', 'boots',
                    'reason'])
        for fn in order:
            r = rows[fn]
            ran = r['allow'] + r['deny'] + r['permissive'] > 0
            w.writerow([r['hook'], fn, r['array'], int(r['avc']),
                        int(r['compiled']), int(ran), r['allow'], r['deny'],
                        r['permissive'], ' '.join(sorted(r['boots'])),
                        r['reason']])

    den = [rows[f] for f in order if rows[f]['avc'] and rows[f]['compiled']]
    ran = [r for r in den if r['allow'] + r['deny'] + r['permissive']]
    both = [r for r in den if r['allow'] and r['deny']]
    notin = [rows[f] for f in order if rows[f]['avc'] and not rows[f]['compiled']]
    noavc = [rows[f] for f in order if not rows[f]['avc']]

    def pct(a, b):
        return 100.0 * a / b if b else 0.0

    lines = []
    out = lines.append
    out('SELinux hooks reaching the AVC under the guest tests (make coverage)')
    out('boots: ' + ' '.join(b for b, _ in dumps))
    out(f'hook functions in hooks.c arrays: {len(order)}; reach the AVC: '
        f'{len(den) + len(notin)}; of those compiled into the guest: {len(den)}')
    out(f'reached: {len(ran)}/{len(den)} ({pct(len(ran), len(den)):.1f}%); '
        f'with an allow and a denial: {len(both)}/{len(den)} '
        f'({pct(len(both), len(den)):.1f}%)')
    if total_dropped:
        out(f'WARNING: {total_dropped} records dropped (table full)')
    out('allows: decisions that granted; denials: -EACCES to the hook; '
        'permissive: denied by the policy,')
    out('granted in permissive mode or to a permissive domain.  "(off)": '
        'the stock version, booted with selinux_avc_pcpu=0.')
    out('')
    hdr = f'{"hook":34} {"function":40} {"allows":>8} {"denials":>8} {"permissive":>10}  note'
    out(hdr)
    out('-' * len(hdr))
    for r in den:
        mark = '' if r['allow'] and r['deny'] else r['reason']
        name = r['function'] + (' (off)' if r['array'] == 'selinux_nocache_hooks' else '')
        out(f'{r["hook"]:34} {name:40} {r["allow"]:8} {r["deny"]:8} {r["permissive"]:10}  {mark}')
    out('')
    out(f'Reach the AVC but not compiled into the guest ({len(notin)}):')
    for r in notin:
        out(f'  {r["hook"]:34} {r["reason"]}')
    out('')
    out(f'Hook functions that do not reach the AVC ({len(noavc)}): ' +
        ' '.join(r['hook'] for r in noavc))
    if other:
        out('')
        out('AVC checks not attributed to a hook (callers, allows/denials/permissive):')
        for k, v in sorted(other.items(), key=lambda kv: -sum(kv[1]))[:25]:
            out(f'  {v[0]}/{v[1]}/{v[2]}  {k}')
    text = '\n'.join(lines) + '\n'
    with open(os.path.join(outdir, 'coverage.txt'), 'w') as f:
        f.write(text)
    return text, len(den), len(ran), len(both)


def main():
    a = sys.argv[1:]
    if a[:1] == ['static'] and len(a) in (2, 3):
        main_static(*a[1:])
        return
    if a[:1] != ['report'] or len(a) < 5:
        die('usage: coverage.py report TREE BUILD OUTDIR BOOT=DUMP... | static TREE [CONFIG]')
    tree, build, outdir = a[1:4]
    for p, what in ((os.path.join(tree, 'security/selinux/hooks.c'), 'kernel tree'),
                    (os.path.join(build, 'System.map'), 'coverage build')):
        if not os.path.exists(p):
            die(f'no {p}: not a {what}')
    dumps = []
    for d in a[4:]:
        boot, eq, path = d.partition('=')
        if not eq:
            die(f'{d}: expected BOOT=DUMP')
        dumps.append((boot, path))
    text, n, ran, both = main_report(tree, build, outdir, dumps)
    sys.stdout.write(text)
    pr, pb = 100.0 * ran / max(n, 1), 100.0 * both / max(n, 1)
    print(f'coverage: {n} hook functions reach the AVC in the guest; '
          f'reached {ran} ({pr:.1f}%), allow and deny {both} ({pb:.1f}%)')
    rc = 0
    if 'WARNING' in text:
        print('coverage: records were dropped; raise AVC_COV_SLOTS in '
              'coverage.txt', file=sys.stderr)
        rc = 1
    if not ran:
        print('coverage: no decision was attributed to a hook; the dumps '
              'do not match the build?', file=sys.stderr)
        rc = 1
    # Optional targets (percent), e.g. COVERAGE_MIN_REACHED=90.
    for var, got in (('COVERAGE_MIN_REACHED', pr), ('COVERAGE_MIN_BOTH', pb)):
        want = os.environ.get(var, '')
        if want and got < float(want):
            print(f'coverage: {got:.1f}% is below {var}={want}',
                  file=sys.stderr)
            rc = 1
    sys.exit(rc)


if __name__ == '__main__':
    main()
