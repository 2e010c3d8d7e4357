// SPDX-License-Identifier: GPL-2.0
/*
 * cache_model - a QEMU TCG plugin that runs every instruction fetch and
 * every load and store of the guest through a model of one core's caches
 * (cache_sim.h: L1i, L1d, a unified L2 and an LLC, set-associative, LRU,
 * 64-byte lines, sizes from a geometry file) and counts the misses inside
 * the benchmarks' measured windows, per kernel instruction address, as
 * insn_profile.c counts instructions.
 *
 * The model runs all the time, from boot, so that the caches hold what
 * the guest's own past left in them when a window opens (warm); with
 * evict=1 every level is emptied at each window's begin marker (cold:
 * each window starts from memory).  Only what happens between a begin
 * and the next end marker (bench_window.h) of a selected window is
 * counted, in the kernel and in every process; with first=N, only the
 * first N instructions of each selected window: with evict=1 and N the
 * instructions of one operation (a warm run's window divided by its
 * operations), the first operation after the caches were emptied, the
 * benchmark's own state (and the kernel's software caches) being as
 * warm as its warm-up left them.
 *
 * Instruction fetch: one L1i access per 64-byte line that a translation
 * block's instructions run into, made when the first instruction that
 * begins in (or runs into) that line executes; the instructions that
 * follow in the same line make none.  An access per instruction would
 * give the same misses: nothing else touches the L1i between two
 * instructions of one block, and a second look-up of the most recent line
 * changes no LRU order.  The block boundaries and the markers start a new
 * line, so a jump back into the same line and the first instruction
 * after an evict=1 flush fetch again.  Misses are charged to the
 * instruction whose fetch made them.  Instructions are counted with their
 * line's fetch, so one that faults counts the rest of its line (where
 * insn_profile.c counts the rest of its block); the kernel's counts are
 * otherwise those of insn_profile.c.
 *
 * Addresses: caches are physically indexed on real parts.  Data accesses
 * use the guest physical address (qemu_plugin_get_hwaddr), or the virtual
 * one where qemu has none; accesses to I/O (MMIO) bypass the caches and
 * are left out.  Instruction fetches use the host address of the
 * instruction's bytes (qemu_plugin_insn_haddr): qemu's plugin API gives
 * no guest physical address of an instruction, and the host address is
 * the next best: one per physical page (shared code is one line for every
 * process that maps it, the same virtual address in two processes is
 * not), and a constant offset from the guest physical address inside
 * guest RAM, which qemu maps with 2 MiB alignment on x86_64 hosts, so it
 * picks the same sets as the physical address in caches of up to 2 MiB
 * per way.  Host addresses are far above guest RAM, so code and data
 * lines never collide (a line both executed and read would be two lines
 * in L2 and LLC: rare).  An instruction crossing a page boundary fetches
 * the second page's line with the next instruction, which is charged.
 *
 * A memory access is charged to the instruction that made it, an access
 * that spans two lines touches both; page table walks are not modelled.
 * One core: the guest must run with one vCPU (-smp 1).  The misses are
 * those of a model (no prefetchers, no write-backs, true LRU, the
 * inclusion policy of cache_sim.h), not of a part.
 *
 * Arguments: out=FILE and cache=GEOMETRY (required; caches/NAME.conf);
 * windows=MASK as insn_profile's; evict=1 for the cold variant; first=N
 * (or N:N:..., one per selected window in their order, the last one for
 * the rest): count only the first N instructions of a window (within a
 * line's fetch: the line that reaches N counts whole); dlines=1: also list
 * the data lines brought from memory.
 * Output in FILE:
 *   windows N                    windows seen
 *   geometry NAME                the geometry file's name, without .conf
 *   cache l1i SIZE WAYS l1d SIZE WAYS l2 SIZE WAYS llc SIZE WAYS
 *   latency L1 L2 LLC MEM        load-to-use cycles of the geometry
 *   evict 0|1
 *   first N[:N...]               first=, or 0
 *   dlines 1                     with dlines=1
 *   window W insns N             instructions counted in selected window W
 *   ADDR INSNS L1I L1D L2 LLC    per kernel instruction address with a
 *                                nonzero count (hex address; an address
 *                                may repeat, once per translation)
 *   dmem W IADDR DADDR           with dlines=1: each data line that an
 *                                access in window W brought from
 *                                memory: the virtual address accessed
 *                                in it, and the kernel instruction that
 *                                made the access (0: user space), in
 *                                order, at most 2^20
 *   io N                         accesses in the windows left out as MMIO
 *   virtual N                    accesses in the windows that qemu gave
 *                                no physical address for (virtual used)
 *   user INSNS L1I L1D L2 LLC    user space, all processes, last line
 * INSNS counts the instructions executed, L1I and L1D the L1 misses of
 * the instruction's fetch and data accesses, L2 and LLC the misses of
 * both at those levels.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_window.h"
#include "cache_sim.h"
#include "qemu_plugin_abi.h"

PLUGIN_EXPORT int qemu_plugin_version = 1;

#define PAGE_SIZE_MIN	4096u	/* the guests' smallest page */

