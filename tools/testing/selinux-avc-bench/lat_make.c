// SPDX-License-Identifier: GPL-2.0
/*
 * lat_make - a macro benchmark: a no-change "make" of a kernel-like tree,
 * done by a shell script.
 *
 * Usage: lat_make [-N runs] [-d dirs] [-f objs] [-H headers] DIR SCRIPT
 *
 * Builds a tree under DIR/lat_make.PID that looks like a kernel tree after
 * a build: a .config, include/config/{auto.conf,kernel.release},
 * include/linux/h*.h, and @dirs directories drivers/dNN, each with a
 * Makefile, @objs sources fNN.c, their objects fNN.o and dependency files
 * .fNN.o.cmd (the command line and the prerequisites: the source, 8
 * headers and auto.conf), built-in.a and modules.order.  Timestamps make
 * everything up to date.  Then it runs "/bin/sh SCRIPT TREE" (guest/make.sh:
 * what a no-change make does there, a sub-make per directory that reads
 * the .cmd files, stats every target and prerequisite, and runs a
 * filechk step with cmp) once per run and waits for it; the script must
 * exit 0, which it does only if it found nothing to rebuild.  The result
 * is per run, not per operation: "Make no-change: N microseconds" is the
 * time of one whole run of the script.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "bench.h"

#define DEFAULT_RUNS	3UL
#define DEFAULT_DIRS	32
#define DEFAULT_OBJS	32
#define DEFAULT_HDRS	64
#define HDRS_PER_OBJ	8
#define CONFIG_OPTS	256
#define CC_FLAGS	"-nostdinc -Iinclude -O2"

/* Sources, then auto.conf, objects, archives: each newer than the last. */
#define T_SRC		1704067200L	/* 2024-01-01 */
#define T_CONF		(T_SRC + 60)
#define T_OBJ		(T_SRC + 120)
#define T_AR		(T_SRC + 180)

static char tree[256];
static const char *script;
static char *const child_env[] = { "PATH=/bin", NULL };

static void __printf(3, 4) put(const char *name, time_t mtime,
			       const char *fmt, ...)
{
	struct timespec ts[2] = { { mtime, 0 }, { mtime, 0 } };
	char path[PATH_MAX];
	va_list ap;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%.1024s", tree, name);
	f = fopen(path, "wx");
	if (!f)
		die("create %s", path);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	if (fflush(f) || futimens(fileno(f), ts))
		die("write %s", path);
	if (fclose(f))
		die("close %s", path);
}

static void dir(const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%.1024s", tree, name);
	if (mkdir(path, 0755))
		die("mkdir %s", path);
}

static int hdr_of(int d, int o, int k, int hdrs)
{
	return (o * 5 + d * 11 + k * 7) % hdrs;
}

