/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cache_sim.h - a set-associative LRU cache hierarchy simulator, header
 * only, for cache_model.c (the qemu plugin) and cache_sim_test.c.
 *
 * Four levels of 64-byte lines: a level 1 instruction cache (L1i), a level
 * 1 data cache (L1d), a unified L2 and a last-level cache (LLC), each of a
 * size and an associativity read from a geometry file (caches/NAME.conf).
 * A line is looked up by its full line number (address >> 6); the set is
 * its low bits, so the number of sets must be a power of two.  Each set is
 * a small array of line numbers kept in recency order, most recent first:
 * a hit moves the line to the front, a miss drops the last (least recently
 * used) line and puts the new one in front.  True LRU, no allocation in
 * the access path.
 *
 * Inclusion: none is enforced, the simplest policy that is still close to
 * what recent parts do (non-inclusive, non-exclusive).  An access looks up
 * its L1; an L1 miss looks up the L2; an L2 miss looks up the LLC; every
 * level that missed is filled on the way back.  An eviction from one
 * level leaves the others alone (no back-invalidation, no victim fills),
 * so a line can stay in L1 after the L2 or the LLC dropped it, and a hit
 * in L2 does not refresh the LLC's recency.  Stores allocate like loads
 * (write-allocate); write-backs of dirty lines are not modelled, nor are
 * prefetchers, TLBs, coherence or other cores sharing the LLC.
 */
#ifndef SELINUX_AVC_CACHE_SIM_H
#define SELINUX_AVC_CACHE_SIM_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CACHE_LINE_SHIFT	6
#define CACHE_LINE_SIZE		(1u << CACHE_LINE_SHIFT)
#define CACHE_MAX_WAYS		64
/* No line number is all ones (addresses have fewer than 70 bits). */
#define CACHE_NO_LINE		(~(uint64_t)0)

enum cache_level_id { CACHE_L1I, CACHE_L1D, CACHE_L2, CACHE_LLC,
		      CACHE_NLEVELS };

/*
 * Where an access was served: an L1 hit, an L2 hit, an LLC hit, memory.
 * A result of N missed N levels (the L1, then the L2, then the LLC).
 */
enum cache_served { CACHE_HIT_L1, CACHE_HIT_L2, CACHE_HIT_LLC,
		    CACHE_FROM_MEM };

/* Load-to-use latencies of the geometry file, in cycles. */
enum cache_lat_id { CACHE_LAT_L1, CACHE_LAT_L2, CACHE_LAT_LLC, CACHE_LAT_MEM,
		    CACHE_NLAT };

struct cache_geom {
	uint64_t size[CACHE_NLEVELS];		/* bytes */
	unsigned int ways[CACHE_NLEVELS];
	unsigned int lat[CACHE_NLAT];		/* cycles */
};

struct cache_level {
	uint64_t *line;		/* sets * ways line numbers, MRU first */
	uint64_t set_mask;	/* sets - 1 */
	unsigned int ways;
};

struct cache_hier {
	struct cache_level lv[CACHE_NLEVELS];
};

/* Misses of one or more accesses, per level. */
struct cache_miss {
	uint64_t l1i, l1d, l2, llc;
};

static const char *const cache_level_key[CACHE_NLEVELS] = {
	"l1i", "l1d", "l2", "llc",
};

static const char *const cache_lat_key[CACHE_NLAT] = {
	"lat_l1", "lat_l2", "lat_llc", "lat_mem",
};

/* Look LINE up in one level; fill it on a miss.  Returns 1 on a hit. */
static inline int cache_level_access(struct cache_level *c, uint64_t line)
{
	uint64_t *set = c->line + (line & c->set_mask) * c->ways;
	unsigned int i;
	int hit;

	if (set[0] == line)
		return 1;
	for (i = 1; i < c->ways; i++)
		if (set[i] == line)
			break;
	hit = i < c->ways;
	if (!hit)
		i = c->ways - 1;
	/* Shift the more recent lines down one way, put LINE first. */
	memmove(set + 1, set, i * sizeof(*set));
	set[0] = line;
	return hit;
}

/*
 * One line through the hierarchy, from L1 (CACHE_L1I or CACHE_L1D): the
 * level that served it (enum cache_served).
 */
