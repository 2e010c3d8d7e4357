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
shows up as a mismatch against it.  An ioctl check carries its command:
allowxperm, auditallowxperm and dontauditxperm rules decide it as
avc_has_extended_perms() does.  The targets of the process cases are the
domains of objects.conf's "proc" lines; a port and a node (tcp, udp) have
the type of the policy's initial SIDs "port" and "node" (no portcon or
nodecon).  Audit records are predicted for the single-check cases
(AUDIT_OPS) and for the operations whose steps are written as the kernel's
avc_has_perm() calls one by one, in order (AUDIT_STEPS); in enforcing mode
and for a domain that is not permissive, whose records do not depend on
what the AVC has already granted.

A relabel phase (relabel=FROM,TO in phases.conf) relabels the objects a
warm-up run of the same domain has just used from FROM to TO (maps of
"relabel MAP TYPE NEW" lines in objects.conf; "base": no change) before
the recorded run: its cases keep the objects.conf type as their name and
are predicted for the type TO gives it.  The summary says how many
outcomes the relabel changed against the phase before.

Labels: every case that creates an object and returns "ok" has the
object's label in the run ("L PHASE DOMAIN KIND TYPE OP CONTEXT"), every
prog case (an exec) that returns "ok" the context the new process ran
in.  They are compared across kernels and with the prediction, which
computes them as security_compute_sid() does from the policy source: the
type from the type_transition rules (a named rule for the object's name
first, then the unnamed one; conditional rules by the phase's boolean),
else the parent directory's type for an object and the caller's domain
for a process; the user of the caller; object_r for an object and the
caller's role for a process; the caller's low level for an object and
its range for a process.  The caller's user, role and level are those the
policy's users and roles give the domain (users.conf).  The creation
checks use the computed label too (create on it, and its filesystem
associate), so a stale label can also show as an outcome.
"""
import re
import sys
from collections import defaultdict, namedtuple

# ---------------------------------------------------------------- policy


def tokens(text):
    text = re.sub(r'#[^\n]*', '', text)
    return re.findall(r'"[^"]*"|[A-Za-z0-9_.]+|[{}();:,*~]|[^\sA-Za-z0-9_]', text)


# Statements that would change a computed label in ways the model leaves out
XPERM_RULES = ('allowxperm', 'auditallowxperm', 'dontauditxperm')
NOT_MODELLED = {'default_user', 'default_role', 'default_type', 'default_range',
                'range_transition', 'role_transition', 'type_change', 'type_member'}


class Policy:
    def __init__(self, path):
        self.classes = {}       # class -> [perms]
        self.types = set()
        self.attrs = defaultdict(set)   # attribute -> types
        self.bools = {}
        self.permissive = set()
        # rules: (kind, srcs, tgts, classes, perms, cond) cond=(bool, value)
        self.rules = []
        # allowxperm/auditallowxperm/dontauditxperm ... ioctl: (kind, srcs,
        # tgts, classes, {16-bit commands})
        self.xrules = []
        # type_transition: (srcs, tgts, classes, new type, name or None, cond)
        self.trans = []
        self.roles = defaultdict(set)   # role -> type and attribute names
        self.users = {}                 # user -> (roles, level, range)
        self.fs_use = {}                # filesystem -> (behaviour, type)
        self.isid = {}                  # initial SID -> type (sid NAME CONTEXT)
        self.path = path
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
            elif w == 'type_transition':
                srcs, i = names(i + 1)
                tgts, i = names(i)
                assert t[i] == ':', t[i - 3:i + 3]
                cls, i = names(i + 1)
                new, name = t[i], None
                i += 1
                if t[i].startswith('"'):
                    name = t[i][1:-1]
                    i += 1
                assert t[i] == ';', t[i - 3:i + 3]
                i += 1
                self.trans.append((srcs, tgts, cls, new, name,
                                   cond[-1] if cond else None))
            elif w == 'role' and t[i + 2] in (';', 'types'):
                role = t[i + 1]
                self.roles[role]
                i += 2
                if t[i] == 'types':
                    types, i = names(i + 1)
                    self.roles[role] |= set(types)
                assert t[i] == ';', t[i - 3:i + 3]
                i += 1
            elif w == 'user':
                user = t[i + 1]
                assert t[i + 2] == 'roles', t[i:i + 4]
                roles, i = names(i + 3)
                level, rng = [], []
                if t[i] == 'level':
                    i += 1
                    while t[i] not in ('range', ';'):
                        level.append(t[i])
                        i += 1
                if t[i] == 'range':
                    i += 1
                    while t[i] != ';':
                        rng.append(t[i])
                        i += 1
                self.users[user] = (roles, ''.join(level), ''.join(rng))
                i += 1
            elif w == 'sid' and i + 6 < len(t) and t[i + 3] == ':':
                # sid NAME USER : ROLE : TYPE : LEVEL (a declaration is
                # "sid NAME" alone)
                self.isid[t[i + 1]] = t[i + 6]
                i += 2
            elif w in ('fs_use_trans', 'fs_use_task', 'fs_use_xattr'):
                # fs_use_trans FS USER : ROLE : TYPE : LEVEL ;
                self.fs_use[t[i + 1]] = (w, t[i + 6])
                i += 2
            elif w in NOT_MODELLED:
                sys.exit(f'{self.path}: {w}: not modelled by matrix.py')
            elif w in XPERM_RULES + ('neverallowxperm',):
                # KIND SRC TGT : CLASS ioctl { 0x5401 0xab00-0xabff } ;
                srcs, i = names(i + 1)
                tgts, i = names(i)
                assert t[i] == ':', t[i - 3:i + 3]
                cls, i = names(i + 1)
                if t[i] != 'ioctl':
                    sys.exit(f'{self.path}: {w} {t[i]}: only ioctl is modelled')
                items, i = names(i + 1)
                assert t[i] == ';', t[i - 3:i + 3]
                i += 1
                if cond:
                    sys.exit(f'{self.path}: {w} in a conditional block: not modelled')
                cmds, j = set(), 0
                while j < len(items):
                    if not items[j].startswith('0x'):
                        sys.exit(f'{self.path}: {w} {items[j]}: only commands and ranges are modelled')
                    lo = hi = int(items[j], 16)
                    if j + 2 < len(items) and items[j + 1] == '-':
                        hi = int(items[j + 2], 16)
                        j += 2
                    cmds |= set(range(lo, hi + 1))
                    j += 1
                if w != 'neverallowxperm':
                    self.xrules.append((w, srcs, tgts, cls, cmds))
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
        """allowed/auditallow/dontaudit: (src, tgt, cls) -> perms;
        allowxperm/auditallowxperm/dontauditxperm: (src, tgt, cls) -> ioctl
        commands"""
        av = {k: defaultdict(set) for k in ('allow', 'auditallow', 'dontaudit') + XPERM_RULES}
        for kind, srcs, tgts, clss, cmds in self.xrules:
            for s in set().union(*(self.expand(x) for x in srcs)):
                for tg in tgts:
                    for x in ({s} if tg == 'self' else self.expand(tg)):
                        for cls in clss:
                            av[kind][(s, x, cls)] |= cmds
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

    def transitions(self, bools):
        """type_transition: (src, tgt, cls) -> type, (src, tgt, cls, name) -> type.
        The kernel looks in the unconditional rules first, then in the
        conditional ones whose branch is on."""
        tt, named = {}, {}
        for uncond in (True, False):
            seen = {}
            for srcs, tgts, clss, new, name, c in self.trans:
                if (c is None) != uncond:
                    continue
                if c and bools.get(c[0], self.bools[c[0]]) != c[1]:
                    continue
                S = set().union(*(self.expand(s) for s in srcs))
                for s in S:
                    for tg in tgts:
                        for x in ({s} if tg == 'self' else self.expand(tg)):
                            for cls in clss:
                                key = (s, x, cls) + ((name,) if name else ())
                                if key in seen and seen[key] != new:
                                    sys.exit(f'{self.path}: type_transition {key}: '
                                             f'{seen[key]} and {new}')
                                seen[key] = new
            for key, new in seen.items():
                (named if len(key) == 4 else tt).setdefault(key, new)
        return tt, named

    def subject(self, dom):
        """the user, role and level (range) of a process in DOM: the user
        whose role has DOM's type, at the user's default level"""
        roles = [r for r, ts in self.roles.items()
                 if dom in set().union(*(self.expand(x) for x in ts))]
        found = [(u, r, lv) for u, (rs, lv, _) in self.users.items()
                 for r in roles if r in rs]
        if len(found) != 1:
            sys.exit(f'{self.path}: {dom}: want one user and role for it, found {found}')
        return found[0]

    def role_has(self, role, typ):
        return typ in set().union(*(self.expand(x) for x in self.roles[role]))


# ---------------------------------------------------------------- operations

# What each avcmatrix case asks, as steps [(outcome if denied, checks)],
# a final outcome, and which single check (if any) the audit prediction
# can model exactly.  T: the object type.  A check is (target, class,
# permissions[, subject]); the subject is the case's domain unless given;
# target "self" is the check's subject, "caller" the case's domain.
# N: the label a creating case's object gets (the computed type), or the
# domain a prog case's exec enters (None: no transition).  FS: the type of the
# filesystem the objects are created in.  ISID: initial SID -> type (the
# port and node of the tcp and udp cases: the policy has no portcon or
# nodecon).
# For the operations in AUDIT_STEPS each check is one avc_has_perm() call,
# in the order the kernel makes them, so that their audit records can be
# predicted too.
def steps(kind, op, T, N=None, FS=None, ISID=None, MQFS=None):
    d = 'EACCES'
    if kind in HOOK_OPS:
        return hook_steps(kind, op, T, FS, ISID)

    def created(cls, perms='create'):
        # may_create(): the directory, create on the computed label, and
        # the label's filesystem associate (checked with the label as subject)
        return [(T, 'dir', 'search write add_name'), (N, cls, perms),
                (FS, 'filesystem', 'associate', N)]
    bind = [(d, [('self', 'unix_stream_socket', 'create')]),
            (d, [('self', 'unix_stream_socket', 'bind')] + created('sock_file'))]
    if kind == 'file' and op in FILE_FD_OPS:
        # fcntl(F_SETLK) and flock() on the inherited read descriptor,
        # F_SETFL without O_APPEND on the inherited append one:
        # file_has_perm(), fd use then the permission; F_SETLK asks for
        # lock twice, in selinux_file_fcntl() and, setting the lock,
        # selinux_file_lock()
        fd = [(d, [('kernel_t', 'fd', 'use')])]
        return {
            'lock': ([('revoked', [(T, 'file', 'read')])] + fd + [(d, [(T, 'file', 'lock')])] +
                     fd + [(d, [(T, 'file', 'lock')])], 'ok'),
            'flock': ([('revoked', [(T, 'file', 'read')])] + fd + [(d, [(T, 'file', 'lock')])], 'ok'),
            'unappend': ([('revoked', [(T, 'file', 'append')])] + fd + [(d, [(T, 'file', 'write')])],
                         'ok'),
        }[op]
    if kind == 'file' and op in ('relabel', 'relabel_x'):
        # setxattr(security.selinux): selinux_inode_setxattr(): relabelfrom
        # on the old label, relabelto on the new, the new label's
        # filesystem associate (checked with the new label as subject)
        new = RELABEL_TO[op]
        return ([(d, [(T, 'file', 'relabelfrom')]), (d, [(new, 'file', 'relabelto')]),
                 (d, [(FS, 'filesystem', 'associate', new)])], 'ok')
    if kind == 'ipc':
        # T: the domain that made the objects (their label).  ipcperms()
        # (unix_read, unix_write as the mode asks) comes first, then the
        # operation's own hook; msgsnd also sends the message (labelled
        # as the queue: no type_transition for msg) and enqueues it (the
        # message as subject); msgrcv's denial skips the message: ENOMSG
        # (IPC_NOWAIT)
        cls = {'msg': 'msgq', 'sem': 'sem', 'shm': 'shm'}[op.split('_')[0]]
        ur, uw, urw = [(d, [(T, cls, p)])
                       for p in ('unix_read', 'unix_write', 'unix_read unix_write')]
        one = {'get': [urw, (d, [(T, cls, 'associate')])],
               'stat': [ur, (d, [(T, cls, 'getattr associate')])],
               'set': [(d, [(T, cls, 'setattr')])],
               'rm': [(d, [(T, cls, 'destroy')])],
               'rcv': [ur, ('ENOMSG', [(T, cls, 'read')]), ('ENOMSG', [(T, 'msg', 'receive')])],
               'snd': [uw, (d, [(T, cls, 'write')]), (d, [(T, 'msg', 'send')]),
                       (d, [(T, cls, 'enqueue', T)])],
               'getval': [ur, (d, [(T, cls, 'read')])],
               'setval': [uw, (d, [(T, cls, 'write')])],
               'op': [uw, (d, [(T, cls, 'read write')])],
               'at_r': [ur, (d, [(T, cls, 'read')])],
               'at_w': [urw, (d, [(T, cls, 'read write')])],
               # SHM_UNLOCK: then CAP_IPC_LOCK, which the owner's uid
               # makes unnecessary: its denial is audited, and ignored
               'lock': [(d, [(T, cls, 'lock')]), ('cont', [('self', 'capability', 'ipc_lock')])],
               }[op.split('_', 1)[1]]
        return (one, 'ok')
    if kind == 'sysv':
        return {
            'msg_new': ([(d, [('self', 'msgq', 'create')])], 'ok'),
            'sem_new': ([(d, [('self', 'sem', 'create')])], 'ok'),
            'shm_new': ([(d, [('self', 'shm', 'create')])], 'ok'),
            'ipc_info': ([(d, [(ISID['kernel'], 'system', 'ipc_info')])], 'ok'),
        }[op]
    if kind in ('mq', 'mqueue'):
        # mq_open(), mq_unlink(): the name is looked up in the mqueue
        # filesystem's root (search); an existing queue is opened with
        # inode_permission() and then file_open (read or write, open); a
        # new one takes the VFS's write and search on the root, then
        # may_create() (search add_name, create, associate), the new
        # inode (mqueue_get_inode() asks for CAP_SYS_RESOURCE, which only
        # widens the limits: its denial is audited, and ignored) and
        # file_open
        root = (MQFS, 'dir', 'search')
        if kind == 'mqueue':
            return ([(d, [root]), (d, [(MQFS, 'dir', 'search write')]),
                     (d, [(MQFS, 'dir', 'search add_name')]), (d, [(N, 'file', 'create')]),
                     (d, [(MQFS, 'filesystem', 'associate', N)]),
                     ('cont', [('self', 'capability', 'sys_resource')]),
                     (d, [(N, 'file', 'write open')])], 'ok')
        return {
            'open_r': ([(d, [root]), (d, [(T, 'file', 'read')]), (d, [(T, 'file', 'read open')])],
                       'ok'),
            'open_w': ([(d, [root]), (d, [(T, 'file', 'write')]), (d, [(T, 'file', 'write open')])],
                       'ok'),
            # the parent's descriptor, O_RDONLY: at exec, then read()
            'read': ([('revoked', [(T, 'file', 'read')])], 'ok'),
            'unlink': ([(d, [root]), (d, [(MQFS, 'dir', 'search write')]),
                        (d, [(MQFS, 'dir', 'search remove_name')]), (d, [(T, 'file', 'unlink')])],
                       'ok'),
        }[op]
    if kind == 'key':
        # By serial: lookup_user_key() first looks for the key in the
        # session keyring (whose own search every domain has): search on
        # the key, whose denial only means "not possessed"; then the
        # operation's permission.  keyctl_read() reads a possessed key
        # even when read is denied; keyctl_update() checks write twice.
        # keyctl_search() finds it by description: search on it.  The key
        # creation context (/proc/self/attr/keycreate): setkeycreate on
        # itself, create on the key type.
        poss = ('cont', [(T, 'key', 'search')])
        return {
            'view': ([poss, (d, [(T, 'key', 'view')])], 'ok'),
            'read': ([poss, ('possessed', [(T, 'key', 'read')])], 'ok'),
            'write': ([poss, (d, [(T, 'key', 'write')]), (d, [(T, 'key', 'write')])], 'ok'),
            'search': ([(d, [(T, 'key', 'search')])], 'ok'),
            'link': ([poss, (d, [(T, 'key', 'link')])], 'ok'),
            'setattr': ([poss, (d, [(T, 'key', 'setattr')])], 'ok'),
            'create': ([(d, [('self', 'process', 'setkeycreate')]), (d, [(T, 'key', 'create')])],
                       'ok'),
        }[op]
    if kind == 'file' and op in FILE_MAP_OPS:
        # open(O_RDONLY): inode_permission() (read), then file_open (read
        # open); mmap: map, then the protection (read, execute; execmem
        # for a private writable executable mapping); mprotect to exec
        # of a mapping with copied-on-write pages: execmod first
        opened = [(d, [(T, 'file', 'read')]), (d, [(T, 'file', 'read open')]),
                  (d, [(T, 'file', 'map')])]
        return {
            'mmap_r': (opened + [(d, [(T, 'file', 'read')])], 'ok'),
            'mmap_x': (opened + [(d, [(T, 'file', 'read execute')])], 'ok'),
            'mmap_wx': (opened + [(d, [('self', 'process', 'execmem')]),
                                  (d, [(T, 'file', 'read execute')])], 'ok'),
            'mprot_x': (opened + [(d, [(T, 'file', 'read')]),
                                  (d, [(T, 'file', 'read execute')])], 'ok'),
            'execmod': (opened + [(d, [(T, 'file', 'read')]),
                                  (d, [(T, 'file', 'execmod')]),
                                  (d, [(T, 'file', 'read execute')])], 'ok'),
        }[op]
    if kind == 'proc':
        # T: the target's domain; kill() (SIGUSR1, SIGKILL to the zombie,
        # 0), sched_getparam(), sched_setscheduler(SCHED_OTHER), getpgid(),
        # getsid(), PTRACE_SEIZE (same uid and capabilities: only SELinux
        # decides)
        perm = {'signal': 'signal', 'sigkill': 'sigkill', 'signull': 'signull',
                'getsched': 'getsched', 'setsched': 'setsched', 'getpgid': 'getpgid',
                'getsession': 'getsession', 'ptrace': 'ptrace'}[op]
        return ([(d, [(T, 'process', perm)])], 'ok')
    if kind == 'cap':
        return {
            'setuid': ([('EPERM', [('self', 'capability', 'setuid')])], 'ok'),
            'setgid': ([('EPERM', [('self', 'capability', 'setgid')])], 'ok'),
            # chroot("/"): search on it, then CAP_SYS_CHROOT
            'chroot': ([(d, [('root_t', 'dir', 'search')]),
                        ('EPERM', [('self', 'capability', 'sys_chroot')])], 'ok'),
            # setpriority(-1): CAP_SYS_NICE, then setsched on itself
            'nice': ([('EACCES', [('self', 'capability', 'sys_nice')]),
                      ('EACCES', [('self', 'process', 'setsched')])], 'ok'),
        }[op]
    if kind == 'mem':
        return {
            'execmem': ([(d, [('self', 'process', 'execmem')])], 'ok'),
            'mprot_x': ([(d, [('self', 'process', 'execmem')])], 'ok'),
            'execheap': ([(d, [('self', 'process', 'execheap')]),
                          (d, [('self', 'process', 'execmem')])], 'ok'),
            'execstack': ([(d, [('self', 'process', 'execstack')]),
                           (d, [('self', 'process', 'execmem')])], 'ok'),
        }[op]
    if kind in ('tcp', 'udp'):
        cls = kind + '_socket'
        port, node = ISID['port'], ISID['node']
        new = [(d, [('self', cls, 'create')])]
        bound = [(d, [('self', cls, 'bind')])]
        nodeb = [(d, [(node, cls, 'node_bind')])]
        nameb = [(d, [(port, cls, 'name_bind')])]
        return {
            'create': (new, 'ok'),
            'bind': (new + bound + nodeb, 'ok'),
            'bind_hi': (new + bound + nameb + nodeb, 'ok'),
            # below 1024: inet_bind() asks for CAP_NET_BIND_SERVICE after
            # the socket_bind hook
            'bind_lo': (new + bound + nameb + nodeb +
                        [(d, [('self', 'capability', 'net_bind_service')])], 'ok'),
            'listen': (new + [(d, [('self', cls, 'listen')])],
                       'ok' if kind == 'tcp' else 'EOPNOTSUPP'),
            'connect': (new + [(d, [('self', cls, 'connect')])] +
                        ([(d, [(port, cls, 'name_connect')])] if kind == 'tcp' else []), 'ok'),
            'send': (new + [(d, [('self', cls, 'write')])], 'ok'),
        }[op]
    if kind == 'netlink':
        cls = 'netlink_route_socket'
        new = [(d, [('self', cls, 'create')])]
        return {
            'create': (new, 'ok'),
            # sendmsg (write), the message (RTM_GETLINK: nlmsg_read), recv (read)
            'getlink': (new + [(d, [('self', cls, 'write')]), (d, [('self', cls, 'nlmsg_read')]),
                               (d, [('self', cls, 'read')])], 'ok'),
        }[op]
    if kind == 'file':
        return {
            'open_r': ([(d, [(T, 'file', 'read open')])], 'ok'),
            'open_w': ([(d, [(T, 'file', 'write open')])], 'ok'),
            'open_rw': ([(d, [(T, 'file', 'read write open')])], 'ok'),
            'append': ([(d, [(T, 'file', 'append open')])], 'ok'),
            'read': ([('revoked', [(T, 'file', 'read')])], 'ok'),
            'write': ([('revoked', [(T, 'file', 'write')])], 'ok'),
            # TCGETS, TIOCGWINSZ, _IO(0xab, 1): no tmpfs file has them;
            # the descriptor is the parent's (fd use)
            'ioctl': ([('revoked', [(T, 'file', 'read')]), (d, [('kernel_t', 'fd', 'use')]),
                       (d, [(T, 'file', 'ioctl', 'caller', TCGETS)])], 'ENOTTY'),
            'ioctl_tw': ([('revoked', [(T, 'file', 'read')]), (d, [('kernel_t', 'fd', 'use')]),
                          (d, [(T, 'file', 'ioctl', 'caller', TIOCGWINSZ)])], 'ENOTTY'),
            'ioctl_x': ([('revoked', [(T, 'file', 'read')]), (d, [('kernel_t', 'fd', 'use')]),
                         (d, [(T, 'file', 'ioctl', 'caller', IOC_AB01)])], 'ENOTTY'),
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
            'mkdir': ([(d, created('dir'))], 'ok'),
            'rmdir': ([(d, [(T, 'dir', 'search write remove_name rmdir')])], 'ok'),
            'create': ([(d, created('file', 'create write open'))], 'ok'),
            'unlink': ([(d, [(T, 'dir', 'search write remove_name'),
                             (T, 'file', 'unlink')])], 'ok'),
            'rename': ([(d, [(T, 'dir', 'search write add_name remove_name'),
                             (T, 'file', 'rename')])], 'ok'),
            'mkfifo': ([(d, created('fifo_file'))], 'ok'),
            'bind': (bind, 'ok'),
        }[op]
    if kind == 'create':
        return {
            'file': ([(d, created('file', 'create write open'))], 'ok'),
            'magic': ([(d, created('file', 'create write open'))], 'ok'),
            'dir': ([(d, created('dir'))], 'ok'),
            'fifo': ([(d, created('fifo_file'))], 'ok'),
            'sock': (bind, 'ok'),
            'lnk': ([(d, created('lnk_file'))], 'ok'),
            # vfs_mknod(): the directory, CAP_MKNOD, then SELinux's may_create()
            'chr': ([(d, [(T, 'dir', 'search write')]),
                     ('EPERM', [('self', 'capability', 'mknod')]),
                     (d, created('chr_file'))], 'ok'),
        }[op]
    if kind == 'prog':
        # selfcon, in the domain S it runs in: /proc/self/attr/current
        # read (exit status: the errno), its context written to the label
        # pipe, inherited from the unconfined parent (kernel_t)
        S = N or 'caller'
        prog = (d, [('root_t', 'dir', 'search', S), ('proc_t', 'dir', 'search', S),
                    ('proc_t', 'lnk_file', 'read', S), ('self', 'dir', 'search', S),
                    ('self', 'file', 'read open', S)])
        out = (d, [('kernel_t', 'fd', 'use', S), ('kernel_t', 'fifo_file', 'write', S)])
        if not N:
            return ([(d, [(T, 'file', 'execute read open execute_no_trans')]),
                     ('sig11', [(T, 'file', 'map'), (T, 'file', 'read execute')]),
                     prog, out], 'ok')
        # a domain transition: transition and entrypoint; the loader maps
        # the file, opened by the caller, in the new domain.  (At exec the
        # inherited pipe would be replaced if the new domain could not use
        # it: predict() refuses such a policy.)
        return ([(d, [(T, 'file', 'execute read open')]),
                 (d, [(N, 'process', 'transition'), (T, 'file', 'entrypoint', N)]),
                 ('sig11', [(T, 'file', 'map', N), ('caller', 'fd', 'use', N),
                            (T, 'file', 'read execute', N)]),
                 prog, out], 'ok')
    if kind == 'fifo':
        inh = ('revoked', [(T, 'fifo_file', 'read write')])
        return {
            'open_r': ([(d, [(T, 'fifo_file', 'read open')])], 'ok'),
            'open_w': ([(d, [(T, 'fifo_file', 'write open')])], 'ok'),
            'stat': ([(d, [(T, 'fifo_file', 'getattr')])], 'ok'),
            'read': ([inh], 'ok'),
            'write': ([inh], 'ok'),
            'ioctl': ([inh, (d, [('kernel_t', 'fd', 'use')]),
                       (d, [(T, 'fifo_file', 'ioctl', 'caller', TCGETS)])], 'ENOTTY'),
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
            'pipe_ioctl': ([(d, [('self', 'fifo_file', 'ioctl', 'caller', TCGETS)])], 'ENOTTY'),
            'socket': ([(d, [('self', 'unix_stream_socket', 'create')])], 'ok'),
            'dgram': ([(d, [('self', 'unix_dgram_socket', 'create')])], 'ok'),
        }[op]
    raise KeyError(kind)


FILE_MAP_OPS = 'mmap_r mmap_x mmap_wx mprot_x execmod'.split()
FILE_FD_OPS = 'lock flock unappend'.split()
# The types the relabel cases relabel files to
RELABEL_TO = {'relabel': 'mr_ok_t', 'relabel_x': 'mr_no_t'}
IPC_OPS = ('msg_get msg_stat msg_set msg_rcv msg_snd msg_rm sem_get sem_stat sem_getval '
           'sem_setval sem_op sem_set sem_rm shm_get shm_stat shm_set shm_at_r shm_at_w '
           'shm_lock shm_rm').split()
# ioctl commands (their low 16 bits, which SELinux checks)
TCGETS, TIOCGWINSZ, IOC_AB01 = 0x5401, 0x5413, 0xab01
OPS = {
    'file': 'open_r open_w open_rw append read write ioctl stat fstat chmod '
            'exec unlink rename'.split() + FILE_MAP_OPS + ['ioctl_tw', 'ioctl_x'] +
            FILE_FD_OPS + list(RELABEL_TO),
    'dir': 'ls stat search mkdir rmdir create unlink rename mkfifo bind'.split(),
    'fifo': 'open_r open_w stat read write ioctl'.split(),
    'sock': 'stat connect sendto'.split(),
    'create': 'file magic dir fifo sock lnk chr'.split(),
    'prog': ['exec'],
    'self': 'pipe pipe_ioctl socket dgram'.split(),
    'proc': 'signal sigkill signull getsched setsched getpgid getsession ptrace'.split(),
    'cap': 'setuid setgid chroot nice'.split(),
    'mem': 'execmem mprot_x execheap execstack'.split(),
    'tcp': 'create bind bind_hi bind_lo listen connect'.split(),
    'udp': 'create bind bind_lo listen connect send'.split(),
    'netlink': 'create getlink'.split(),
    'ipc': IPC_OPS,
    'sysv': 'msg_new sem_new shm_new ipc_info'.split(),
    'mq': 'open_r open_w read unlink'.split(),
    'mqueue': ['create'],
    'key': 'view read write search link setattr create'.split(),
}
OBJ_KINDS = ('file', 'dir', 'fifo', 'sock', 'create', 'prog', 'proc', 'ipc', 'mq', 'key')
# Kinds with one fixed "type" (the domain itself, loopback, the netlink
# protocol), in avcmatrix.c's order
FIXED_KINDS = (('self', 'self'), ('cap', 'self'), ('mem', 'self'), ('tcp', 'lo'),
               ('udp', 'lo'), ('netlink', 'route'), ('sysv', 'self'), ('mqueue', 'root'))
# Outcomes of a granted case that are not "ok" (the operation itself fails)
GRANTED = ('ok', 'ENOTTY', 'EOPNOTSUPP')
# Operations whose steps are the kernel's avc_has_perm() calls one by one,
# in order: their audit records are predicted from the steps
AUDIT_STEPS = {('file', op) for op in FILE_MAP_OPS + ['ioctl', 'ioctl_tw', 'ioctl_x'] +
               FILE_FD_OPS + list(RELABEL_TO)} | {
    ('fifo', 'ioctl'), ('self', 'pipe_ioctl')} | {
    (k, op) for k in ('proc', 'cap', 'mem', 'tcp', 'udp', 'netlink', 'ipc', 'sysv', 'mqueue', 'key')
    for op in OPS[k]} | {('mq', op) for op in ('open_r', 'open_w', 'unlink')}
# The objects cases create (avcmatrix.c, made[]): (kind, op) -> their
# class and name; a prog case's "object" is the process it execs
MADE = {('dir', 'mkdir'): ('dir', 'nd'), ('dir', 'create'): ('file', 'nf'),
        ('dir', 'mkfifo'): ('fifo_file', 'ff'), ('dir', 'bind'): ('sock_file', 'sk'),
        ('create', 'file'): ('file', 'f'), ('create', 'magic'): ('file', 'magic'),
        ('create', 'dir'): ('dir', 'd'), ('create', 'fifo'): ('fifo_file', 'p'),
        ('create', 'sock'): ('sock_file', 's'), ('create', 'lnk'): ('lnk_file', 'l'),
        ('create', 'chr'): ('chr_file', 'c'),
        ('prog', 'exec'): ('process', None),
        ('mqueue', 'create'): ('file', 'mxnew')}
# The filesystem the objects are created in (/tmp)
FSNAME = 'tmpfs'
# The filesystem of the POSIX message queues (the mq and mqueue kinds)
MQFSNAME = 'mqueue'
# security_compute_sid(): the role of a new object (OBJECT_R)
OBJECT_R = 'object_r'
# Single-check cases whose audit records the model predicts exactly
# (enforcing, non-permissive domain): op -> (class from kind, permission)
AUDIT_OPS = {('file', 'stat'): 'getattr', ('file', 'fstat'): 'getattr',
             ('file', 'chmod'): 'setattr', ('dir', 'stat'): 'getattr',
             ('fifo', 'stat'): 'getattr', ('sock', 'stat'): 'getattr'}
KCLASS = {'file': 'file', 'dir': 'dir', 'fifo': 'fifo_file',
          'sock': 'sock_file'}


# ---------------------------------------------------------------- hook cases

# avcmatrix.c hook_cases(): the SELinux hooks the cases above do not reach
# (or not with an enforced denial), one system call each.  Their objects
# have types of their own (policy/hooks.te), made by hk_fixtures() under
# /tmp/m/h before every child and never relabelled: a directory hd_t, in
# it the file f (hf_t), the symbolic link l -> f (hl_t) and the directory
# sub (hs_t); mount points hm_t, two of them with a tmpfs mounted with
# context= hum_t (umount) and hmv_t (move_mount's source).  Every check
# is one avc_has_perm() call, in the kernel's order: their audit records
# are predicted too.  The path walk's search on hd_t and the other
# checks every domain passes are listed where the kernel makes them.
HOOK_OPS = {
    'hfs': 'link create mkdir rmdir readlink follow listxattr rmxattr statfs '
           'mount mount_ctx umount move_mount'.split(),
    'hproc': 'capget prlimit_r prlimit_w setnice attr'.split(),
    'htask': 'traceme capset setrlimit mmap_zero setselfattr setexec syslog setpgid '
             'dyn_fork'.split(),
    'hsock': 'sockname peername getopt setopt shutdown recv rights accept dgram'.split(),
    'hperf': 'open read ioctl'.split(),
}
OPS.update(HOOK_OPS)
# hproc runs on the target processes (objects.conf "proc"); the others
# have one fixed type
HOOK_FIXED = (('hfs', 'hk'), ('htask', 'self'), ('hsock', 'self'), ('hperf', 'self'))
FIXED_KINDS += HOOK_FIXED
AUDIT_STEPS |= {(k, op) for k in HOOK_OPS for op in HOOK_OPS[k]}


def hook_steps(kind, op, T, FS, ISID):
    d = 'EACCES'
    hd = [(d, [('hd_t', 'dir', 'search')])]        # the path walk into HK/d
    if kind == 'hfs':
        dw = hd + [(d, [('hd_t', 'dir', 'search write')])]     # inode_permission(dir, W|X)
        sys_admin = ('EPERM', [('self', 'capability', 'sys_admin')])
        return {
            # do_linkat(): may_linkat() (fs.protected_hardlinks: read
            # write on the source), vfs_link(): may_create(), then
            # selinux_inode_link(): may_link()
            'link': (hd + [(d, [('hf_t', 'file', 'read write')]), (d, [('hd_t', 'dir', 'search write')]),
                           (d, [('hd_t', 'dir', 'search add_name'), ('hf_t', 'file', 'link')])], 'ok'),
            # may_o_create(), selinux_inode_create(): may_create() (the
            # new file gets the directory's type), then selinux_file_open()
            'create': (dw + [(d, [('hd_t', 'dir', 'search add_name'), ('hd_t', 'file', 'create'),
                                  (FS, 'filesystem', 'associate', 'hd_t')]),
                             (d, [('hd_t', 'file', 'write open')])], 'ok'),
            'mkdir': (dw + [(d, [('hd_t', 'dir', 'search add_name'), ('hd_t', 'dir', 'create'),
                                 (FS, 'filesystem', 'associate', 'hd_t')])], 'ok'),
            # may_delete(), then selinux_inode_rmdir(): may_link()
            'rmdir': (dw + [(d, [('hd_t', 'dir', 'search remove_name'), ('hs_t', 'dir', 'rmdir')])], 'ok'),
            'readlink': (hd + [(d, [('hl_t', 'lnk_file', 'read')])], 'ok'),
            # stat() through the link: follow_link, then f's getattr
            'follow': (hd + [(d, [('hl_t', 'lnk_file', 'read')]), (d, [('hd_t', 'dir', 'search')]),
                             (d, [('hf_t', 'file', 'getattr')])], 'ok'),
            'listxattr': (hd + [(d, [('hl_t', 'lnk_file', 'getattr')])], 'ok'),
            # user.hk: xattr_permission() (write), then setattr (ENODATA: ok)
            'rmxattr': (hd + [(d, [('hf_t', 'file', 'write')]), (d, [('hf_t', 'file', 'setattr')])], 'ok'),
            'statfs': ([(d, [(FS, 'filesystem', 'getattr')])], 'ok'),
            # path_mount(): sb_mount (mounton) before may_mount()
            # (sys_admin); vfs_get_tree(): sb_set_mnt_opts (context=:
            # relabelfrom the fs_use type, relabelto the context); then
            # sb_kern_mount (mount on the superblock's label)
            'mount': ([(d, [('hm_t', 'dir', 'mounton')]), sys_admin,
                       (d, [(FS, 'filesystem', 'mount')])], 'ok'),
            'mount_ctx': ([(d, [('hm_t', 'dir', 'mounton')]), sys_admin,
                           (d, [(FS, 'filesystem', 'relabelfrom'), ('hmc_t', 'filesystem', 'relabelto')]),
                           # the root inode takes the context:
                           # may_context_mount_inode_relabel()
                           (d, [('hmc_t', 'filesystem', 'relabelfrom'),
                                ('self', 'filesystem', 'associate', 'hmc_t')]),
                           (d, [('hmc_t', 'filesystem', 'mount')])], 'ok'),
            'umount': ([sys_admin, (d, [('hum_t', 'filesystem', 'unmount')])], 'ok'),
            'move_mount': ([sys_admin, (d, [('hm_t', 'dir', 'mounton')])], 'ok'),
        }[op]
    if kind == 'hproc':
        return {
            'capget': ([(d, [(T, 'process', 'getcap')])], 'ok'),
            'prlimit_r': ([(d, [(T, 'process', 'getrlimit')])], 'ok'),
            # the same limits: task_setrlimit has nothing to check
            'prlimit_w': ([(d, [(T, 'process', 'setrlimit')])], 'ok'),
            'setnice': ([(d, [(T, 'process', 'setsched')])], 'ok'),
            # /proc/PID/attr/current: the walk (search on the target's
            # /proc/PID and attr), open (read, then read open), the
            # open's ptrace read check (PTRACE_MODE_READ: file read on the
            # target), then the read: getprocattr (getattr)
            'attr': ([(d, [(T, 'dir', 'search')]), (d, [(T, 'dir', 'search')]),
                      (d, [(T, 'file', 'read')]), (d, [(T, 'file', 'read open')]),
                      (d, [(T, 'file', 'read')]), (d, [(T, 'process', 'getattr')])], 'ok'),
        }[op]
    if kind == 'htask':
        return {
            'traceme': ([(d, [('self', 'process', 'ptrace')])], 'ok'),
            'capset': ([(d, [('self', 'process', 'setcap')])], 'ok'),
            'setrlimit': ([(d, [('self', 'process', 'setrlimit')])], 'ok'),
            'mmap_zero': ([(d, [('self', 'memprotect', 'mmap_zero')])], 'ok'),
            'setselfattr': ([(d, [('self', 'process', 'setfscreate')])], 'ok'),
            # open for writing (inode_permission write, file_open write
            # open), then the write: setprocattr (setexec)
            'setexec': ([(d, [('self', 'file', 'write')]), (d, [('self', 'file', 'write open')]),
                         (d, [('self', 'process', 'setexec')])], 'ok'),
            'syslog': ([(d, [(ISID['kernel'], 'system', 'syslog_read')])], 'ok'),
            'setpgid': ([(d, [('self', 'process', 'setpgid')])], 'ok'),
            # /proc/self/attr/current: open for writing, setcurrent, the
            # dynamic transition to mh_nofork_t; there fork() (task_alloc)
            'dyn_fork': ([(d, [('self', 'file', 'write')]), (d, [('self', 'file', 'write open')]),
                          (d, [('self', 'process', 'setcurrent')]),
                          (d, [('mh_nofork_t', 'process', 'dyntransition')]),
                          (d, [('self', 'process', 'fork', 'mh_nofork_t')])], 'ok'),
        }[op]
    if kind == 'hsock':
        us, ud = 'unix_stream_socket', 'unix_dgram_socket'
        pair = [(d, [('self', us, 'create')])]
        return {
            'sockname': (pair + [(d, [('self', us, 'getattr')])], 'ok'),
            'peername': (pair + [(d, [('self', us, 'getattr')])], 'ok'),
            'getopt': (pair + [(d, [('self', us, 'getopt')])], 'ok'),
            'setopt': (pair + [(d, [('self', us, 'setopt')])], 'ok'),
            'shutdown': (pair + [(d, [('self', us, 'shutdown')])], 'ok'),
            'recv': (pair + [(d, [('self', us, 'write')]), (d, [('self', us, 'read')])], 'ok'),
            # a pipe's read end over SCM_RIGHTS: refused by file_receive
            # (read on the pipe), the message arrives with MSG_CTRUNC
            'rights': (pair + [(d, [('self', us, 'write')]), (d, [('self', us, 'read')]),
                               (d, [('self', 'fifo_file', 'read')])], 'ok'),
            # listener: create, bind, listen; client: create, connect,
            # unix_stream_connect (connectto on the listener); accept
            'accept': (pair + [(d, [('self', us, 'bind')]), (d, [('self', us, 'listen')]),
                               (d, [('self', us, 'connect')]), (d, [('self', us, 'connectto')]),
                               (d, [('self', us, 'accept')])], 'ok'),
            # sendmsg (write), then unix_may_send (sendto on the peer)
            'dgram': ([(d, [('self', ud, 'create')]), (d, [('self', ud, 'write')]),
                       (d, [('self', ud, 'sendto')])], 'ok'),
        }[op]
    if kind == 'hperf':
        # the open check, then perf_check_permission()'s perfmon_capable()
        # (every domain has perfmon: its answer would not decide)
        opened = [(d, [('self', 'perf_event', 'open')]), (d, [('self', 'capability2', 'perfmon')])]
        return {
            'open': (opened, 'ok'),
            'read': (opened + [(d, [('self', 'perf_event', 'read')])], 'ok'),
            'ioctl': (opened + [(d, [('self', 'perf_event', 'write')])], 'ok'),
        }[op]
    raise KeyError(kind)


def hook_cases(objs, dom):
    for T in objs['proc']:
        for op in HOOK_OPS['hproc']:
            yield dom, 'hproc', T, op


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
        for kind in OBJ_KINDS:
            for T in objs[kind]:
                for op in OPS[kind]:
                    yield dom, kind, T, op
        for kind, T in FIXED_KINDS:
            for op in OPS[kind]:
                yield dom, kind, T, op
        yield from hook_cases(objs, dom)


def computed(pol, tt, named, dom, kind, op, T):
    """the type and the context security_compute_sid() gives case KIND
    OP's object (or process), and for an exec the domain it enters (None:
    no transition)"""
    cls, name = MADE[(kind, op)]
    user, role, level = pol.subject(dom)
    if cls == 'process':
        N = tt.get((dom, T, cls), dom)
        if not pol.role_has(role, N):
            sys.exit(f'{pol.path}: {role} has no type {N}: an invalid context is not modelled')
        return N, f'{user}:{role}:{N}:{level}', (N if N != dom else None)
    N = named.get((dom, T, cls, name), tt.get((dom, T, cls), T))
    return N, f'{user}:{OBJECT_R}:{N}:{level.split("-")[0]}', None


def predict(policydir, objs, phases):
    """-> {(phase, dom, kind, type, op): outcome}, {key: [audit tuples]},
    {key: label} (the label of what each case that creates an object or
    execs created or ran, when its outcome is "ok")"""
    res, aud, lab = {}, {}, {}
    pols = {}
    for ph in phases:
        if ph['policy'] not in pols:
            pols[ph['policy']] = Policy(f"{policydir}/{ph['policy']}.conf")
        pol = pols[ph['policy']]
        av = pol.compute({'m_bool': ph['bool']})
        tt, named = pol.transitions({'m_bool': ph['bool']})
        use, FS = pol.fs_use.get(FSNAME, (None, None))
        if use != 'fs_use_trans':
            sys.exit(f'{pol.path}: {FSNAME} is not fs_use_trans: its labels are not modelled')
        # the mqueue filesystem's root has its type (labelled before any
        # process could ask for a transition), new queues the transition
        # computed without their name: no named rule may apply
        use, MQFS = pol.fs_use.get(MQFSNAME, (None, None))
        if use != 'fs_use_trans':
            sys.exit(f'{pol.path}: {MQFSNAME} is not fs_use_trans: its labels are not modelled')
        if any(k[1] == MQFS for k in named):
            sys.exit(f'{pol.path}: a named type_transition in {MQFS}: not modelled')
        to = ph['relabel'][1] if ph['relabel'] else None
        for dom, kind, name, op in cases(objs):
            key = (ph['name'], dom, kind, name, op)
            T = relabelled(objs, to, name) if kind in OBJ_KINDS else name
            if kind == 'mqueue':
                T = MQFS
            N = ctx = None
            if (kind, op) in MADE:
                N, ctx, entered = computed(pol, tt, named, dom, kind, op, T)
                if kind == 'prog':
                    N = entered
            stp, ok = steps(kind, op, T, N, FS, pol.isid, MQFS)
            if kind == 'prog' and N and \
                    {'use'} - av['allow'][(N, 'kernel_t', 'fd')] | \
                    {'write'} - av['allow'][(N, 'kernel_t', 'fifo_file')]:
                sys.exit(f'{pol.path}: {N} may not use the inherited label pipe: '
                         'its replacement at exec is not modelled')
            out = ok
            # a "cont" step's denial does not end the case; the first one
            # (a key's search) means the key is not possessed, which a
            # "possessed" step's denial needs to fail
            possessed = True
            for fail, checks in stp:
                denied = False
                for tgt, cls, perms, *subj in checks:
                    S = dom if not subj or subj[0] == 'caller' else subj[0]
                    tgt = {'self': S, 'caller': dom}.get(tgt, tgt)
                    if avc_check(av, S, tgt, cls, perms, subj[1] if len(subj) > 1 else None)[0]:
                        if ph['enforce'] and S not in pol.permissive:
                            denied = True
                if denied and fail == 'cont':
                    possessed = False
                    continue
                if denied:
                    out = ('ok' if possessed else 'EACCES') if fail == 'possessed' else fail
                    break
            if (kind, op) in MADE and out == 'ok':
                lab[key] = ctx
            if kind == 'file' and op == 'exec':
                a = av['allow'][(dom, T, 'file')]
                assert 'execute' not in a or 'map' in a, \
                    f'{dom} may execute {T} without map: not modelled'
            res[key] = out
            perm = AUDIT_OPS.get((kind, op))
            free = not ph['enforce'] or dom in pol.permissive
            if (kind, op) in AUDIT_STEPS and not free:
                aud[key] = step_audit(av, dom, stp)
            if perm and not free:
                cls = KCLASS[kind]
                k3 = (dom, T, cls)
                if perm in av['allow'][k3]:
                    a = [('granted', perm, T, cls)] if perm in av['auditallow'][k3] else []
                else:
                    a = [] if perm in av['dontaudit'][k3] else [('denied', perm, T, cls)]
                aud[key] = a
    return res, aud, lab


def avc_check(av, S, tgt, cls, perms, xperm=None):
    """One avc_has_perm() call, or avc_has_extended_perms() for ioctl
    command XPERM: -> (denied permissions, [(granted or denied,
    permission)] of its audit record).  Once any allowxperm,
    auditallowxperm or dontauditxperm rule names a command for (S, tgt,
    cls), the drivers (high bytes) those rules name are the only ones
    whose commands can be allowed, and within them only the commands
    allowxperm lists; dontauditxperm silences a denial of a command,
    auditallowxperm keeps an auditallow'ed grant of one audited."""
    k3 = (S, tgt, cls)
    P = set(perms.split())
    allowed = av['allow'][k3]
    xpd = False
    if xperm is not None and any(av[k][k3] for k in XPERM_RULES):
        drivers = {c >> 8 for k in XPERM_RULES for c in av[k][k3]}
        if xperm >> 8 not in drivers:
            allowed = allowed - P
        else:
            xpd = True
            if xperm not in av['allowxperm'][k3]:
                allowed = allowed - P
    denied = P - allowed
    if denied:
        rec = denied - av['dontaudit'][k3]
        if rec and xpd and xperm in av['dontauditxperm'][k3]:
            rec = set()
        return denied, [('denied', p) for p in sorted(rec)]
    rec = P & av['auditallow'][k3]
    if rec and xpd and xperm not in av['auditallowxperm'][k3]:
        rec = set()
    return denied, [('granted', p) for p in sorted(rec)]


