// SPDX-License-Identifier: GPL-2.0
/*
 * avcstress - policy reload races against permission checks.
 *
 *   avcstress run ITERATIONS SECONDS HAMMERS [HOLD]   (unconfined controller)
 *   avcstress hammer ID                        (in m_s_t, started by run)
 *
 * The controller alternates between two policies, s_allow (m_s_t may
 * open and stat /tmp/m/stress) and s_deny (it may not), toggles enforcing
 * off and on, and takes cpu1 offline and back online.  Every change is
 * bracketed by a sequence counter in shared memory, seqlock style: odd
 * while a change is in progress, even once the load/enforce writes have
 * returned; the state the change established is published before the
 * counter becomes even again.
 *
 * A hammer reads the counter (s1) and the state, performs the check and
 * reads the counter again (s2).  Only a check with s1 == s2 and s1 even is
 * judged: it started after the last change had returned and ended before
 * the next one began, so it must match the published state exactly.  A
 * success under s_deny (enforcing) or a failure under s_allow is a failure
 * of the kernel.
 *
 * HOLD (default 1): park the hammers, outside any system call, around the
 * "setenforce 1" that ends a permissive round trip.  Stock SELinux has a
 * window there that this program would otherwise report: a check that
 * read enforcing == 0 makes its permissive grant (avc_update_node()) after
 * setenforce 1 has flushed the AVC, and since setenforce does not change
 * the policy sequence number the grant lands on a node another check has
 * just inserted, and stays until the next reset.  A reload changes the
 * sequence number, so a late grant cannot land, and the hammers run
 * through every reload.  HOLD 0 runs them through the toggles too.
 */
#include "common.h"

#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <time.h>
#include <sys/mman.h>

#define TOP		"/tmp/m"
#define TARGET		TOP "/stress"
#define SHM		TOP "/shm"
#define SELF		"/matrix/avcstress"
#define CPU1		"/sys/devices/system/cpu/cpu1/online"
#define MAXH		8
#define NFAIL		16

enum { S_ALLOW = 1, S_DENY = 2 };

struct hammer {
	uint64_t checks, judged_allow, judged_deny, unjudged;
	uint64_t fail_allow, fail_deny;
	uint64_t fail_seq[NFAIL];
	int fail_op[NFAIL];
	int nrec;
	int ready;
	uint64_t parked;
};

struct shm {
	uint64_t seq;
	uint64_t hold;		/* odd: hammers park */
	int state;
	int stop;
	struct hammer h[MAXH];
};

static struct shm *map_shm(int create)
{
	struct shm *s;
	int fd;

	fd = open(SHM, (create ? O_CREAT | O_TRUNC : 0) | O_RDWR | O_CLOEXEC, 0666);
	if (fd < 0)
		die("open " SHM);
	if (create && ftruncate(fd, sizeof(*s)))
		die("ftruncate " SHM);
	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (s == MAP_FAILED)
		die("mmap " SHM);
	close(fd);
	return s;
}

