// SPDX-License-Identifier: GPL-2.0
/*
 * cache_sim_test - host test of cache_sim.h, no qemu: known access
 * patterns must give the misses an LRU hierarchy gives by construction,
 * and malformed geometry files must be refused with a reason.
 *
 * Usage: cache_sim_test [GEOMETRY...]: also checks that each GEOMETRY
 * file (the shipped caches/NAME.conf) reads.  Prints TAP ("ok N - ...",
 * "not ok N - ..."), exits 1 if a test failed.
 *
 * Build: gcc -O2 -Wall -Wextra -o cache_sim_test cache_sim_test.c
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache_sim.h"

static int tests, failed;

static void check(int cond, const char *fmt, ...)
{
	va_list ap;

	tests++;
	if (!cond)
		failed++;
	printf("%sok %d - ", cond ? "" : "not ", tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Write TEXT to a temporary file; its name in PATH (mkstemp template). */
static void write_tmp(char *path, size_t len, const char *text)
{
	const char *dir = getenv("TMPDIR");
	FILE *f;
	int fd;

	snprintf(path, len, "%s/cache_sim_test.XXXXXX", dir ? dir : "/tmp");
	fd = mkstemp(path);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		perror("cache_sim_test: temporary file");
		exit(2);
	}
	fputs(text, f);
	fclose(f);
}

/* Read a geometry given as text; its result, and the reason in ERR. */
static int read_text(const char *text, struct cache_geom *g, char *err,
		     size_t errlen)
{
	char path[4096];
	int ret;

	write_tmp(path, sizeof(path), text);
	ret = cache_geom_read(path, g, err, errlen);
	unlink(path);
	return ret;
}

/* The test geometry: the LLC holds 4 times the L2 and more. */
static const char test_geom[] =
	"# test geometry\n"
	"l1i 32768 8\n"
	"l1d 32768 8   # 64 sets\n"
	"l2  1048576 8\n"
	"llc 8388608 16\n"
	"lat_l1 4\nlat_l2 14\nlat_llc 50\nlat_mem 300\n";

/* One pass of 8-byte loads, a line apart, over [base, base + bytes). */
static struct cache_miss walk(struct cache_hier *h, uint64_t base,
			      uint64_t bytes)
{
	struct cache_miss m = { 0 };
	uint64_t a;

	for (a = base; a < base + bytes; a += CACHE_LINE_SIZE)
		cache_access(h, CACHE_L1D, a, 8, &m);
	return m;
}

static int miss_is(const struct cache_miss *m, uint64_t l1i, uint64_t l1d,
		   uint64_t l2, uint64_t llc)
{
	return m->l1i == l1i && m->l1d == l1d && m->l2 == l2 && m->llc == llc;
}

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* "(l1i N, l1d N, l2 N, llc N)", in one of four rotating buffers. */
static const char *misses(const struct cache_miss *m)
{
	static char buf[4][128];
	static unsigned int next;
	char *b = buf[next++ % ARRAY_SIZE(buf)];

	snprintf(b, sizeof(buf[0]), "(l1i %" PRIu64 ", l1d %" PRIu64
		 ", l2 %" PRIu64 ", llc %" PRIu64 ")", m->l1i, m->l1d, m->l2,
		 m->llc);
	return b;
}