def step_audit(av, dom, stp):
    """The audit records of a case whose checks are one avc_has_perm()
    call each, in order (enforcing, DOM not permissive): avc_audit()
    records the denied permissions that no dontaudit rule covers, or, if
    none is denied, the granted ones an auditallow rule names; the first
    denial ends the case.  A "revoked" step is decided at exec (the
    inherited descriptor), before the case: its records are not the
    case's."""
    out = []
    for fail, checks in stp:
        for tgt, cls, perms, *subj in checks:
            S = dom if not subj or subj[0] == 'caller' else subj[0]
            tgt = {'self': S, 'caller': dom}.get(tgt, tgt)
            denied, rec = avc_check(av, S, tgt, cls, perms, subj[1] if len(subj) > 1 else None)
            if fail != 'revoked' and S not in UNATTRIBUTED:
                out += [(kind, p, tgt, cls) for kind, p in rec]
            if denied and fail != 'cont':
                return out
    return out


# Records whose subject is not a matrix domain are not a case's (the
# guest files them as "other"; compared across kernels, not predicted):
# dyn_fork's fork() in mh_nofork_t.
UNATTRIBUTED = {'mh_nofork_t'}


# (step_audit() above leaves them out.)


# ---------------------------------------------------------------- runs

REC = re.compile(r'avc: (granted|denied) \{ ([a-z_ ]+) \} .*tcontext=[^:]+:[^:]+:([a-z0-9_]+):\S+ tclass=(\S+)')