static inline enum cache_served cache_line_access(struct cache_hier *h,
						  enum cache_level_id l1,
						  uint64_t line)
{
	if (cache_level_access(&h->lv[l1], line))
		return CACHE_HIT_L1;
	if (cache_level_access(&h->lv[CACHE_L2], line))
		return CACHE_HIT_L2;
	if (cache_level_access(&h->lv[CACHE_LLC], line))
		return CACHE_HIT_LLC;
	return CACHE_FROM_MEM;
}

/* Add the misses of a line served from S, looked up from L1, to M. */
static inline void cache_count(struct cache_miss *m, enum cache_level_id l1,
			       enum cache_served s)
{
	if (s == CACHE_HIT_L1)
		return;
	if (l1 == CACHE_L1I)
		m->l1i++;
	else
		m->l1d++;
	m->l2 += s >= CACHE_HIT_LLC;
	m->llc += s == CACHE_FROM_MEM;
}

/*
 * SIZE bytes at ADDR (SIZE >= 1): every line they touch, lowest first
 * (two for an access that spans a line boundary); misses added to M.
 */
static inline void cache_access(struct cache_hier *h, enum cache_level_id l1,
				uint64_t addr, uint64_t size,
				struct cache_miss *m)
{
	uint64_t line = addr >> CACHE_LINE_SHIFT;
	uint64_t last = (addr + size - 1) >> CACHE_LINE_SHIFT;

	for (;; line++) {
		cache_count(m, l1, cache_line_access(h, l1, line));
		if (line == last)
			break;
	}
}

/* Empty every level (the cold variant: a window starts from memory). */
static inline void cache_flush(struct cache_hier *h)
{
	int i;

	for (i = 0; i < CACHE_NLEVELS; i++)
		memset(h->lv[i].line, 0xff, (h->lv[i].set_mask + 1) *
		       h->lv[i].ways * sizeof(uint64_t));
}

static inline void cache_free(struct cache_hier *h)
{
	int i;

	for (i = 0; i < CACHE_NLEVELS; i++) {
		free(h->lv[i].line);
		h->lv[i].line = NULL;
	}
}

/* Allocate the levels of a checked geometry, empty.  0, or -1 (ENOMEM). */
static inline int cache_init(struct cache_hier *h, const struct cache_geom *g)
{
	int i;

	memset(h, 0, sizeof(*h));
	for (i = 0; i < CACHE_NLEVELS; i++) {
		uint64_t sets = g->size[i] / CACHE_LINE_SIZE / g->ways[i];

		h->lv[i].line = malloc(sets * g->ways[i] * sizeof(uint64_t));
		if (!h->lv[i].line) {
			cache_free(h);
			return -1;
		}
		h->lv[i].set_mask = sets - 1;
		h->lv[i].ways = g->ways[i];
	}
	cache_flush(h);
	return 0;
}

/*
 * The modelled cost of some misses, in cycles beyond the instructions
 * themselves: each access pays the latency of the level that served it
 * minus an L1 hit's (which the pipeline hides), so an L1 miss costs
 * lat_l2 - lat_l1, an L2 miss lat_llc - lat_l2 more, an LLC miss
 * lat_mem - lat_llc more.  A blocking, in-order model: real cores overlap
 * misses with other work, so this is an upper bound of a sort, not a
 * measurement.
 */
static inline uint64_t cache_stall(const struct cache_geom *g,
				   const struct cache_miss *m)
{
	return (m->l1i + m->l1d) * (g->lat[CACHE_LAT_L2] - g->lat[CACHE_LAT_L1]) +
	       m->l2 * (g->lat[CACHE_LAT_LLC] - g->lat[CACHE_LAT_L2]) +
	       m->llc * (g->lat[CACHE_LAT_MEM] - g->lat[CACHE_LAT_LLC]);
}

