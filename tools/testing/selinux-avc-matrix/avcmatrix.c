// SPDX-License-Identifier: GPL-2.0
/*
 * avcmatrix - SELinux decision matrix for the qemu guest.
 *
 *   avcmatrix run PHASE OUT    (unconfined) for every domain in
 *                              /matrix/objects.conf: build fresh fixtures,
 *                              run "avcmatrix child" in the domain, collect
 *                              its results and the AVC audit records it
 *                              caused; append them to OUT
 *   avcmatrix child            (in a matrix domain) perform every case,
 *                              print "KIND TYPE OP OUTCOME" per case (and
 *                              "label KIND TYPE OP CONTEXT" after a prog
 *                              case that saw the new process's context)
 *   avcmatrix load POLICY      load a binary policy
 *   avcmatrix label TYPE FILE...  label files system_u:object_r:TYPE:s0
 *
 * Every case is one real system call (or a short fixed sequence) on an
 * object of one type; OUTCOME is "ok", an errno name, "revoked" (an
 * inherited descriptor was replaced by SELinux at exec) or "sigN".
 * Objects include processes: for each "proc" type of objects.conf the
 * parent starts, at the beginning of the phase, a target process in that
 * domain ("avcmatrix target": ignores SIGUSR1, waits) and a zombie in it
 * ("avcmatrix zombie", not reaped until the phase ends; SIGKILL is sent
 * to it), and passes their pids to every child.  The kinds cap, mem, tcp,
 * udp and netlink have one fixed "type" each (self, lo, route): the
 * domain's own capabilities and executable memory, loopback sockets
 * (the parent's TCP listener and UDP socket) and a netlink route socket.
 * Before each case the child stats /tmp/m/mark, whose getattr is
 * auditallow'ed: the granted record it leaves in the audit stream tells
 * the parent which case the records that follow belong to.  At the end of
 * a phase the parent stats /tmp/m/sentinel (auditallow'ed for kernel_t) and
 * reads /dev/kmsg until that record arrives, so no record is missed.
 *
 * Labels: the cases that create an object (the "create" kind, one object
 * of each class in a directory of each creation type, under a name that
 * a named type_transition matches and under one it does not, and the dir
 * kind's mkdir, create, mkfifo and bind) leave it in place; after the
 * child exits, the parent reads the label of each one a case created
 * (lgetxattr security.selinux) and records it ("L" lines), then removes
 * them.  The "prog" cases exec a copy of selfcon labelled with the prog
 * type, whose standard output is a pipe the parent gave the child: it
 * writes the context it runs in there, and the child records it ("label
 * KIND TYPE OP CONTEXT" in its output, an "L" line in the parent's).
 *
 * Each phase names a lead domain in /matrix/phases.conf: the domain the
 * phase's change (policy load, boolean or enforce) takes something from.
 * A phase runs its lead domain first, then the others in objects.conf
 * order.  After the last domain the parent runs the next phase's lead
 * domain once more, the "tail" run, reported as phase "PHASE/tail"
 * (results and audit records collected separately, behind a sentinel of
 * their own).  The decisions it leaves in the AVC are the last ones
 * before the next phase's change, and the next phase starts with the
 * same domain and the same cases: a kernel that keeps a decision across
 * that change answers the next phase's first cases from it.  Every other
 * domain, the always-permissive one in particular, runs before the tail.
 *
 * A relabel phase ("relabel=FROM,TO" in phases.conf; FROM and TO are
 * "base", the types of objects.conf, or a map of "relabel MAP TYPE NEW"
 * lines in objects.conf) runs every domain (the tail too) twice on the
 * same objects: a warm-up child on objects labelled FROM, whose results
 * and audit records are dropped, then the parent puts the objects back
 * as the fixtures had them (what the warm-up created is removed, what it
 * removed is made again; the files, directories, FIFOs and socket files
 * it used keep their inodes, the inherited descriptors stay open in the
 * parent, the listeners keep listening) and relabels all of them to TO
 * with setxattr, and the recorded child runs.  Its cases find the inodes,
 * open files and sockets with the decisions the warm-up left on them,
 * taken for the old label; they must be decided for the new one.
 * Results keep the objects.conf type as the case's name.
 */
#include "common.h"

#include <dirent.h>
#include <ftw.h>
#include <stddef.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <linux/keyctl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <mqueue.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <termios.h>

#define MAXT		16
#define TOP		"/tmp/m"
#define W		TOP "/w"
#define SOCKDIR		TOP "/s"
#define MARK		TOP "/mark"
#define SENTINEL	TOP "/sentinel"
#define CDIR		W "/n"
#define XDIR		W "/x"
#define EXIT0		"/matrix/exit0"
#define SELFCON		"/matrix/selfcon"
#define SELF		"/matrix/avcmatrix"
#define FD_R(i)		(10 + 2 * (i))
#define FD_W(i)		(11 + 2 * (i))
#define FD_A(i)		(30 + (i))	/* O_WRONLY | O_APPEND */
#define FD_P(j)		(44 + (j))
#define FD_LR		60	/* the label pipe of the prog cases */
#define FD_LW		61
#define FD_Q(j)		(62 + (j))	/* an mq type's queue, O_RDONLY */
#define MAXCASES	4096
#define MAXREC		1024
/* Loopback: the parent's TCP listener and UDP receiver, and the ports the
 * bind cases ask for: one outside the local (ephemeral) port range, which
 * takes name_bind, and one below 1024, which takes net_bind_service too */
#define PORT_TCP	5000
#define PORT_UDP	5001
#define PORT_HI		61000
#define PORT_LO		80
/*
 * SysV IPC keys: ipc type i owns a message queue, a semaphore set and a
 * shared memory segment with keys IPC_KEY(i) + 0, 1, 2; the sysv cases
 * create their own with IPC_KEY_NEW + 0, 1, 2.  POSIX message queues: mq
 * type T is the queue "/T" (and "/T.u" for the unlink case), created by
 * the parent on the mqueue filesystem mounted at MQDIR and labelled
 * there; the mqueue case creates MQNEW.  Keys: key type T is the user key
 * "mx:T" in the session keyring the parent makes for each phase,
 * labelled T through /proc/self/attr/keycreate.
 */
#define IPC_KEY(i)	(0x4d580000 + 16 * (i))
#define IPC_KEY_NEW	0x4d58ff00
#define MQDIR		"/dev/mqueue"
#define MQNEW		"mxnew"
#define KEY_PERM_ALL	0x3f3f3f3f

enum {
	K_DOMAIN, K_FILE, K_DIR, K_FIFO, K_SOCK, K_CREATE, K_PROG, K_PROC,
	K_IPC, K_MQ, K_KEY, NKINDS
};
static const char *const kinds[] = {
	"domain", "file", "dir", "fifo", "sock", "create", "prog", "proc",
	"ipc", "mq", "key"
};

struct config {
	char *v[NKINDS][MAXT];
	int n[NKINDS];
	/* "relabel MAP TYPE NEW" lines */
	char *map[4 * MAXT][3];
	int nmap;
};

static struct config cfg;

/*
 * The objects cases create: NAME in the directory of the case's type
 * (W/d/TYPE for the dir kind, W/n/TYPE for the create kind).  The parent
 * reads the label of each one whose case returned "ok".
 */
static const struct made {
	int kind;
	const char *op, *name;
} made[] = {
	{ K_DIR, "mkdir", "nd" },
	{ K_DIR, "create", "nf" },
	{ K_DIR, "mkfifo", "ff" },
	{ K_DIR, "bind", "sk" },
	{ K_CREATE, "file", "f" },
	{ K_CREATE, "magic", "magic" },	/* the name of the named type_transitions */
	{ K_CREATE, "dir", "d" },
	{ K_CREATE, "fifo", "p" },
	{ K_CREATE, "sock", "s" },
	{ K_CREATE, "lnk", "l" },
	{ K_CREATE, "chr", "c" },
};
#define NMADE	(int)(sizeof(made) / sizeof(made[0]))

/* The path of the object that op OP of KIND creates in TYPE's directory */
static char *made_path(char *buf, size_t size, int kind, const char *type,
		       const char *op)
{
	int i;

	for (i = 0; i < NMADE; i++)
		if (made[i].kind == kind && !strcmp(made[i].op, op))
			break;
	if (i == NMADE) {
		errno = EINVAL;
		die("no object for %s %s", kinds[kind], op);
	}
	snprintf(buf, size, "%s/%s/%s", kind == K_DIR ? W "/d" : CDIR,
		 type, made[i].name);
	return buf;
}

static void read_config(void)
{
	char line[256], kind[32], name[64];
	FILE *f = fopen("/matrix/objects.conf", "re");
	int k;

	if (!f)
		die("open /matrix/objects.conf");
	while (fgets(line, sizeof(line), f)) {
		char from[64], to[64];

		if (line[0] == '#' || sscanf(line, "%31s %63s", kind, name) != 2)
			continue;
		if (!strcmp(kind, "relabel")) {
			if (sscanf(line, "%*s %*s %63s %63s", from, to) != 2 ||
			    cfg.nmap == 4 * MAXT) {
				errno = EINVAL;
				die("objects.conf: bad line '%s'", line);
			}
			cfg.map[cfg.nmap][0] = strdup(name);
			cfg.map[cfg.nmap][1] = strdup(from);
			cfg.map[cfg.nmap][2] = strdup(to);
			cfg.nmap++;
			continue;
		}
		for (k = 0; k < NKINDS; k++)
			if (!strcmp(kind, kinds[k]))
				break;
		if (k == NKINDS || cfg.n[k] == MAXT) {
			errno = EINVAL;
			die("objects.conf: bad line '%s'", line);
		}
		cfg.v[k][cfg.n[k]++] = strdup(name);
	}
	fclose(f);
}

/* The label of objects of objects.conf type TYPE under MAP ("base": TYPE) */
static const char *lt(const char *map, const char *type)
{
	int i;

	if (!map || !strcmp(map, "base"))
		return type;
	for (i = 0; i < cfg.nmap; i++)
		if (!strcmp(cfg.map[i][0], map) && !strcmp(cfg.map[i][1], type))
			return cfg.map[i][2];
	return type;
}

/* Relabel phase: the labels of the warm-up run and of the recorded run */
static char *relabel_from, *relabel_to;

static int domain_index(const char *name)
{
	int i;

	for (i = 0; i < cfg.n[K_DOMAIN]; i++)
		if (!strcmp(name, cfg.v[K_DOMAIN][i]))
			return i;
	errno = EINVAL;
	die("phases.conf: '%s' is not a domain in objects.conf", name);
	return -1;
}

/*
 * From /matrix/phases.conf ("NAME POLICY ENFORCE BOOL LEAD [SAME_AS]"):
 * PHASE's lead domain, and the domain of its tail run, which is the next
 * phase's lead (the last phase repeats its own).
 */
static void read_leads(const char *phase, int *lead, int *tail)
{
	char line[256], name[64], dom[64], opt[4][64];
	FILE *f = fopen("/matrix/phases.conf", "re");
	int found = 0, n, i;
	char *comma;

	if (!f)
		die("open /matrix/phases.conf");
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || sscanf(line, "%63s %*s %*s %*s %63s", name, dom) != 2)
			continue;
		if (found) {
			*tail = domain_index(dom);
			break;
		}
		if (!strcmp(name, phase)) {
			*lead = *tail = domain_index(dom);
			found = 1;
			n = sscanf(line, "%*s %*s %*s %*s %*s %63s %63s %63s %63s",
				   opt[0], opt[1], opt[2], opt[3]);
			for (i = 0; i < n; i++) {
				if (strncmp(opt[i], "relabel=", 8))
					continue;
				comma = strchr(opt[i], ',');
				if (!comma) {
					errno = EINVAL;
					die("phases.conf: %s: want relabel=FROM,TO", phase);
				}
				*comma = '\0';
				relabel_from = strdup(opt[i] + 8);
				relabel_to = strdup(comma + 1);
			}
		}
	}
	fclose(f);
	if (!found) {
		errno = ENOENT;
		die("phase %s is not in /matrix/phases.conf", phase);
	}
}

/* ------------------------------------------------------------------ */
/* The child: runs in a matrix domain. */

static char outbuf[1 << 17];
static size_t outlen;

/* Result of a call that returns -1 with errno on failure. */
static const char *res(long r)
{
	return errname(r < 0 ? errno : 0);
}

static void __attribute__((format(printf, 1, 2))) out(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(outbuf + outlen, sizeof(outbuf) - outlen, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(outbuf) - outlen) {
		errno = ENOSPC;
		die("result buffer");
	}
	outlen += n;
}

