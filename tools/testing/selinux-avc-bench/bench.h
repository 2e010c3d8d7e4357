/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers for the SELinux AVC benchmarks: timing and argument
 * parsing (error reporting is avctest.h's, shared with the other suites).
 * Under qemu with -icount shift=0 one guest nanosecond is one guest
 * instruction.
 */
#ifndef SELINUX_AVC_BENCH_H
#define SELINUX_AVC_BENCH_H

#include <time.h>

#include "avctest.h"

static inline unsigned long long now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		die("clock_gettime");
	return (unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static inline unsigned long parse_count(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || !v) {
		errno = 0;
		die("bad iteration count '%s'", s);
	}
	return v;
}

/*
 * Timed regions.  bench_begin() and bench_end() read the clock and mark
 * the region for the instruction profiler (make profile, see
 * tools/testing/selinux-avc-profile) with a no-op its qemu plugin looks
 * for: on x86_64 an 8-byte nopl whose displacement is the magic
 * 0x5e1ba001 or 0x5e1ba002; on arm64 a move of the magic's low half to
 * the zero register, movz xzr, #0xa001 (0xd294003f) or #0xa002
 * (0xd294005f), which no compiler emits and whose result the CPU
 * discards; on SH4 tst #0xa1,r0 (0xc8a1) or tst #0xa2,r0 (0xc8a2), which
 * only sets the T bit (clobbered); nothing elsewhere.  With BENCH_WINDOWS
 * in the environment, bench_end() also prints "window N ops M" on stderr
 * (N counts the regions of the run from 1), so that the profiler knows
 * what to divide by.
 */
#if defined(__x86_64__)
#define BENCH_MARK(disp) \
	__asm__ __volatile__(".byte 0x0f, 0x1f, 0x84, 0x00\n\t.long " #disp \
			     ::: "memory")
#elif defined(__aarch64__)
/* .inst: the encoding whatever the assembler thinks of movz to xzr. */
#define BENCH_MARK(disp) \
	__asm__ __volatile__(".inst 0xd280001f | (((" #disp ") & 0xffff) << 5)" \
			     ::: "memory")
#elif defined(__sh__)
#define BENCH_MARK(disp) \
	__asm__ __volatile__(".word 0xc8a0 | ((" #disp ") & 0xf)" \
			     ::: "t", "memory")
#else
#define BENCH_MARK(disp) do { } while (0)
#endif

static inline unsigned long long bench_begin(void)
{
	unsigned long long t = now_ns();

	BENCH_MARK(0x5e1ba001);
	return t;
}

/* The nanoseconds since @t0, for a region of @ops operations. */
static inline unsigned long long bench_end(unsigned long long t0,
					   unsigned long ops)
{
	static unsigned int window;
	unsigned long long t;

	BENCH_MARK(0x5e1ba002);
	t = now_ns();
	window++;
	if (getenv("BENCH_WINDOWS"))
		fprintf(stderr, "window %u ops %lu\n", window, ops);
	return t - t0;
}

/* Warm-up share of a run: a tenth, at least one iteration. */
static inline unsigned long warmup_of(unsigned long iters)
{
	return iters / 10 ? iters / 10 : 1;
}

/* Per-operation time in microseconds, the unit lmbench prints. */
static inline double usecs_per_op(unsigned long long ns, unsigned long ops)
{
	return (double)ns / 1000.0 / (double)ops;
}

/* Print one result in lmbench's form: "<label>: N microseconds". */
static inline void bench_report(const char *label, unsigned long long ns,
				unsigned long ops)
{
	fprintf(stderr, "%s: %.4f microseconds\n", label,
		usecs_per_op(ns, ops));
}

/*
 * The command line of a program whose only option is -N: return the
 * iteration count (@iters unless -N says otherwise), leave optind at the
 * first operand, and call @usage on anything else or on more than
 * @max_operands operands.
 */
static inline unsigned long bench_parse_n(int argc, char **argv,
					  unsigned long iters, int max_operands,
					  void (*usage)(void))
{
	int opt;

	while ((opt = getopt(argc, argv, "N:")) != -1) {
		if (opt != 'N')
			usage();
		iters = parse_count(optarg);
	}
	if (argc - optind > max_operands)
		usage();
	return iters;
}

#endif /* SELINUX_AVC_BENCH_H */
