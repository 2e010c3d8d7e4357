// SPDX-License-Identifier: GPL-2.0
/*
 * lat_kill - null signals to a growing set of processes, each of its own
 * SELinux context: one permission check per signal whose key (the
 * sender's SID, the target's SID, the process class) is one of as many as
 * there are targets.  The whole-system row of the working-set sweep
 * (make scale): where the per-CPU cache stops paying, stock against
 * patched.
 *
 * Usage: lat_kill [-N iters] [-w warmup] [-c cats] [-l] KEYS...
 *
 * Forks as many children as the largest of KEYS.  With -l each child first
 * moves to a level of its own (writing its context, with the level
 * replaced, to /proc/self/attr/current: a dynamic transition within its
 * type): s0:cI for the first CATS children, then s0:cI,cJ (I < J) in
 * order; the policy must declare categories c0 to c(CATS-1) (default 256)
 * and let the domain make that transition.  Without -l (no SELinux) the
 * children keep the parent's context.  Then, for each K of KEYS in turn,
 * kill(pid, 0) to the first K children in turn: WARMUP signals (default
 * 140,000: beyond the longest bypass of the patched kernel's per-CPU
 * cache and the windows judging it, so that the timed signals see its
 * settled state), then ITERS timed ones (default 132,122: two of its
 * bypass periods at 128 slots).  Prints "kill0 K keys: N microseconds"
 * on stderr per K, and, where /sys/fs/selinux/avc has them, the counts of
 * cache_stats and pcpu_cache_stats read right before and right after the
 * timed signals, as "stats K FILE before|after LINE".
 */
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>

#include "bench.h"

#define MAX_KEYS	16384

static pid_t pids[MAX_KEYS];
static unsigned long nchildren;

/*
 * At exit, also on die(): no child is left holding the output pipe.  A
 * child that cannot be killed is not waited for (the policy must let the
 * domain kill its own type at any level).
 */
static void kill_children(void)
{
	unsigned long i;

	for (i = 0; i < nchildren; i++) {
		if (kill(pids[i], SIGKILL)) {
			fprintf(stderr, "lat_kill: cannot kill child %lu: %s\n",
				i, strerror(errno));
			pids[i] = 0;
		}
	}
	for (i = 0; i < nchildren; i++)
		if (pids[i])
			waitpid(pids[i], NULL, 0);
	nchildren = 0;
}

static void __noreturn print_usage(void)
{
	fprintf(stderr,
		"usage: lat_kill [-N iters] [-w warmup] [-c cats] [-l] KEYS...\n");
	exit(2);
}

/* The level of child @k: s0:cK, then the pairs s0:cI,cJ (I < J). */
static void level_of(unsigned int k, unsigned int cats, char *buf,
		     size_t len)
{
	unsigned int a = 0;

	if (k < cats) {
		snprintf(buf, len, "s0:c%u", k);
		return;
	}
	k -= cats;
	while (a + 1 < cats && k >= cats - 1 - a) {
		k -= cats - 1 - a;
		a++;
	}
	snprintf(buf, len, "s0:c%u,c%u", a, a + 1 + k);
}

/* The context of this process: user:role:type, without its level. */
static void current_prefix(char *buf, size_t len)
{
	int fd = open("/proc/self/attr/current", O_RDONLY | O_CLOEXEC);
	ssize_t n;
	char *p;
	int i;

	if (fd < 0)
		die("open /proc/self/attr/current");
	n = read(fd, buf, len - 1);
	if (n <= 0)
		die("read /proc/self/attr/current");
	close(fd);
	buf[n] = '\0';
	for (p = buf, i = 0; *p; p++) {
		if (*p == ':' && ++i == 3)
			break;
	}
	if (i != 3)
		die("context '%s' has no level", buf);
	*p = '\0';
}

/* Child @k: take its level if asked to, say so through @fd, wait. */
static void __noreturn child(unsigned int k, unsigned int cats,
			     const char *prefix, int fd)
{
	char ctx[320], level[64];
	char ok = 'y';

	if (prefix) {
		level_of(k, cats, level, sizeof(level));
		snprintf(ctx, sizeof(ctx), "%s:%s", prefix, level);
		if (try_write_file("/proc/self/attr/current", ctx,
				   strlen(ctx))) {
			fprintf(stderr, "lat_kill: child %u: cannot move to %s: %s\n",
				k, ctx, strerror(errno));
			ok = 'n';
		}
	}
	if (write(fd, &ok, 1) != 1)
		_exit(1);
	close(fd);
	/* Nothing more to say: let go of the parent's output. */
	fd = open("/dev/null", O_RDWR);
	if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		_exit(1);
	for (;;)
		pause();
}