static void emit(const char *kind, const char *type, const char *op,
		 const char *outcome)
{
	out("%s %s %s %s\n", kind, type, op, outcome);
}

/* The label case KIND TYPE OP saw: "label KIND TYPE OP CONTEXT" */
static void emit_label(const char *kind, const char *type, const char *op,
		       const char *ctx)
{
	out("label %s %s %s %s\n", kind, type, op, ctx);
}

static void marker(void)
{
	struct stat st;

	if (stat(MARK, &st))
		die("stat " MARK);
}

#define CASE(kind, type, op, expr)			\
	do {						\
		marker();				\
		emit(kind, type, op, (expr));		\
	} while (0)

/* Is inherited FD still the file at PATH, or did exec replace it? */
static int inherited(int fd, const char *path)
{
	char link[64], buf[256];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, sizeof(buf) - 1);
	if (n < 0)
		return 0;
	buf[n] = '\0';
	return !strcmp(buf, path);
}

static const char *do_open(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC, 0644);

	if (fd < 0)
		return errname(errno);
	close(fd);
	return "ok";
}

/* Wait for PID: "sigN" if a signal killed it, else its exit status as errno */
static const char *waited(pid_t pid)
{
	static char buf[16];
	int status;

	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (WIFSIGNALED(status)) {
		snprintf(buf, sizeof(buf), "sig%d", WTERMSIG(status));
		return buf;
	}
	return errname(WEXITSTATUS(status));
}

static const char *do_exec(const char *path)
{
	char *argv[] = { (char *)path, NULL };
	pid_t pid;

	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		syscall(SYS_close_range, 3, ~0U, 0);
		execv(path, argv);
		_exit(errno);
	}
	return waited(pid);
}

/*
 * Exec PATH, a copy of selfcon, with nothing open but the label pipe as
 * standard output; the context it writes there goes to CTX ("" if none).
 */
static const char *do_exec_con(const char *path, char *ctx, size_t size)
{
	char *argv[] = { (char *)path, NULL };
	const char *r;
	ssize_t n;
	pid_t pid;

	while (read(FD_LR, ctx, size) > 0)
		;
	ctx[0] = '\0';
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		if (dup2(FD_LW, 1) < 0)
			_exit(errno);
		close(0);
		close(2);
		syscall(SYS_close_range, 3, ~0U, 0);
		execv(path, argv);
		_exit(errno);
	}
	r = waited(pid);
	n = read(FD_LR, ctx, size - 1);
	ctx[n > 0 ? n : 0] = '\0';	/* the context ends with a NUL already */
	ctx[strcspn(ctx, " \n")] = '\0';
	return r;
}

static const char *do_fstat(const char *path)
{
	struct stat st;
	int fd = open(path, O_PATH | O_CLOEXEC), r;

	if (fd < 0)
		return errname(errno);
	r = fstat(fd, &st);
	r = r ? errno : 0;
	close(fd);
	return errname(r);
}

static const char *do_ioctl(int fd)
{
	struct termios t;

	return res(ioctl(fd, TCGETS, &t));
}

/*
 * Other ioctl commands, checked against the allowxperm rules: TIOCGWINSZ
 * (0x5413, the same driver as TCGETS), _IO(0xab, 1) (another driver); no
 * tmpfs file has either (ENOTTY)
 */
static const char *do_ioctl_cmd(int fd, unsigned long cmd)
{
	struct winsize w;

	return res(ioctl(fd, cmd, &w));
}

static const char *do_ls(const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long r;

	if (fd < 0)
		return errname(errno);
	r = syscall(SYS_getdents64, fd, buf, sizeof(buf));
	r = r < 0 ? errno : 0;
	close(fd);
	return errname(r);
}

static int unix_addr(struct sockaddr_un *sa, const char *path)
{
	size_t len = strlen(path);

	if (len >= sizeof(sa->sun_path)) {
		errno = ENAMETOOLONG;
		die("socket path %s", path);
	}
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path, path, len);
	return sizeof(*sa);
}

/* socket(TYPE), then bind/connect/sendto PATH (op 0/1/2); 3: just create */
static const char *do_sock(int type, int op, const char *path)
{
	struct sockaddr_un sa;
	int s = socket(AF_UNIX, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int len, r = 0;

	if (s < 0)
		return errname(errno);
	if (path) {
		len = unix_addr(&sa, path);
		if (op == 0)
			r = bind(s, (struct sockaddr *)&sa, len);
		else if (op == 1)
			r = connect(s, (struct sockaddr *)&sa, len);
		else
			r = sendto(s, "x", 1, 0, (struct sockaddr *)&sa, len) == 1 ? 0 : -1;
	}
	r = r ? errno : 0;
	close(s);
	return errname(r);
}

static const char *do_pipe(int ioc)
{
	char c = 'x';
	int p[2], r = 0;

	if (pipe2(p, O_CLOEXEC))
		return errname(errno);
	if (ioc)
		r = ioctl(p[0], TCGETS, &(struct termios){ 0 });
	else if (write(p[1], &c, 1) != 1 || read(p[0], &c, 1) != 1)
		r = -1;
	r = r ? errno : 0;
	close(p[0]);
	close(p[1]);
	return errname(r);
}

/* Run FN(ARG) in a forked child (what it changes dies with it); its result */
static const char *in_child(int (*fn)(long), long arg)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid)
		_exit(fn(arg) < 0 ? errno : 0);
	return waited(pid);
}

static int op_setuid(long a) { return setuid(1000); }
static int op_setgid(long a) { return setgid(1000); }
static int op_chroot(long a) { return chroot("/"); }
static int op_nice(long a) { return setpriority(PRIO_PROCESS, 0, -1); }

/*
 * Make executable: 0 an anonymous mapping (mmap), 1 an anonymous mapping
 * made executable later (mprotect), 2 a page of the heap, 3 a page of the
 * stack (mprotect).
 */
static int op_exec_mem(long what)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p, *brk0;
	int r;

	if (what == 0) {
		p = mmap(NULL, pg, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return -1;
		munmap(p, pg);
		return 0;
	}
	if (what == 1) {
		p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			die("mmap");
		r = mprotect(p, pg, PROT_READ | PROT_EXEC);
		munmap(p, pg);
		return r;
	}
	if (what == 2) {
		/*
		 * SELinux takes a mapping for the heap if it lies within
		 * [start_brk, brk): end the heap on a page boundary.
		 */
		brk0 = sbrk(0);
		p = (char *)(((unsigned long)brk0 + pg - 1) & ~(pg - 1)) + pg;
		if (brk(p))
			die("brk");
		return mprotect(p - pg, pg, PROT_READ | PROT_WRITE | PROT_EXEC);
	}
	p = (char *)((unsigned long)&r & ~(pg - 1));
	return mprotect(p, pg, PROT_READ | PROT_WRITE | PROT_EXEC);
}

/*
 * Map the file PATH (opened read-only): 0 shared, readable; 1 private,
 * readable and executable; 2 private, writable and executable; 3 private
 * readable, then mprotect executable; 4 private writable, one page
 * written (copy on write), then mprotect executable.
 */
static const char *do_mmap(const char *path, int what)
{
	static const int prot[] = {
		PROT_READ, PROT_READ | PROT_EXEC, PROT_READ | PROT_WRITE | PROT_EXEC,
		PROT_READ, PROT_READ | PROT_WRITE
	};
	long pg = sysconf(_SC_PAGESIZE);
	int fd = open(path, O_RDONLY | O_CLOEXEC), r = 0;
	char *p;

	if (fd < 0)
		return errname(errno);
	p = mmap(NULL, pg, prot[what], what ? MAP_PRIVATE : MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		r = errno;
	} else {
		if (what == 4)
			p[0] ^= 1;
		if (what >= 3 && mprotect(p, pg, PROT_READ | PROT_EXEC))
			r = errno;
		munmap(p, pg);
	}
	close(fd);
	return errname(r);
}

/* Target processes: pid[i] runs in the domain of proc type i, zpid[i] is
 * a zombie in it (from the child's command line) */
static pid_t tpid[MAXT], zpid[MAXT];

/* PTRACE_SEIZE PID; if allowed, stop it, wait for the stop and detach */
static const char *do_ptrace(pid_t pid)
{
	int st;

	if (ptrace(PTRACE_SEIZE, pid, 0, 0))
		return errname(errno);
	if (ptrace(PTRACE_INTERRUPT, pid, 0, 0) || waitpid(pid, &st, __WALL) != pid ||
	    ptrace(PTRACE_DETACH, pid, 0, 0))
		die("ptrace %d", pid);
	return "ok";
}

static struct sockaddr_in lo_addr(int port)
{
	struct sockaddr_in a;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

enum { IN_CREATE, IN_BIND, IN_BIND_HI, IN_BIND_LO, IN_LISTEN, IN_CONNECT, IN_SEND };

/* A fresh inet socket of TYPE, then OP on 127.0.0.1 (blocking) */
static const char *do_inet(int type, int op)
{
	struct sockaddr_in a;
	int s = socket(AF_INET, type | SOCK_CLOEXEC, 0), r = 0;

	if (s < 0)
		return errname(errno);
	switch (op) {
	case IN_BIND:
	case IN_BIND_HI:
	case IN_BIND_LO:
		a = lo_addr(op == IN_BIND ? 0 : op == IN_BIND_HI ? PORT_HI : PORT_LO);
		r = bind(s, (struct sockaddr *)&a, sizeof(a));
		break;
	case IN_LISTEN:
		r = listen(s, 1);
		break;
	case IN_CONNECT:
		a = lo_addr(type == SOCK_STREAM ? PORT_TCP : PORT_UDP);
		r = connect(s, (struct sockaddr *)&a, sizeof(a));
		break;
	case IN_SEND:
		a = lo_addr(PORT_UDP);
		r = sendto(s, "x", 1, 0, (struct sockaddr *)&a, sizeof(a)) == 1 ? 0 : -1;
		break;
	}
	r = r ? errno : 0;
	close(s);
	return errname(r);
}

/* A netlink route socket; DUMP: ask for the links (RTM_GETLINK dump) and
 * read the first answer */
static const char *do_netlink(int dump)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
	} req;
	char buf[8192];
	int s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE), r = 0;

	if (s < 0)
		return errname(errno);
	if (dump) {
		memset(&req, 0, sizeof(req));
		req.nh.nlmsg_len = sizeof(req);
		req.nh.nlmsg_type = RTM_GETLINK;
		req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		req.nh.nlmsg_seq = 1;
		req.ifi.ifi_family = AF_UNSPEC;
		if (send(s, &req, sizeof(req), 0) != sizeof(req) ||
		    recv(s, buf, sizeof(buf), MSG_DONTWAIT) <= 0)
			r = errno;
	}
	close(s);
	return errname(r);
}

/* The SysV IPC objects of each ipc type, the serial of each key type */
static int msq_id[MAXT], sem_id[MAXT], shm_id[MAXT];
static long key_serial[MAXT];

/*
 * "PID,ZPID" per proc type, then "MSQID,SEMID,SHMID" per ipc type, then
 * a serial per key type, in objects.conf order
 */
static void read_targets(int argc, char **argv)
{
	int i, np = cfg.n[K_PROC], ni = cfg.n[K_IPC];

	if (argc != np + ni + cfg.n[K_KEY]) {
		errno = EINVAL;
		die("%d arguments for %d proc, %d ipc and %d key types", argc,
		    np, ni, cfg.n[K_KEY]);
	}
	for (i = 0; i < argc; i++) {
		if (i < np ? sscanf(argv[i], "%d,%d", &tpid[i], &zpid[i]) == 2 :
		    i < np + ni ? sscanf(argv[i], "%d,%d,%d", &msq_id[i - np],
					 &sem_id[i - np], &shm_id[i - np]) == 3 :
		    sscanf(argv[i], "%ld", &key_serial[i - np - ni]) == 1)
			continue;
		errno = EINVAL;
		die("argument '%s'", argv[i]);
	}
}

/* semctl()'s fourth argument */
union semun {
	int val;
	struct semid_ds *buf;
};

static const char *do_shmat(int id, int flags)
{
	void *p = shmat(id, NULL, flags);

	if (p == (void *)-1)
		return errname(errno);
	if (shmdt(p))
		die("shmdt");
	return "ok";
}

/* The permissions IPC_SET gives the objects: as they were made */
static struct ipc_perm ipc_set_perm(void)
{
	struct ipc_perm p;

	memset(&p, 0, sizeof(p));
	p.mode = 0666;
	return p;
}

