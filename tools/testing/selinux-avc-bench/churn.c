// SPDX-License-Identifier: GPL-2.0
/*
 * churn - stat() a set of files in turn until told to stop.
 *
 * Usage: churn [-p usecs] [-r] DIR
 *
 * Stats DIR/f0, DIR/f1, ... (the files that exist when it starts, up to
 * MAX_FILES) round after round, until DIR/stop exists (looked for once a
 * round with access(F_OK), which SELinux does not check), then prints on
 * stderr how many stat() calls it made.  With -p it sleeps @usecs
 * microseconds after each stat() (timer slack 1 ns); with -r it runs
 * SCHED_FIFO, so that each wake-up preempts whatever else runs on its CPU.
 *
 * The benchmark guest's churn scenario (guest/init) runs it in the
 * permissive domain on files of twice as many types as the AVC may hold
 * nodes, none of which that domain may get the attributes of: every
 * stat() of a key whose AVC node was reclaimed is a denial that
 * avc_denied() turns into a permissive grant.
 */
#include <limits.h>
#include <sched.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include "bench.h"

#define MAX_FILES	1024

static char *paths[MAX_FILES];

static void __noreturn print_usage(void)
{
	fprintf(stderr, "usage: churn [-p usecs] [-r] DIR\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 1 };
	unsigned long stats = 0, pause_us = 0;
	char path[PATH_MAX], stop[PATH_MAX];
	struct timespec pause;
	unsigned int n, i;
	struct stat st;
	int opt, rt = 0;

	prog_name = "churn";
	while ((opt = getopt(argc, argv, "p:r")) != -1) {
		switch (opt) {
		case 'p':
			pause_us = parse_count(optarg);
			break;
		case 'r':
			rt = 1;
			break;
		default:
			print_usage();
		}
	}
	if (argc - optind != 1)
		print_usage();
	pause.tv_sec = pause_us / 1000000;
	pause.tv_nsec = pause_us % 1000000 * 1000;
	if (pause_us && prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL))
		die("set timer slack");
	if (rt && sched_setscheduler(0, SCHED_FIFO, &sp))
		die("SCHED_FIFO");

	for (n = 0; n < MAX_FILES; n++) {
		snprintf(path, sizeof(path), "%s/f%u", argv[optind], n);
		if (stat(path, &st))
			break;
		paths[n] = strdup(path);
		if (!paths[n])
			die("strdup");
	}
	if (!n)
		die("no %s/f0", argv[optind]);
	snprintf(stop, sizeof(stop), "%s/stop", argv[optind]);

	while (access(stop, F_OK)) {
		for (i = 0; i < n; i++) {
			if (stat(paths[i], &st))
				die("stat %s", paths[i]);
			stats++;
			if (pause_us)
				nanosleep(&pause, NULL);
		}
	}
	fprintf(stderr, "churn: %lu stats of %u files\n", stats, n);
	return 0;
}