static void build(int dirs, int objs, int hdrs)
{
	char name[PATH_MAX], deps[1024], list[4096], conf[16384], cmd[256];
	char dn[32];
	size_t len;
	int d, o, k, h;

	if (mkdir(tree, 0755))
		die("mkdir %s", tree);
	dir("include");
	dir("include/config");
	dir("include/linux");
	dir("drivers");

	len = 0;
	for (d = 0; d < dirs; d++)
		len += snprintf(list + len, sizeof(list) - len, "%sdrivers/d%02d",
				d ? " " : "", d);
	if (len >= sizeof(list)) {
		errno = 0;
		die("too many directories");
	}
	/*
	 * .config and auto.conf: shell assignments the script sources, the
	 * directory list and a few hundred options.
	 */
	len = snprintf(conf, sizeof(conf), "dirs='%s'\n", list);
	for (k = 0; k < CONFIG_OPTS && len < sizeof(conf); k++)
		len += snprintf(conf + len, sizeof(conf) - len,
				"CONFIG_OPTION_%d=y\n", k);
	if (len >= sizeof(conf)) {
		errno = 0;
		die("configuration too long");
	}
	put(".config", T_SRC, "# lat_make configuration\n%s", conf);
	put("include/config/auto.conf", T_CONF, "%s", conf);
	put("include/config/kernel.release", T_CONF, "6.12.0-lat_make\n");

	for (h = 0; h < hdrs; h++) {
		snprintf(name, sizeof(name), "include/linux/h%02d.h", h);
		put(name, T_SRC,
		    "/* lat_make header */\n"
		    "#ifndef _LINUX_H%02d_H\n#define _LINUX_H%02d_H\n\n"
		    "extern int h%02d_value;\nint h%02d_get(void);\n\n#endif\n",
		    h, h, h, h);
	}

	for (d = 0; d < dirs; d++) {
		snprintf(dn, sizeof(dn), "drivers/d%02d", d);
		dir(dn);
		len = 0;
		for (o = 0; o < objs; o++)
			len += snprintf(list + len, sizeof(list) - len,
					"%sf%02d", o ? " " : "", o);
		snprintf(name, sizeof(name), "%s/Makefile", dn);
		put(name, T_SRC, "# lat_make Makefile\nobjs='%s'\n", list);
		for (o = 0; o < objs; o++) {
			char incs[1024];
			size_t il = 0;

			len = snprintf(deps, sizeof(deps), "%s/f%02d.c", dn, o);
			for (k = 0; k < HDRS_PER_OBJ; k++) {
				h = hdr_of(d, o, k, hdrs);
				len += snprintf(deps + len, sizeof(deps) - len,
						" include/linux/h%02d.h", h);
				il += snprintf(incs + il, sizeof(incs) - il,
					       "#include <linux/h%02d.h>\n", h);
			}
			snprintf(name, sizeof(name), "%s/f%02d.c", dn, o);
			put(name, T_SRC,
			    "/* lat_make source */\n%s\n"
			    "int d%02d_f%02d(void)\n{\n\treturn h%02d_get();\n}\n",
			    incs, d, o, hdr_of(d, o, 0, hdrs));
			snprintf(name, sizeof(name), "%s/f%02d.o", dn, o);
			put(name, T_OBJ, "%-256s", "\177ELF lat_make object");
			/* The command line guest/make.sh expects. */
			snprintf(cmd, sizeof(cmd),
				 "gcc -Wp,-MMD,%s/.f%02d.o.d %s -c -o %s/f%02d.o %s/f%02d.c",
				 dn, o, CC_FLAGS, dn, o, dn, o);
			snprintf(name, sizeof(name), "%s/.f%02d.o.cmd", dn, o);
			put(name, T_OBJ,
			    "savedcmd='%s'\ndeps='%s include/config/auto.conf'\n",
			    cmd, deps);
		}
		len = 0;
		for (o = 0; o < objs; o++)
			len += snprintf(list + len, sizeof(list) - len,
					"%s/f%02d.o\n", dn, o);
		snprintf(name, sizeof(name), "%s/modules.order", dn);
		put(name, T_OBJ, "%s", list);
		snprintf(name, sizeof(name), "%s/built-in.a", dn);
		put(name, T_AR, "!<arch>\n");
	}
}

static void run(unsigned long n)
{
	char *argv[] = { "sh", (char *)script, tree, NULL };
	int status;
	pid_t pid;

	while (n--) {
		pid = fork();
		if (pid < 0)
			die("fork");
		if (!pid) {
			execve("/bin/sh", argv, child_env);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid)
			die("waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			errno = 0;
			die("%s %s failed (status %#x)", script, tree, status);
		}
	}
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	return remove(path);
}

static void __noreturn print_usage(void)
{
	fprintf(stderr,
		"usage: lat_make [-N runs] [-d dirs] [-f objs] [-H headers] DIR SCRIPT\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int dirs = DEFAULT_DIRS, objs = DEFAULT_OBJS, hdrs = DEFAULT_HDRS, opt;
	unsigned long runs = DEFAULT_RUNS;
	unsigned long long t0, ns;

	prog_name = "lat_make";
	while ((opt = getopt(argc, argv, "N:d:f:H:")) != -1) {
		switch (opt) {
		case 'N':
			runs = parse_count(optarg);
			break;
		case 'd':
			dirs = (int)parse_count(optarg);
			break;
		case 'f':
			objs = (int)parse_count(optarg);
			break;
		case 'H':
			hdrs = (int)parse_count(optarg);
			break;
		default:
			print_usage();
		}
	}
	if (argc - optind != 2)
		print_usage();
	if (dirs > 100 || objs > 100 || hdrs > 100 || hdrs < HDRS_PER_OBJ) {
		errno = 0;
		die("at most 100 directories, objects and headers, at least %d headers",
		    HDRS_PER_OBJ);
	}
	script = argv[optind + 1];
	snprintf(tree, sizeof(tree), "%.200s/lat_make.%d", argv[optind],
		 (int)getpid());

	build(dirs, objs, hdrs);
	fflush(NULL);
	run(warmup_of(runs));
	t0 = bench_begin();
	run(runs);
	ns = bench_end(t0, runs);

	if (nftw(tree, remove_one, 16, FTW_DEPTH | FTW_PHYS))
		die("remove %s", tree);

	fprintf(stderr, "Make no-change: %.4f microseconds\n",
		usecs_per_op(ns, runs));
	return 0;
}
