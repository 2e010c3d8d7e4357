// SPDX-License-Identifier: GPL-2.0
/*
 * insn_profile - a QEMU TCG plugin that counts the guest instructions
 * executed inside the benchmarks' measured windows, per kernel address.
 *
 * The benchmarks (tools/testing/selinux-avc-bench/bench.h) run a no-op
 * with a magic in it where a timed region begins and another where it
 * ends: on x86_64 the 8-byte nopl DISP(%rax,%rax,1) with the displacement
 * 0x5e1ba001 or 0x5e1ba002, on aarch64 movz xzr, #0xa001 or #0xa002 (the
 * magic's low half), on SH4 tst #0xa1,r0 or tst #0xa2,r0 (0xc8a1, 0xc8a2,
 * 16-bit little-endian words).  The guest's architecture is qemu's
 * target name.
 * Counting is on from a begin
 * marker to the next end marker, in the kernel and in every process, as
 * the benchmark's own clock is.  A translation block is counted when it
 * starts, so the blocks holding the markers are counted, or not, whole:
 * that blurs the user-space count by a few instructions per window and
 * leaves the kernel's exact, except for a block that faults half-way.
 *
 * Arguments: out=FILE (required); windows=MASK, bit N-1 set to count the
 * N-th window (default: every window).
 * Output in FILE: "windows N" (windows seen), "user U" (user-space
 * instructions counted), then "ADDR COUNT" per kernel instruction address
 * counted (an address may repeat, once per translation).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_abi.h"

PLUGIN_EXPORT int qemu_plugin_version = 1;

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

struct tb_rec {
	struct tb_rec *next;
	uint64_t count;
	uint32_t n;
	int kernel;
	uint64_t vaddr[];
};

static struct tb_rec *tbs;
static uint64_t mask = ~0ull;
static unsigned int windows;
static int counting;
static char *out;
static enum { ARCH_X86_64, ARCH_AARCH64, ARCH_SH4 } arch;
static uint64_t kernel_base = KERNEL_BASE_64;

static void tb_exec(unsigned int vcpu, void *udata)
{
	struct tb_rec *r = udata;

	if (counting)
		r->count++;
}

static void mark_begin(unsigned int vcpu, void *udata)
{
	windows++;
	counting = windows <= 64 && ((mask >> (windows - 1)) & 1);
}

static void mark_end(unsigned int vcpu, void *udata)
{
	counting = 0;
}

static int is_mark(struct qemu_plugin_insn *insn, uint32_t disp)
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

static void tb_trans(plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	struct tb_rec *r;

	if (!n)
		return;
	r = calloc(1, sizeof(*r) + n * sizeof(r->vaddr[0]));
	if (!r) {
		qemu_plugin_outs("insn_profile: out of memory\n");
		abort();
	}
	r->n = n;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		r->vaddr[i] = qemu_plugin_insn_vaddr(insn);
		if (r->vaddr[i] >= kernel_base)
			r->kernel = 1;
		else if (is_mark(insn, MARK_BEGIN))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_begin,
							       PLUGIN_CB_NO_REGS,
							       NULL);
		else if (is_mark(insn, MARK_END))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_end,
							       PLUGIN_CB_NO_REGS,
							       NULL);
	}
	r->next = tbs;
	tbs = r;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, PLUGIN_CB_NO_REGS, r);
}

static void at_exit(plugin_id_t id, void *udata)
{
	uint64_t user = 0;
	struct tb_rec *r;
	uint32_t i;
	FILE *f;

	f = fopen(out, "w");
	if (!f) {
		qemu_plugin_outs("insn_profile: cannot write the output file\n");
		return;
	}
	fprintf(f, "windows %u\n", windows);
	for (r = tbs; r; r = r->next) {
		if (!r->count)
			continue;
		if (!r->kernel) {
			user += r->count * r->n;
			continue;
		}
		for (i = 0; i < r->n; i++)
			fprintf(f, "%" PRIx64 " %" PRIu64 "\n", r->vaddr[i],
				r->count);
	}
	fprintf(f, "user %" PRIu64 "\n", user);
	fclose(f);
}

PLUGIN_EXPORT int qemu_plugin_install(plugin_id_t id, const void *info,
				      int argc, char **argv)
{
	const struct qemu_plugin_info *qi = info;
	int i;

	if (!qi || !qi->target_name) {
		qemu_plugin_outs("insn_profile: qemu did not name its target\n");
		return -1;
	} else if (!strcmp(qi->target_name, "aarch64")) {
		arch = ARCH_AARCH64;
	} else if (!strcmp(qi->target_name, "sh4")) {
		arch = ARCH_SH4;
		kernel_base = KERNEL_BASE_SH;
	} else if (strcmp(qi->target_name, "x86_64")) {
		qemu_plugin_outs("insn_profile: the guest must be x86_64, aarch64 or sh4\n");
		return -1;
	}
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			out = argv[i] + 4;
		} else if (!strncmp(argv[i], "windows=", 8)) {
			mask = strtoull(argv[i] + 8, NULL, 0);
		} else {
			qemu_plugin_outs("insn_profile: unknown argument\n");
			return -1;
		}
	}
	if (!out) {
		qemu_plugin_outs("insn_profile: needs out=FILE\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
