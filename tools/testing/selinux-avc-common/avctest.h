/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the guest programs of the SELinux AVC suites
 * (selinux-avc-bench, selinux-avc-matrix): error reporting, writing a
 * file whole and loading a binary policy.  Each program sets prog_name
 * first thing in main().
 */
#ifndef SELINUX_AVC_TEST_H
#define SELINUX_AVC_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#define __noreturn		__attribute__((noreturn))
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/* The name die() puts in front of its message. */
static const char *prog_name = "avctest";

/* Print "PROG: MESSAGE[: strerror(errno)]" on stderr and exit 1. */
static inline void __noreturn __printf(1, 2)
die(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	fprintf(stderr, "%s: ", prog_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
	exit(1);
}

/*
 * Write @len bytes of @buf to @path in one write() (a /proc or selinuxfs
 * attribute takes its value whole).  Returns 0, or -1 with errno set.
 */
static inline int try_write_file(const char *path, const char *buf,
				 size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -1;
	n = write(fd, buf, len);
	err = errno;
	close(fd);
	if (n == (ssize_t)len)
		return 0;
	errno = n < 0 ? err : EIO;
	return -1;
}

/* try_write_file(), or die. */
static inline void write_file(const char *path, const char *buf, size_t len)
{
	if (try_write_file(path, buf, len))
		die("write '%.*s' to %s", (int)len, buf, path);
}

/*
 * Load the binary policy at @path: selinuxfs wants it in a single
 * write().  Returns 0, or -1 with errno set and *@step naming what failed
 * ("open", "read", "load").
 */
static inline int try_load_policy(const char *path, const char **step)
{
	struct stat st;
	size_t done = 0;
	char *buf;
	ssize_t n;
	int fd;

	*step = "open";
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st))
		goto err_close;
	buf = malloc(st.st_size ? st.st_size : 1);
	if (!buf)
		goto err_close;
	*step = "read";
	while (done < (size_t)st.st_size) {
		n = read(fd, buf + done, st.st_size - done);
		if (n <= 0) {
			if (!n)
				errno = EIO;
			goto err_free;
		}
		done += n;
	}
	close(fd);
	*step = "load";
	n = try_write_file("/sys/fs/selinux/load", buf, done);
	free(buf);
	return n;

err_free:
	free(buf);
err_close:
	n = errno;
	close(fd);
	errno = n;
	return -1;
}

/* try_load_policy(), or die. */
static inline void load_policy(const char *path)
{
	const char *step;

	if (try_load_policy(path, &step))
		die("%s %s", step, path);
}

#endif /* SELINUX_AVC_TEST_H */
