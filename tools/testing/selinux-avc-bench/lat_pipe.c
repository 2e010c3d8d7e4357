// SPDX-License-Identifier: GPL-2.0
/*
 * lat_pipe - one-byte round-trip latency between two processes.
 *
 * Usage: lat_pipe [-N iters] [pipe|unix|self]
 *
 *   pipe  two pipes between parent and child (lmbench lat_pipe)
 *   unix  an AF_UNIX stream socketpair between parent and child
 *   self  write + read of one byte on a pipe within one process
 *
 * Pipes and sockets never pass file_open, so SELinux revalidates the file
 * on every read and write.  Results go to stderr in lmbench's format.
 */
#include <signal.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "bench.h"

#define DEFAULT_ITERS	20000UL

static void xwrite(int fd)
{
	char c = 'x';

	if (write(fd, &c, 1) != 1)
		die("write");
}

static void xread(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		die("read");
}

/* Child: echo every byte back until the parent closes its end. */
static void __noreturn echo_loop(int rfd, int wfd)
{
	char c;

	while (read(rfd, &c, 1) == 1)
		if (write(wfd, &c, 1) != 1)
			break;
	_exit(0);
}

static void round_trips(int wfd, int rfd, unsigned long n)
{
	while (n--) {
		xwrite(wfd);
		xread(rfd);
	}
}

/* Returns nanoseconds for @iters round trips after a warm-up. */
static unsigned long long run_pair(int unix_sock, unsigned long iters)
{
	int p2c[2], c2p[2], sv[2];
	unsigned long long t0, ns;
	int wfd, rfd, status;
	pid_t pid;

	if (unix_sock) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
			die("socketpair");
	} else if (pipe(p2c) || pipe(c2p)) {
		die("pipe");
	}

	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		if (unix_sock) {
			close(sv[0]);
			echo_loop(sv[1], sv[1]);
		}
		close(p2c[1]);
		close(c2p[0]);
		echo_loop(p2c[0], c2p[1]);
	}

	if (unix_sock) {
		close(sv[1]);
		wfd = sv[0];
		rfd = sv[0];
	} else {
		close(p2c[0]);
		close(c2p[1]);
		wfd = p2c[1];
		rfd = c2p[0];
	}

	round_trips(wfd, rfd, warmup_of(iters));
	t0 = bench_begin();
	round_trips(wfd, rfd, iters);
	ns = bench_end(t0, iters);

	close(wfd);
	if (rfd != wfd)
		close(rfd);
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	return ns;
}

static unsigned long long run_self(unsigned long iters)
{
	unsigned long long t0, ns;
	int p[2];

	if (pipe(p))
		die("pipe");
	round_trips(p[1], p[0], warmup_of(iters));
	t0 = bench_begin();
	round_trips(p[1], p[0], iters);
	ns = bench_end(t0, iters);
	close(p[0]);
	close(p[1]);
	return ns;
}

static void __noreturn print_usage(void)
{
	fprintf(stderr, "usage: lat_pipe [-N iters] [pipe|unix|self]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long iters = DEFAULT_ITERS;
	const char *mode = "pipe";
	unsigned long long ns;

	prog_name = "lat_pipe";
	iters = bench_parse_n(argc, argv, iters, 1, print_usage);
	if (optind < argc)
		mode = argv[optind];
	signal(SIGPIPE, SIG_IGN);

	if (!strcmp(mode, "pipe")) {
		ns = run_pair(0, iters);
		bench_report("Pipe latency", ns, iters);
	} else if (!strcmp(mode, "unix")) {
		ns = run_pair(1, iters);
		bench_report("AF_UNIX sock stream latency", ns, iters);
	} else if (!strcmp(mode, "self")) {
		ns = run_self(iters);
		bench_report("Pipe self write+read", ns, iters);
	} else {
		print_usage();
	}
	return 0;
}
