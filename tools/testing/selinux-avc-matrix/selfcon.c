// SPDX-License-Identifier: GPL-2.0
/*
 * selfcon - write the process's SELinux context (/proc/self/attr/current)
 * to standard output and exit 0, or exit with the errno of the call that
 * failed.  Static, without libc, so that the process it runs in makes no
 * other system call: the decision matrix execs it in its "exec" cases,
 * with and without a domain transition, to see the domain the process
 * entered.
 */
#if defined(__x86_64__)
#define NR_read		0
#define NR_write	1
#define NR_openat	257
#define NR_exit_group	231

static long sys4(long nr, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}
#elif defined(__aarch64__)
#define NR_read		63
#define NR_write	64
#define NR_openat	56
#define NR_exit_group	94

static long sys4(long nr, long a, long b, long c, long d)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;

	__asm__ volatile("svc #0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3)
			 : "memory");
	return x0;
}
#else
#error "selfcon: no system call stub for this architecture"
#endif

#define AT_FDCWD	-100

static long selfcon(void)
{
	static const char path[] = "/proc/self/attr/current";
	char buf[256];
	long fd, n, w;

	fd = sys4(NR_openat, AT_FDCWD, (long)path, 0 /* O_RDONLY */, 0);
	if (fd < 0)
		return -fd;
	n = sys4(NR_read, fd, (long)buf, sizeof(buf), 0);
	if (n < 0)
		return -n;
	w = sys4(NR_write, 1, (long)buf, n, 0);
	if (w < 0)
		return -w;
	return w == n ? 0 : 5 /* EIO */;
}

void _start(void)
{
	sys4(NR_exit_group, selfcon(), 0, 0, 0);
	for (;;)
		;
}