static const char *do_msgrcv(int id)
{
	struct {
		long type;
		char text[16];
	} m;

	return res(msgrcv(id, &m, sizeof(m.text), 0, IPC_NOWAIT) < 0 ? -1 : 0);
}

static const char *do_msgsnd(int id)
{
	struct {
		long type;
		char text[1];
	} m = { 1, { 'x' } };

	return res(msgsnd(id, &m, 1, IPC_NOWAIT));
}

/* The SysV IPC cases on the objects of ipc type I, named T */
static void ipc_cases(int i, const char *t)
{
	union semun arg;
	struct msqid_ds mds;
	struct semid_ds sds;
	struct shmid_ds hds;
	struct sembuf op = { 0, 1, IPC_NOWAIT };

	CASE("ipc", t, "msg_get", res(msgget(IPC_KEY(i), 0666)));
	CASE("ipc", t, "msg_stat", res(msgctl(msq_id[i], IPC_STAT, &mds)));
	memset(&mds, 0, sizeof(mds));
	mds.msg_perm = ipc_set_perm();
	mds.msg_qbytes = 16384;		/* MSGMNB: more would take CAP_SYS_RESOURCE */
	CASE("ipc", t, "msg_set", res(msgctl(msq_id[i], IPC_SET, &mds)));
	/* the one message the parent left in the queue, then one more */
	CASE("ipc", t, "msg_rcv", do_msgrcv(msq_id[i]));
	CASE("ipc", t, "msg_snd", do_msgsnd(msq_id[i]));
	CASE("ipc", t, "msg_rm", res(msgctl(msq_id[i], IPC_RMID, NULL)));

	CASE("ipc", t, "sem_get", res(semget(IPC_KEY(i) + 1, 0, 0666)));
	arg.buf = &sds;
	CASE("ipc", t, "sem_stat", res(semctl(sem_id[i], 0, IPC_STAT, arg)));
	CASE("ipc", t, "sem_getval", res(semctl(sem_id[i], 0, GETVAL)));
	arg.val = 0;
	CASE("ipc", t, "sem_setval", res(semctl(sem_id[i], 0, SETVAL, arg)));
	CASE("ipc", t, "sem_op", res(semop(sem_id[i], &op, 1)));
	memset(&sds, 0, sizeof(sds));
	sds.sem_perm = ipc_set_perm();
	arg.buf = &sds;
	CASE("ipc", t, "sem_set", res(semctl(sem_id[i], 0, IPC_SET, arg)));
	CASE("ipc", t, "sem_rm", res(semctl(sem_id[i], 0, IPC_RMID)));

	CASE("ipc", t, "shm_get", res(shmget(IPC_KEY(i) + 2, 0, 0666)));
	CASE("ipc", t, "shm_stat", res(shmctl(shm_id[i], IPC_STAT, &hds)));
	memset(&hds, 0, sizeof(hds));
	hds.shm_perm = ipc_set_perm();
	CASE("ipc", t, "shm_set", res(shmctl(shm_id[i], IPC_SET, &hds)));
	CASE("ipc", t, "shm_at_r", do_shmat(shm_id[i], SHM_RDONLY));
	CASE("ipc", t, "shm_at_w", do_shmat(shm_id[i], 0));
	/* SHM_UNLOCK: shm lock, then (not needed by the owner) CAP_IPC_LOCK */
	CASE("ipc", t, "shm_lock", res(shmctl(shm_id[i], SHM_UNLOCK, NULL)));
	CASE("ipc", t, "shm_rm", res(shmctl(shm_id[i], IPC_RMID, NULL)));
}

/* Open an existing POSIX message queue, close it */
static const char *do_mq_open(const char *name, int flags)
{
	mqd_t q = mq_open(name, flags | O_CLOEXEC);

	if (q == (mqd_t)-1)
		return errname(errno);
	mq_close(q);
	return "ok";
}

/*
 * Is FD still the parent's read-only descriptor of an mq type's queue?
 * At exec SELinux replaces one it revokes with a read-write one of its
 * null device.  (fstat() would ask for getattr on the queue.)
 */
static int inherited_mq(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl >= 0 && (fl & O_ACCMODE) == O_RDONLY;
}

static long keyctl(int cmd, long a, long b, long c, long d)
{
	return syscall(SYS_keyctl, cmd, a, b, c, d);
}

/* Set this process's key creation context to KEY_TYPE ARG's (in a child) */
static int op_keycreate(long i)
{
	char ctx[128];
	int fd, n;

	snprintf(ctx, sizeof(ctx), "system_u:object_r:%s:s0", cfg.v[K_KEY][i]);
	fd = open("/proc/self/attr/keycreate", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		die("open /proc/self/attr/keycreate");
	n = write(fd, ctx, strlen(ctx));
	close(fd);
	return n < 0 ? -1 : 0;
}

/* The key cases on key type I, named T */
static void key_cases(int i, const char *t)
{
	char buf[256], desc[80];
	long k = key_serial[i];

	CASE("key", t, "view", res(keyctl(KEYCTL_DESCRIBE, k, (long)buf, sizeof(buf), 0)));
	CASE("key", t, "read", res(keyctl(KEYCTL_READ, k, (long)buf, sizeof(buf), 0)));
	CASE("key", t, "write", res(keyctl(KEYCTL_UPDATE, k, (long)"data", 4, 0)));
	snprintf(desc, sizeof(desc), "mx:%s", t);
	CASE("key", t, "search", res(keyctl(KEYCTL_SEARCH, KEY_SPEC_SESSION_KEYRING,
					    (long)"user", (long)desc, 0)));
	CASE("key", t, "link", res(keyctl(KEYCTL_LINK, k, KEY_SPEC_SESSION_KEYRING, 0, 0)));
	CASE("key", t, "setattr", res(keyctl(KEYCTL_SETPERM, k, KEY_PERM_ALL, 0, 0)));
	CASE("key", t, "create", in_child(op_keycreate, i));
}

/* Create the queue MQNEW (default attributes: others take CAP_SYS_RESOURCE) */
static int do_mq_create(void)
{
	mqd_t q = mq_open("/" MQNEW, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644, NULL);

	if (q == (mqd_t)-1)
		return -1;
	mq_close(q);
	return 0;
}

/* ------------------------------------------------------------------ */
/*
 * Hook cases: one system call (or a short fixed sequence) per SELinux
 * hook that the cases above do not reach, or not with an enforced
 * denial.  Kinds (matrix.py HOOK_OPS): "hfs" (objects under HK, made by
 * hk_fixtures() before every child: a directory, a file, a symbolic link
 * and a subdirectory of their own types, mount points, two tmpfs mounted
 * there), "hproc" (the target processes: capget, prlimit, setpriority,
 * /proc/PID/attr/current), "htask" (the domain itself: PTRACE_TRACEME,
 * capset, setrlimit, an mmap below mmap_min_addr, lsm_set_self_attr,
 * /proc/self/attr/exec, syslog, setpgid, a dynamic transition to a
 * domain that may not fork, then a fork), "hsock" (AF_UNIX socket pairs, an
 * abstract listener, SCM_RIGHTS) and "hperf" (a software perf event).
 */
#define HK		TOP "/h"
#define HK_ABSTRACT	"avcmatrix-hook"	/* the abstract listener's name */

/* An outcome: "ok" also for ENODATA (a removexattr of a name not set) */
static const char *hk_res(long r)
{
	return r < 0 && errno == ENODATA ? "ok" : res(r);
}

static int hk_mmap_zero(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	/* below CONFIG_LSM_MMAP_MIN_ADDR (65536), above vm.mmap_min_addr */
	void *p = mmap((void *)0x8000, pg, PROT_READ,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	munmap(p, pg);
	return 0;
}

static int op_traceme(long a) { return ptrace(PTRACE_TRACEME, 0, 0, 0); }

static int op_capset(long a)
{
	struct { unsigned int version; int pid; } h = { 0x20080522, 0 };	/* v3 */
	struct { unsigned int eff, perm, inh; } d[2];

	if (syscall(SYS_capget, &h, d))
		die("capget");
	return syscall(SYS_capset, &h, d);
}

/* setrlimit(): lower the hard limit of RLIMIT_NOFILE by one */
static int op_setrlimit(long a)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		die("getrlimit");
	rl.rlim_max--;
	if (rl.rlim_cur > rl.rlim_max)
		rl.rlim_cur = rl.rlim_max;
	return setrlimit(RLIMIT_NOFILE, &rl);
}

/* lsm_set_self_attr(LSM_ATTR_FSCREATE, SELinux, "") (syscall 460) */
static long hk_setselfattr(void)
{
	struct {
		unsigned long long id, flags, len, ctx_len;
		unsigned char ctx[8];
	} c = { 101, 0, 32 + 1, 1, { 0 } };	/* LSM_ID_SELINUX */

	return syscall(460, 102, &c, sizeof(c), 0);	/* LSM_ATTR_FSCREATE */
}

/* Write "\n" (no context: nothing changes) to /proc/self/attr/NAME */
static const char *hk_procattr_write(const char *name)
{
	char p[64];
	int fd, r;

	snprintf(p, sizeof(p), "/proc/self/attr/%s", name);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errname(errno);
	r = write(fd, "\n", 1) == 1 ? 0 : errno;
	close(fd);
	return errname(r);
}

static const char *hk_procattr_read(pid_t pid)
{
	char p[64], buf[256];
	int fd, r;

	snprintf(p, sizeof(p), "/proc/%d/attr/current", pid);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errname(errno);
	r = read(fd, buf, sizeof(buf)) > 0 ? 0 : errno;
	close(fd);
	return errname(r);
}

/* prlimit() of another process: read its RLIMIT_NOFILE, or set it to
 * the caller's own (the same: every process inherits init's) */
static const char *hk_prlimit(pid_t pid, int set)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		die("getrlimit");
	return res(prlimit(pid, RLIMIT_NOFILE, set ? &rl : NULL, set ? NULL : &rl));
}

static const char *hk_capget(pid_t pid)
{
	struct { unsigned int version; int pid; } h = { 0x20080522, pid };
	struct { unsigned int eff, perm, inh; } d[2];

	return res(syscall(SYS_capget, &h, d));
}

enum { HS_NAME, HS_PEER, HS_GETOPT, HS_SETOPT, HS_SHUTDOWN, HS_RECV, HS_RIGHTS };

/* An AF_UNIX stream socket pair, then OP on it */
static const char *hk_pair(int op)
{
	union { struct cmsghdr h; char b[CMSG_SPACE(sizeof(int))]; } cb;
	struct iovec iov;
	struct msghdr m;
	struct sockaddr_un a;
	socklen_t len = sizeof(a);
	int s[2], p[2], v = 1, r = 0;
	char c = 'x';

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, s))
		return errname(errno);
	switch (op) {
	case HS_NAME:
		r = getsockname(s[0], (struct sockaddr *)&a, &len);
		break;
	case HS_PEER:
		r = getpeername(s[0], (struct sockaddr *)&a, &len);
		break;
	case HS_GETOPT:
		len = sizeof(v);
		r = getsockopt(s[0], SOL_SOCKET, SO_TYPE, &v, &len);
		break;
	case HS_SETOPT:
		r = setsockopt(s[0], SOL_SOCKET, SO_PASSCRED, &v, sizeof(v));
		break;
	case HS_SHUTDOWN:
		r = shutdown(s[0], SHUT_RDWR);
		break;
	case HS_RECV:
		r = send(s[0], &c, 1, 0) == 1 && recv(s[1], &c, 1, 0) == 1 ? 0 : -1;
		break;
	case HS_RIGHTS:
		/* a pipe's read end over SCM_RIGHTS: file_receive */
		if (pipe2(p, O_CLOEXEC))
			die("pipe");
		memset(&m, 0, sizeof(m));
		memset(&cb, 0, sizeof(cb));
		iov.iov_base = &c;
		iov.iov_len = 1;
		m.msg_iov = &iov;
		m.msg_iovlen = 1;
		m.msg_control = cb.b;
		m.msg_controllen = sizeof(cb.b);
		cb.h.cmsg_level = SOL_SOCKET;
		cb.h.cmsg_type = SCM_RIGHTS;
		cb.h.cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(&cb.h), &p[0], sizeof(int));
		if (sendmsg(s[0], &m, 0) != 1) {
			r = -1;
		} else {
			memset(&cb, 0, sizeof(cb));
			m.msg_controllen = sizeof(cb.b);
			if (recvmsg(s[1], &m, MSG_CMSG_CLOEXEC) != 1) {
				r = -1;
			} else if (m.msg_flags & MSG_CTRUNC) {
				/* the descriptor was refused */
				errno = EACCES;
				r = -1;
			} else if (m.msg_controllen >= CMSG_LEN(sizeof(int))) {
				memcpy(&v, CMSG_DATA(&cb.h), sizeof(int));
				close(v);
			}
		}
		close(p[0]);
		close(p[1]);
		break;
	}
	r = r ? errno : 0;
	close(s[0]);
	close(s[1]);
	return errname(r);
}

