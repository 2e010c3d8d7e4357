// SPDX-License-Identifier: GPL-2.0
/*
 * insn_profile - a QEMU TCG plugin that counts the guest instructions
 * executed inside the benchmarks' measured windows, per kernel address.
 *
 * The benchmarks (tools/testing/selinux-avc-bench/bench.h) run a no-op
 * with a magic in it where a timed region begins and another where it
 * ends (the markers, per architecture: bench_window.h, which
 * cache_model.c shares).  Counting is on from a begin
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

#include "bench_window.h"
#include "qemu_plugin_abi.h"

PLUGIN_EXPORT int qemu_plugin_version = 1;

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

static void tb_exec(unsigned int vcpu, void *udata)
{
	struct tb_rec *r = udata;

	if (counting)
		r->count++;
}

static void mark_begin(unsigned int vcpu, void *udata)
{
	windows++;
	counting = window_selected(mask, windows);
}

static void mark_end(unsigned int vcpu, void *udata)
{
	counting = 0;
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

	if (bench_arch_init(qi, "insn_profile"))
		return -1;
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
