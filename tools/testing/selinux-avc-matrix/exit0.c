// SPDX-License-Identifier: GPL-2.0
/*
 * exit0 - the smallest static program: exit_group(0).  The decision
 * matrix copies it into files of every type and execs them.
 */
void _start(void)
{
#if defined(__x86_64__)
	__asm__ volatile("mov $231, %eax\n\txor %edi, %edi\n\tsyscall");
#elif defined(__aarch64__)
	__asm__ volatile("mov x8, #94\n\tmov x0, #0\n\tsvc #0");
#else
#error "exit0: no exit_group() for this architecture"
#endif
	for (;;)
		;
}