enum { N_INSNS, N_L1I, N_L1D, N_L2, N_LLC, N_COUNTS };

/* The counts of one kernel instruction (one translation of it). */
struct insn_rec {
	uint64_t vaddr;
	uint64_t n[N_COUNTS];
};

/*
 * The instructions of a block that one fetch serves: REC (the first) and
 * the NINSNS - 1 after it, or NINSNS user-space instructions counted in
 * REC (the user record); LINE their new lines (one, or two when the
 * first instruction runs into the next line).
 */
struct fetch {
	struct insn_rec *rec;
	uint64_t line[2];
	uint32_t ninsns;
	uint8_t nlines;
	uint8_t user;
};

/* The kernel instructions of a translation, for the output. */
struct tb_rec {
	struct tb_rec *next;
	uint32_t n;
	struct insn_rec insn[];
};

static struct cache_hier caches;
static struct cache_geom geom;
static const char *geom_name;
static struct tb_rec *tbs;
static struct insn_rec user;
static uint64_t mask = ~0ull;
static uint64_t io_accesses, virt_accesses;
static uint64_t win_insns[64];		/* per window, while counting */
static uint64_t first[64], limit;	/* first=, this window's */
static unsigned int nfirst, nselected;
static unsigned int windows;
static int counting, evict;
static char *out;
static const char *first_arg = "0";

/* dlines=1: the data lines served from memory, in the windows. */
struct dmiss {
	uint64_t insn, data;
	unsigned int window;
};

#define DMISS_MAX	(1u << 20)
static struct dmiss *dmisses;
static unsigned int ndmisses;
static int dlines;

static void mark_begin(unsigned int vcpu, void *udata)
{
	windows++;
	counting = window_selected(mask, windows);
	limit = 0;
	if (counting && nfirst)
		limit = first[nselected < nfirst ? nselected : nfirst - 1];
	nselected += counting;
	if (evict)
		cache_flush(&caches);
}

static void mark_end(unsigned int vcpu, void *udata)
{
	counting = 0;
}

/* Charge the misses of a line served from S, looked up in L1, to R. */
static inline void charge(struct insn_rec *r, enum cache_level_id l1,
			  enum cache_served s)
{
	if (s == CACHE_HIT_L1)
		return;
	r->n[l1 == CACHE_L1I ? N_L1I : N_L1D]++;
	if (s >= CACHE_HIT_LLC)
		r->n[N_L2]++;
	if (s == CACHE_FROM_MEM)
		r->n[N_LLC]++;
}