/* An abstract AF_UNIX listener: bind, listen, a client's connect, accept */
static const char *hk_accept(void)
{
	struct sockaddr_un a;
	socklen_t len = offsetof(struct sockaddr_un, sun_path) + 1 + strlen(HK_ABSTRACT);
	int l, c = -1, n, r = 0;

	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	memcpy(a.sun_path + 1, HK_ABSTRACT, strlen(HK_ABSTRACT));
	l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0)
		return errname(errno);
	if (bind(l, (struct sockaddr *)&a, len) || listen(l, 1)) {
		r = errno;
		goto out;
	}
	c = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&a, len)) {
		r = errno;
		goto out;
	}
	n = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	if (n < 0)
		r = errno;
	else
		close(n);
out:
	if (c >= 0)
		close(c);
	close(l);
	return errname(r);
}

/* A datagram socket pair: a send (unix_may_send) */
static const char *hk_dgram(void)
{
	int s[2], r;
	char c = 'x';

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, s))
		return errname(errno);
	r = send(s[0], &c, 1, 0) == 1 ? 0 : errno;
	close(s[0]);
	close(s[1]);
	return errname(r);
}

enum { HP_OPEN, HP_READ, HP_IOCTL };

/* A disabled software event of the caller (task clock, user space only),
 * then a read of it, or an ioctl (PERF_EVENT_IOC_RESET: perf_event write) */
static const char *hk_perf(int op)
{
	struct {
		unsigned int type, size;
		unsigned long long config, period, sample_type, read_format, flags;
		unsigned char pad[128];
	} attr;
	unsigned long long v;
	int fd, r = 0;

	memset(&attr, 0, sizeof(attr));
	attr.type = 1;				/* PERF_TYPE_SOFTWARE */
	attr.size = 128;			/* PERF_ATTR_SIZE_VER8 */
	attr.config = 1;			/* PERF_COUNT_SW_TASK_CLOCK */
	attr.flags = 1 | 1 << 5 | 1 << 6;	/* disabled, exclude_kernel, exclude_hv */
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 8 /* FD_CLOEXEC */);
	if (fd < 0)
		return errname(errno);
	if (op == HP_READ)
		r = read(fd, &v, sizeof(v)) == sizeof(v) ? 0 : errno;
	else if (op == HP_IOCTL)
		r = ioctl(fd, _IO('$', 3), 0) ? errno : 0;	/* PERF_EVENT_IOC_RESET */
	close(fd);
	return errname(r);
}

/* setpgid(0, 0) (a child: not a session leader) */
static int op_setpgid(long a) { return setpgid(0, 0); }

/*
 * Enter mh_nofork_t (write /proc/self/attr/current: setcurrent, then
 * dyntransition), then fork() there: a domain without process fork.
 */
static int op_dyn_fork(long a)
{
	static const char ctx[] = "system_u:system_r:mh_nofork_t:s0";
	int fd = open("/proc/self/attr/current", O_WRONLY | O_CLOEXEC);
	pid_t pid;

	if (fd < 0)
		return -1;
	if (write(fd, ctx, sizeof(ctx) - 1) != (ssize_t)sizeof(ctx) - 1)
		return -1;
	close(fd);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid)
		_exit(0);
	waitpid(pid, NULL, 0);
	return 0;
}

static void hook_cases(void)
{
	struct statfs sfs;
	char p[64], buf[256];
	const char *t;
	int i;

	CASE("hfs", "hk", "link", res(link(HK "/d/f", HK "/d/l2")));
	CASE("hfs", "hk", "create", do_open(HK "/d/nf", O_CREAT | O_EXCL | O_WRONLY));
	CASE("hfs", "hk", "mkdir", res(mkdir(HK "/d/nd", 0755)));
	CASE("hfs", "hk", "rmdir", res(rmdir(HK "/d/sub")));
	CASE("hfs", "hk", "readlink", res(readlink(HK "/d/l", buf, sizeof(buf))));
	CASE("hfs", "hk", "follow", res(stat(HK "/d/l", (struct stat *)buf)));
	CASE("hfs", "hk", "listxattr", res(llistxattr(HK "/d/l", buf, sizeof(buf))));
	CASE("hfs", "hk", "rmxattr", hk_res(removexattr(HK "/d/f", "user.hk")));
	CASE("hfs", "hk", "statfs", res(statfs(HK "/d", &sfs)));
	CASE("hfs", "hk", "mount", res(mount("hk", HK "/m1", "tmpfs", 0, "")));
	CASE("hfs", "hk", "mount_ctx", res(mount("hk", HK "/m2", "tmpfs", 0,
						 "context=system_u:object_r:hmc_t:s0")));
	CASE("hfs", "hk", "umount", res(umount(HK "/um")));
	CASE("hfs", "hk", "move_mount", res(syscall(SYS_move_mount, AT_FDCWD, HK "/mv",
						    AT_FDCWD, HK "/mvto", 0)));
	for (i = 0; i < cfg.n[K_PROC]; i++) {
		t = cfg.v[K_PROC][i];
		CASE("hproc", t, "capget", hk_capget(tpid[i]));
		CASE("hproc", t, "prlimit_r", hk_prlimit(tpid[i], 0));
		CASE("hproc", t, "prlimit_w", hk_prlimit(tpid[i], 1));
		CASE("hproc", t, "setnice", res(setpriority(PRIO_PROCESS, tpid[i], 0)));
		CASE("hproc", t, "attr", hk_procattr_read(tpid[i]));
	}
	CASE("htask", "self", "traceme", in_child(op_traceme, 0));
	CASE("htask", "self", "capset", in_child(op_capset, 0));
	CASE("htask", "self", "setrlimit", in_child(op_setrlimit, 0));
	CASE("htask", "self", "mmap_zero", res(hk_mmap_zero()));
	CASE("htask", "self", "setselfattr", res(hk_setselfattr()));
	CASE("htask", "self", "setexec", hk_procattr_write("exec"));
	CASE("htask", "self", "syslog", res(klogctl(10, NULL, 0)));	/* SIZE_BUFFER */
	CASE("htask", "self", "setpgid", in_child(op_setpgid, 0));
	CASE("htask", "self", "dyn_fork", in_child(op_dyn_fork, 0));
	CASE("hsock", "self", "sockname", hk_pair(HS_NAME));
	CASE("hsock", "self", "peername", hk_pair(HS_PEER));
	CASE("hsock", "self", "getopt", hk_pair(HS_GETOPT));
	CASE("hsock", "self", "setopt", hk_pair(HS_SETOPT));
	CASE("hsock", "self", "shutdown", hk_pair(HS_SHUTDOWN));
	CASE("hsock", "self", "recv", hk_pair(HS_RECV));
	CASE("hsock", "self", "rights", hk_pair(HS_RIGHTS));
	CASE("hsock", "self", "accept", hk_accept());
	CASE("hsock", "self", "dgram", hk_dgram());
	CASE("hperf", "self", "open", hk_perf(HP_OPEN));
	CASE("hperf", "self", "read", hk_perf(HP_READ));
	CASE("hperf", "self", "ioctl", hk_perf(HP_IOCTL));
	(void)p;
}