/*
 * The AVC's counters, opened once so that reading them walks no path
 * (whose checks would count): -1 where the kernel has no such file.
 */
static const char *const stat_names[] = { "cache_stats", "pcpu_cache_stats" };
static int stat_fds[ARRAY_SIZE(stat_names)];

static void open_stats(void)
{
	char path[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(stat_names); i++) {
		snprintf(path, sizeof(path), "/sys/fs/selinux/avc/%s",
			 stat_names[i]);
		stat_fds[i] = open(path, O_RDONLY | O_CLOEXEC);
	}
}

static void print_stats(unsigned long keys, const char *when)
{
	char buf[1024], *line, *next;
	unsigned int i;
	ssize_t n;

	for (i = 0; i < ARRAY_SIZE(stat_names); i++) {
		if (stat_fds[i] < 0)
			continue;
		n = pread(stat_fds[i], buf, sizeof(buf) - 1, 0);
		if (n < 0)
			die("read /sys/fs/selinux/avc/%s", stat_names[i]);
		buf[n] = '\0';
		for (line = buf; *line; line = next) {
			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			else
				next = line + strlen(line);
			fprintf(stderr, "stats %lu %s %s %s\n", keys,
				stat_names[i], when, line);
		}
	}
}

static void signals(unsigned long keys, unsigned long n)
{
	unsigned long i = 0;

	while (n--) {
		if (kill(pids[i], 0))
			die("kill(%d, 0)", (int)pids[i]);
		if (++i == keys)
			i = 0;
	}
}

int main(int argc, char **argv)
{
	unsigned long iters = 132122, warmup = 140000, cats = 256, max = 0;
	unsigned long keys[64], nkeys = 0, k, i;
	unsigned long long t0, ns;
	char prefix[256], label[64];
	int opt, label_children = 0, ready[2];
	char ok;

	prog_name = "lat_kill";
	while ((opt = getopt(argc, argv, "N:w:c:l")) != -1) {
		switch (opt) {
		case 'N':
			iters = parse_count(optarg);
			break;
		case 'w':
			warmup = parse_count(optarg);
			break;
		case 'c':
			cats = parse_count(optarg);
			break;
		case 'l':
			label_children = 1;
			break;
		default:
			print_usage();
		}
	}
	if (optind == argc || argc - optind > (int)ARRAY_SIZE(keys))
		print_usage();
	for (; optind < argc; optind++) {
		k = parse_count(argv[optind]);
		if (k > MAX_KEYS)
			die("at most %d keys, not %lu", MAX_KEYS, k);
		if (label_children && k > cats + cats * (cats - 1) / 2)
			die("%lu keys need more levels than %lu categories make",
			    k, cats);
		keys[nkeys++] = k;
		if (k > max)
			max = k;
	}
	if (label_children)
		current_prefix(prefix, sizeof(prefix));
	open_stats();
	if (pipe(ready))
		die("pipe");
	if (atexit(kill_children))
		die("atexit");
	for (i = 0; i < max; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork of child %lu", i);
		if (!pids[i]) {
			close(ready[0]);
			child(i, cats, label_children ? prefix : NULL,
			      ready[1]);
		}
		nchildren = i + 1;
	}
	close(ready[1]);
	for (i = 0; i < max; i++) {
		if (read(ready[0], &ok, 1) != 1)
			die("child %lu did not start", i);
		if (ok != 'y') {
			errno = 0;
			die("a child could not take its level");
		}
	}
	close(ready[0]);

	for (i = 0; i < nkeys; i++) {
		signals(keys[i], warmup);
		print_stats(keys[i], "before");
		t0 = bench_begin();
		signals(keys[i], iters);
		ns = bench_end(t0, iters);
		print_stats(keys[i], "after");
		snprintf(label, sizeof(label), "kill0 %lu keys", keys[i]);
		bench_report(label, ns, iters);
	}

	kill_children();
	return 0;
}
