/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_window.h - what the qemu plugins of this directory (insn_profile.c,
 * cache_model.c) share about the benchmarks' measured windows.
 *
 * The benchmarks (tools/testing/selinux-avc-bench/bench.h) run a no-op
 * with a magic in it where a timed region begins and another where it
 * ends: on x86_64 the 8-byte nopl DISP(%rax,%rax,1) with the displacement
 * 0x5e1ba001 or 0x5e1ba002, on aarch64 movz xzr, #0xa001 or #0xa002 (the
 * magic's low half), on SH4 tst #0xa1,r0 or tst #0xa2,r0 (0xc8a1, 0xc8a2,
 * 16-bit little-endian words).  The guest's architecture is qemu's
 * target name.  A plugin calls bench_arch_init() from its
 * qemu_plugin_install(), then is_mark() on each user-space instruction it
 * translates, and tells the kernel's instructions by kernel_base.
 * Each plugin is one translation unit: the state here is its own.
 */
#ifndef SELINUX_AVC_BENCH_WINDOW_H
#define SELINUX_AVC_BENCH_WINDOW_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "qemu_plugin_abi.h"

/* x86_64: nopl DISP(%rax,%rax,1): 0f 1f 84 00, then the 32-bit displacement. */
#define MARK_BEGIN	0x5e1ba001u
#define MARK_END	0x5e1ba002u
/* aarch64: movz xzr, #(MARK & 0xffff), one little-endian 32-bit word. */
#define A64_MOVZ_XZR(imm16)	(0xd280001fu | ((uint32_t)(imm16) << 5))
/* SH4: tst #imm8,r0 (0xc800 | imm8); the marker's imm8 is 0xa0 | (MARK & 0xf). */
#define SH_TST_R0(mark)		(0xc800u | 0xa0u | ((mark) & 0xfu))
/*
 * The kernel's half of the address space: x86_64's upper canonical half
 * and arm64's TTBR1 range both have bit 63 set, user space never; on
 * 32-bit SH the kernel runs in P1 and above (0x80000000), user space in
 * U0 below it.
 */
#define KERNEL_BASE_64	0x8000000000000000ull
#define KERNEL_BASE_SH	0x80000000ull

static enum { ARCH_X86_64, ARCH_AARCH64, ARCH_SH4 } arch;
static uint64_t kernel_base = KERNEL_BASE_64;

/* Is INSN the marker with the magic DISP (MARK_BEGIN or MARK_END)? */
static inline int is_mark(struct qemu_plugin_insn *insn, uint32_t disp)
{
	const unsigned char *p = qemu_plugin_insn_data(insn);
	uint32_t d;

	if (arch == ARCH_SH4)
		return qemu_plugin_insn_size(insn) == 2 &&
		       ((uint32_t)p[0] | (uint32_t)p[1] << 8) == SH_TST_R0(disp);
	if (arch == ARCH_AARCH64) {
		if (qemu_plugin_insn_size(insn) != 4)
			return 0;
		d = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
		    (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		return d == A64_MOVZ_XZR(disp & 0xffff);
	}
	if (qemu_plugin_insn_size(insn) != 8 || p[0] != 0x0f ||
	    p[1] != 0x1f || p[2] != 0x84 || p[3] != 0x00)
		return 0;
	memcpy(&d, p + 4, 4);
	return d == disp;
}

/* Is the N-th window (from 1) one that MASK selects (bit N-1)? */
static inline int window_selected(uint64_t mask, unsigned int n)
{
	return n <= 64 && ((mask >> (n - 1)) & 1);
}

/*
 * Set arch and kernel_base by qemu's target name (x86_64, aarch64, sh4).
 * Returns 0, or -1 after telling qemu why, WHO (the plugin's name) first.
 */
static inline int bench_arch_init(const struct qemu_plugin_info *qi,
				  const char *who)
{
	char msg[128];

	if (!qi || !qi->target_name) {
		snprintf(msg, sizeof(msg), "%s: qemu did not name its target\n",
			 who);
		qemu_plugin_outs(msg);
		return -1;
	} else if (!strcmp(qi->target_name, "aarch64")) {
		arch = ARCH_AARCH64;
	} else if (!strcmp(qi->target_name, "sh4")) {
		arch = ARCH_SH4;
		kernel_base = KERNEL_BASE_SH;
	} else if (strcmp(qi->target_name, "x86_64")) {
		snprintf(msg, sizeof(msg),
			 "%s: the guest must be x86_64, aarch64 or sh4\n", who);
		qemu_plugin_outs(msg);
		return -1;
	}
	return 0;
}

#endif /* SELINUX_AVC_BENCH_WINDOW_H */
