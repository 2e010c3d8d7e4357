// SPDX-License-Identifier: GPL-2.0
/*
 * lat_mmap - mapping a small file, lmbench lat_mmap style.
 *
 * Usage: lat_mmap [-N iters] [file]
 *
 * Opens file once (read only; default /usr/include/sys/types.h, the file
 * lat_syscall uses), then per operation: mmap() of the whole file,
 * PROT_READ and MAP_SHARED, a read of its first byte (the page fault
 * that maps the page from the page cache) and munmap().  SELinux checks
 * the mapping (map and read on the file) in mmap(); the fault and the
 * unmap make no check.  Results go to stderr in lmbench's format.
 */
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "bench.h"

#define DEFAULT_FILE	"/usr/include/sys/types.h"
#define DEFAULT_ITERS	20000UL

static void map_touch_unmap(int fd, size_t len, unsigned long n)
{
	void *p;

	while (n--) {
		p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			die("mmap");
		/* A load the compiler must keep: the page fault. */
		(void)__atomic_load_n((const char *)p, __ATOMIC_RELAXED);
		if (munmap(p, len))
			die("munmap");
	}
}

static void __noreturn print_usage(void)
{
	fprintf(stderr, "usage: lat_mmap [-N iters] [file]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long iters = DEFAULT_ITERS;
	const char *file = DEFAULT_FILE;
	unsigned long long t0, ns;
	struct stat st;
	int fd;

	prog_name = "lat_mmap";
	iters = bench_parse_n(argc, argv, iters, 1, print_usage);
	if (optind < argc)
		file = argv[optind];

	fd = open(file, O_RDONLY);
	if (fd < 0)
		die("open %s", file);
	if (fstat(fd, &st))
		die("fstat %s", file);
	if (st.st_size <= 0) {
		errno = 0;
		die("%s is empty", file);
	}

	map_touch_unmap(fd, st.st_size, warmup_of(iters));
	t0 = bench_begin();
	map_touch_unmap(fd, st.st_size, iters);
	ns = bench_end(t0, iters);
	close(fd);

	bench_report("Mmap file", ns, iters);
	return 0;
}