TAIL = '/tail'


Run = namedtuple('Run', 'res aud info tres taud lab tlab')


def read_run(path):
    """-> results, audit, phase info, tail results, tail audit, labels,
    tail labels; the tail run's keys carry the phase's own name"""
    res, aud, info = {}, defaultdict(list), {}
    tres, taud = {}, defaultdict(list)
    lab, tlab = {}, {}
    for line in open(path, errors='replace'):
        f = line.rstrip('\n').split(' ')
        tail = len(f) > 1 and f[1].endswith(TAIL)
        if tail:
            f[1] = f[1][:-len(TAIL)]
        if f[0] == 'R' and len(f) == 7:
            (tres if tail else res)[tuple(f[1:6])] = f[6]
        elif f[0] == 'L' and len(f) == 7:
            d = tlab if tail else lab
            if tuple(f[1:6]) in d:
                d[tuple(f[1:6])] += ' AND ' + f[6]
            else:
                d[tuple(f[1:6])] = f[6]
        elif f[0] == 'A' and len(f) > 6:
            (taud if tail else aud)[tuple(f[1:6])].append(' '.join(f[6:]))
        elif f[0] == 'P':
            info[f[1]] = dict(x.split('=', 1) for x in f[2:])
    return Run(res, aud, info, tres, taud, lab, tlab)


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