/* Parse an unsigned decimal number; 0 if S is not one, whole. */
static inline int cache_parse_num(const char *s, uint64_t *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return 0;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

/*
 * Read a geometry file: "#" starts a comment; each other non-blank line is
 * "KEY VALUE...": l1i, l1d, l2, llc SIZE WAYS (bytes, associativity) and
 * lat_l1, lat_l2, lat_llc, lat_mem CYCLES, every key once.  Each level
 * must have a power of two of sets of CACHE_LINE_SIZE-byte lines, and the
 * latencies must not decrease from L1 to memory.  Returns 0, or -1 with
 * the reason, naming the file and line, in ERR.
 */
static inline int cache_geom_read(const char *path, struct cache_geom *g,
				  char *err, size_t errlen)
{
	unsigned int seen_lv = 0, seen_lat = 0;
	char buf[512];
	unsigned int lineno = 0;
	FILE *f;
	int i;

	memset(g, 0, sizeof(*g));
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(buf, sizeof(buf), f)) {
		char *tok[4], *p, *save = NULL;
		uint64_t v[2];
		int n = 0;

		lineno++;
		if (!strchr(buf, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%u: line too long", path,
				 lineno);
			goto bad;
		}
		p = strchr(buf, '#');
		if (p)
			*p = '\0';
		for (p = strtok_r(buf, " \t\r\n", &save); p && n < 4;
		     p = strtok_r(NULL, " \t\r\n", &save))
			tok[n++] = p;
		if (!n)
			continue;
		for (i = 0; i < CACHE_NLEVELS; i++)
			if (!strcmp(tok[0], cache_level_key[i]))
				break;
		if (i < CACHE_NLEVELS) {
			uint64_t sets;

			if (n != 3 || !cache_parse_num(tok[1], &v[0]) ||
			    !cache_parse_num(tok[2], &v[1])) {
				snprintf(err, errlen,
					 "%s:%u: %s needs two numbers: SIZE (bytes) WAYS",
					 path, lineno, tok[0]);
				goto bad;
			}
			if (seen_lv & (1u << i)) {
				snprintf(err, errlen, "%s:%u: %s given twice",
					 path, lineno, tok[0]);
				goto bad;
			}
			if (!v[1] || v[1] > CACHE_MAX_WAYS) {
				snprintf(err, errlen,
					 "%s:%u: %s: %llu ways (1 to %d)", path,
					 lineno, tok[0], (unsigned long long)v[1],
					 CACHE_MAX_WAYS);
				goto bad;
			}
			if (!v[0] || v[0] % (CACHE_LINE_SIZE * v[1])) {
				snprintf(err, errlen,
					 "%s:%u: %s: %llu bytes is not a whole number of sets of %llu %u-byte lines",
					 path, lineno, tok[0],
					 (unsigned long long)v[0],
					 (unsigned long long)v[1],
					 CACHE_LINE_SIZE);
				goto bad;
			}
			sets = v[0] / CACHE_LINE_SIZE / v[1];
			if (sets & (sets - 1)) {
				snprintf(err, errlen,
					 "%s:%u: %s: %llu bytes in %llu ways is %llu sets, not a power of two",
					 path, lineno, tok[0],
					 (unsigned long long)v[0],
					 (unsigned long long)v[1],
					 (unsigned long long)sets);
				goto bad;
			}
			g->size[i] = v[0];
			g->ways[i] = v[1];
			seen_lv |= 1u << i;
			continue;
		}
		for (i = 0; i < CACHE_NLAT; i++)
			if (!strcmp(tok[0], cache_lat_key[i]))
				break;
		if (i == CACHE_NLAT) {
			snprintf(err, errlen, "%s:%u: unknown key '%s'", path,
				 lineno, tok[0]);
			goto bad;
		}
		if (n != 2 || !cache_parse_num(tok[1], &v[0]) ||
		    v[0] > 1000000) {
			snprintf(err, errlen,
				 "%s:%u: %s needs one number: CYCLES", path,
				 lineno, tok[0]);
			goto bad;
		}
		if (seen_lat & (1u << i)) {
			snprintf(err, errlen, "%s:%u: %s given twice", path,
				 lineno, tok[0]);
			goto bad;
		}
		g->lat[i] = v[0];
		seen_lat |= 1u << i;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		goto bad;
	}
	fclose(f);
	for (i = 0; i < CACHE_NLEVELS; i++)
		if (!(seen_lv & (1u << i))) {
			snprintf(err, errlen, "%s: missing key '%s'", path,
				 cache_level_key[i]);
			return -1;
		}
	for (i = 0; i < CACHE_NLAT; i++)
		if (!(seen_lat & (1u << i))) {
			snprintf(err, errlen, "%s: missing key '%s'", path,
				 cache_lat_key[i]);
			return -1;
		}
	for (i = 1; i < CACHE_NLAT; i++)
		if (g->lat[i] < g->lat[i - 1]) {
			snprintf(err, errlen, "%s: %s (%u) is less than %s (%u)",
				 path, cache_lat_key[i], g->lat[i],
				 cache_lat_key[i - 1], g->lat[i - 1]);
			return -1;
		}
	return 0;
bad:
	fclose(f);
	return -1;
}

#endif /* SELINUX_AVC_CACHE_SIM_H */