static int child(int argc, char **argv)
{
	char p[256], q[256], fdobj[256], ctx[256];
	struct sched_param sp = { 0 };
	const char *t;
	struct stat st;
	char c;
	int i, fd;

	read_config();
	read_targets(argc, argv);
	for (i = 0; i < cfg.n[K_FILE]; i++) {
		t = cfg.v[K_FILE][i];
		snprintf(p, sizeof(p), W "/f/%s/obj", t);
		snprintf(fdobj, sizeof(fdobj), W "/f/%s/fdobj", t);
		CASE("file", t, "open_r", do_open(p, O_RDONLY));
		CASE("file", t, "open_w", do_open(p, O_WRONLY));
		CASE("file", t, "open_rw", do_open(p, O_RDWR));
		CASE("file", t, "append", do_open(p, O_WRONLY | O_APPEND));
		CASE("file", t, "read", !inherited(FD_R(i), fdobj) ? "revoked" :
		     res(pread(FD_R(i), &c, 1, 0) == 1 ? 0 : -1));
		CASE("file", t, "write", !inherited(FD_W(i), fdobj) ? "revoked" :
		     res(pwrite(FD_W(i), "x", 1, 0) == 1 ? 0 : -1));
		CASE("file", t, "ioctl", !inherited(FD_R(i), fdobj) ? "revoked" :
		     do_ioctl(FD_R(i)));
		CASE("file", t, "ioctl_tw", !inherited(FD_R(i), fdobj) ? "revoked" :
		     do_ioctl_cmd(FD_R(i), TIOCGWINSZ));
		CASE("file", t, "ioctl_x", !inherited(FD_R(i), fdobj) ? "revoked" :
		     do_ioctl_cmd(FD_R(i), _IO(0xab, 1)));
		CASE("file", t, "stat", res(stat(p, &st)));
		CASE("file", t, "fstat", do_fstat(p));
		CASE("file", t, "chmod", res(chmod(p, 0755)));
		CASE("file", t, "exec", do_exec(p));
		snprintf(p, sizeof(p), W "/f/%s/u", t);
		CASE("file", t, "unlink", res(unlink(p)));
		snprintf(p, sizeof(p), W "/f/%s/r", t);
		snprintf(q, sizeof(q), W "/f/%s/r2", t);
		CASE("file", t, "rename", res(rename(p, q)));
		snprintf(p, sizeof(p), W "/f/%s/obj", t);
		CASE("file", t, "mmap_r", do_mmap(p, 0));
		CASE("file", t, "mmap_x", do_mmap(p, 1));
		CASE("file", t, "mmap_wx", do_mmap(p, 2));
		CASE("file", t, "mprot_x", do_mmap(p, 3));
		CASE("file", t, "execmod", do_mmap(p, 4));
		/* fcntl and flock on the inherited descriptors */
		CASE("file", t, "lock", !inherited(FD_R(i), fdobj) ? "revoked" :
		     res(fcntl(FD_R(i), F_SETLK, &(struct flock){ .l_type = F_RDLCK })));
		CASE("file", t, "flock", !inherited(FD_R(i), fdobj) ? "revoked" :
		     res(flock(FD_R(i), LOCK_SH | LOCK_NB)));
		CASE("file", t, "unappend", !inherited(FD_A(i), fdobj) ? "revoked" :
		     res(fcntl(FD_A(i), F_SETFL, 0)));
		/* relabel with setxattr, to a type it may and one it may not */
		snprintf(p, sizeof(p), W "/f/%s/rl", t);
		CASE("file", t, "relabel", res(lsetxattr(p, XATTR_SELINUX,
			"system_u:object_r:mr_ok_t:s0", sizeof("system_u:object_r:mr_ok_t:s0"), 0)));
		snprintf(p, sizeof(p), W "/f/%s/rx", t);
		CASE("file", t, "relabel_x", res(lsetxattr(p, XATTR_SELINUX,
			"system_u:object_r:mr_no_t:s0", sizeof("system_u:object_r:mr_no_t:s0"), 0)));
	}
	for (i = 0; i < cfg.n[K_DIR]; i++) {
		t = cfg.v[K_DIR][i];
		snprintf(p, sizeof(p), W "/d/%s", t);
		CASE("dir", t, "ls", do_ls(p));
		CASE("dir", t, "stat", res(stat(p, &st)));
		snprintf(p, sizeof(p), W "/d/%s/e", t);
		CASE("dir", t, "search", res(stat(p, &st)));
		made_path(p, sizeof(p), K_DIR, t, "mkdir");
		CASE("dir", t, "mkdir", res(mkdir(p, 0755)));
		snprintf(p, sizeof(p), W "/d/%s/sub", t);
		CASE("dir", t, "rmdir", res(rmdir(p)));
		made_path(p, sizeof(p), K_DIR, t, "create");
		CASE("dir", t, "create", do_open(p, O_CREAT | O_EXCL | O_WRONLY));
		snprintf(p, sizeof(p), W "/d/%s/victim", t);
		CASE("dir", t, "unlink", res(unlink(p)));
		snprintf(p, sizeof(p), W "/d/%s/ren", t);
		snprintf(q, sizeof(q), W "/d/%s/ren2", t);
		CASE("dir", t, "rename", res(rename(p, q)));
		made_path(p, sizeof(p), K_DIR, t, "mkfifo");
		CASE("dir", t, "mkfifo", res(mknod(p, S_IFIFO | 0644, 0)));
		made_path(p, sizeof(p), K_DIR, t, "bind");
		CASE("dir", t, "bind", do_sock(SOCK_STREAM, 0, p));
	}
	for (i = 0; i < cfg.n[K_FIFO]; i++) {
		t = cfg.v[K_FIFO][i];
		snprintf(p, sizeof(p), W "/p/%s", t);
		fd = FD_P(i);
		CASE("fifo", t, "open_r", do_open(p, O_RDONLY | O_NONBLOCK));
		CASE("fifo", t, "open_w", do_open(p, O_WRONLY | O_NONBLOCK));
		CASE("fifo", t, "stat", res(stat(p, &st)));
		CASE("fifo", t, "read", !inherited(fd, p) ? "revoked" :
		     res(read(fd, &c, 1) == 1 ? 0 : -1));
		CASE("fifo", t, "write", !inherited(fd, p) ? "revoked" :
		     res(write(fd, "x", 1) == 1 ? 0 : -1));
		CASE("fifo", t, "ioctl", !inherited(fd, p) ? "revoked" :
		     do_ioctl(fd));
	}
	for (i = 0; i < cfg.n[K_SOCK]; i++) {
		t = cfg.v[K_SOCK][i];
		snprintf(p, sizeof(p), SOCKDIR "/%s.st", t);
		CASE("sock", t, "stat", res(stat(p, &st)));
		CASE("sock", t, "connect", do_sock(SOCK_STREAM, 1, p));
		snprintf(p, sizeof(p), SOCKDIR "/%s.dg", t);
		CASE("sock", t, "sendto", do_sock(SOCK_DGRAM, 2, p));
	}
	/* One object of each class; the parent reads their labels. */
	for (i = 0; i < cfg.n[K_CREATE]; i++) {
		t = cfg.v[K_CREATE][i];
		made_path(p, sizeof(p), K_CREATE, t, "file");
		CASE("create", t, "file", do_open(p, O_CREAT | O_EXCL | O_WRONLY));
		made_path(p, sizeof(p), K_CREATE, t, "magic");
		CASE("create", t, "magic", do_open(p, O_CREAT | O_EXCL | O_WRONLY));
		made_path(p, sizeof(p), K_CREATE, t, "dir");
		CASE("create", t, "dir", res(mkdir(p, 0755)));
		made_path(p, sizeof(p), K_CREATE, t, "fifo");
		CASE("create", t, "fifo", res(mknod(p, S_IFIFO | 0644, 0)));
		made_path(p, sizeof(p), K_CREATE, t, "sock");
		CASE("create", t, "sock", do_sock(SOCK_STREAM, 0, p));
		made_path(p, sizeof(p), K_CREATE, t, "lnk");
		CASE("create", t, "lnk", res(symlink("target", p)));
		made_path(p, sizeof(p), K_CREATE, t, "chr");
		CASE("create", t, "chr", res(mknod(p, S_IFCHR | 0600, makedev(1, 3))));
	}
	for (i = 0; i < cfg.n[K_PROG]; i++) {
		t = cfg.v[K_PROG][i];
		snprintf(p, sizeof(p), XDIR "/%s", t);
		CASE("prog", t, "exec", do_exec_con(p, ctx, sizeof(ctx)));
		if (ctx[0])
			emit_label("prog", t, "exec", ctx);
	}
	CASE("self", "self", "pipe", do_pipe(0));
	CASE("self", "self", "pipe_ioctl", do_pipe(1));
	CASE("self", "self", "socket", do_sock(SOCK_STREAM, 3, NULL));
	CASE("self", "self", "dgram", do_sock(SOCK_DGRAM, 3, NULL));
	/* Other processes: the target in each proc type's domain */
	for (i = 0; i < cfg.n[K_PROC]; i++) {
		t = cfg.v[K_PROC][i];
		CASE("proc", t, "signal", res(kill(tpid[i], SIGUSR1)));
		CASE("proc", t, "sigkill", res(kill(zpid[i], SIGKILL)));
		CASE("proc", t, "signull", res(kill(tpid[i], 0)));
		CASE("proc", t, "getsched", res(sched_getparam(tpid[i], &sp)));
		CASE("proc", t, "setsched", res(sched_setscheduler(tpid[i], SCHED_OTHER, &sp)));
		CASE("proc", t, "getpgid", res(getpgid(tpid[i])));
		CASE("proc", t, "getsession", res(getsid(tpid[i])));
		CASE("proc", t, "ptrace", do_ptrace(tpid[i]));
	}
	/* The domain's own capabilities, executable memory */
	CASE("cap", "self", "setuid", in_child(op_setuid, 0));
	CASE("cap", "self", "setgid", in_child(op_setgid, 0));
	CASE("cap", "self", "chroot", in_child(op_chroot, 0));
	CASE("cap", "self", "nice", in_child(op_nice, 0));
	CASE("mem", "self", "execmem", res(op_exec_mem(0)));
	CASE("mem", "self", "mprot_x", res(op_exec_mem(1)));
	CASE("mem", "self", "execheap", in_child(op_exec_mem, 2));
	CASE("mem", "self", "execstack", in_child(op_exec_mem, 3));
	/* Sockets on loopback; netlink */
	CASE("tcp", "lo", "create", do_inet(SOCK_STREAM, IN_CREATE));
	CASE("tcp", "lo", "bind", do_inet(SOCK_STREAM, IN_BIND));
	CASE("tcp", "lo", "bind_hi", do_inet(SOCK_STREAM, IN_BIND_HI));
	CASE("tcp", "lo", "bind_lo", do_inet(SOCK_STREAM, IN_BIND_LO));
	CASE("tcp", "lo", "listen", do_inet(SOCK_STREAM, IN_LISTEN));
	CASE("tcp", "lo", "connect", do_inet(SOCK_STREAM, IN_CONNECT));
	CASE("udp", "lo", "create", do_inet(SOCK_DGRAM, IN_CREATE));
	CASE("udp", "lo", "bind", do_inet(SOCK_DGRAM, IN_BIND));
	CASE("udp", "lo", "bind_lo", do_inet(SOCK_DGRAM, IN_BIND_LO));
	CASE("udp", "lo", "listen", do_inet(SOCK_DGRAM, IN_LISTEN));
	CASE("udp", "lo", "connect", do_inet(SOCK_DGRAM, IN_CONNECT));
	CASE("udp", "lo", "send", do_inet(SOCK_DGRAM, IN_SEND));
	CASE("netlink", "route", "create", do_netlink(0));
	CASE("netlink", "route", "getlink", do_netlink(1));
	/* SysV IPC objects of other domains, and its own */
	for (i = 0; i < cfg.n[K_IPC]; i++)
		ipc_cases(i, cfg.v[K_IPC][i]);
	CASE("sysv", "self", "msg_new", res(msgget(IPC_KEY_NEW, IPC_CREAT | IPC_EXCL | 0666)));
	CASE("sysv", "self", "sem_new", res(semget(IPC_KEY_NEW + 1, 1, IPC_CREAT | IPC_EXCL | 0666)));
	CASE("sysv", "self", "shm_new", res(shmget(IPC_KEY_NEW + 2, 4096,
						   IPC_CREAT | IPC_EXCL | 0666)));
	CASE("sysv", "self", "ipc_info", res(msgctl(0, IPC_INFO, (struct msqid_ds *)&(struct msginfo){ 0 })));
	/* POSIX message queues */
	for (i = 0; i < cfg.n[K_MQ]; i++) {
		t = cfg.v[K_MQ][i];
		snprintf(p, sizeof(p), "/%s", t);
		CASE("mq", t, "open_r", do_mq_open(p, O_RDONLY));
		CASE("mq", t, "open_w", do_mq_open(p, O_WRONLY));
		CASE("mq", t, "read", !inherited_mq(FD_Q(i)) ? "revoked" :
		     res(read(FD_Q(i), ctx, sizeof(ctx)) < 0 ? -1 : 0));
		snprintf(p, sizeof(p), "/%s.u", t);
		CASE("mq", t, "unlink", res(mq_unlink(p)));
	}
	CASE("mqueue", "root", "create", res(do_mq_create()));
	/* Keys */
	for (i = 0; i < cfg.n[K_KEY]; i++)
		key_cases(i, cfg.v[K_KEY][i]);
	hook_cases();

	if (write(1, outbuf, outlen) != (ssize_t)outlen)
		die("write results");
	return 0;
}

/* ------------------------------------------------------------------ */
/* The parent: unconfined (kernel_t). */

static int hi(int fd)
{
	int n;

	if (fd < 0)
		return fd;
	n = fcntl(fd, F_DUPFD_CLOEXEC, 100);
	if (n < 0)
		die("F_DUPFD_CLOEXEC");
	close(fd);
	return n;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	if (remove(path))
		die("remove %s", path);
	return 0;
}

static void rm_rf(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return;
	if (nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS))
		die("rm -rf %s", path);
}

static void mkdir_l(const char *path, const char *type)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		die("mkdir %s", path);
	label(path, type);
}

static void mkfile(const char *path, const char *type, const char *from)
{
	char buf[65536];
	ssize_t n = 1;
	int in = -1, out;

	out = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0755);
	if (out < 0)
		die("create %s", path);
	if (from) {
		in = open(from, O_RDONLY | O_CLOEXEC);
		if (in < 0)
			die("open %s", from);
		while ((n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, n) != n)
				die("write %s", path);
		close(in);
	} else if (write(out, "data\n", 5) != 5) {
		die("write %s", path);
	}
	if (n < 0)
		die("read %s", from);
	close(out);
	label(path, type);
}

/* Build fresh fixtures, objects of type T labelled lt(MAP, T). */
static void fixtures(const char *map)
{
	char p[256];
	const char *t;
	int i;

	rm_rf(W);
	mkdir_l(W, "mwork_t");
	mkdir_l(W "/f", "mwork_t");
	mkdir_l(W "/d", "mwork_t");
	mkdir_l(W "/p", "mwork_t");
	for (i = 0; i < cfg.n[K_FILE]; i++) {
		t = cfg.v[K_FILE][i];
		snprintf(p, sizeof(p), W "/f/%s", t);
		mkdir_l(p, "mwork_t");
		snprintf(p, sizeof(p), W "/f/%s/obj", t);
		mkfile(p, lt(map, t), EXIT0);
		snprintf(p, sizeof(p), W "/f/%s/fdobj", t);
		mkfile(p, lt(map, t), NULL);
		snprintf(p, sizeof(p), W "/f/%s/u", t);
		mkfile(p, lt(map, t), NULL);
		snprintf(p, sizeof(p), W "/f/%s/r", t);
		mkfile(p, lt(map, t), NULL);
		snprintf(p, sizeof(p), W "/f/%s/rl", t);
		mkfile(p, lt(map, t), NULL);
		snprintf(p, sizeof(p), W "/f/%s/rx", t);
		mkfile(p, lt(map, t), NULL);
	}
	for (i = 0; i < cfg.n[K_DIR]; i++) {
		t = cfg.v[K_DIR][i];
		snprintf(p, sizeof(p), W "/d/%s", t);
		mkdir_l(p, lt(map, t));
		snprintf(p, sizeof(p), W "/d/%s/e", t);
		mkfile(p, "mwork_t", NULL);
		snprintf(p, sizeof(p), W "/d/%s/sub", t);
		mkdir_l(p, lt(map, t));
		snprintf(p, sizeof(p), W "/d/%s/victim", t);
		mkfile(p, lt(map, t), NULL);
		snprintf(p, sizeof(p), W "/d/%s/ren", t);
		mkfile(p, lt(map, t), NULL);
	}
	for (i = 0; i < cfg.n[K_FIFO]; i++) {
		t = cfg.v[K_FIFO][i];
		snprintf(p, sizeof(p), W "/p/%s", t);
		if (mknod(p, S_IFIFO | 0666, 0))
			die("mkfifo %s", p);
		label(p, lt(map, t));
	}
	mkdir_l(CDIR, "mwork_t");
	for (i = 0; i < cfg.n[K_CREATE]; i++) {
		t = cfg.v[K_CREATE][i];
		snprintf(p, sizeof(p), CDIR "/%s", t);
		mkdir_l(p, lt(map, t));
	}
	mkdir_l(XDIR, "mwork_t");
	for (i = 0; i < cfg.n[K_PROG]; i++) {
		t = cfg.v[K_PROG][i];
		snprintf(p, sizeof(p), XDIR "/%s", t);
		mkfile(p, lt(map, t), SELFCON);
	}
}

