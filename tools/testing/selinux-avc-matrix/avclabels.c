// SPDX-License-Identifier: GPL-2.0
/*
 * avclabels - the labels the kernel gives new objects, each checked against
 * the security server's own answer for the same key, across policy
 * reloads, boolean changes and setenforce.
 *
 *   avclabels run SEED ROUNDS  (unconfined) the reference run; prints one
 *                              "LABELREF-MISMATCH ..." line per label that
 *                              differs and a summary line "LABELREF: ..."
 *   avclabels make SPEC...     (in a domain) create the objects SPEC names
 *                              ("INDEX:CLASS:PATH") and print
 *                              "INDEX ok [CONTEXT]" or "INDEX err ERRNO"
 *
 * A key is (domain, target type, class, name): the subject that creates,
 * the type of the directory it creates in (the executable's type for a
 * process, the domain itself for a socket), the object's class and the
 * name it gets.  The kernel's label of the object (lgetxattr of what a
 * domain created; fgetxattr of a socket it created; the context an exec'd
 * copy of selfcon reports) must equal what /sys/fs/selinux/create answers
 * for the same key: security_transition_sid_user(), which computes the
 * label from the policy every time and never uses the kernel's label cache
 * (stock kernels have none).
 *
 * Each round first makes one random change: load policy version a, b or
 * c (a reload of the version already loaded too), flip the boolean m_bool
 * or flip enforcing.  Then it checks the keys the previous round drew,
 * which the kernel may have cached under the state before the change,
 * then NEW_KEYS new random keys, drawn with a fixed generator seeded by
 * SEED, so that every kernel runs the same sequence.  The summary counts
 * the checks whose answer differs from the key's previous check
 * ("changed"): the checks a kernel that kept a label across a change
 * would fail.  Creating may be denied (enforcing, and a domain the
 * version does not let create); those keys are counted, not checked.
 * "digest" hashes every key's outcome and label, so the host can check
 * that all kernels agree with each other as well.
 */
#include "common.h"

#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

#define TOP		"/tmp/lref"
#define RDIR		TOP "/r"
#define SELFCON		"/matrix/selfcon"
#define SELF		"/matrix/avclabels"
#define NEW_KEYS	24
#define MAXSPEC		(2 * NEW_KEYS)
#define FD_LR		3	/* the child's context pipe, read end */
#define FD_LW		4	/* and write end, the exec'd program's stdout */

/* Subjects: the matrix domains that the versions' type_transition rules
 * name, and ml_t, whose sockets the versions and the boolean label. */
static const char *const doms[] = {
	"m_a_t", "m_b_t", "m_c_t", "m_d_t", "m_e_t", "m_f_t", "m_x_t", "ml_t",
};
#define NDOMS	(int)(sizeof(doms) / sizeof(doms[0]))

static const char *const dirs[] = { "mt_a_t", "mt_b_t", "mt_c_t" };
#define NDIRS	(int)(sizeof(dirs) / sizeof(dirs[0]))

static const char *const progs[] = { "mx_tr_exec_t", "mx_nt_exec_t" };
#define NPROGS	(int)(sizeof(progs) / sizeof(progs[0]))

enum {
	C_FILE, C_DIR, C_FIFO, C_SOCK_FILE, C_LNK, C_CHR,	/* in a directory */
	C_STREAM, C_DGRAM,					/* sockets */
	C_PROCESS,						/* exec */
	NCLASSES
};
static const char *const classes[] = {
	"file", "dir", "fifo_file", "sock_file", "lnk_file", "chr_file",
	"unix_stream_socket", "unix_dgram_socket", "process",
};
static const char *const names[] = { "magic", "other" };

struct key {
	int dom, cls, tgt, name;	/* tgt: dirs[] or progs[] index */
};

struct spec {
	struct key k;
	char path[64];
	int ok;				/* the child created it */
	char label[256];		/* the kernel's label */
};

static unsigned int rng;

static unsigned int rnd(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng % n;
}

static struct key random_key(void)
{
	struct key k = { .dom = rnd(NDOMS), .cls = rnd(NCLASSES) };

	/* ml_t only creates sockets; only the matrix domains exec */
	if (doms[k.dom][1] == 'l' && k.cls != C_STREAM && k.cls != C_DGRAM)
		k.cls = C_STREAM + rnd(2);
	if (k.cls == C_PROCESS)
		k.tgt = rnd(NPROGS);
	else if (k.cls < C_STREAM)
		k.tgt = rnd(NDIRS);
	k.name = rnd(2);
	return k;
}

/* ---- the child, in the domain ---------------------------------------- */

