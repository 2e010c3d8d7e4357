// SPDX-License-Identifier: GPL-2.0
/*
 * exit0 - the smallest static program: exit_group(0).  The decision
 * matrix copies it into files of every type and execs them.
 */
void _start(void)
{
	__asm__ volatile("mov $231, %eax\n\txor %edi, %edi\n\tsyscall");
	for (;;)
		;
}