/* One check: open+close (read, open) or stat (getattr).  0: allowed. */
static int check(int op)
{
	struct stat st;
	int fd;

	if (op) {
		if (stat(TARGET, &st))
			return errno;
		return 0;
	}
	fd = open(TARGET, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static void record(struct hammer *h, uint64_t seq, int op)
{
	if (h->nrec < NFAIL) {
		h->fail_seq[h->nrec] = seq;
		h->fail_op[h->nrec] = op;
		h->nrec++;
	}
}

static int hammer(int id)
{
	struct shm *s = map_shm(0);
	struct hammer *h = &s->h[id];
	uint64_t s1, s2, g;
	int state, err, op = 0;

	__atomic_store_n(&h->ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&s->stop, __ATOMIC_SEQ_CST)) {
		g = __atomic_load_n(&s->hold, __ATOMIC_SEQ_CST);
		if (g & 1) {
			/* Parked for hold round g; no check until it ends. */
			__atomic_store_n(&h->parked, g, __ATOMIC_SEQ_CST);
			while (__atomic_load_n(&s->hold, __ATOMIC_SEQ_CST) == g &&
			       !__atomic_load_n(&s->stop, __ATOMIC_SEQ_CST))
				poll(NULL, 0, 1);
			continue;
		}
		s1 = __atomic_load_n(&s->seq, __ATOMIC_SEQ_CST);
		state = __atomic_load_n(&s->state, __ATOMIC_SEQ_CST);
		err = check(op);
		s2 = __atomic_load_n(&s->seq, __ATOMIC_SEQ_CST);
		h->checks++;
		if ((s1 & 1) || s1 != s2) {
			h->unjudged++;
		} else if (state == S_DENY) {
			h->judged_deny++;
			if (!err) {
				record(h, s1, op);
				h->fail_deny++;
			}
		} else {
			h->judged_allow++;
			if (err) {
				record(h, s1, op | 2);
				h->fail_allow++;
			}
		}
		op ^= 1;
	}
	return 0;
}

static void put(const char *path, const char *val)
{
	write_file(path, val, strlen(val));
}

static struct shm *S;
static uint64_t reloads, toggles, hotplugs;
static int nhammers, hold_toggles;

/*
 * Start a hold round and wait until every hammer is parked in it: a
 * hammer parks only after it has seen the round begin, so no check is in
 * flight once all have.
 */
static void park(void)
{
	uint64_t g = __atomic_add_fetch(&S->hold, 1, __ATOMIC_SEQ_CST);
	int i;

	for (i = 0; i < nhammers; i++)
		while (__atomic_load_n(&S->h[i].parked, __ATOMIC_SEQ_CST) != g)
			poll(NULL, 0, 1);
}

static void unpark(void)
{
	__atomic_add_fetch(&S->hold, 1, __ATOMIC_SEQ_CST);
}

static void begin(void)
{
	__atomic_add_fetch(&S->seq, 1, __ATOMIC_SEQ_CST);	/* odd */
}

static void end(int state)
{
	__atomic_store_n(&S->state, state, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&S->seq, 1, __ATOMIC_SEQ_CST);	/* even */
}

static void reload(int state)
{
	begin();
	load_policy(state == S_ALLOW ? "/matrix/policy/s_allow.bin" :
				       "/matrix/policy/s_deny.bin");
	end(state);
	reloads++;
}

/* setenforce 0, let the hammers run permissive, setenforce 1. */
static void toggle(int state)
{
	begin();
	put("/sys/fs/selinux/enforce", "0");
	poll(NULL, 0, 2);
	if (hold_toggles)
		park();
	put("/sys/fs/selinux/enforce", "1");
	if (hold_toggles)
		unpark();
	end(state);
	toggles++;
}

static int have_cpu1;

static void cpu1(int online)
{
	if (!have_cpu1)
		return;
	put(CPU1, online ? "1" : "0");
	if (!online)
		hotplugs++;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* What the change that made @seq even was: iteration seq / 2 - 1. */
static const char *change_name(uint64_t seq)
{
	static const char *const names[6] = {
		"reload to s_deny", "setenforce 0/1 under s_deny",
		"reload to s_allow", "setenforce 0/1 under s_allow",
		"reload to s_deny with cpu1 offline", "reload to s_allow",
	};

	return seq < 2 ? "the start" : names[(seq / 2 - 1) % 6];
}

static int run(long iters, double seconds, int nh, int hold)
{
	char *argv[] = { SELF, "hammer", NULL, NULL };
	uint64_t ja = 0, jd = 0, fa = 0, fd = 0, un = 0, checks = 0;
	double t0 = now(), dwell;
	pid_t pids[MAXH];
	char idbuf[8];
	long it;
	int i, k, st, bad = 0;

	if (nh < 1 || nh > MAXH) {
		errno = EINVAL;
		die("hammers must be 1..%d", MAXH);
	}
	nhammers = nh;
	hold_toggles = hold;
	have_cpu1 = access(CPU1, W_OK) == 0;
	if (mkdir(TOP, 0755) && errno != EEXIST)
		die("mkdir " TOP);
	label(TOP, "mwork_t");
	if (close(open(TARGET, O_CREAT | O_WRONLY | O_CLOEXEC, 0644)))
		die("create " TARGET);
	label(TARGET, "stress_t");
	S = map_shm(1);
	label(SHM, "stress_shm_t");
	load_policy("/matrix/policy/s_allow.bin");
	S->state = S_ALLOW;

	for (i = 0; i < nh; i++) {
		snprintf(idbuf, sizeof(idbuf), "%d", i);
		argv[2] = idbuf;
		pids[i] = spawn_in("m_s_t", argv, -1);
	}
	for (i = 0; i < nh; i++)
		while (!__atomic_load_n(&S->h[i].ready, __ATOMIC_SEQ_CST))
			poll(NULL, 0, 5);

	/* The cycle: revoke, permissive round trip, grant, revoke with
	 * cpu1 offline, online again, grant again. */
	for (it = 0; it < iters && now() - t0 < seconds; it++) {
		dwell = 1 + it % 3;
		switch (it % 6) {
		case 0:
			reload(S_DENY);
			break;
		case 1:
			toggle(S_DENY);
			break;
		case 2:
			reload(S_ALLOW);
			break;
		case 3:
			toggle(S_ALLOW);
			break;
		case 4:
			cpu1(0);
			reload(S_DENY);
			poll(NULL, 0, dwell);
			cpu1(1);
			break;
		case 5:
			reload(S_ALLOW);
			break;
		}
		poll(NULL, 0, dwell);
	}
	__atomic_store_n(&S->stop, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < nh; i++) {
		if (waitpid(pids[i], &st, 0) != pids[i] || !WIFEXITED(st) ||
		    WEXITSTATUS(st)) {
			fprintf(stderr, "avcstress: hammer %d failed (0x%x)\n", i, st);
			bad++;
		}
	}
	for (i = 0; i < nh; i++) {
		struct hammer *h = &S->h[i];

		checks += h->checks;
		ja += h->judged_allow;
		jd += h->judged_deny;
		un += h->unjudged;
		fa += h->fail_allow;
		fd += h->fail_deny;
		for (k = 0; k < h->nrec; k++)
			printf("avcstress: FAILURE hammer %d: %s %s at seq %llu (after %s)\n", i,
			       h->fail_op[k] & 1 ? "stat" : "open",
			       h->fail_op[k] & 2 ? "denied while granted" :
						   "allowed after revoke returned",
			       (unsigned long long)h->fail_seq[k],
			       change_name(h->fail_seq[k]));
	}
	printf("avcstress: iterations=%ld reloads=%llu enforce_toggles=%llu cpu_offline_online=%llu seconds=%.1f toggle_hold=%d\n",
	       it, (unsigned long long)reloads, (unsigned long long)toggles,
	       (unsigned long long)hotplugs, now() - t0, hold);
	printf("avcstress: hammers=%d checks=%llu judged_allow=%llu judged_deny=%llu unjudged=%llu\n",
	       nh, (unsigned long long)checks, (unsigned long long)ja,
	       (unsigned long long)jd, (unsigned long long)un);
	printf("avcstress: failures: allowed_after_revoke=%llu denied_while_granted=%llu\n",
	       (unsigned long long)fd, (unsigned long long)fa);
	if (!jd || !ja) {
		printf("avcstress: too few judged checks to mean anything\n");
		bad++;
	}
	if (have_cpu1 && !hotplugs)
		bad++;
	if (!have_cpu1) {
		printf("avcstress: no %s: ran without CPU hotplug\n", CPU1);
		bad++;
	}
	bad += fd || fa;
	printf("avcstress: RESULT %s\n", bad ? "FAIL" : "PASS");
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	prog = "avcstress";
	if (argc == 3 && !strcmp(argv[1], "hammer"))
		return hammer(atoi(argv[2]));
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "run"))
		return run(atol(argv[2]), atof(argv[3]), atoi(argv[4]),
			   argc == 6 ? atoi(argv[5]) : 1);
	fprintf(stderr, "usage: avcstress run ITERATIONS SECONDS HAMMERS [HOLD] | hammer ID\n");
	return 2;
}