static int make_one(int cls, const char *path, char *ctx, size_t size)
{
	char *argv[] = { (char *)path, NULL };
	int fd, status;
	ssize_t n;
	pid_t pid;

	ctx[0] = '\0';
	switch (cls) {
	case C_FILE:
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	case C_DIR:
		return mkdir(path, 0700) ? errno : 0;
	case C_FIFO:
		return mkfifo(path, 0600) ? errno : 0;
	case C_SOCK_FILE:
		return mknod(path, S_IFSOCK | 0600, 0) ? errno : 0;
	case C_LNK:
		return symlink("target", path) ? errno : 0;
	case C_CHR:
		return mknod(path, S_IFCHR | 0600, makedev(1, 3)) ? errno : 0;
	case C_STREAM:
	case C_DGRAM:
		fd = socket(AF_UNIX, (cls == C_STREAM ? SOCK_STREAM : SOCK_DGRAM) |
			    SOCK_CLOEXEC, 0);
		if (fd < 0)
			return errno;
		n = fgetxattr(fd, XATTR_SELINUX, ctx, size - 1);
		close(fd);
		if (n < 0)
			return errno;
		ctx[n] = '\0';
		return 0;
	case C_PROCESS:
		while (read(FD_LR, ctx, size) > 0)
			;
		pid = fork();
		if (pid < 0)
			die("fork");
		if (!pid) {
			if (dup2(FD_LW, 1) < 0)
				_exit(errno);
			syscall(SYS_close_range, 2, ~0U, 0);
			execv(path, argv);
			_exit(errno);
		}
		if (waitpid(pid, &status, 0) != pid)
			die("waitpid");
		if (!WIFEXITED(status))
			return EIO;
		if (WEXITSTATUS(status))
			return WEXITSTATUS(status);
		n = read(FD_LR, ctx, size - 1);
		ctx[n > 0 ? n : 0] = '\0';	/* selfcon's context ends with a NUL */
		ctx[strcspn(ctx, " \n")] = '\0';
		return ctx[0] ? 0 : EIO;
	}
	return EINVAL;
}

static int child(int argc, char **argv)
{
	char ctx[256];

	for (int i = 0; i < argc; i++) {
		int idx, cls, off = 0, e;

		if (sscanf(argv[i], "%d:%d:%n", &idx, &cls, &off) != 2 || !off ||
		    cls < 0 || cls >= NCLASSES) {
			fprintf(stderr, "avclabels: bad spec %s\n", argv[i]);
			return 2;
		}
		e = make_one(cls, argv[i] + off, ctx, sizeof(ctx));
		if (e)
			printf("%d err %s\n", idx, errname(e));
		else
			printf("%d ok %s\n", idx, ctx[0] ? ctx : "-");
	}
	return 0;
}

/* ---- the parent: changes, children, the reference ---------------------- */

static int class_index[NCLASSES];

static void read_class_indexes(void)
{
	char path[96], buf[16];

	for (int c = 0; c < NCLASSES; c++) {
		ssize_t n;
		int fd;

		snprintf(path, sizeof(path), "/sys/fs/selinux/class/%s/index",
			 classes[c]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die("open %s", path);
		n = read(fd, buf, sizeof(buf) - 1);
		if (n <= 0)
			die("read %s", path);
		buf[n] = '\0';
		class_index[c] = atoi(buf);
		close(fd);
	}
}

/* The security server's label for key K (name NAME or none) */
static void reference(const struct key *k, const char *name, char *out,
		      size_t size)
{
	char q[512], tcon[128];
	ssize_t n;
	int fd;

	if (k->cls == C_PROCESS)
		snprintf(tcon, sizeof(tcon), "system_u:object_r:%s:s0", progs[k->tgt]);
	else if (k->cls == C_STREAM || k->cls == C_DGRAM)
		snprintf(tcon, sizeof(tcon), "system_u:system_r:%s:s0", doms[k->dom]);
	else
		snprintf(tcon, sizeof(tcon), "system_u:object_r:%s:s0", dirs[k->tgt]);
	n = snprintf(q, sizeof(q), "system_u:system_r:%s:s0 %s %d%s%s",
		     doms[k->dom], tcon, class_index[k->cls], name ? " " : "",
		     name ? name : "");
	fd = open("/sys/fs/selinux/create", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die("open /sys/fs/selinux/create");
	if (write(fd, q, n) != n)
		die("compute_create %s", q);
	n = read(fd, out, size - 1);
	if (n <= 0)
		die("read compute_create %s", q);
	out[n] = '\0';
	out[strcspn(out, " \n")] = '\0';
	close(fd);
}

static void write_str(const char *path, const char *s)
{
	write_file(path, s, strlen(s));
}

static int rm_tree(const char *path)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", path);
	return system(cmd);
}

static void copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC);
	int out = open(to, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0755);
	ssize_t n;

	if (in < 0 || out < 0)
		die("copy %s to %s", from, to);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			die("write %s", to);
	if (n < 0)
		die("read %s", from);
	close(in);
	close(out);
}