/* Remove what the cases created (the objects of the made table). */
static void remove_made(void)
{
	char p[256];
	int i, j;

	for (i = 0; i < NMADE; i++)
		for (j = 0; j < cfg.n[made[i].kind]; j++) {
			made_path(p, sizeof(p), made[i].kind,
				  cfg.v[made[i].kind][j], made[i].op);
			if (remove(p) && errno != ENOENT)
				die("remove %s", p);
		}
	if (mq_unlink("/" MQNEW) && errno != ENOENT)
		die("mq_unlink /" MQNEW);
}

/*
 * Record the label of the object that the case in LINE ("KIND TYPE OP
 * OUTCOME") created, if it created one: "L PHASE DOMAIN KIND TYPE OP
 * CONTEXT", or CONTEXT "unreadable:ERRNO".  Returns 1 if it wrote one.
 */
static int record_label(FILE *out, const char *phase, const char *dom,
			const char *line)
{
	char kind[32], type[64], op[32], outcome[32], p[256], ctx[256];
	ssize_t n;
	int i, k;

	if (sscanf(line, "%31s %63s %31s %31s", kind, type, op, outcome) != 4 ||
	    strcmp(outcome, "ok"))
		return 0;
	for (k = 0; k < NKINDS; k++)
		if (!strcmp(kind, kinds[k]))
			break;
	for (i = 0; i < NMADE; i++)
		if (made[i].kind == k && !strcmp(made[i].op, op))
			break;
	if (!strcmp(kind, "mqueue") && !strcmp(op, "create"))
		snprintf(p, sizeof(p), MQDIR "/" MQNEW);
	else if (i == NMADE)
		return 0;
	else
		made_path(p, sizeof(p), k, type, op);
	n = lgetxattr(p, XATTR_SELINUX, ctx, sizeof(ctx) - 1);
	if (n < 0)
		snprintf(ctx, sizeof(ctx), "unreadable:%s", errname(errno));
	else
		ctx[n] = '\0';	/* the label ends with a NUL already */
	fprintf(out, "L %s %s %s %s %s %s\n", phase, dom, kind, type, op, ctx);
	return 1;
}

static void unlink_f(const char *fmt, const char *t)
{
	char p[256];

	snprintf(p, sizeof(p), fmt, t);
	if (unlink(p) && errno != ENOENT)
		die("unlink %s", p);
}

/*
 * Relabel phase, after the warm-up child: undo what it did to the
 * fixtures (remove what it created, make again what it removed: those
 * are new inodes), keep the objects it used (the same inodes), then
 * label every object of type T lt(MAP, T), in place.
 */
static void relabel_fixtures(const char *map)
{
	char p[256];
	const char *t, *nt;
	int i;

	remove_made();
	for (i = 0; i < cfg.n[K_FILE]; i++) {
		t = cfg.v[K_FILE][i];
		nt = lt(map, t);
		unlink_f(W "/f/%s/r2", t);
		snprintf(p, sizeof(p), W "/f/%s/obj", t);
		if (chmod(p, 0755))
			die("chmod %s", p);
		label(p, nt);
		snprintf(p, sizeof(p), W "/f/%s/fdobj", t);
		label(p, nt);
		snprintf(p, sizeof(p), W "/f/%s/u", t);
		mkfile(p, nt, NULL);
		snprintf(p, sizeof(p), W "/f/%s/r", t);
		mkfile(p, nt, NULL);
		/* the relabel cases' files: as the fixtures had them */
		snprintf(p, sizeof(p), W "/f/%s/rl", t);
		mkfile(p, nt, NULL);
		snprintf(p, sizeof(p), W "/f/%s/rx", t);
		mkfile(p, nt, NULL);
	}
	for (i = 0; i < cfg.n[K_DIR]; i++) {
		t = cfg.v[K_DIR][i];
		nt = lt(map, t);
		unlink_f(W "/d/%s/ren2", t);
		snprintf(p, sizeof(p), W "/d/%s", t);
		label(p, nt);
		snprintf(p, sizeof(p), W "/d/%s/sub", t);
		mkdir_l(p, nt);
		snprintf(p, sizeof(p), W "/d/%s/victim", t);
		mkfile(p, nt, NULL);
		snprintf(p, sizeof(p), W "/d/%s/ren", t);
		mkfile(p, nt, NULL);
	}
	for (i = 0; i < cfg.n[K_FIFO]; i++) {
		t = cfg.v[K_FIFO][i];
		snprintf(p, sizeof(p), W "/p/%s", t);
		label(p, lt(map, t));
	}
	for (i = 0; i < cfg.n[K_CREATE]; i++) {
		t = cfg.v[K_CREATE][i];
		snprintf(p, sizeof(p), CDIR "/%s", t);
		label(p, lt(map, t));
	}
	for (i = 0; i < cfg.n[K_PROG]; i++) {
		t = cfg.v[K_PROG][i];
		snprintf(p, sizeof(p), XDIR "/%s", t);
		label(p, lt(map, t));
	}
}

/* Open the descriptors the child inherits at their fixed numbers. */
static void open_inherited(void)
{
	char p[256];
	int i, fd, lp[2];

	for (i = 0; i < cfg.n[K_FILE]; i++) {
		snprintf(p, sizeof(p), W "/f/%s/fdobj", cfg.v[K_FILE][i]);
		fd = open(p, O_RDONLY);
		if (fd < 0 || dup2(fd, FD_R(i)) < 0)
			die("open %s", p);
		close(fd);
		fd = open(p, O_WRONLY);
		if (fd < 0 || dup2(fd, FD_W(i)) < 0)
			die("open %s", p);
		close(fd);
		fd = open(p, O_WRONLY | O_APPEND);
		if (fd < 0 || dup2(fd, FD_A(i)) < 0)
			die("open %s", p);
		close(fd);
	}
	for (i = 0; i < cfg.n[K_MQ]; i++) {
		snprintf(p, sizeof(p), "/%s", cfg.v[K_MQ][i]);
		fd = mq_open(p, O_RDONLY);
		if (fd < 0 || dup2(fd, FD_Q(i)) < 0)
			die("mq_open %s", p);
		close(fd);
	}
	for (i = 0; i < cfg.n[K_FIFO]; i++) {
		snprintf(p, sizeof(p), W "/p/%s", cfg.v[K_FIFO][i]);
		fd = open(p, O_RDWR);
		if (fd < 0 || dup2(fd, FD_P(i)) < 0)
			die("open %s", p);
		close(fd);
		if (write(FD_P(i), "x", 1) != 1)
			die("write %s", p);
	}
	if (pipe2(lp, O_NONBLOCK) || dup2(lp[0], FD_LR) < 0 || dup2(lp[1], FD_LW) < 0)
		die("label pipe");
	close(lp[0]);
	close(lp[1]);
}

/*
 * Leave one byte in each inherited FIFO again, as open_inherited() did,
 * and O_APPEND on the append descriptors (the unappend case clears it).
 */
static void refill_inherited(void)
{
	char c;
	int i, fl;

	for (i = 0; i < cfg.n[K_FILE]; i++)
		if (fcntl(FD_A(i), F_SETFL, O_APPEND))
			die("fcntl F_SETFL O_APPEND");

	for (i = 0; i < cfg.n[K_FIFO]; i++) {
		fl = fcntl(FD_P(i), F_GETFL);
		if (fl < 0 || fcntl(FD_P(i), F_SETFL, fl | O_NONBLOCK))
			die("fcntl fifo");
		while (read(FD_P(i), &c, 1) == 1)
			;
		if (errno != EAGAIN)
			die("drain fifo");
		if (write(FD_P(i), "x", 1) != 1 || fcntl(FD_P(i), F_SETFL, fl))
			die("refill fifo");
	}
}

static void close_inherited(void)
{
	int i;

	for (i = 0; i < cfg.n[K_FILE]; i++) {
		close(FD_R(i));
		close(FD_W(i));
		close(FD_A(i));
	}
	for (i = 0; i < cfg.n[K_MQ]; i++)
		close(FD_Q(i));
	for (i = 0; i < cfg.n[K_FIFO]; i++)
		close(FD_P(i));
	close(FD_LR);
	close(FD_LW);
}

static int listeners[2 * MAXT];

/* Label the listeners' socket files lt(MAP, T) */
static void label_listeners(const char *map)
{
	char p[256];
	int i, k;

	for (i = 0; i < cfg.n[K_SOCK]; i++)
		for (k = 0; k < 2; k++) {
			snprintf(p, sizeof(p), SOCKDIR "/%s.%s",
				 cfg.v[K_SOCK][i], k ? "dg" : "st");
			label(p, lt(map, cfg.v[K_SOCK][i]));
		}
}

static void make_listeners(void)
{
	struct sockaddr_un sa;
	char p[256];
	int i, k, s, len;

	mkdir_l(SOCKDIR, "mwork_t");
	for (i = 0; i < cfg.n[K_SOCK]; i++) {
		for (k = 0; k < 2; k++) {
			snprintf(p, sizeof(p), SOCKDIR "/%s.%s",
				 cfg.v[K_SOCK][i], k ? "dg" : "st");
			unlink(p);
			s = socket(AF_UNIX, (k ? SOCK_DGRAM : SOCK_STREAM) |
				   SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
			len = unix_addr(&sa, p);
			if (s < 0 || bind(s, (struct sockaddr *)&sa, len))
				die("bind %s", p);
			if (!k && listen(s, 1024))
				die("listen %s", p);
			label(p, cfg.v[K_SOCK][i]);
			listeners[2 * i + k] = hi(s);
		}
	}
}

/* The loopback TCP listener and UDP receiver of the tcp and udp cases */
static int inet_listen_fd, inet_recv_fd;

static void make_inet_listeners(void)
{
	struct sockaddr_in a;

	inet_listen_fd = hi(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
	a = lo_addr(PORT_TCP);
	if (inet_listen_fd < 0 || setsockopt(inet_listen_fd, SOL_SOCKET, SO_REUSEADDR,
					     &(int){ 1 }, sizeof(int)) ||
	    bind(inet_listen_fd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(inet_listen_fd, 1024))
		die("tcp listener on 127.0.0.1:%d (is lo up?)", PORT_TCP);
	inet_recv_fd = hi(socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
	a = lo_addr(PORT_UDP);
	if (inet_recv_fd < 0 || bind(inet_recv_fd, (struct sockaddr *)&a, sizeof(a)))
		die("udp socket on 127.0.0.1:%d", PORT_UDP);
}

/*
 * The proc kind's targets: in the domain of each proc type, a process
 * that ignores SIGUSR1 and waits ("avcmatrix target"), and a zombie
 * ("avcmatrix zombie", never reaped while the phase runs) for SIGKILL.
 * They live for the whole phase; their pids go to every child as
 * "PID,ZPID" arguments.
 */
static char targets[MAXT][32];

static void spawn_targets(void)
{
	char *targv[] = { SELF, "target", NULL }, *zargv[] = { SELF, "zombie", NULL };
	siginfo_t si;
	int i, pfd[2];
	pid_t t, z;
	char c;

	for (i = 0; i < cfg.n[K_PROC]; i++) {
		if (pipe2(pfd, O_CLOEXEC))
			die("pipe");
		t = spawn_in(cfg.v[K_PROC][i], targv, pfd[1]);
		close(pfd[1]);
		if (read(pfd[0], &c, 1) != 1) {
			errno = EIO;
			die("target in %s did not start", cfg.v[K_PROC][i]);
		}
		close(pfd[0]);
		z = spawn_in(cfg.v[K_PROC][i], zargv, -1);
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, z, &si, WEXITED | WNOWAIT) || si.si_pid != z)
			die("zombie in %s", cfg.v[K_PROC][i]);
		snprintf(targets[i], sizeof(targets[i]), "%d,%d", t, z);
	}
}

static void end_targets(void)
{
	int i, t, z;

	for (i = 0; i < cfg.n[K_PROC]; i++) {
		if (sscanf(targets[i], "%d,%d", &t, &z) != 2 || kill(t, SIGKILL) ||
		    waitpid(t, NULL, 0) != t || waitpid(z, NULL, 0) != z)
			die("end target %s", targets[i]);
	}
}

/*
 * The SysV IPC objects, made again for every child: those of ipc type I
 * by "avcmatrix ipcown I" in its domain (the objects take the label of
 * the process that makes them), with one message (from the parent) in
 * the queue; what the sysv cases made is removed.  Their ids go to the
 * child as "MSQID,SEMID,SHMID" arguments.
 */
static char ipcargs[MAXT][48];

static void ipc_remove(key_t key)
{
	int id;

	id = msgget(key, 0);
	if (id >= 0 && msgctl(id, IPC_RMID, NULL))
		die("msgctl IPC_RMID 0x%x", key);
	id = semget(key + 1, 0, 0);
	if (id >= 0 && semctl(id, 0, IPC_RMID))
		die("semctl IPC_RMID 0x%x", key + 1);
	id = shmget(key + 2, 0, 0);
	if (id >= 0 && shmctl(id, IPC_RMID, NULL))
		die("shmctl IPC_RMID 0x%x", key + 2);
}

static int ipcown(const char *arg)
{
	int i = atoi(arg);

	if (msgget(IPC_KEY(i), IPC_CREAT | IPC_EXCL | 0666) < 0 ||
	    semget(IPC_KEY(i) + 1, 1, IPC_CREAT | IPC_EXCL | 0666) < 0 ||
	    shmget(IPC_KEY(i) + 2, 4096, IPC_CREAT | IPC_EXCL | 0666) < 0)
		die("ipc objects of %s", arg);
	return 0;
}

static void ipc_fixtures(void)
{
	struct {
		long type;
		char text[1];
	} m = { 1, { 'm' } };
	char idx[16], ctx[128], *argv[] = { SELF, "ipcown", idx, NULL };
	int i, msq, sem, shm, st;
	char p[128];
	pid_t pid;
	mqd_t q;
	struct mq_attr a = { .mq_maxmsg = 1, .mq_msgsize = 16 };

	ipc_remove(IPC_KEY_NEW);
	for (i = 0; i < cfg.n[K_IPC]; i++) {
		ipc_remove(IPC_KEY(i));
		snprintf(idx, sizeof(idx), "%d", i);
		snprintf(ctx, sizeof(ctx), CTX("%s"), cfg.v[K_IPC][i]);
		pid = fork();
		if (pid < 0)
			die("fork");
		if (!pid) {
			/* not the descriptors the matrix domains inherit */
			syscall(SYS_close_range, 3, ~0U, 0);
			write_file("/proc/self/attr/exec", ctx, strlen(ctx));
			execv(argv[0], argv);
			die("exec %s in %s", argv[0], ctx);
		}
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
			errno = EIO;
			die("ipcown in %s", cfg.v[K_IPC][i]);
		}
		msq = msgget(IPC_KEY(i), 0);
		sem = semget(IPC_KEY(i) + 1, 0, 0);
		shm = shmget(IPC_KEY(i) + 2, 0, 0);
		if (msq < 0 || sem < 0 || shm < 0 || msgsnd(msq, &m, 1, IPC_NOWAIT))
			die("ipc objects of %s", cfg.v[K_IPC][i]);
		snprintf(ipcargs[i], sizeof(ipcargs[i]), "%d,%d,%d", msq, sem, shm);
	}
	/* the mq kind's queue for the unlink case, labelled as its type */
	for (i = 0; i < cfg.n[K_MQ]; i++) {
		snprintf(p, sizeof(p), "/%s.u", cfg.v[K_MQ][i]);
		q = mq_open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0666, &a);
		if (q == (mqd_t)-1)
			die("mq_open %s", p);
		mq_close(q);
		snprintf(p, sizeof(p), MQDIR "/%s.u", cfg.v[K_MQ][i]);
		label(p, cfg.v[K_MQ][i]);
	}
}

