// SPDX-License-Identifier: GPL-2.0
/*
 * lat_proc - process creation latency, lmbench lat_proc style.
 *
 * Usage: lat_proc [-N iters] [-p prog] fork|exec|exec_trans|shell
 *
 *   fork   fork(); the child _exit()s at once; the parent waits for it
 *   exec   fork(); the child execve()s prog; the parent waits
 *   exec_trans  the same, under its own label, for a prog whose file type
 *          makes the exec a domain transition (run.sh passes
 *          /bench/hello_trans; the policy allows noatsecure), with
 *          layout randomization in the exec'd child on every kernel,
 *          see below
 *   shell  fork(); the child execve()s /bin/sh -c prog; the parent waits
 *
 * prog defaults to /bench/hello, a static program that only exits.  The
 * exec stays in the caller's SELinux domain: the policy must let the
 * domain execute prog (and /bin/sh) without a transition.  The children
 * get a fixed environment, so that the figures do not depend on what the
 * caller's environment holds.  Results go to stderr in lmbench's format,
 * e.g. "Process fork+exit: 123.4567 microseconds".
 *
 * lat_proc runs, and starts its children, without address space layout
 * randomization: it sets ADDR_NO_RANDOMIZE and execs itself again before
 * it measures, so that its own layout is fixed too.  With randomization
 * every boot draws other addresses for the stack, the mmap base and the
 * heap, and so needs other page-table pages for each child (whether two
 * areas share a PUD, PMD or PTE page), which moved a fork by up to about
 * 5,000 instructions from boot to boot.
 *
 * A domain transition turns randomization back on: SELinux clears the
 * personality bits of PER_CLEAR_ON_SETID, ADDR_NO_RANDOMIZE among them,
 * on every exec that changes the domain, noatsecure or not.  Without
 * SELinux the same exec keeps the flag.  So that exec_trans compares
 * like with like, its child clears the flag itself before the execve on
 * every kernel: each exec'd program draws its layout (five random draws,
 * about 50,000 instructions in the guest, whose RNG is never seeded) on
 * both sides, and the row shows what SELinux adds.  The draws differ
 * from one child to the next, so the mean over the row's iterations
 * does not depend on one boot's draw as the parent's layout would.
 */
#include <unistd.h>
#include <sys/personality.h>
#include <sys/wait.h>

#include "bench.h"

#define DEFAULT_ITERS	1000UL
#define DEFAULT_PROG	"/bench/hello"
#define SHELL		"/bin/sh"

static const char *prog = DEFAULT_PROG;
static char *const child_env[] = { "PATH=/bin", NULL };

static void __noreturn child_fork(void)
{
	_exit(0);
}

static void __noreturn child_exec(void)
{
	char *argv[] = { (char *)prog, NULL };

	execve(prog, argv, child_env);
	_exit(127);
}

/* exec, with layout randomization in the exec'd program (see above). */
static void __noreturn child_exec_random(void)
{
	int pers = personality(0xffffffff);

	if (pers < 0 || personality(pers & ~ADDR_NO_RANDOMIZE) < 0)
		_exit(126);
	child_exec();
}

static void __noreturn child_shell(void)
{
	char *argv[] = { "sh", "-c", (char *)prog, NULL };

	execve(SHELL, argv, child_env);
	_exit(127);
}

struct op {
	const char *name;
	const char *label;
	void (*child)(void);
};

static const struct op ops[] = {
	{ "fork",  "Process fork+exit",       child_fork },
	{ "exec",  "Process fork+execve",     child_exec },
	{ "exec_trans", "Process fork+execve domain transition", child_exec_random },
	{ "shell", "Process fork+/bin/sh -c", child_shell },
};

static void run(const struct op *op, unsigned long n)
{
	int status;
	pid_t pid;

	while (n--) {
		pid = fork();
		if (pid < 0)
			die("fork");
		if (!pid)
			op->child();
		if (waitpid(pid, &status, 0) != pid)
			die("waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			errno = 0;
			die("%s: child failed (status %#x)", op->name, status);
		}
	}
}

/*
 * Re-exec @argv without layout randomization, once: the personality flag
 * is kept across execve() (the exec stays in the caller's domain, so no
 * secure exec clears it) and inherited by the children.  run.sh starts
 * lat_proc by its absolute path, which the re-exec uses.
 */
static void no_randomize(char **argv)
{
	const char *self = strchr(argv[0], '/') ? argv[0] : "/proc/self/exe";
	int pers = personality(0xffffffff);

	if (pers < 0)
		die("personality");
	if (pers & ADDR_NO_RANDOMIZE)
		return;
	if (personality(pers | ADDR_NO_RANDOMIZE) < 0)
		die("personality(ADDR_NO_RANDOMIZE)");
	execv(self, argv);
	die("re-exec of %s without layout randomization", argv[0]);
}

static void __noreturn print_usage(void)
{
	fprintf(stderr, "usage: lat_proc [-N iters] [-p prog] fork|exec|exec_trans|shell\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long iters = DEFAULT_ITERS;
	unsigned long long t0, ns;
	const struct op *op = NULL;
	size_t i;
	int opt;

	prog_name = "lat_proc";
	while ((opt = getopt(argc, argv, "N:p:")) != -1) {
		switch (opt) {
		case 'N':
			iters = parse_count(optarg);
			break;
		case 'p':
			prog = optarg;
			break;
		default:
			print_usage();
		}
	}
	if (argc - optind != 1)
		print_usage();
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strcmp(argv[optind], ops[i].name))
			op = &ops[i];
	if (!op)
		print_usage();
	no_randomize(argv);

	/* Nothing buffered that a child could flush a second time. */
	fflush(NULL);
	run(op, warmup_of(iters));
	t0 = bench_begin();
	run(op, iters);
	ns = bench_end(t0, iters);

	bench_report(op->label, ns, iters);
	return 0;
}