static unsigned long long digest = 1469598103934665603ULL;

static void hash_str(const char *s)
{
	for (; *s; s++)
		digest = (digest ^ (unsigned char)*s) * 1099511628211ULL;
	digest = (digest ^ '\n') * 1099511628211ULL;
}

/* FD, moved out of the way of FD_LR and FD_LW */
static int hi(int fd)
{
	int h = fcntl(fd, F_DUPFD_CLOEXEC, 10);

	if (h < 0)
		die("fcntl F_DUPFD_CLOEXEC");
	close(fd);
	return h;
}

/* Run one child in domain DOM for the specs of that domain; fill in ok/label */
static void run_child(int dom, struct spec *s, int ns)
{
	char *argv[MAXSPEC + 3], buf[MAXSPEC][96], line[512];
	int out[2], lab[2], argc = 0, status;
	FILE *f;
	pid_t pid;

	argv[argc++] = SELF;
	argv[argc++] = "make";
	for (int i = 0; i < ns; i++) {
		if (s[i].k.dom != dom)
			continue;
		snprintf(buf[i], sizeof(buf[i]), "%d:%d:%s", i, s[i].k.cls, s[i].path);
		argv[argc++] = buf[i];
	}
	if (argc == 2)
		return;
	argv[argc] = NULL;
	/* the context pipe goes to the child as FD_LR and FD_LW */
	if (pipe2(out, O_CLOEXEC) || pipe2(lab, O_CLOEXEC))
		die("pipe");
	for (int i = 0; i < 2; i++) {
		out[i] = hi(out[i]);
		lab[i] = hi(lab[i]);
	}
	if (dup2(lab[0], FD_LR) < 0 || dup2(lab[1], FD_LW) < 0 ||
	    fcntl(FD_LR, F_SETFL, O_NONBLOCK) < 0)
		die("dup2");
	pid = spawn_in(doms[dom], argv, out[1]);
	close(FD_LR);
	close(FD_LW);
	close(out[1]);
	close(lab[0]);
	close(lab[1]);
	f = fdopen(out[0], "r");
	if (!f)
		die("fdopen");
	while (fgets(line, sizeof(line), f)) {
		char res[16], lbl[256];
		int idx;

		if (sscanf(line, "%d %15s %255s", &idx, res, lbl) != 3 ||
		    idx < 0 || idx >= ns || s[idx].k.dom != dom) {
			fprintf(stderr, "avclabels: bad child line %s", line);
			exit(1);
		}
		/* the context, or the errno name of a denial */
		s[idx].ok = !strcmp(res, "ok");
		snprintf(s[idx].label, sizeof(s[idx].label), "%s", lbl);
	}
	fclose(f);
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	for (int i = 0; i < ns; i++)
		if (s[i].k.dom == dom && !s[i].label[0]) {
			errno = 0;
			die("no result for %s from the child in %s (status %#x)",
			    buf[i], doms[dom], status);
		}
}

static const char *change(int round, int *state)
{
	static const char *const pol[] = { "a", "b", "c" };
	static char what[32];
	char path[64];
	int c = round ? (int)rnd(5) : -1;

	/* state: [0] policy, [1] m_bool, [2] enforcing */
	if (c >= 0 && c < 3) {
		state[0] = c;
		snprintf(path, sizeof(path), "/matrix/policy/%s.bin", pol[c]);
		load_policy(path);
		snprintf(what, sizeof(what), "load-%s", pol[c]);
	} else if (c == 3) {
		state[1] = !state[1];
		write_str("/sys/fs/selinux/booleans/m_bool", state[1] ? "1" : "0");
		write_str("/sys/fs/selinux/commit_pending_bools", "1");
		snprintf(what, sizeof(what), "m_bool-%d", state[1]);
	} else if (c == 4) {
		state[2] = !state[2];
		write_str("/sys/fs/selinux/enforce", state[2] ? "1" : "0");
		snprintf(what, sizeof(what), "enforce-%d", state[2]);
	} else {
		load_policy("/matrix/policy/a.bin");
		write_str("/sys/fs/selinux/booleans/m_bool", "0");
		write_str("/sys/fs/selinux/commit_pending_bools", "1");
		write_str("/sys/fs/selinux/enforce", "1");
		state[0] = 0;
		state[1] = 0;
		state[2] = 1;
		snprintf(what, sizeof(what), "start");
	}
	read_class_indexes();
	return what;
}

static int key_id(const struct key *k)
{
	return ((k->dom * NCLASSES + k->cls) * NDIRS + k->tgt) * 2 + k->name;
}
#define NKEYIDS	(NDOMS * NCLASSES * NDIRS * 2)