static void fetch_exec(unsigned int vcpu, void *udata)
{
	struct fetch *f = udata;
	enum cache_served s;
	uint32_t i;

	/* first=N: the window's first N instructions have run. */
	if (counting && limit && win_insns[windows - 1] >= limit)
		counting = 0;
	s = cache_line_access(&caches, CACHE_L1I, f->line[0]);
	if (counting)
		charge(f->rec, CACHE_L1I, s);
	if (f->nlines > 1) {
		s = cache_line_access(&caches, CACHE_L1I, f->line[1]);
		if (counting)
			charge(f->rec, CACHE_L1I, s);
	}
	if (!counting)
		return;
	win_insns[windows - 1] += f->ninsns;
	if (f->user)
		f->rec->n[N_INSNS] += f->ninsns;
	else
		for (i = 0; i < f->ninsns; i++)
			f->rec[i].n[N_INSNS]++;
}

/*
 * dlines=1: a data line that R's access at VADDR (the first byte that the
 * access touches in that line) brought from memory.
 */
static void note_dmiss(const struct insn_rec *r, uint64_t vaddr)
{
	struct dmiss *d;

	if (!dlines || ndmisses == DMISS_MAX)
		return;
	d = &dmisses[ndmisses++];
	d->insn = r == &user ? 0 : r->vaddr;
	d->data = vaddr;
	d->window = windows;
}

static void mem_exec(unsigned int vcpu, qemu_plugin_meminfo_t info,
		     uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
	uint64_t size = 1ull << qemu_plugin_mem_size_shift(info);
	uint64_t line_mask = (1ull << CACHE_LINE_SHIFT) - 1;
	uint64_t pa = vaddr, last_pa, line, last;
	struct insn_rec *r = udata;
	enum cache_served s;

	if (hw) {
		if (qemu_plugin_hwaddr_is_io(hw)) {
			io_accesses += counting;
			return;
		}
		pa = qemu_plugin_hwaddr_phys_addr(hw);
	} else {
		virt_accesses += counting;
	}
	last_pa = pa + size - 1;
	/* The last byte in another page: that page's own physical address. */
	if (hw && (vaddr & (PAGE_SIZE_MIN - 1)) + size > PAGE_SIZE_MIN) {
		struct qemu_plugin_hwaddr *hw2;

		hw2 = qemu_plugin_get_hwaddr(info, vaddr + size - 1);
		if (hw2 && !qemu_plugin_hwaddr_is_io(hw2))
			last_pa = qemu_plugin_hwaddr_phys_addr(hw2);
	}
	line = pa >> CACHE_LINE_SHIFT;
	last = last_pa >> CACHE_LINE_SHIFT;
	s = cache_line_access(&caches, CACHE_L1D, line);
	if (counting) {
		charge(r, CACHE_L1D, s);
		if (s == CACHE_FROM_MEM)
			note_dmiss(r, vaddr);
	}
	if (last != line) {
		s = cache_line_access(&caches, CACHE_L1D, last);
		if (counting) {
			charge(r, CACHE_L1D, s);
			/* The access's first byte in that line. */
			if (s == CACHE_FROM_MEM)
				note_dmiss(r, (vaddr | line_mask) + 1);
		}
	}
}

static void *alloc_or_die(size_t size)
{
	void *p = calloc(1, size);

	if (!p) {
		qemu_plugin_outs("cache_model: out of memory\n");
		abort();
	}
	return p;
}

/* A fetch of LINE when INSN (counted in REC) executes. */
static struct fetch *fetch_start(struct fetch *f,
				 struct qemu_plugin_insn *insn,
				 struct insn_rec *rec, int is_user, uint64_t line)
{
	f->rec = rec;
	f->user = is_user;
	f->line[0] = line;
	f->nlines = 1;
	qemu_plugin_register_vcpu_insn_exec_cb(insn, fetch_exec,
					       PLUGIN_CB_NO_REGS, f);
	return f;
}

