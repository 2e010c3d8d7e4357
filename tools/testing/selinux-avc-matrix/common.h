/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SELINUX_AVC_MATRIX_COMMON_H
#define SELINUX_AVC_MATRIX_COMMON_H

#define _GNU_SOURCE
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include "avctest.h"

#define CTX(type)	"system_u:system_r:" type ":s0"
#define XATTR_SELINUX	"security.selinux"

/* The name of errno value E ("ok" for 0), as the result files spell it */
static __attribute__((unused)) const char *errname(int e)
{
	static char buf[16];

	switch (e) {
	case 0: return "ok";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENOTTY: return "ENOTTY";
	case ENXIO: return "ENXIO";
	case EAGAIN: return "EAGAIN";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case EBADF: return "EBADF";
	case EINVAL: return "EINVAL";
	case ETXTBSY: return "ETXTBSY";
	case ECONNREFUSED: return "ECONNREFUSED";
	case EINPROGRESS: return "EINPROGRESS";
	case ESRCH: return "ESRCH";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EADDRINUSE: return "EADDRINUSE";
	case ENETUNREACH: return "ENETUNREACH";
	case ENOMSG: return "ENOMSG";
	}
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

/* Set the SELinux label of PATH to system_u:object_r:TYPE:s0. */
static void label(const char *path, const char *type)
{
	char ctx[128];

	snprintf(ctx, sizeof(ctx), "system_u:object_r:%s:s0", type);
	if (lsetxattr(path, XATTR_SELINUX, ctx, strlen(ctx) + 1, 0))
		die("label %s %s", path, ctx);
}

/* Fork a child that enters DOMAIN by exec'ing ARGV. */
static pid_t spawn_in(const char *domain, char **argv, int out_fd)
{
	char ctx[128];
	pid_t pid;

	snprintf(ctx, sizeof(ctx), "system_u:system_r:%s:s0", domain);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid)
		return pid;
	if (out_fd >= 0 && dup2(out_fd, 1) < 0)
		die("dup2");
	write_file("/proc/self/attr/exec", ctx, strlen(ctx));
	execv(argv[0], argv);
	die("exec %s in %s", argv[0], ctx);
}

#endif
