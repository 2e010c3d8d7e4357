// SPDX-License-Identifier: GPL-2.0
/*
 * sinit - /init of the benchmark guest where there is no busybox (sh4 is
 * not a Debian release architecture).  It does what guest/init and
 * guest/run.sh do with a shell, in C: mount the file systems, load and
 * enforce the policy, label the files, run the policy checks, run each
 * benchmark in the confined domain and print its lines between the
 * markers that report.py reads, then power off.
 *
 * The benchmarks are rows.conf's, as for run.sh; those that need a shell
 * (fork+/bin/sh -c and the no-change make) are reported as "SKIP", and
 * the churn scenario is not supported.
 *
 * Kernel command line variables (passed to init as environment):
 *   BENCH_SCALE   percent of the default iteration counts (default 100)
 *   BENCH_OP      run only this benchmark, with its windows (make profile)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include "bench.h"

#define MARK		"SELINUX-AVC-BENCH: "
#define POLICY		"/policy/"
#define ROWS		"/bench/rows.conf"
#define XATTR_NAME	"security.selinux"

static unsigned long scale = 100;
static char domain[256];
static const char *label_ctx;
static int label_errors;

static void __printf(1, 2) say(const char *fmt, ...)
{
	va_list ap;

	fputs(MARK, stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void __noreturn finish(void)
{
	say("END");
	sync();
	reboot(RB_AUTOBOOT);
	sleep(10);
	exit(0);
}

static void __noreturn __printf(1, 2) fail(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	say("ERROR %s", buf);
	finish();
}

/* The first line of PATH without its newline, or "" if it cannot be read. */
static void read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, size, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* Write the string @val to @path: 0, or -1 with errno set. */
static int write_str(const char *path, const char *val)
{
	return try_write_file(path, val, strlen(val));
}

/* Print every line of PATH behind PREFIX. */
static void print_file(const char *prefix, const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		say("%s%s", prefix, line);
	}
	fclose(f);
}

static int label_one(const char *path, const struct stat *st, int type,
		     struct FTW *ftw)
{
	if (lsetxattr(path, XATTR_NAME, label_ctx, strlen(label_ctx) + 1, 0)) {
		say("label-failed %s %s: %s", path, label_ctx, strerror(errno));
		label_errors++;
	}
	return 0;
}

/*
 * The labels file's lines are "PATH CONTEXT"; "DIR/ *" (without the
 * space) labels DIR and everything below it.  ONLY, if set, picks the
 * one line for that path.
 */
static void apply_labels(const char *only)
{
	char line[512], *ctx;
	FILE *f = fopen(POLICY "labels", "r");
	size_t len;

	if (!f)
		fail("cannot read " POLICY "labels");
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		ctx = strchr(line, ' ');
		if (!ctx)
			continue;
		*ctx++ = '\0';
		if (only && strcmp(line, only))
			continue;
		label_ctx = ctx;
		len = strlen(line);
		if (len > 2 && !strcmp(line + len - 2, "/*")) {
			line[len - 2] = '\0';
			nftw(line, label_one, 16, FTW_PHYS);
		} else {
			label_one(line, NULL, 0, NULL);
		}
	}
	fclose(f);
	if (label_errors)
		fail("cannot label %d files", label_errors);
}

/*
 * Run ARGV in the confined domain (when there is one), its standard output
 * to OUT_FD (or /dev/null), and hand each line of its standard error to
 * LINE.  Returns the exit status.
 */