static void tb_trans(plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	uint64_t cur = CACHE_NO_LINE;
	struct fetch *fetches, *f = NULL;
	struct tb_rec *r = NULL;
	int newline = 1;

	if (!n)
		return;
	fetches = alloc_or_die(n * sizeof(*fetches));
	if (qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, 0)) >=
	    kernel_base) {
		r = alloc_or_die(sizeof(*r) + n * sizeof(r->insn[0]));
		r->n = n;
		r->next = tbs;
		tbs = r;
	}
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t vaddr = qemu_plugin_insn_vaddr(insn);
		uint64_t size = qemu_plugin_insn_size(insn);
		const unsigned char *h = qemu_plugin_insn_haddr(insn);
		uint64_t addr = h ? (uint64_t)(uintptr_t)h : vaddr;
		uint64_t first = addr >> CACHE_LINE_SHIFT, end = first;
		struct insn_rec *rec = r ? &r->insn[i] : &user;
		int mark = 0;

		/* The markers run in user space, as insn_profile.c finds them. */
		if (r)
			rec->vaddr = vaddr;
		else if (is_mark(insn, MARK_BEGIN))
			mark = 1;
		else if (is_mark(insn, MARK_END))
			mark = 2;
		/* Its last byte's line, if in the same page. */
		if (size && (vaddr & (PAGE_SIZE_MIN - 1)) + size <= PAGE_SIZE_MIN)
			end = (addr + size - 1) >> CACHE_LINE_SHIFT;
		if (newline || mark || first != cur) {
			/* It begins in a new line: a fetch, of one or two. */
			f = fetch_start(&fetches[i], insn, rec, !r, first);
			if (end != first) {
				f->line[1] = end;
				f->nlines = 2;
			}
		} else if (end != first) {
			/* It runs out of the current line into the next. */
			f = fetch_start(&fetches[i], insn, rec, !r, end);
		}
		f->ninsns++;
		cur = end;
		/* The instruction after a marker fetches anew (evict=1). */
		newline = mark;
		if (mark == 1)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_begin,
							       PLUGIN_CB_NO_REGS,
							       NULL);
		else if (mark == 2)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_end,
							       PLUGIN_CB_NO_REGS,
							       NULL);
		qemu_plugin_register_vcpu_mem_cb(insn, mem_exec,
						 QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, rec);
	}
}

static void print_counts(FILE *f, const uint64_t *n)
{
	int i;

	for (i = 0; i < N_COUNTS; i++)
		fprintf(f, " %" PRIu64, n[i]);
	fputc('\n', f);
}

static void at_exit(plugin_id_t id, void *udata)
{
	struct tb_rec *r;
	uint32_t i;
	FILE *f;
	int k;

	f = fopen(out, "w");
	if (!f) {
		qemu_plugin_outs("cache_model: cannot write the output file\n");
		return;
	}
	fprintf(f, "windows %u\n", windows);
	fprintf(f, "geometry %s\n", geom_name);
	fprintf(f, "cache");
	for (k = 0; k < CACHE_NLEVELS; k++)
		fprintf(f, " %s %" PRIu64 " %u", cache_level_key[k],
			geom.size[k], geom.ways[k]);
	fprintf(f, "\nlatency %u %u %u %u\n", geom.lat[CACHE_LAT_L1],
		geom.lat[CACHE_LAT_L2], geom.lat[CACHE_LAT_LLC],
		geom.lat[CACHE_LAT_MEM]);
	fprintf(f, "evict %d\n", evict);
	fprintf(f, "first %s\n", first_arg);
	if (dlines)
		fprintf(f, "dlines 1\n");
	for (i = 0; i < windows && i < 64; i++)
		if (window_selected(mask, i + 1))
			fprintf(f, "window %u insns %" PRIu64 "\n", i + 1,
				win_insns[i]);
	for (r = tbs; r; r = r->next)
		for (i = 0; i < r->n; i++) {
			const struct insn_rec *x = &r->insn[i];

			for (k = 0; k < N_COUNTS && !x->n[k]; k++)
				;
			if (k == N_COUNTS)
				continue;
			fprintf(f, "%" PRIx64, x->vaddr);
			print_counts(f, x->n);
		}
	for (i = 0; i < ndmisses; i++)
		fprintf(f, "dmem %u %" PRIx64 " %" PRIx64 "\n",
			dmisses[i].window, dmisses[i].insn, dmisses[i].data);
	fprintf(f, "io %" PRIu64 "\n", io_accesses);
	fprintf(f, "virtual %" PRIu64 "\n", virt_accesses);
	fprintf(f, "user");
	print_counts(f, user.n);
	fclose(f);
}

