// SPDX-License-Identifier: GPL-2.0
/*
 * lat_unix_connect - AF_UNIX stream connection setup, lmbench
 * lat_unix_connect style.
 *
 * Usage: lat_unix_connect [-N iters] [dir]
 *
 * Binds and listens on a pathname socket, dir/lat_unix_connect.PID
 * (default dir /tmp), and forks a server that accepts connections and
 * closes each at once.  Per operation the client makes a socket,
 * connects it to that path and closes it.  The server runs on the same
 * CPU whenever the client blocks (a full backlog); the last connection
 * of a run waits for the server's close (EOF), and since the server
 * takes connections in order, every connection of the run has then been
 * accepted and closed inside the measured window.  Results go to stderr
 * in lmbench's format.
 */
#include <signal.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "bench.h"

#define DEFAULT_ITERS	5000UL
#define BACKLOG		16

static struct sockaddr_un addr;

static void __noreturn server(int lfd)
{
	int c;

	for (;;) {
		c = accept(lfd, NULL, NULL);
		if (c < 0) {
			if (errno == EINTR)
				continue;
			die("accept");
		}
		close(c);
	}
}

static int connect_one(void)
{
	int s;

	s = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s < 0)
		die("socket");
	if (connect(s, (struct sockaddr *)&addr, sizeof(addr)))
		die("connect %s", addr.sun_path);
	return s;
}

/* @n connections; the last one waits until the server has closed it. */
static void connections(unsigned long n)
{
	char c;
	int s;

	while (--n)
		close(connect_one());
	s = connect_one();
	if (read(s, &c, 1) != 0)
		die("read: the server did not close the connection");
	close(s);
}

static void __noreturn print_usage(void)
{
	fprintf(stderr, "usage: lat_unix_connect [-N iters] [dir]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long iters = DEFAULT_ITERS;
	unsigned long long t0, ns;
	const char *dir = "/tmp";
	int lfd, status;
	pid_t pid;

	prog_name = "lat_unix_connect";
	iters = bench_parse_n(argc, argv, iters, 1, print_usage);
	if (optind < argc)
		dir = argv[optind];

	addr.sun_family = AF_UNIX;
	if ((size_t)snprintf(addr.sun_path, sizeof(addr.sun_path),
			     "%s/lat_unix_connect.%d", dir, (int)getpid()) >=
	    sizeof(addr.sun_path)) {
		errno = 0;
		die("socket path too long");
	}
	lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (lfd < 0)
		die("socket");
	if (bind(lfd, (struct sockaddr *)&addr, sizeof(addr)))
		die("bind %s", addr.sun_path);
	if (listen(lfd, BACKLOG))
		die("listen");

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid)
		server(lfd);
	close(lfd);

	connections(warmup_of(iters));
	t0 = bench_begin();
	connections(iters);
	ns = bench_end(t0, iters);

	kill(pid, SIGTERM);
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (unlink(addr.sun_path))
		die("unlink %s", addr.sun_path);

	bench_report("AF_UNIX connect", ns, iters);
	return 0;
}