static void ipc_end(void)
{
	char p[128];
	int i;

	ipc_remove(IPC_KEY_NEW);
	for (i = 0; i < cfg.n[K_IPC]; i++)
		ipc_remove(IPC_KEY(i));
	for (i = 0; i < cfg.n[K_MQ]; i++) {
		snprintf(p, sizeof(p), "/%s", cfg.v[K_MQ][i]);
		mq_unlink(p);
		snprintf(p, sizeof(p), "/%s.u", cfg.v[K_MQ][i]);
		mq_unlink(p);
	}
}

/* The mq kind's queues "/T", labelled T, for the whole phase */
static void make_mqueues(void)
{
	struct mq_attr a = { .mq_maxmsg = 1, .mq_msgsize = 16 };
	char p[128];
	mqd_t q;
	int i;

	for (i = 0; i < cfg.n[K_MQ]; i++) {
		snprintf(p, sizeof(p), "/%s", cfg.v[K_MQ][i]);
		mq_unlink(p);
		q = mq_open(p, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666, &a);
		if (q == (mqd_t)-1)
			die("mq_open %s (is " MQDIR " mounted?)", p);
		mq_close(q);
		snprintf(p, sizeof(p), MQDIR "/%s", cfg.v[K_MQ][i]);
		label(p, cfg.v[K_MQ][i]);
	}
}

/*
 * The key kind's keys, for the whole phase: a new session keyring (the
 * children inherit it, so they possess what it holds), in it the user
 * key "mx:T" for each key type T, made with T as the key creation
 * context, every permission for possessor, user, group and other (only
 * SELinux decides).  Their serials go to the child as arguments.
 */
static char keyargs[MAXT][24];

static void make_keys(void)
{
	char ctx[128], desc[80];
	long k;
	int i;

	if (keyctl(KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0, 0) < 0)
		die("keyctl KEYCTL_JOIN_SESSION_KEYRING");
	for (i = 0; i < cfg.n[K_KEY]; i++) {
		snprintf(ctx, sizeof(ctx), "system_u:object_r:%s:s0", cfg.v[K_KEY][i]);
		write_file("/proc/self/attr/keycreate", ctx, strlen(ctx));
		snprintf(desc, sizeof(desc), "mx:%s", cfg.v[K_KEY][i]);
		k = syscall(SYS_add_key, "user", desc, "data", 4, KEY_SPEC_SESSION_KEYRING);
		if (k < 0 || keyctl(KEYCTL_SETPERM, k, KEY_PERM_ALL, 0, 0))
			die("add_key %s", desc);
		snprintf(keyargs[i], sizeof(keyargs[i]), "%ld", k);
	}
	write_file("/proc/self/attr/keycreate", "\n", 1);
}

static int target(void)
{
	signal(SIGUSR1, SIG_IGN);
	if (write(1, "r", 1) != 1)
		die("target ready");
	for (;;)
		pause();
}