/* The geometry's name: its file name without the directory and .conf. */
static const char *name_of(const char *path)
{
	const char *b = strrchr(path, '/');
	size_t len;
	char *s;

	b = b ? b + 1 : path;
	len = strlen(b);
	if (len > 5 && !strcmp(b + len - 5, ".conf"))
		len -= 5;
	s = alloc_or_die(len + 1);
	memcpy(s, b, len);
	return s;
}

/* first=N[:N...]: decimal instruction counts, at most 64. */
static int parse_first(const char *arg)
{
	const char *p = arg;
	char *end;

	nfirst = 0;
	do {
		if (*p < '0' || *p > '9' || nfirst == 64)
			goto bad;
		first[nfirst++] = strtoull(p, &end, 10);
		p = end;
	} while (*p++ == ':');
	if (p[-1])
		goto bad;
	if (nfirst == 1 && !first[0])
		nfirst = 0;	/* first=0: every instruction */
	first_arg = arg;
	return 0;
bad:
	qemu_plugin_outs("cache_model: first=N[:N...] wants instruction counts\n");
	return -1;
}

PLUGIN_EXPORT int qemu_plugin_install(plugin_id_t id, const void *info,
				      int argc, char **argv)
{
	const struct qemu_plugin_info *qi = info;
	const char *cache = NULL;
	char err[512], msg[600];
	int i;

	if (bench_arch_init(qi, "cache_model"))
		return -1;
	if (qi->system_emulation && qi->system.smp_vcpus > 1) {
		qemu_plugin_outs("cache_model: one vCPU only (-smp 1): the model is one core's caches\n");
		return -1;
	}
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			out = argv[i] + 4;
		} else if (!strncmp(argv[i], "windows=", 8)) {
			mask = strtoull(argv[i] + 8, NULL, 0);
		} else if (!strncmp(argv[i], "cache=", 6)) {
			cache = argv[i] + 6;
		} else if (!strcmp(argv[i], "evict=1")) {
			evict = 1;
		} else if (!strcmp(argv[i], "evict=0")) {
			evict = 0;
		} else if (!strcmp(argv[i], "dlines=1")) {
			dlines = 1;
			dmisses = alloc_or_die(DMISS_MAX * sizeof(*dmisses));
		} else if (!strncmp(argv[i], "first=", 6)) {
			if (parse_first(argv[i] + 6))
				return -1;
		} else {
			snprintf(msg, sizeof(msg),
				 "cache_model: unknown argument '%s' (out=FILE, cache=GEOMETRY, windows=MASK, evict=0|1, first=N[:N...], dlines=1)\n",
				 argv[i]);
			qemu_plugin_outs(msg);
			return -1;
		}
	}
	if (!out || !cache) {
		qemu_plugin_outs("cache_model: needs out=FILE and cache=GEOMETRY\n");
		return -1;
	}
	if (cache_geom_read(cache, &geom, err, sizeof(err))) {
		snprintf(msg, sizeof(msg), "cache_model: %s\n", err);
		qemu_plugin_outs(msg);
		return -1;
	}
	if (cache_init(&caches, &geom)) {
		qemu_plugin_outs("cache_model: out of memory\n");
		return -1;
	}
	geom_name = name_of(cache);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