static int run(char *const argv[], int out_fd, const char *ctx,
	       void (*line)(const char *))
{
	char buf[512];
	int pfd[2], status, null;
	pid_t pid;
	FILE *f;

	if (pipe(pfd))
		fail("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (!pid) {
		null = open("/dev/null", O_WRONLY);
		dup2(out_fd >= 0 ? out_fd : null, 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		if (ctx && *ctx && write_str("/proc/self/attr/exec", ctx)) {
			fprintf(stderr, "sinit: cannot set exec context %s\n", ctx);
			_exit(126);
		}
		execv(argv[0], argv);
		fprintf(stderr, "sinit: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	f = fdopen(pfd[0], "r");
	while (f && fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		line(buf);
	}
	if (f)
		fclose(f);
	if (waitpid(pid, &status, 0) != pid)
		fail("waitpid: %s", strerror(errno));
	return status;
}

static void result_line(const char *l)
{
	if (!strncmp(l, "window ", 7))
		say("WINDOW %s", l + 7);
	else
		say("RESULT %s", l);
}

static void quiet_line(const char *l)
{
}

/*
 * What ARGV (run in domain CTX) prints on its standard output, or
 * "denied".  Through a pipe, as the shell's $(...): the domain may use
 * init's pipes, not files init created.  The output is short, well
 * within the pipe's buffer, so it is read after the program exits.
 */
static void capture(char *const argv[], const char *ctx, char *out, size_t size)
{
	ssize_t n;
	int pfd[2];

	if (pipe(pfd))
		fail("pipe: %s", strerror(errno));
	if (run(argv, pfd[1], ctx, quiet_line)) {
		snprintf(out, size, "denied");
	} else {
		close(pfd[1]);
		pfd[1] = -1;
		n = read(pfd[0], out, size - 1);
		out[n > 0 ? n : 0] = '\0';
		out[strcspn(out, "\n")] = '\0';
	}
	close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
}

static void check(const char *what, const char *got, const char *want)
{
	if (!strcmp(got, want))
		say("CHECK ok %s", what);
	else
		say("CHECK FAILED %s (got %s, want %s)", what, got, want);
}

static void set_bool(const char *name, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/fs/selinux/booleans/%s", name);
	if (write_str(path, val) ||
	    write_str("/sys/fs/selinux/commit_pending_bools", "1"))
		fail("cannot set boolean %s", name);
}

/*
 * The peer label two connections from CLIENT to a server in SERVER get, as
 * guest/init's peer(): the server in a child of its own, the client's
 * "serun peer" output captured.
 */
static void peer(const char *server, const char *client, char *out,
		 size_t size)
{
	char *serve[] = { "/bench/serun", "peer-serve", "/tmp/peer.sock", "2",
			  NULL };
	char *conn[] = { "/bench/serun", "peer", "/tmp/peer.sock", "2", NULL };
	pid_t pid = fork();

	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (!pid)
		_exit(run(serve, -1, server, quiet_line) ? 1 : 0);
	capture(conn, client, out, size);
	if (waitpid(pid, NULL, 0) != pid)
		fail("waitpid: %s", strerror(errno));
}

/*
 * As guest/init: a server of lo_u (s0 only) and a client at s0:c0 (PC0)
 * make a label the policy does not allow: permissive mode gives it, then
 * enforcing mode must refuse the connection.  GOT and WANT: scratch.
 */
static void peer_invalid(const char *pc0, char *got, char *want, size_t size)
{
	char *serve[] = { "/bench/serun", "peer-serve", "/tmp/peer.sock", "1",
			  NULL };
	char *conn[] = { "/bench/serun", "peer", "/tmp/peer.sock", "1", NULL };
	char lo[270];
	pid_t pid;

	if (strncmp(domain, "system_u:", 9))
		fail("benchmark domain %s is not system_u's", domain);
	snprintf(lo, sizeof(lo), "lo_u:%s", domain + 9);
	if (write_str("/sys/fs/selinux/enforce", "0"))
		fail("cannot set permissive mode");
	snprintf(want, size, "%s:c0 %s:c0", lo, lo);
	peer(lo, pc0, got, size);
	check("AF_UNIX peer label invalid, permissive mode", got, want);
	if (write_str("/sys/fs/selinux/enforce", "1"))
		fail("cannot set enforcing mode");
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (!pid) {
		setpgid(0, 0);
		_exit(run(serve, -1, lo, quiet_line) ? 1 : 0);
	}
	capture(conn, pc0, got, size);
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	unlink("/tmp/peer.sock");
	check("AF_UNIX peer label invalid, enforcing mode", got, "denied");
}

/* The project policy's behaviour checks, as guest/init makes them. */
static void policy_checks(void)
{
	char *cat[] = { "/bench/serun", "cat", "/secret", NULL };
	char *stat_argv[] = { "/bench/serun", "stat", "/secret", NULL };
	char *ctx_argv[] = { "/bench/serun", "context", NULL };
	char perm[256], got[256];

	capture(cat, domain, got, sizeof(got));
	check("confined read of secret_t is denied", got, "denied");
	set_bool("bench_read_secret", "1");
	capture(cat, domain, got, sizeof(got));
	check("boolean bench_read_secret=1 allows it", got, "secret");
	set_bool("bench_read_secret", "0");
	read_line(POLICY "permissive_domain", perm, sizeof(perm));
	capture(cat, perm, got, sizeof(got));
	check("permissive domain reads it", got, "secret");
	capture(stat_argv, domain, got, sizeof(got));
	check("confined stat of secret_t is allowed (and audited)", got, "/secret");
	capture(ctx_argv, domain, got, sizeof(got));
	check("benchmark domain", got, domain);
}

/*
 * The AF_UNIX peer labels (security_sid_mls_copy()), both ways, and one
 * the policy does not allow; after the rows, as guest/init makes them:
 * they start processes and flip the enforcing mode.
 */
static void peer_checks(void)
{
	char perm[256], got[600], pc0[260], want[600], what[640];

	read_line(POLICY "permissive_domain", perm, sizeof(perm));
	snprintf(pc0, sizeof(pc0), "%s:c0", perm);
	snprintf(want, sizeof(want), "%s:c0 %s:c0", domain, domain);
	snprintf(what, sizeof(what), "AF_UNIX peer label, server %s, client %s",
		 domain, pc0);
	peer(domain, pc0, got, sizeof(got));
	check(what, got, want);
	snprintf(want, sizeof(want), "%s %s", perm, perm);
	snprintf(what, sizeof(what), "AF_UNIX peer label, server %s, client %s",
		 pc0, domain);
	peer(pc0, domain, got, sizeof(got));
	check(what, got, want);
	peer_invalid(pc0, got, want, sizeof(got));
}

/* Print the kernel log's lines that contain WHAT behind PREFIX. */
static void klog_grep(const char *what, const char *prefix)
{
	int len = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *buf, *l, *next;

	if (len <= 0)
		return;
	buf = malloc(len + 1);
	if (!buf)
		return;
	len = klogctl(3, buf, len);	/* SYSLOG_ACTION_READ_ALL */
	if (len < 0)
		len = 0;
	buf[len] = '\0';
	for (l = buf; *l; l = next) {
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		else
			next = l + strlen(l);
		if (strstr(l, what))
			say("%s%s", prefix, l);
	}
	free(buf);
}

static unsigned long n(unsigned long count)
{
	return count * scale / 100 + 1;
}

/*
 * Run rows.conf's "op NAME COUNT NEEDS PROGRAM [ARG...]" benchmarks in
 * their order, as guest/run.sh does: /bench/PROGRAM -N COUNT' ARG...
 * Only the one named ONLY, when set.  Those that need what this guest
 * has not (a shell) are reported as SKIP.
 */
static void run_ops(const char *only)
{
	char line[512], prog[64], count[32], *argv[16], *f[5];
	FILE *rows = fopen(ROWS, "re");
	int argc, i, status, found = 0;

	if (!rows)
		fail("cannot read " ROWS ": %s", strerror(errno));
	while (fgets(line, sizeof(line), rows)) {
		for (i = 0; i < 5; i++)
			f[i] = strtok(i ? NULL : line, " \t\n");
		if (!f[0] || strcmp(f[0], "op"))
			continue;
		if (!f[4])
			fail(ROWS ": an op line without its program");
		if (only && strcmp(only, f[1]))
			continue;
		found = 1;
		if (strcmp(f[3], "-")) {
			say("SKIP %s no %s in this guest", f[1], f[3]);
			continue;
		}
		snprintf(prog, sizeof(prog), "/bench/%s", f[4]);
		snprintf(count, sizeof(count), "%lu", n(strtoul(f[2], NULL, 10)));
		argc = 0;
		argv[argc++] = prog;
		argv[argc++] = "-N";
		argv[argc++] = count;
		while (argc < (int)ARRAY_SIZE(argv) - 1 &&
		       (argv[argc] = strtok(NULL, " \t\n")))
			argc++;
		argv[argc] = NULL;
		status = run(argv, -1, domain, result_line);
		if (status)
			say("RESULT %s: exit status %d", f[1], status);
	}
	fclose(rows);
	if (only && !found)
		say("ERROR unknown benchmark '%s'", only);
}

/*
 * As guest/init: the per-CPU cache's counts after boot, then 65,537 null
 * signals in the benchmarks' domain on every kernel, which end a bypass of
 * the cache that boot started before the first row.
 */
static void settle(int enforcing)
{
	char *argv[] = { "/bench/settle", "65537", NULL };

	if (enforcing && !access("/sys/fs/selinux/avc/pcpu_cache_stats", R_OK))
		print_file("STAT pcpu_cache_stats_boot ",
			   "/sys/fs/selinux/avc/pcpu_cache_stats");
	if (run(argv, -1, enforcing ? domain : NULL, quiet_line))
		say("ERROR the null signals before the rows failed");
}

int main(int argc, char **argv)
{
	const char *op = getenv("BENCH_OP");
	const char *s = getenv("BENCH_SCALE");
	char *ctx_argv[] = { "/bench/serun", "context", NULL };
	char kind[64] = "none", buf[512];
	const char *scen = getenv("BENCH_SCENARIO");
	const char *step;
	int enforcing = 0;

	prog_name = "sinit";
	setenv("PATH", "/bench", 1);
	if (s) {
		scale = strtoul(s, NULL, 10);
		if (!scale)
			fail("bad BENCH_SCALE=%s", s);
	}
	if (scen && *scen)
		fail("BENCH_SCENARIO=%s: this guest has no shell for it", scen);
	if (mount("proc", "/proc", "proc", 0, NULL))
		fail("mount proc");
	if (mount("sysfs", "/sys", "sysfs", 0, NULL))
		fail("mount sysfs");
	if (!mount("selinuxfs", "/sys/fs/selinux", "selinuxfs", 0, NULL) &&
	    !access("/sys/fs/selinux/load", F_OK)) {
		enforcing = 1;
		read_line(POLICY "kind", kind, sizeof(kind));
		if (try_load_policy(POLICY "policy.bin", &step))
			fail("policy load failed: %s " POLICY "policy.bin: %s",
			     step, strerror(errno));
		/* The console the kernel opened is the initramfs' one. */
		apply_labels("/dev/console");
	}
	if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL))
		fail("mount devtmpfs");
	/*
	 * tmpfs allows one inode per two pages of RAM by default: 8,192 on
	 * sh4's 64 MiB board, fewer than lat_fs's 10,000 files.  A larger
	 * limit keeps the same accounting path.
	 */
	if (mount("tmpfs", "/tmp", "tmpfs", 0, "nr_inodes=65536"))
		fail("mount tmpfs");
	if (enforcing) {
		apply_labels(NULL);
		if (write_str("/sys/fs/selinux/enforce", "1"))
			fail("cannot set enforcing");
		read_line("/sys/fs/selinux/enforce", buf, sizeof(buf));
		if (strcmp(buf, "1"))
			fail("not enforcing");
		read_line(POLICY "domain", domain, sizeof(domain));
		say("BEGIN mode=enforcing policy=%s domain=%s", kind, domain);
	} else {
		say("BEGIN mode=none policy=none");
	}
	read_line("/proc/version", buf, sizeof(buf));
	say("KERNEL %s", buf);
	read_line("/proc/cmdline", buf, sizeof(buf));
	say("CMDLINE %s", buf);
	if (!strcmp(kind, "project")) {
		policy_checks();
		klog_grep("avc:", "AUDIT ");
	}
	if (chdir("/tmp"))
		fail("chdir /tmp");
	if (enforcing)
		capture(ctx_argv, domain, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "none");
	say("CONTEXT %s", buf);
	settle(enforcing);
	if (op && *op)
		setenv("BENCH_WINDOWS", "1", 1);
	run_ops(op && *op ? op : NULL);
	if (!strcmp(kind, "project"))
		peer_checks();
	if (enforcing) {
		print_file("STAT cache_stats ", "/sys/fs/selinux/avc/cache_stats");
		print_file("STAT pcpu_cache_stats ",
			   "/sys/fs/selinux/avc/pcpu_cache_stats");
		print_file("STAT hash_stats ", "/sys/fs/selinux/avc/hash_stats");
		klog_grep("avc:  denied", "DENIED ");
	}
	finish();
}
