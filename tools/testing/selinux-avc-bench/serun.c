// SPDX-License-Identifier: GPL-2.0
/*
 * serun - minimal SELinux helper for a busybox guest without SELinux
 * applets.
 *
 * Usage: serun exec CONTEXT PROGRAM [ARG...]
 *          write CONTEXT to /proc/self/attr/exec, then execv PROGRAM
 *        serun label CONTEXT FILE...
 *          set the security.selinux attribute of each FILE (no follow)
 *        serun context [PID]
 *          print the current context of PID (default: self)
 *        serun load POLICY
 *          load a binary policy; selinuxfs wants it in a single write()
 *        serun cat FILE
 *          copy FILE to standard output (the C init's guest has no cat)
 *        serun stat FILE
 *          print FILE's name if stat() allows it (no stat applet either)
 *        serun peer-serve PATH N
 *          listen on a new AF_UNIX stream socket at PATH, accept N
 *          connections and close each
 *        serun peer PATH N
 *          connect N times to PATH (retrying while nothing listens there)
 *          and print the peer context (SO_PEERSEC) of each connection
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/xattr.h>

#include "bench.h"

#define XATTR_NAME	"security.selinux"

static void __noreturn print_usage(void)
{
	fprintf(stderr,
		"usage: serun exec CONTEXT PROGRAM [ARG...]\n"
		"       serun label CONTEXT FILE...\n"
		"       serun context [PID]\n"
		"       serun load POLICY\n"
		"       serun cat FILE\n"
		"       serun stat FILE\n"
		"       serun peer-serve PATH N\n"
		"       serun peer PATH N\n");
	exit(2);
}

static int do_context(int argc, char **argv)
{
	char path[64], buf[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/attr/current",
		 argc > 0 ? argv[0] : "self");
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("open %s", path);
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		die("read %s", path);
	close(fd);
	while (n > 0 && (buf[n - 1] == '\0' || buf[n - 1] == '\n'))
		n--;
	buf[n] = '\0';
	printf("%s\n", buf);
	return 0;
}

static int do_label(int argc, char **argv)
{
	int i, ret = 0;

	if (argc < 2)
		print_usage();
	for (i = 1; i < argc; i++) {
		if (lsetxattr(argv[i], XATTR_NAME, argv[0],
			      strlen(argv[0]) + 1, 0)) {
			fprintf(stderr, "serun: label %s %s: %s\n", argv[i],
				argv[0], strerror(errno));
			ret = 1;
		}
	}
	return ret;
}

static int do_load(int argc, char **argv)
{
	if (argc != 1)
		print_usage();
	load_policy(argv[0]);
	return 0;
}

static int do_cat(int argc, char **argv)
{
	char buf[4096];
	ssize_t n;
	int fd;

	if (argc != 1)
		print_usage();
	fd = open(argv[0], O_RDONLY);
	if (fd < 0)
		die("open %s", argv[0]);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (write(1, buf, n) != n)
			die("write");
	if (n < 0)
		die("read %s", argv[0]);
	close(fd);
	return 0;
}

static int do_stat(int argc, char **argv)
{
	struct stat st;

	if (argc != 1)
		print_usage();
	if (stat(argv[0], &st))
		die("stat %s", argv[0]);
	printf("%s\n", argv[0]);
	return 0;
}

static void unix_path(struct sockaddr_un *sa, const char *path)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa->sun_path))
		die("socket path too long: %s", path);
	strcpy(sa->sun_path, path);
}

static int do_peer_serve(int argc, char **argv)
{
	struct sockaddr_un sa;
	unsigned long n;
	int l, c;

	if (argc != 2)
		print_usage();
	n = parse_count(argv[1]);
	unix_path(&sa, argv[0]);
	unlink(argv[0]);
	l = socket(AF_UNIX, SOCK_STREAM, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(l, (int)n))
		die("listen on %s", argv[0]);
	while (n--) {
		c = accept(l, NULL, NULL);
		if (c < 0)
			die("accept on %s", argv[0]);
		close(c);
	}
	close(l);
	unlink(argv[0]);
	return 0;
}

static int do_peer(int argc, char **argv)
{
	struct sockaddr_un sa;
	char ctx[256];
	socklen_t len;
	unsigned long n, i;
	int s, tries;

	if (argc != 2)
		print_usage();
	n = parse_count(argv[1]);
	unix_path(&sa, argv[0]);
	for (i = 0; i < n; i++) {
		s = socket(AF_UNIX, SOCK_STREAM, 0);
		if (s < 0)
			die("socket");
		for (tries = 0; connect(s, (struct sockaddr *)&sa, sizeof(sa));
		     tries++) {
			if ((errno != ENOENT && errno != ECONNREFUSED) ||
			    tries == 10000)
				die("connect to %s", argv[0]);
			usleep(1000);
		}
		len = sizeof(ctx) - 1;
		if (getsockopt(s, SOL_SOCKET, SO_PEERSEC, ctx, &len))
			die("SO_PEERSEC of %s", argv[0]);
		ctx[len] = '\0';
		printf("%s%s", i ? " " : "", ctx);
		close(s);
	}
	printf("\n");
	return 0;
}

static int do_exec(int argc, char **argv)
{
	if (argc < 2)
		print_usage();
	write_file("/proc/self/attr/exec", argv[0], strlen(argv[0]));
	execv(argv[1], argv + 1);
	die("exec %s in %s", argv[1], argv[0]);
}

int main(int argc, char **argv)
{
	prog_name = "serun";
	if (argc < 2)
		print_usage();
	if (!strcmp(argv[1], "exec"))
		return do_exec(argc - 2, argv + 2);
	if (!strcmp(argv[1], "label"))
		return do_label(argc - 2, argv + 2);
	if (!strcmp(argv[1], "context"))
		return do_context(argc - 2, argv + 2);
	if (!strcmp(argv[1], "load"))
		return do_load(argc - 2, argv + 2);
	if (!strcmp(argv[1], "cat"))
		return do_cat(argc - 2, argv + 2);
	if (!strcmp(argv[1], "stat"))
		return do_stat(argc - 2, argv + 2);
	if (!strcmp(argv[1], "peer-serve"))
		return do_peer_serve(argc - 2, argv + 2);
	if (!strcmp(argv[1], "peer"))
		return do_peer(argc - 2, argv + 2);
	print_usage();
	return 2;
}