static int run(unsigned int seed, int rounds)
{
	static char last[NKEYIDS][256];	/* each key's last reference answer */
	struct key prev[NEW_KEYS], cur[NEW_KEYS];
	int state[3], nprev = 0, changes[5] = { 0 };
	long checks = 0, denied = 0, changed = 0, mismatches = 0;
	struct spec s[MAXSPEC];

	rng = seed ? seed : 1;
	rm_tree(TOP);
	if (mkdir(TOP, 0755) || mkdir(TOP "/x", 0755))
		die("mkdir " TOP);
	label(TOP, "mwork_t");
	label(TOP "/x", "mwork_t");
	for (int p = 0; p < NPROGS; p++) {
		char path[64];

		snprintf(path, sizeof(path), TOP "/x/%d", p);
		copy_file(SELFCON, path);
		label(path, progs[p]);
	}
	for (int r = 0; r <= rounds; r++) {
		const char *what = change(r, state);
		int ns = 0;

		if (r) {
			if (what[0] == 'l')
				changes[0]++;
			else if (what[0] == 'm')
				changes[1]++;
			else
				changes[2]++;
		}
		for (int i = 0; i < NEW_KEYS; i++)
			cur[i] = random_key();
		/* the previous round's keys first, then the new ones */
		for (int i = 0; i < nprev + NEW_KEYS; i++)
			s[ns++].k = i < nprev ? prev[i] : cur[i - nprev];
		if (mkdir(RDIR, 0755))
			die("mkdir " RDIR);
		label(RDIR, "mwork_t");
		for (int i = 0; i < ns; i++) {
			const struct key *k = &s[i].k;
			char dir[48];

			s[i].ok = 0;
			s[i].label[0] = '\0';
			if (k->cls == C_PROCESS) {
				snprintf(s[i].path, sizeof(s[i].path), TOP "/x/%d", k->tgt);
			} else if (k->cls == C_STREAM || k->cls == C_DGRAM) {
				snprintf(s[i].path, sizeof(s[i].path), "-");
			} else {
				/* a directory of its own: names repeat */
				snprintf(dir, sizeof(dir), RDIR "/%d", i);
				if (mkdir(dir, 0755))
					die("mkdir %s", dir);
				label(dir, dirs[k->tgt]);
				snprintf(s[i].path, sizeof(s[i].path), "%s/%s", dir,
					 names[k->name]);
			}
		}
		for (int d = 0; d < NDOMS; d++)
			run_child(d, s, ns);
		for (int i = 0; i < ns; i++) {
			const struct key *k = &s[i].k;
			char ref[256], got[256], keystr[160];
			const char *name = NULL;
			int id = key_id(k);

			snprintf(keystr, sizeof(keystr), "%s %s %s %s", doms[k->dom],
				 k->cls == C_PROCESS ? progs[k->tgt] :
				 k->cls >= C_STREAM ? "self" : dirs[k->tgt],
				 classes[k->cls], k->cls < C_STREAM ? names[k->name] : "-");
			hash_str(keystr);
			hash_str(s[i].ok ? "ok" : s[i].label);
			if (!s[i].ok) {
				denied++;
				continue;
			}
			if (k->cls < C_STREAM) {
				ssize_t n = lgetxattr(s[i].path, XATTR_SELINUX, got,
						      sizeof(got) - 1);

				if (n < 0)
					die("lgetxattr %s", s[i].path);
				got[n] = '\0';
				name = names[k->name];
			} else {
				snprintf(got, sizeof(got), "%s", s[i].label);
			}
			hash_str(got);
			reference(k, name, ref, sizeof(ref));
			checks++;
			if (last[id][0] && strcmp(last[id], ref))
				changed++;
			snprintf(last[id], sizeof(last[id]), "%s", ref);
			if (strcmp(got, ref)) {
				mismatches++;
				printf("LABELREF-MISMATCH round=%d after=%s key=%s kernel=%s reference=%s\n",
				       r, what, keystr, got, ref);
			}
		}
		if (rm_tree(RDIR))
			die("rm " RDIR);
		memcpy(prev, cur, sizeof(cur));
		nprev = NEW_KEYS;
	}
	rm_tree(TOP);
	printf("LABELREF: seed=%u rounds=%d loads=%d bools=%d enforces=%d checks=%ld denied=%ld changed=%ld mismatches=%ld digest=%016llx\n",
	       seed, rounds, changes[0], changes[1], changes[2], checks, denied,
	       changed, mismatches, digest);
	fflush(stdout);
	return mismatches ? 1 : 0;
}

int main(int argc, char **argv)
{
	prog_name = "avclabels";
	if (argc >= 2 && !strcmp(argv[1], "make"))
		return child(argc - 2, argv + 2);
	if (argc == 4 && !strcmp(argv[1], "run"))
		return run(strtoul(argv[2], NULL, 0), atoi(argv[3]));
	fprintf(stderr, "usage: avclabels run SEED ROUNDS | make SPEC...\n");
	return 2;
}
