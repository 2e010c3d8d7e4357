// SPDX-License-Identifier: GPL-2.0
/*
 * selfcon - write the process's SELinux context (/proc/self/attr/current)
 * to standard output and exit 0, or exit with the errno of the call that
 * failed.  Static, without libc, so that the process it runs in makes no
 * other system call: the decision matrix execs it in its "exec" cases,
 * with and without a domain transition, to see the domain the process
 * entered.
 */
#define NR_read		0
#define NR_write	1
#define NR_open		2
#define NR_exit_group	231

static long sys3(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}

static long selfcon(void)
{
	static const char path[] = "/proc/self/attr/current";
	char buf[256];
	long fd, n, w;

	fd = sys3(NR_open, (long)path, 0 /* O_RDONLY */, 0);
	if (fd < 0)
		return -fd;
	n = sys3(NR_read, fd, (long)buf, sizeof(buf));
	if (n < 0)
		return -n;
	w = sys3(NR_write, 1, (long)buf, n);
	if (w < 0)
		return -w;
	return w == n ? 0 : 5 /* EIO */;
}

void _start(void)
{
	sys3(NR_exit_group, selfcon(), 0, 0);
	for (;;)
		;
}
