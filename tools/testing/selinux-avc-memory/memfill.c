// SPDX-License-Identifier: GPL-2.0
/*
 * memfill - give the kernel many inodes to keep: empty files on tmpfs.
 *
 * Usage: memfill DIR [FILES [FILES_PER_DIR]]
 *
 * Makes DIR (which must not exist), then FILES_PER_DIR (default 1000)
 * files per subdirectory DIR/dNNNN until there are FILES (default
 * 100000), then stat()s every file
 * and every subdirectory by its path, so that each inode has been looked
 * up and checked in the caller's domain (the patched kernel fills the
 * decision entry of its security blob then).  It checks what it made: a
 * file that stat() does not show as an empty regular file, or a count
 * that does not add up, is an error.  The files are left in place for
 * the caller to measure.  Prints one line on stdout:
 *
 *   memfill: files N dirs D stat S pagesize P
 */
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>
#include <sys/stat.h>

#include "bench.h"

#define DEFAULT_FILES		100000UL
#define DEFAULT_PER_DIR		1000UL

static void __noreturn print_usage(void)
{
	fprintf(stderr, "usage: memfill DIR [FILES [FILES_PER_DIR]]\n");
	exit(2);
}

static void dir_name(char *buf, size_t len, const char *top, unsigned long d)
{
	snprintf(buf, len, "%s/d%04lu", top, d);
}

static void file_name(char *buf, size_t len, const char *top,
		      unsigned long i, unsigned long per_dir)
{
	snprintf(buf, len, "%s/d%04lu/f%05lu", top, i / per_dir, i % per_dir);
}

static void create_all(const char *top, unsigned long files,
		       unsigned long per_dir)
{
	char path[PATH_MAX];
	unsigned long i;
	int fd;

	for (i = 0; i < files; i++) {
		if (i % per_dir == 0) {
			dir_name(path, sizeof(path), top, i / per_dir);
			if (mkdir(path, 0755))
				die("mkdir %s", path);
		}
		file_name(path, sizeof(path), top, i, per_dir);
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0)
			die("create %s", path);
		close(fd);
	}
}

/* stat() every file and directory; returns how many were checked. */
static unsigned long stat_all(const char *top, unsigned long files,
			      unsigned long per_dir, unsigned long dirs)
{
	char path[PATH_MAX];
	unsigned long i, n = 0;
	struct stat st;

	for (i = 0; i < dirs; i++, n++) {
		dir_name(path, sizeof(path), top, i);
		if (stat(path, &st))
			die("stat %s", path);
		if (!S_ISDIR(st.st_mode))
			die("%s is not a directory", path);
	}
	for (i = 0; i < files; i++, n++) {
		file_name(path, sizeof(path), top, i, per_dir);
		if (stat(path, &st))
			die("stat %s", path);
		if (!S_ISREG(st.st_mode) || st.st_size)
			die("%s is not an empty regular file", path);
	}
	return n;
}

int main(int argc, char **argv)
{
	unsigned long files = DEFAULT_FILES, per_dir = DEFAULT_PER_DIR;
	unsigned long dirs, n;
	const char *top;

	prog_name = "memfill";
	if (argc < 2 || argc > 4)
		print_usage();
	top = argv[1];
	if (argc > 2)
		files = parse_count(argv[2]);
	if (argc > 3)
		per_dir = parse_count(argv[3]);
	if (strlen(top) > PATH_MAX - 32)
		die("path too long: %s", top);
	if (per_dir > 99999)
		die("at most 99999 files per directory");
	dirs = (files + per_dir - 1) / per_dir;
	if (dirs > 9999)
		die("%lu directories of %lu files: at most 9999", dirs, per_dir);

	if (mkdir(top, 0755))
		die("mkdir %s", top);
	create_all(top, files, per_dir);
	n = stat_all(top, files, per_dir, dirs);
	if (n != files + dirs) {
		errno = 0;
		die("checked %lu inodes, made %lu", n, files + dirs);
	}
	printf("memfill: files %lu dirs %lu stat %lu pagesize %ld\n",
	       files, dirs, n, sysconf(_SC_PAGESIZE));
	return 0;
}
