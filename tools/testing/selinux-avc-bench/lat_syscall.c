// SPDX-License-Identifier: GPL-2.0
/*
 * lat_syscall - lmbench-compatible system call latency.
 *
 * Usage: lat_syscall [-N iters] null|read|write|stat|fstat|open|socket [file]
 *
 *   null   getppid()
 *   read   read one byte from /dev/zero
 *   write  write one byte to /dev/null
 *   stat   stat(file)
 *   fstat  fstat() of an open descriptor of file
 *   open   open(file, O_RDONLY) + close()
 *   socket socket(AF_UNIX, SOCK_STREAM) + close(): labels a new socket
 *
 * The default file is /usr/include/sys/types.h.  Results go to stderr in
 * lmbench's format, e.g. "Simple syscall: 0.1234 microseconds".
 */
#include <fcntl.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "bench.h"

#define DEFAULT_FILE	"/usr/include/sys/types.h"
#define DEFAULT_ITERS	100000UL

struct op {
	const char *name;
	const char *label;
	void (*fn)(unsigned long n);
};

static const char *file = DEFAULT_FILE;
static int fd = -1;

static void do_null(unsigned long n)
{
	while (n--)
		getppid();
}

static void do_read(unsigned long n)
{
	char c;

	while (n--)
		if (read(fd, &c, 1) != 1)
			die("read /dev/zero");
}

static void do_write(unsigned long n)
{
	char c = 0;

	while (n--)
		if (write(fd, &c, 1) != 1)
			die("write /dev/null");
}

static void do_stat(unsigned long n)
{
	struct stat st;

	while (n--)
		if (stat(file, &st))
			die("stat %s", file);
}

static void do_fstat(unsigned long n)
{
	struct stat st;

	while (n--)
		if (fstat(fd, &st))
			die("fstat %s", file);
}

static void do_open(unsigned long n)
{
	int f;

	while (n--) {
		f = open(file, O_RDONLY);
		if (f < 0)
			die("open %s", file);
		close(f);
	}
}

static void do_socket(unsigned long n)
{
	int s;

	while (n--) {
		s = socket(AF_UNIX, SOCK_STREAM, 0);
		if (s < 0)
			die("socket");
		close(s);
	}
}

static const struct op ops[] = {
	{ "null",  "Simple syscall",    do_null },
	{ "read",  "Simple read",       do_read },
	{ "write", "Simple write",      do_write },
	{ "stat",  "Simple stat",       do_stat },
	{ "fstat", "Simple fstat",      do_fstat },
	{ "open",  "Simple open/close", do_open },
	{ "socket", "Simple socket/close", do_socket },
};

static void __noreturn print_usage(void)
{
	fprintf(stderr,
		"usage: lat_syscall [-N iters] null|read|write|stat|fstat|open|socket [file]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long iters = DEFAULT_ITERS;
	unsigned long long t0, ns;
	const struct op *op = NULL;
	size_t i;

	prog_name = "lat_syscall";
	iters = bench_parse_n(argc, argv, iters, 2, print_usage);
	if (optind >= argc)
		print_usage();
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strcmp(argv[optind], ops[i].name))
			op = &ops[i];
	if (!op)
		print_usage();
	if (argc - optind == 2)
		file = argv[optind + 1];

	if (op->fn == do_read)
		fd = open("/dev/zero", O_RDONLY);
	else if (op->fn == do_write)
		fd = open("/dev/null", O_WRONLY);
	else if (op->fn == do_fstat)
		fd = open(file, O_RDONLY);
	if ((op->fn == do_read || op->fn == do_write || op->fn == do_fstat) &&
	    fd < 0)
		die("open for %s", op->name);

	op->fn(warmup_of(iters));
	t0 = bench_begin();
	op->fn(iters);
	ns = bench_end(t0, iters);

	bench_report(op->label, ns, iters);
	return 0;
}
