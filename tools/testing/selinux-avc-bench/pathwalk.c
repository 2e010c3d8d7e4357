// SPDX-License-Identifier: GPL-2.0
/*
 * pathwalk - stat() latency over a deep tree of files.
 *
 * Usage: pathwalk [-N passes] [-f fanout] [-d depth] [dir]
 *
 * Builds a tree under @dir (default /tmp) with @depth - 1 levels of
 * directories, @fanout entries per directory and @fanout files in every
 * leaf directory (defaults 8 and 4: 512 directories, 4096 files), then
 * times @passes stat() sweeps over all files.  Each stat walks every path
 * component, and SELinux checks search permission on each directory.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <unistd.h>
#include <sys/stat.h>

#include "bench.h"

#define DEFAULT_PASSES	10UL
#define MAX_DEPTH	8

static char **paths;
static unsigned long npaths;

/* Create the subtree below @prefix; @level counts down to the files. */
static void build(const char *prefix, int level, int fanout)
{
	char path[PATH_MAX];
	int i, fd;

	for (i = 0; i < fanout; i++) {
		snprintf(path, sizeof(path), "%s/%c%d", prefix,
			 level > 1 ? 'd' : 'f', i);
		if (level > 1) {
			if (mkdir(path, 0755))
				die("mkdir %s", path);
			build(path, level - 1, fanout);
			continue;
		}
		fd = creat(path, 0644);
		if (fd < 0)
			die("create %s", path);
		close(fd);
		paths[npaths] = strdup(path);
		if (!paths[npaths++])
			die("strdup");
	}
}

static void sweep(unsigned long passes)
{
	struct stat st;
	unsigned long i;

	while (passes--)
		for (i = 0; i < npaths; i++)
			if (stat(paths[i], &st))
				die("stat %s", paths[i]);
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	return remove(path);
}

int main(int argc, char **argv)
{
	unsigned long passes = DEFAULT_PASSES, total = 1;
	int fanout = 8, depth = 4, opt, i;
	unsigned long long t0, ns;
	const char *dir = "/tmp";
	char top[PATH_MAX];

	prog_name = "pathwalk";
	while ((opt = getopt(argc, argv, "N:f:d:")) != -1) {
		switch (opt) {
		case 'N':
			passes = parse_count(optarg);
			break;
		case 'f':
			fanout = (int)parse_count(optarg);
			break;
		case 'd':
			depth = (int)parse_count(optarg);
			break;
		default:
			fprintf(stderr,
				"usage: pathwalk [-N passes] [-f fanout] [-d depth] [dir]\n");
			return 2;
		}
	}
	if (optind < argc)
		dir = argv[optind];
	if (depth < 1 || depth > MAX_DEPTH || fanout > 64) {
		errno = 0;
		die("depth must be 1..%d and fanout at most 64", MAX_DEPTH);
	}
	for (i = 0; i < depth; i++)
		total *= fanout;

	paths = calloc(total, sizeof(*paths));
	if (!paths)
		die("calloc");
	snprintf(top, sizeof(top), "%s/pathwalk.%d", dir, (int)getpid());
	if (mkdir(top, 0755))
		die("mkdir %s", top);
	build(top, depth, fanout);

	sweep(1);
	t0 = bench_begin();
	sweep(passes);
	ns = bench_end(t0, passes * npaths);

	if (nftw(top, remove_one, 16, FTW_DEPTH | FTW_PHYS))
		die("remove %s", top);

	fprintf(stderr, "Path walk %lu files depth %d: %.4f microseconds\n",
		npaths, depth, usecs_per_op(ns, passes * npaths));
	return 0;
}
