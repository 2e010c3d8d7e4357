// SPDX-License-Identifier: GPL-2.0
/*
 * lat_fs - create and unlink latency of empty files (lat_fs-like).
 *
 * Usage: lat_fs [-d] [-N files] [dir]
 *
 * Creates @files empty files in a fresh subdirectory of @dir (default
 * /tmp), then unlinks them, timing each phase.  On tmpfs under SELinux
 * every create computes a transition SID for the new inode.  With -d it
 * makes and removes empty directories instead (mkdir, rmdir).
 */
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>
#include <sys/stat.h>

#include "bench.h"

#define DEFAULT_FILES	5000UL

static char top[256];
static int dirs;

static void name_of(char *buf, size_t len, unsigned long i)
{
	snprintf(buf, len, "%.200s/%05lu", top, i);
}

static unsigned long long create_files(unsigned long n)
{
	unsigned long long t0 = bench_begin();
	char path[PATH_MAX];
	unsigned long i;
	int fd;

	for (i = 0; i < n; i++) {
		name_of(path, sizeof(path), i);
		if (dirs) {
			if (mkdir(path, 0755))
				die("mkdir %s", path);
			continue;
		}
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0)
			die("create %s", path);
		close(fd);
	}
	return bench_end(t0, n);
}

static unsigned long long unlink_files(unsigned long n)
{
	unsigned long long t0 = bench_begin();
	char path[PATH_MAX];
	unsigned long i;

	for (i = 0; i < n; i++) {
		name_of(path, sizeof(path), i);
		if (dirs ? rmdir(path) : unlink(path))
			die("%s %s", dirs ? "rmdir" : "unlink", path);
	}
	return bench_end(t0, n);
}

int main(int argc, char **argv)
{
	unsigned long files = DEFAULT_FILES;
	unsigned long long tc, tu;
	const char *dir = "/tmp";
	int opt;

	prog_name = "lat_fs";
	while ((opt = getopt(argc, argv, "dN:")) != -1) {
		switch (opt) {
		case 'd':
			dirs = 1;
			break;
		case 'N':
			files = parse_count(optarg);
			break;
		default:
			fprintf(stderr, "usage: lat_fs [-d] [-N files] [dir]\n");
			return 2;
		}
	}
	if (optind < argc)
		dir = argv[optind];
	snprintf(top, sizeof(top), "%.200s/lat_fs.%d", dir, (int)getpid());
	if (mkdir(top, 0755))
		die("mkdir %s", top);

	create_files(warmup_of(files));
	unlink_files(warmup_of(files));
	tc = create_files(files);
	tu = unlink_files(files);
	if (rmdir(top))
		die("rmdir %s", top);

	if (dirs) {
		fprintf(stderr, "Dir mkdir: %.4f microseconds\n",
			usecs_per_op(tc, files));
		fprintf(stderr, "Dir rmdir: %.4f microseconds\n",
			usecs_per_op(tu, files));
		return 0;
	}
	/* lmbench's line: size, count, creates/s, deletes/s. */
	printf("0k\t%lu\t%.0f\t%.0f\n", files, files * 1e9 / tc,
	       files * 1e9 / tu);
	fprintf(stderr, "File create: %.4f microseconds\n",
		usecs_per_op(tc, files));
	fprintf(stderr, "File unlink: %.4f microseconds\n",
		usecs_per_op(tu, files));
	fprintf(stderr, "File create+unlink: %.4f microseconds\n",
		usecs_per_op(tc + tu, files));
	return 0;
}