def lfmt(key):
    """a label's key, for messages"""
    what = 'the process exec\'d in' if key[2] == 'prog' else 'the object of'
    return f'phase {key[0]}, domain {key[1]}, {what} {" ".join(key[2:])}'


def check(policydir, objects, phasesf, summary, runs):
    objs = read_objects(objects)
    phases = read_phases(phasesf)
    names = [p['name'] for p in phases]
    exp, exp_aud, exp_lab = predict(policydir, objs, phases)
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
        res, aud, info, tres = data[k][:4]
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
    #    and the labels of created objects and exec'd processes
    for k in kernels[1:]:
        for tag, l0, l1 in (('', data[ref].lab, data[k].lab),
                            ('tail ', data[ref].tlab, data[k].tlab)):
            for key in sorted(set(l0) | set(l1)):
                if l0.get(key) != l1.get(key):
                    fail(f'LABEL-DIFF {tag}{lfmt(key)}: {ref} {l0.get(key, "(none)")}, '
                         f'{k} {l1.get(key, "(none)")}')
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
    #    labels: every label a run has, and every one the prediction has
    #    for a case whose outcome is the predicted one, main and tail runs
    nlabel = defaultdict(int)
    for k in kernels:
        run = data[k]
        for tag, res, labs in (('', run.res, run.lab), ('tail ', run.tres, run.tlab)):
            for key in sorted(set(labs) | {x for x in exp_lab if res.get(x) == exp[x]}):
                want, got = exp_lab.get(key), labs.get(key)
                if key in exp_lab:
                    nlabel[k] += 1
                if want != got:
                    fail(f'LABEL-EXPECT {k}: {tag}{lfmt(key)}: expected {want or "(none)"}, '
                         f'got {got or "(none)"}')
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
            labs = data[k].lab
            for key in sorted({x[1:] for x in labs if x[0] in (ph['same'], ph['name'])}):
                l0, l1 = labs.get((ph['same'],) + key), labs.get((ph['name'],) + key)
                if l0 != l1:
                    fail(f'REPEAT-LABEL {k}: {lfmt((ph["name"],) + key)}: {l1 or "(none)"}, '
                         f'but {ph["same"]} gave {l0 or "(none)"}')
    # 5. the tail run of each phase repeats its domain's results in the
    #    phase; its audit records too, unless permissive grants (enforce=0,
    #    or a permissive domain) have already silenced the denials
    pols = {}
    ntail = 0
    for k in kernels:
        res, aud, _, tres, taud = data[k][:5]
        for ph in phases:
            if ph['policy'] not in pols:
                pols[ph['policy']] = Policy(f"{policydir}/{ph['policy']}.conf")
            td = ph['tail']
            for key in sorted(x for x in res if x[0] == ph['name'] and x[1] == td):
                ntail += 1
                if tres.get(key) != res[key]:
                    fail(f'REPEAT-TAIL {k}: {fmt(key)}: tail run {tres.get(key)}, '
                         f'but the phase gave {res[key]}')
                if data[k].tlab.get(key) != data[k].lab.get(key):
                    fail(f'REPEAT-TAIL-LABEL {k}: {lfmt(key)}: tail run '
                         f'{data[k].tlab.get(key, "(none)")}, but the phase gave '
                         f'{data[k].lab.get(key, "(none)")}')
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
                 f'{sum(len(objs[x]) for x in OBJ_KINDS)} object types, '
                 f'{sum(len(v) for v in OPS.values())} operations; '
                 f'{len(exp) // len(names)} cases per phase, {len(names)} phases, {len(exp)} cases')
    for ph in phases:
        counts = defaultdict(int)
        for key, v in exp.items():
            if key[0] == ph['name']:
                counts['ok' if v in GRANTED else 'denied'] += 1
        labs = [v for key, v in exp_lab.items() if key[0] == ph['name']]
        lines.append(f'  phase {ph["name"]:<11} policy={ph["policy"]} enforce={int(ph["enforce"])} '
                     f'm_bool={int(ph["bool"])}: {per_phase[ph["name"]]} cases, '
                     f'{counts["ok"]} allowed, {counts["denied"]} denied, '
                     f'{len(labs)} labels ({len(set(labs))} distinct) (expected)'
                     + (f', must equal {ph["same"]}' if ph['same'] else '')
                     + (f', objects relabelled {"->".join(ph["relabel"])}' if ph['relabel'] else ''))
    for k in kernels:
        res, aud, info, tres, taud, lab, tlab = data[k]
        nrec = sum(len(v) for v in aud.values()) + sum(len(v) for v in taud.values())
        lines.append(f'  {k}: {len(res)} results + {len(tres)} tail, {nrec} audit records '
                     f'({sum(int(i.get("records", 0)) for i in info.values())} reported by the guest), '
                     f'{len(lab)} labels + {len(tlab)} tail '
                     f'({sum(int(i.get("labels", 0)) for i in info.values())} reported by the guest)')
    lines.append(f'  audit predictions checked: {len(exp_aud)} cases per kernel')
    nchecks = sum(nlabel.values())
    lines.append(f'  label checks (created objects\' and exec\'d processes\' labels against the '
                 f'policy source, tail runs included; compared across kernels too): '
                 + ', '.join(f'{k} {nlabel[k]}' for k in kernels) + f', {nchecks} in all')
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
            return exp[x] in GRANTED
        lines.append(f'  relabel {ph["name"]} ({"->".join(ph["relabel"])}): {len(chg)} of {len(ex)} '
                     f'expected outcomes differ from {prev["name"]} '
                     f'({sum(1 for x in chg if not grant(x))} now denied, '
                     f'{sum(1 for x in chg if grant(x))} now allowed; lead {ph["lead"]}: '
                     f'{sum(1 for x in lead if not grant(x))} denied, {sum(1 for x in lead if grant(x))} allowed)')
        lch = [x for x in exp_lab if x[0] == ph['name'] and
               (prev['name'],) + x[1:] in exp_lab and exp_lab[(prev['name'],) + x[1:]] != exp_lab[x]]
        lines.append(f'    and {len(lch)} expected labels of objects created or processes exec\'d '
                     f'in both phases differ')
        for k in kernels:
            res, lab = data[k].res, data[k].lab
            got = sum(1 for x in ex if x in res and (prev['name'],) + x[1:] in res
                      and res[(prev['name'],) + x[1:]] != res[x])
            gotl = sum(1 for x in lab if x[0] == ph['name'] and (prev['name'],) + x[1:] in lab
                       and lab[(prev['name'],) + x[1:]] != lab[x])
            lines.append(f'    {k}: {got} outcomes and {gotl} labels differ from {prev["name"]}')
    lines.append('  tail runs (the next phase\'s lead domain again at the end of each phase: '
                 + ', '.join(f'{ph["name"]}->{ph["tail"]}' for ph in phases) + '): '
                 f'{ntail // max(len(kernels), 1)} results per kernel must repeat the phase\'s')
    lines.append(f'matrix: {"PASS" if not bad else "FAIL"}: {bad} differences '
                 f'({" vs ".join(kernels)}, and against the policy source); '
                 f'{nchecks} label checks')
    text = '\n'.join(lines) + '\n'
    print(text, end='')
    with open(summary, 'w') as f:
        f.write(text)
    return 1 if bad else 0


def main(argv):
    if len(argv) >= 5 and argv[0] == 'expect':
        res, _, lab = predict(argv[1], read_objects(argv[2]), read_phases(argv[3]))
        with open(argv[4], 'w') as f:
            for key in res:
                f.write(f'R {fmt(key)} {res[key]}\n')
                if lab.get(key):
                    f.write(f'L {fmt(key)} {lab[key]}\n')
        return 0
    if len(argv) >= 6 and argv[0] == 'check':
        return check(argv[1], argv[2], argv[3], argv[4], argv[5:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
