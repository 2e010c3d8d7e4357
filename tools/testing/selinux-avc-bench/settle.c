// SPDX-License-Identifier: GPL-2.0
/*
 * settle - what the guest's init runs before the rows, on every kernel:
 * COUNT null signals to itself, kill(getpid(), 0), one permission check of
 * the process class each (selinux_task_kill()), which no object's blob
 * answers.  A CPU that boot left bypassing its per-CPU cache
 * (avc_pcpu_judge() in the patched kernel: at most 65,536 checks) has
 * ended the bypass when it returns, so that the rows find the cache as a
 * settled system has it.  No bench.h markers: make profile and make cache
 * count only the rows' windows.
 *
 * Usage: settle COUNT
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench.h"

int main(int argc, char **argv)
{
	unsigned long n;
	pid_t self = getpid();

	prog_name = "settle";
	if (argc != 2)
		die("usage: settle COUNT");
	n = parse_count(argv[1]);
	while (n--)
		if (kill(self, 0))
			die("kill(%d, 0)", (int)self);
	return 0;
}