/* Accept and drop what the last child left in the listeners. */
static void drain_listeners(void)
{
	char buf[64];
	int i, k, s;

	while ((s = accept4(inet_listen_fd, NULL, NULL, SOCK_CLOEXEC)) >= 0)
		close(s);
	while (recv(inet_recv_fd, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
		;

	for (i = 0; i < cfg.n[K_SOCK]; i++) {
		while ((s = accept4(listeners[2 * i], NULL, NULL, SOCK_CLOEXEC)) >= 0)
			close(s);
		for (k = 0; k < 1024; k++)
			if (recv(listeners[2 * i + 1], buf, sizeof(buf), MSG_DONTWAIT) < 0)
				break;
	}
}

struct rec {
	int domain;	/* index into cfg, -1: other */
	int ncase;	/* index of the case it belongs to, -1: exec */
	char *text;
};

static struct rec recs[MAXCASES * 4];
static int nrecs;
static char *cases[MAXT][MAXREC];
static int ncases[MAXT];
/* The tail run */
static char *tcases[MAXREC];
static int ntcases;

/*
 * "... avc:  denied  { read } for  pid=12 ..." -> stable text: without the
 * pid, inode number and local (ephemeral) port, "pipe:[N]", "socket:[N]"
 */
static char *canonical(const char *msg)
{
	char *out = malloc(strlen(msg) + 1), *o = out;
	const char *s = strstr(msg, "avc:");
	int space = 0;

	if (!out)
		die("malloc");
	for (; s && *s; s++) {
		if (*s == ' ' || *s == '\n') {
			space = 1;
			continue;
		}
		if (space && (!strncmp(s, "pid=", 4) || !strncmp(s, "ino=", 4) ||
			      !strncmp(s, "lport=", 6))) {
			while (s[1] && s[1] != ' ')
				s++;
			continue;
		}
		if (space && o != out)
			*o++ = ' ';
		space = 0;
		if ((!strncmp(s, "pipe:[", 6) || !strncmp(s, "socket:[", 8))) {
			while (*s != '[')
				*o++ = *s++;
			*o++ = '[';
			while (*s && *s != ']')
				s++;
			*o++ = 'N';
		}
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

static int type_index(const char *msg, const char *key)
{
	const char *s = strstr(msg, key);
	char type[64];
	int i;

	if (!s || sscanf(s + strlen(key), "%*[^:]:%*[^:]:%63[^:]", type) != 1)
		return -2;
	if (!strcmp(type, "mmark_t"))
		return -3;
	if (!strcmp(type, "msent_t"))
		return -4;
	for (i = 0; i < cfg.n[K_DOMAIN]; i++)
		if (!strcmp(type, cfg.v[K_DOMAIN][i]))
			return i;
	return -1;
}

/*
 * Read /dev/kmsg until the sentinel record.  Returns the number of
 * problems seen (lost records, overruns).
 */
static int collect_audit(int kmsg, int *marks)
{
	static char buf[8192];
	struct timespec t0, t;
	int problems = 0, d, tt;
	ssize_t n;
	char *msg;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		n = read(kmsg, buf, sizeof(buf) - 1);
		if (n < 0 && errno == EAGAIN) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (t.tv_sec - t0.tv_sec > 120) {
				fprintf(stderr, "avcmatrix: no sentinel record\n");
				return problems + 1;
			}
			poll(NULL, 0, 20);
			continue;
		}
		if (n < 0 && errno == EPIPE) {
			fprintf(stderr, "avcmatrix: /dev/kmsg overrun\n");
			problems++;
			continue;
		}
		if (n <= 0)
			die("read /dev/kmsg");
		buf[n] = '\0';
		msg = strchr(buf, ';');
		msg = msg ? msg + 1 : buf;
		if (strstr(msg, "audit_lost=") || strstr(msg, "backlog limit") ||
		    strstr(msg, "callbacks suppressed")) {
			fprintf(stderr, "avcmatrix: lost records: %s", msg);
			problems++;
			continue;
		}
		if (strncmp(msg, "audit: type=1400 ", 17) || !strstr(msg, "avc:"))
			continue;
		d = type_index(msg, "scontext=");
		tt = type_index(msg, "tcontext=");
		if (tt == -4)
			return problems;
		if (d >= 0 && tt == -3) {
			marks[d]++;
			continue;
		}
		if (nrecs == (int)(sizeof(recs) / sizeof(recs[0]))) {
			errno = ENOSPC;
			die("too many audit records");
		}
		recs[nrecs].domain = d;
		recs[nrecs].ncase = d >= 0 ? marks[d] - 1 : -1;
		recs[nrecs].text = canonical(msg);
		nrecs++;
	}
}

/*
 * The hook cases' objects (hook_cases()), made again before every child:
 * HK/d (hd_t) with the file f (hf_t), the symbolic link l -> f (hl_t)
 * and the directory sub (hs_t); the mount points m1, m2, um, mv, mvto
 * (hm_t), with a tmpfs on um (context hum_t: umount) and one on mv
 * (context hmv_t: move_mount to mvto).  What a child mounted is detached.
 */
static void hk_fixtures(void)
{
	static const char *const mnt[] = { "m1", "m2", "um", "mv", "mvto" };
	char p[64];
	unsigned int i;

	for (i = 0; i < sizeof(mnt) / sizeof(mnt[0]); i++) {
		snprintf(p, sizeof(p), HK "/%s", mnt[i]);
		while (!umount2(p, MNT_DETACH))
			;
	}
	rm_rf(HK);
	mkdir_l(HK, "mwork_t");
	mkdir_l(HK "/d", "hd_t");
	mkfile(HK "/d/f", "hf_t", NULL);
	if (symlink("f", HK "/d/l"))
		die("symlink");
	label(HK "/d/l", "hl_t");
	mkdir_l(HK "/d/sub", "hs_t");
	for (i = 0; i < sizeof(mnt) / sizeof(mnt[0]); i++) {
		snprintf(p, sizeof(p), HK "/%s", mnt[i]);
		mkdir_l(p, "hm_t");
	}
	if (mount("hk", HK "/um", "tmpfs", 0, "context=system_u:object_r:hum_t:s0") ||
	    mount("hk", HK "/mv", "tmpfs", 0, "context=system_u:object_r:hmv_t:s0"))
		die("mount tmpfs on " HK);
}

static int run(const char *phase, const char *outpath)
{
	int kmsg, pfd[2], i, d, dom, tail, status, problems = 0, total = 0;
	int lead = -1, tdom = -1, warm, nwarm, wmarks[MAXT] = { 0 };
	int marks[MAXT] = { 0 }, tmarks[MAXT] = { 0 }, nmain = 0, nlabels = 0;
	char tphase[128];
	char *argv[3 * MAXT + 3] = { SELF, "child" };
	char *buf, *line, *save;
	size_t cap = 1 << 17, len;
	struct stat st;
	FILE *out;
	ssize_t n;
	pid_t pid;

	read_config();
	read_leads(phase, &lead, &tdom);
	out = fopen(outpath, "ae");
	if (!out)
		die("open %s", outpath);
	kmsg = hi(open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC));
	if (kmsg < 0 || lseek(kmsg, 0, SEEK_END) < 0)
		die("open /dev/kmsg");
	mkdir_l(TOP, "mwork_t");
	mkfile(MARK, "mmark_t", NULL);
	mkfile(SENTINEL, "msent_t", NULL);
	make_listeners();
	if (relabel_from)
		label_listeners(relabel_from);
	make_inet_listeners();
	spawn_targets();
	make_mqueues();
	make_keys();
	for (i = 0; i < cfg.n[K_PROC]; i++)
		argv[2 + i] = targets[i];
	for (i = 0; i < cfg.n[K_IPC]; i++)
		argv[2 + cfg.n[K_PROC] + i] = ipcargs[i];
	for (i = 0; i < cfg.n[K_KEY]; i++)
		argv[2 + cfg.n[K_PROC] + cfg.n[K_IPC] + i] = keyargs[i];
	buf = malloc(cap);
	if (!buf)
		die("malloc");
	snprintf(tphase, sizeof(tphase), "%s/tail", phase);

	/*
	 * d == 0: the lead domain; then the others in order; d == number of
	 * domains: the tail run, the next phase's lead domain again.
	 */
	for (d = 0; d <= cfg.n[K_DOMAIN]; d++) {
		tail = d == cfg.n[K_DOMAIN];
		if (tail)
			dom = tdom;
		else if (!d)
			dom = lead;
		else
			dom = d <= lead ? d - 1 : d;
		if (tail) {
			/* Close the main run's audit stream first. */
			if (stat(SENTINEL, &st))
				die("stat " SENTINEL);
			problems += collect_audit(kmsg, marks);
			nmain = nrecs;
		}
		if (relabel_from) {
			/*
			 * Take the records so far (earlier domains' runs), so
			 * that dropping the warm-up's below drops only those.
			 */
			if (stat(SENTINEL, &st))
				die("stat " SENTINEL);
			problems += collect_audit(kmsg, tail ? tmarks : marks);
		}
		fixtures(relabel_from);
		open_inherited();
		/* warm: the relabel phase's warm-up child, then the recorded one */
		for (warm = !!relabel_from; warm >= 0; warm--) {
			ipc_fixtures();
			if (pipe2(pfd, O_CLOEXEC))
				die("pipe");
			pfd[0] = hi(pfd[0]);
			pfd[1] = hi(pfd[1]);
			hk_fixtures();
			pid = spawn_in(cfg.v[K_DOMAIN][dom], argv, pfd[1]);
			close(pfd[1]);
			len = 0;
			while ((n = read(pfd[0], buf + len, cap - 1 - len)) > 0)
				len += n;
			buf[len] = '\0';
			close(pfd[0]);
			if (waitpid(pid, &status, 0) != pid)
				die("waitpid");
			drain_listeners();
			if (!WIFEXITED(status) || WEXITSTATUS(status)) {
				errno = EIO;
				die("%schild in %s failed (status 0x%x)", warm ? "warm-up " : "",
				    cfg.v[K_DOMAIN][dom], status);
			}
			if (!warm)
				break;
			/* Drop the warm-up's audit records, then relabel. */
			if (stat(SENTINEL, &st))
				die("stat " SENTINEL);
			nwarm = nrecs;
			problems += collect_audit(kmsg, wmarks);
			nrecs = nwarm;
			refill_inherited();
			relabel_fixtures(relabel_to);
			label_listeners(relabel_to);
		}
		close_inherited();
		if (relabel_from)	/* the next domain's warm-up: FROM again */
			label_listeners(relabel_from);
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			if (!strncmp(line, "label ", 6)) {
				fprintf(out, "L %s %s %s\n", tail ? tphase : phase,
					cfg.v[K_DOMAIN][dom], line + 6);
				nlabels++;
				continue;
			}
			if ((tail ? ntcases : ncases[dom]) == MAXREC) {
				errno = ENOSPC;
				die("too many cases");
			}
			if (tail)
				tcases[ntcases++] = strdup(line);
			else
				cases[dom][ncases[dom]++] = strdup(line);
			fprintf(out, "R %s %s %s\n", tail ? tphase : phase,
				cfg.v[K_DOMAIN][dom], line);
			nlabels += record_label(out, tail ? tphase : phase,
						cfg.v[K_DOMAIN][dom], line);
		}
		remove_made();
		if (!tail)
			total += ncases[dom];
	}

	end_targets();
	ipc_end();
	if (stat(SENTINEL, &st))
		die("stat " SENTINEL);
	problems += collect_audit(kmsg, tmarks);
	for (d = 0; d < cfg.n[K_DOMAIN]; d++) {
		if (marks[d] != ncases[d]) {
			fprintf(stderr, "avcmatrix: %s: %d marker records for %d cases\n",
				cfg.v[K_DOMAIN][d], marks[d], ncases[d]);
			problems++;
		}
		if (tmarks[d] != (d == tdom ? ntcases : 0)) {
			fprintf(stderr, "avcmatrix: %s: %d marker records for %d tail cases\n",
				cfg.v[K_DOMAIN][d], tmarks[d], d == tdom ? ntcases : 0);
			problems++;
		}
	}
	for (i = 0; i < nrecs; i++) {
		struct rec *r = &recs[i];
		char key[128] = "exec - -";
		int t = i >= nmain;

		if (r->domain >= 0 && r->ncase >= 0) {
			if (t && (r->domain != tdom || r->ncase >= ntcases)) {
				fprintf(stderr, "avcmatrix: record of %s in the tail run\n",
					cfg.v[K_DOMAIN][r->domain]);
				problems++;
			} else {
				/* "KIND TYPE OP OUTCOME" -> "KIND TYPE OP" */
				snprintf(key, sizeof(key), "%s",
					 t ? tcases[r->ncase] : cases[r->domain][r->ncase]);
				*strrchr(key, ' ') = '\0';
			}
		}
		fprintf(out, "A %s %s %s %s\n", t ? tphase : phase,
			r->domain >= 0 ? cfg.v[K_DOMAIN][r->domain] : "other",
			key, r->text);
	}
	fprintf(out, "P %s cases=%d tail=%d records=%d labels=%d markers_ok=%s problems=%d\n",
		phase, total, ntcases, nrecs, nlabels, problems ? "no" : "yes", problems);
	fclose(out);
	printf("avcmatrix: phase %s: %d cases (+%d tail), %d audit records, %d labels%s\n",
	       phase, total, ntcases, nrecs, nlabels, problems ? ", PROBLEMS" : "");
	return problems ? 1 : 0;
}

/*
 * dirstale: a search that the per-task directory cache of 7.3
 * (selinux_inode_permission(), 4 entries) must not allow after
 * setenforce 1.  A process in m_a_t, which policy a never lets search
 * md_none_t, runs from setenforce 0 to after setenforce 1.  In permissive
 * mode it looks up a name in such a directory (a denial, which the AVC
 * grants on its node), then in five directories of other types, which
 * take the first one's place in its cache, then in the first one again,
 * which its cache now enters from the AVC node, with the grant.  After
 * setenforce 1 (which flushes the AVC's grants) it looks up that name
 * again: the policy denies it.  Every name is missing, so a lookup that
 * may search gives ENOENT, one that may not EACCES.  Prints
 * "DIRSTALE: permissive=E,E,E,E,E,E,E enforcing=E".
 */
#define DS		"/tmp/ds"
#define DS_OTHERS	5

static const char *const ds_types[1 + DS_OTHERS] = {
	"md_none_t", "md_rw_t", "md_ro_t", "mt_a_t", "mt_b_t", "mt_c_t",
};

/* In m_a_t: one lookup per command read from stdin, errnos to stdout. */
static int dirstale_child(void)
{
	char cmd, p[32];
	struct stat st;
	int i, e;

	if (chdir(DS))
		die("chdir " DS);
	while (read(0, &cmd, 1) == 1) {
		if (cmd == 'q')
			return 0;
		if (cmd != 'd' && (cmd < '0' || cmd > '0' + DS_OTHERS))
			die("dirstale: command %c", cmd);
		i = cmd == 'd' ? 0 : cmd - '0';
		snprintf(p, sizeof(p), "d%d/missing", i);
		e = stat(p, &st) ? errno : 0;
		dprintf(1, "%s\n", errname(e));
	}
	die("dirstale: no quit command");
}

/* Send @cmd to the child, append its answer to @out. */
static void dirstale_ask(int to, FILE *from, char cmd, char *out, size_t len)
{
	char line[32];

	if (write(to, &cmd, 1) != 1 || !fgets(line, sizeof(line), from))
		die("dirstale: child gone");
	line[strcspn(line, "\n")] = 0;
	if (*out)
		strncat(out, ",", len - strlen(out) - 1);
	strncat(out, line, len - strlen(out) - 1);
}

static int dirstale(const char *policy)
{
	char *argv[] = { SELF, "dirstale-child", NULL };
	char p[64], perm[128] = "", enf[32] = "";
	int cmd[2], res[2], i, st;
	FILE *from;
	pid_t pid;

	load_policy(policy);
	write_file("/sys/fs/selinux/enforce", "1", 1);
	if (mkdir(DS, 0755) && errno != EEXIST)
		die("mkdir " DS);
	label(DS, "mwork_t");
	for (i = 0; i <= DS_OTHERS; i++) {
		snprintf(p, sizeof(p), DS "/d%d", i);
		if (mkdir(p, 0755) && errno != EEXIST)
			die("mkdir %s", p);
		label(p, ds_types[i]);
	}
	if (pipe(cmd) || pipe(res))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		if (dup2(cmd[0], 0) < 0 || dup2(res[1], 1) < 0)
			die("dup2");
		syscall(SYS_close_range, 3, ~0U, 0);
		write_file("/proc/self/attr/exec", CTX("m_a_t"),
			   strlen(CTX("m_a_t")));
		execv(argv[0], argv);
		die("exec %s in m_a_t", argv[0]);
	}
	close(cmd[0]);
	close(res[1]);
	from = fdopen(res[0], "r");
	if (!from)
		die("fdopen");
	write_file("/sys/fs/selinux/enforce", "0", 1);
	dirstale_ask(cmd[1], from, 'd', perm, sizeof(perm));
	for (i = 1; i <= DS_OTHERS; i++)
		dirstale_ask(cmd[1], from, '0' + i, perm, sizeof(perm));
	dirstale_ask(cmd[1], from, 'd', perm, sizeof(perm));
	write_file("/sys/fs/selinux/enforce", "1", 1);
	dirstale_ask(cmd[1], from, 'd', enf, sizeof(enf));
	if (write(cmd[1], "q", 1) != 1 || waitpid(pid, &st, 0) != pid ||
	    !WIFEXITED(st) || WEXITSTATUS(st))
		die("dirstale: child failed");
	printf("DIRSTALE: permissive=%s enforcing=%s\n", perm, enf);
	return 0;
}

int main(int argc, char **argv)
{
	prog_name = "avcmatrix";
	if (argc >= 2 && !strcmp(argv[1], "child"))
		return child(argc - 2, argv + 2);
	if (argc == 2 && !strcmp(argv[1], "target"))
		return target();
	if (argc == 2 && !strcmp(argv[1], "zombie"))
		return 0;
	if (argc == 3 && !strcmp(argv[1], "ipcown"))
		return ipcown(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "run"))
		return run(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "dirstale"))
		return dirstale(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "dirstale-child"))
		return dirstale_child();
	if (argc >= 4 && !strcmp(argv[1], "label")) {
		for (int i = 3; i < argc; i++)
			label(argv[i], argv[2]);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "load")) {
		load_policy(argv[2]);
		return 0;
	}
	fprintf(stderr, "usage: avcmatrix run PHASE OUT | child PID,ZPID... | target | zombie |\n"
		"       load POLICY | label TYPE FILE... | dirstale POLICY\n");
	return 2;
}
