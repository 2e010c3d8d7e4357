// SPDX-License-Identifier: GPL-2.0
/*
 * hello - the program lat_proc exec and shell run: it exits at once.
 *
 * Built static without a C library (-nostdlib), so that an exec of it
 * costs the kernel's execve(), exit and wait, and next to nothing in
 * user space: _start makes the exit_group() system call.  It has no
 * bench.h markers: it runs inside the caller's measured window.
 */
#define __noreturn	__attribute__((noreturn))
#define __used		__attribute__((used))

#if defined(__x86_64__)
void __noreturn __used _start(void)
{
	/* exit_group(0) */
	__asm__ __volatile__("syscall" : : "a" (231), "D" (0) : "rcx", "r11", "memory");
	__builtin_unreachable();
}
#elif defined(__aarch64__)
void __noreturn __used _start(void)
{
	register long nr __asm__("x8") = 94;	/* exit_group */
	register long code __asm__("x0") = 0;

	__asm__ __volatile__("svc #0" : : "r" (nr), "r" (code) : "memory");
	__builtin_unreachable();
}
#elif defined(__sh__)
void __noreturn __used _start(void)
{
	register long nr __asm__("r3") = 252;	/* exit_group */
	register long code __asm__("r4") = 0;

	/* trapa #0x11: a system call with one argument */
	__asm__ __volatile__("trapa #0x11" : : "r" (nr), "r" (code) : "memory");
	__builtin_unreachable();
}
#else
#error "hello: no _start for this architecture"
#endif