int main(int argc, char **argv)
{
	struct cache_geom g;
	struct cache_hier h;
	struct cache_miss m, m2;
	char err[512];
	uint64_t lines, base = 0x40000000;
	int i, ret;

	ret = read_text(test_geom, &g, err, sizeof(err));
	check(!ret, "the test geometry reads%s%s", ret ? ": " : "",
	      ret ? err : "");
	if (ret || cache_init(&h, &g)) {
		printf("Bail out! no test geometry\n");
		return 1;
	}

	/* (a) 4 x L2, less than the LLC, twice. */
	lines = 4 * g.size[CACHE_L2] / CACHE_LINE_SIZE;
	m = walk(&h, base, 4 * g.size[CACHE_L2]);
	m2 = walk(&h, base, 4 * g.size[CACHE_L2]);
	check(miss_is(&m, 0, lines, lines, lines),
	      "(a) 4 x L2 < LLC, first pass: %" PRIu64 " lines miss L1d, L2 and LLC each %s",
	      lines, misses(&m));
	check(miss_is(&m2, 0, lines, lines, 0),
	      "(a) second pass: one L1d and one L2 miss per line, no LLC miss %s",
	      misses(&m2));

	/* (b) half the L1d, twice: misses on the first pass only. */
	cache_flush(&h);
	lines = g.size[CACHE_L1D] / 2 / CACHE_LINE_SIZE;
	m = walk(&h, base, g.size[CACHE_L1D] / 2);
	m2 = walk(&h, base, g.size[CACHE_L1D] / 2);
	check(miss_is(&m, 0, lines, lines, lines) && miss_is(&m2, 0, 0, 0, 0),
	      "(b) a walk that fits L1d misses on the first pass only %s then %s",
	      misses(&m), misses(&m2));

	/* (c) twice the LLC, three passes: LRU misses every line. */
	cache_flush(&h);
	lines = 2 * g.size[CACHE_LLC] / CACHE_LINE_SIZE;
	ret = 1;
	for (i = 0; i < 3; i++) {
		m = walk(&h, base, 2 * g.size[CACHE_LLC]);
		ret &= miss_is(&m, 0, lines, lines, lines);
	}
	check(ret,
	      "(c) 2 x LLC: every pass misses the LLC once per line (%" PRIu64 " lines) %s",
	      lines, misses(&m));

	/* (d) an access spanning two lines touches both. */
	cache_flush(&h);
	memset(&m, 0, sizeof(m));
	cache_access(&h, CACHE_L1D, base + 60, 8, &m);
	memset(&m2, 0, sizeof(m2));
	cache_access(&h, CACHE_L1D, base, 1, &m2);
	cache_access(&h, CACHE_L1D, base + 64, 1, &m2);
	check(miss_is(&m, 0, 2, 2, 2) && miss_is(&m2, 0, 0, 0, 0),
	      "(d) 8 bytes at offset 60 miss two lines %s, which then both hit %s",
	      misses(&m), misses(&m2));
	memset(&m, 0, sizeof(m));
	cache_access(&h, CACHE_L1D, base + 128, 64, &m);
	check(miss_is(&m, 0, 1, 1, 1), "(d) 64 aligned bytes touch one line %s",
	      misses(&m));

	/* LRU order within a set: A B ... (ways - 1 more), A, new: B goes. */
	cache_flush(&h);
	{
		uint64_t stride = (h.lv[CACHE_L1D].set_mask + 1) *
				  CACHE_LINE_SIZE;
		unsigned int ways = h.lv[CACHE_L1D].ways, w;

		for (w = 0; w < ways; w++)	/* fill one L1d set */
			cache_access(&h, CACHE_L1D, base + w * stride, 8, &m);
		cache_access(&h, CACHE_L1D, base, 8, &m);	/* A again */
		cache_access(&h, CACHE_L1D, base + ways * stride, 8, &m);
		memset(&m, 0, sizeof(m));
		cache_access(&h, CACHE_L1D, base, 8, &m);	/* A: kept */
		memset(&m2, 0, sizeof(m2));
		cache_access(&h, CACHE_L1D, base + stride, 8, &m2); /* B */
		check(m.l1d == 0 && m2.l1d == 1 && m2.l2 == 0,
		      "LRU: the least recently used way is the one evicted, the L2 still has it %s",
		      misses(&m2));
	}

	/* Instructions and data share the L2 and the LLC, not the L1. */
	cache_flush(&h);
	memset(&m, 0, sizeof(m));
	cache_access(&h, CACHE_L1I, base, 4, &m);
	cache_access(&h, CACHE_L1D, base, 4, &m);
	cache_access(&h, CACHE_L1I, base, 4, &m);
	check(miss_is(&m, 1, 1, 1, 1),
	      "L1i and L1d are separate, the L2 is unified %s", misses(&m));
	m2 = (struct cache_miss){ .l1i = 1, .l1d = 1, .l2 = 1, .llc = 1 };
	check(cache_stall(&g, &m2) == 2 * 10 + 36 + 250,
	      "stall model: 2 L1, 1 L2, 1 LLC miss at 4/14/50/300 cycles cost %" PRIu64 " cycles",
	      cache_stall(&g, &m2));
	cache_free(&h);

	/* (e) malformed geometry files are refused, with a reason. */
	{
		static const struct {
			const char *text, *what, *reason;
		} bad[] = {
			{ "l1i 32768 8\nl1d 32768 8\nl2 1572864 16\n"
			  "llc 8388608 16\n"
			  "lat_l1 4\nlat_l2 14\nlat_llc 50\nlat_mem 300\n",
			  "1536 sets", "not a power of two" },
			{ "l1i 32768 8\nl1d 32768 8\nl2 1048576 8\n"
			  "lat_l1 4\nlat_l2 14\nlat_llc 50\nlat_mem 300\n",
			  "no llc", "missing key 'llc'" },
			{ "l1i 32768 8\nl1d 32768 8\nl2 1048576 8\n"
			  "llc 8388608 16\nlat_l1 4\nlat_l2 14\nlat_llc 50\n",
			  "no lat_mem", "missing key 'lat_mem'" },
			{ "l1i 32768 8\nl1d 32768\n", "a level without ways",
			  "needs two numbers" },
			{ "l1i 32768 8\nl1d 49152 12\nl2 1000000 8\n",
			  "a size that is no whole number of sets",
			  "not a whole number" },
			{ "l1i 32768 8\nl1 32768 8\n", "an unknown key",
			  "unknown key 'l1'" },
			{ "l1i 32768 8\nl1i 32768 8\n", "a key given twice",
			  "given twice" },
			{ "l1i 32768 0\n", "zero ways", "ways" },
			{ "l1i 32768 8\nl1d 32768 8\nl2 1048576 8\n"
			  "llc 8388608 16\n"
			  "lat_l1 4\nlat_l2 14\nlat_llc 5\nlat_mem 300\n",
			  "an LLC faster than the L2", "less than lat_l2" },
			{ "l1i 0x8000 8\n", "a hexadecimal size",
			  "needs two numbers" },
		};
		unsigned int k;

		for (k = 0; k < ARRAY_SIZE(bad); k++) {
			err[0] = '\0';
			ret = read_text(bad[k].text, &g, err, sizeof(err));
			check(ret && strstr(err, bad[k].reason),
			      "(e) a geometry with %s is refused: %s",
			      bad[k].what, err);
		}
	}

	/* The geometry files named on the command line read. */
	for (i = 1; i < argc; i++) {
		ret = cache_geom_read(argv[i], &g, err, sizeof(err));
		if (ret) {
			check(0, "%s reads: %s", argv[i], err);
			continue;
		}
		ret = cache_init(&h, &g);
		check(!ret, "%s reads: l1i %" PRIu64 "/%u, l1d %" PRIu64
		      "/%u, l2 %" PRIu64 "/%u, llc %" PRIu64
		      "/%u (bytes/ways), latencies %u/%u/%u/%u", argv[i],
		      g.size[0], g.ways[0], g.size[1], g.ways[1], g.size[2],
		      g.ways[2], g.size[3], g.ways[3], g.lat[0], g.lat[1],
		      g.lat[2], g.lat[3]);
		if (!ret)
			cache_free(&h);
	}
	printf("1..%d\n", tests);
	if (failed)
		printf("# %d of %d failed\n", failed, tests);
	return failed ? 1 : 0;
}
