// SPDX-License-Identifier: GPL-2.0
/*
 * avcstress - policy reload races against permission checks.
 *
 *   avcstress run ITERATIONS SECONDS HAMMERS [HOLD]   (unconfined controller)
 *   avcstress hammer ID                        (in m_s_t, started by run)
 *   avcstress held ID                          (in m_s_t, started by run)
 *
 * The controller alternates between two policies, s_allow (m_s_t may
 * open and stat /tmp/m/stress, and read and write its own pipes and
 * AF_UNIX stream sockets) and s_deny (it may not), toggles enforcing
 * off and on, takes cpu1 offline and back online, and under s_allow
 * relabels /tmp/m/stress out of m_s_t's reach (stress_x_t, which no
 * policy lets it use) and back, with its descriptors open.  Every change is
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
 * run starts HAMMERS check hammers ("hammer": open+close and stat of
 * /tmp/m/stress, so they only ever meet the checks made at open and at
 * stat) and as many held hammers ("held"), whose descriptors stay open
 * across the changes and are read or written after a change returned:
 *
 * A relabel revokes and grants the file alone: the check, held_file and
 * held_reopened hammers follow the file's label, pipes and sockets keep
 * the policy's answer.
 *
 *   held_file      /tmp/m/stress, opened once before the first change and
 *                  never closed (a denied read leaves the descriptor as
 *                  it is); pread() of one byte every round;
 *   held_reopened  /tmp/m/stress, opened again every round; a
 *                  successful open replaces (closes) the previous
 *                  descriptor, a denied one keeps it.  So opens land next
 *                  to every change, and the last one that succeeded
 *                  before or during a reload is read after it returned;
 *   held_pipe      a pipe of the hammer's own (m_s_t:fifo_file), written
 *                  and read (one byte, non-blocking) every round;
 *   held_socket    an AF_UNIX stream socketpair of its own
 *                  (m_s_t:unix_stream_socket), written and read likewise.
 *
 * What stock SELinux guarantees for them, and so what is judged (a read or
 * write counts as allowed when it returns data, 0 or EAGAIN, as denied
 * when it fails with EACCES; any other error stops the hammer):
 *
 * - Under s_allow every one must be allowed: the policy grants it, so
 *   neither a check nor its absence can deny it.
 * - A pipe or a socket never passes selinux_file_open(): its file keeps
 *   isid 0 and pseqno 0, so selinux_file_permission() checks it on every
 *   call (file_has_perm(): no fd:use check, the descriptor is the
 *   hammer's own; then fifo_file or unix_stream_socket read/write on
 *   m_s_t; a socket also passes selinux_socket_sendmsg()/recvmsg(),
 *   the same permissions).  s_deny does not grant them, so under s_deny
 *   every one must be denied, after a reload and after setenforce 0/1
 *   alike.
 * - A regular file is checked again only when the task SID, the inode SID
 *   or avc_policy_seqno() differ from what selinux_file_open() saved
 *   (fsec->pseqno); a reload moves the seqno, setenforce does not.  The
 *   controller publishes "since", the even counter value at which the
 *   reload that loaded the current policy returned (a toggle leaves it).
 *   A file read under s_deny is judged only if the counter read right
 *   after its open returned was at most since: the open returned before
 *   any later change (a toggle) began.  Then either the open ended before
 *   that reload began, so pseqno is an older seqno and the read is
 *   checked again and denied; or the open overlapped the reload and saved
 *   either the old seqno (checked again, denied) or the new one, which
 *   stock publishes only after avc_flush(), so the recheck in
 *   selinux_file_open() ran against s_deny and the open failed (stock's
 *   own straggler insert aside, which the check hammers meet alike); or
 *   the open began after the reload returned, under s_deny enforcing, and
 *   failed.  A relabel counts like a reload: an open descriptor whose
 *   saved inode SID (fsec->isid) is not the inode's is checked again, and
 *   an open that overlaps the relabel either saved the old SID (checked
 *   again) or read the new one, against which its own check then ran.  An open descriptor with the new seqno is exactly what a
 *   stale per-CPU slot during avc_ss_reset() would leave behind; the
 *   held_reopened hammer opens next to every reload to meet that window,
 *   which is a few instructions wide unless a test kernel widens it.
 *   An open that returned after a later change began may have run inside
 *   "setenforce 0/1" under s_deny: it is allowed, saves the current seqno,
 *   and stock does not check that descriptor again until the next reload,
 *   so its reads under s_deny are not judged (counted as unjudged).  The
 *   held_file descriptor was opened before the first change, so its reads
 *   are judged after every change into s_deny, the toggles included:
 *   stock denies them because the seqno moved at the reload to s_deny
 *   since the open, not because of the toggle.
 *
 * HOLD (default 0): 1 parks the hammers, outside any system call, around
 * the "setenforce 1" that ends a permissive round trip.  Pristine stock
 * SELinux has a window there that this program would otherwise report (the
 * series' first patch fixes it; make window shows it): a check that
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
#include <sys/socket.h>

#define TOP		"/tmp/m"
#define TARGET		TOP "/stress"
#define SHM		TOP "/shm"
#define SELF		"/matrix/avcstress"
#define CPU1		"/sys/devices/system/cpu/cpu1/online"
#define MAXH		8
#define NFAIL		16

enum { S_ALLOW = 1, S_DENY = 2 };

/* The checks, and the kinds they are counted under. */
enum {
	OP_OPEN, OP_STAT,			/* K_CHECK */
	OP_FILE_READ,				/* K_FILE */
	OP_REOPENED_READ,			/* K_REOPENED */
	OP_PIPE_WRITE, OP_PIPE_READ,		/* K_PIPE */
	OP_SOCK_WRITE, OP_SOCK_READ,		/* K_SOCK */
	NOPS
};
#define OP_GRANTED	0x100	/* recorded: denied while granted */

enum { K_CHECK, K_FILE, K_REOPENED, K_PIPE, K_SOCK, NKINDS };

static const char *const op_name[NOPS] = {
	"open", "stat", "held file read", "reopened file read",
	"held pipe write", "held pipe read",
	"held socket write", "held socket read",
};
static const int op_kind[NOPS] = {
	K_CHECK, K_CHECK, K_FILE, K_REOPENED, K_PIPE, K_PIPE, K_SOCK, K_SOCK,
};
static const char *const kind_name[NKINDS] = {
	"check", "held_file", "held_reopened", "held_pipe", "held_socket",
};

struct count {
	uint64_t checks, judged_allow, judged_deny, unjudged;
	uint64_t fail_allow, fail_deny;
};

struct hammer {
	struct count k[NKINDS];
	uint64_t fail_seq[NFAIL];
	int fail_op[NFAIL];
	int nrec;
	int ready;
	uint64_t parked;
};

struct shm {
	uint64_t seq;
	uint64_t hold;		/* odd: hammers park */
	uint64_t since;		/* seq at which the current policy's load or the
				 * file's relabel returned */
	int state;		/* for the file: open, stat, held file reads */
	int io_state;		/* for the held pipes and sockets */
	int stop;
	struct hammer h[2 * MAXH];	/* check hammers, then held hammers */
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

static uint64_t load64(uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

/* One check: open+close (read, open) or stat (getattr).  0: allowed. */
static int check(int op)
{
	struct stat st;
	int fd;

	if (op == OP_STAT) {
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

/*
 * Judge a check @op that ran between counter reads @s1 and @s2 under the
 * state published at @s1; @err is 0 if it was allowed.  @deny_judged: the
 * check may be judged under S_DENY at all (see the held-file rule at the
 * top).
 */
static void judge(struct hammer *h, int op, uint64_t s1, uint64_t s2,
		  int state, int err, int deny_judged)
{
	struct count *c = &h->k[op_kind[op]];

	c->checks++;
	if ((s1 & 1) || s1 != s2 || (state == S_DENY && !deny_judged)) {
		c->unjudged++;
	} else if (state == S_DENY) {
		c->judged_deny++;
		if (!err) {
			record(h, s1, op);
			c->fail_deny++;
		}
	} else {
		c->judged_allow++;
		if (err) {
			record(h, s1, op | OP_GRANTED);
			c->fail_allow++;
		}
	}
}

/*
 * Park while the controller holds the hammers (hold is odd).  Returns 1 if
 * it parked: the caller starts its round again.
 */
static int park_if_held(struct shm *s, struct hammer *h)
{
	uint64_t g = load64(&s->hold);

	if (!(g & 1))
		return 0;
	/* Parked for hold round g; no check until it ends. */
	__atomic_store_n(&h->parked, g, __ATOMIC_SEQ_CST);
	while (load64(&s->hold) == g &&
	       !__atomic_load_n(&s->stop, __ATOMIC_SEQ_CST))
		poll(NULL, 0, 1);
	return 1;
}

static int hammer(int id)
{
	struct shm *s = map_shm(0);
	struct hammer *h = &s->h[id];
	uint64_t s1, s2;
	int state, err, op = OP_OPEN;

	__atomic_store_n(&h->ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&s->stop, __ATOMIC_SEQ_CST)) {
		if (park_if_held(s, h))
			continue;
		s1 = load64(&s->seq);
		state = __atomic_load_n(&s->state, __ATOMIC_SEQ_CST);
		err = check(op);
		s2 = load64(&s->seq);
		judge(h, op, s1, s2, state, err, 1);
		op = op == OP_OPEN ? OP_STAT : OP_OPEN;
	}
	return 0;
}

/*
 * One read or write on a held descriptor.  0: allowed (data, 0 at end of
 * file, or EAGAIN from an empty or full pipe or socket: the permission
 * check comes first, so EAGAIN means it passed); EACCES: denied.
 */
static int held_io(int op, int fd)
{
	char c = 'x';
	ssize_t n;

	switch (op) {
	case OP_FILE_READ:
	case OP_REOPENED_READ:
		n = pread(fd, &c, 1, 0);
		break;
	case OP_PIPE_WRITE:
	case OP_SOCK_WRITE:
		n = write(fd, &c, 1);
		break;
	default:
		n = read(fd, &c, 1);
		break;
	}
	if (n >= 0 || errno == EAGAIN)
		return 0;
	if (errno != EACCES)
		die("%s", op_name[op]);
	return EACCES;
}

/*
 * Check @op on @fd.  @opened: the counter read right after the
 * descriptor's open returned (0 for pipes, sockets and the held file,
 * which exist before the first change).
 */
static void held_check(struct shm *s, struct hammer *h, int op, int fd,
		       uint64_t opened)
{
	uint64_t s1, s2, since;
	int state, err;

	s1 = load64(&s->seq);
	state = __atomic_load_n(op_kind[op] == K_PIPE || op_kind[op] == K_SOCK ?
				&s->io_state : &s->state, __ATOMIC_SEQ_CST);
	since = load64(&s->since);
	err = held_io(op, fd);
	s2 = load64(&s->seq);
	judge(h, op, s1, s2, state, err, opened <= since);
}

static int held(int id)
{
	struct shm *s = map_shm(0);
	struct hammer *h = &s->h[id];
	int file, re, fd, pfd[2], sv[2];
	uint64_t re_opened = 0, opened;

	/*
	 * Everything is created under s_allow, enforcing, before the
	 * controller makes its first change (it waits for ready).
	 */
	file = open(TARGET, O_RDONLY | O_CLOEXEC);
	if (file < 0)
		die("open " TARGET " under s_allow");
	re = open(TARGET, O_RDONLY | O_CLOEXEC);
	if (re < 0)
		die("open " TARGET " under s_allow");
	if (pipe2(pfd, O_NONBLOCK | O_CLOEXEC))
		die("pipe2");
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv))
		die("socketpair");

	__atomic_store_n(&h->ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&s->stop, __ATOMIC_SEQ_CST)) {
		if (park_if_held(s, h))
			continue;
		held_check(s, h, OP_FILE_READ, file, 0);
		held_check(s, h, OP_REOPENED_READ, re, re_opened);
		/*
		 * A new descriptor replaces it only if the open succeeds, so
		 * the last one opened before (or during) a reload to s_deny
		 * is the one read, round after round, after it returned.
		 */
		fd = open(TARGET, O_RDONLY | O_CLOEXEC);
		opened = load64(&s->seq);
		if (fd >= 0) {
			close(re);
			re = fd;
			re_opened = opened;
		} else if (errno != EACCES) {
			die("open " TARGET);
		}
		held_check(s, h, OP_PIPE_WRITE, pfd[1], 0);
		held_check(s, h, OP_PIPE_READ, pfd[0], 0);
		held_check(s, h, OP_SOCK_WRITE, sv[0], 0);
		held_check(s, h, OP_SOCK_READ, sv[1], 0);
	}
	return 0;
}

static void put(const char *path, const char *val)
{
	write_file(path, val, strlen(val));
}

static struct shm *S;
static uint64_t reloads, toggles, hotplugs, relabels;
static int nhammers, hold_toggles;	/* nhammers: check and held */

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

/* End a change: @state for the file, @io_state for pipes and sockets. */
static void end_io(int state, int io_state)
{
	__atomic_store_n(&S->state, state, __ATOMIC_SEQ_CST);
	__atomic_store_n(&S->io_state, io_state, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&S->seq, 1, __ATOMIC_SEQ_CST);	/* even */
}

static void end(int state)
{
	end_io(state, state);
}

static void reload(int state)
{
	begin();
	load_policy(state == S_ALLOW ? "/matrix/policy/s_allow.bin" :
				       "/matrix/policy/s_deny.bin");
	/* The policy seqno moved: the held-file rule counts from here. */
	__atomic_store_n(&S->since, __atomic_load_n(&S->seq, __ATOMIC_SEQ_CST) + 1,
			 __ATOMIC_SEQ_CST);
	end(state);
	reloads++;
}

/*
 * Under s_allow: relabel the file out of m_s_t's reach (S_DENY for the
 * file) or back (S_ALLOW); pipes and sockets stay allowed.  Every open
 * descriptor of the file is checked again from here, as after a reload.
 */
static void relabel(int state)
{
	begin();
	label(TARGET, state == S_ALLOW ? "stress_t" : "stress_x_t");
	__atomic_store_n(&S->since, __atomic_load_n(&S->seq, __ATOMIC_SEQ_CST) + 1,
			 __ATOMIC_SEQ_CST);
	end_io(state, S_ALLOW);
	relabels++;
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
	static const char *const names[8] = {
		"reload to s_deny", "setenforce 0/1 under s_deny",
		"reload to s_allow", "setenforce 0/1 under s_allow",
		"reload to s_deny with cpu1 offline", "reload to s_allow",
		"relabel to stress_x_t", "relabel to stress_t",
	};

	return seq < 2 ? "the start" : names[(seq / 2 - 1) % 8];
}

static int run(long iters, double seconds, int nh, int hold)
{
	char *argv[] = { SELF, "hammer", NULL, NULL };
	char *held_argv[] = { SELF, "held", NULL, NULL };
	struct count sum[NKINDS] = { 0 };
	uint64_t fa = 0, fd = 0;
	double t0 = now(), dwell;
	pid_t pids[2 * MAXH];
	char idbuf[8];
	long it;
	int i, k, st, bad = 0;

	if (nh < 1 || nh > MAXH) {
		errno = EINVAL;
		die("hammers must be 1..%d", MAXH);
	}
	nhammers = 2 * nh;
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
	S->io_state = S_ALLOW;

	/* Hammers 0..nh-1 check, nh..2nh-1 hold descriptors. */
	for (i = 0; i < nhammers; i++) {
		char **av = i < nh ? argv : held_argv;

		snprintf(idbuf, sizeof(idbuf), "%d", i);
		av[2] = idbuf;
		pids[i] = spawn_in("m_s_t", av, -1);
	}
	for (i = 0; i < nhammers; i++)
		while (!__atomic_load_n(&S->h[i].ready, __ATOMIC_SEQ_CST))
			poll(NULL, 0, 5);

	/* The cycle: revoke, permissive round trip, grant, revoke with
	 * cpu1 offline, online again, grant again, relabel the file out of
	 * reach and back. */
	for (it = 0; it < iters && now() - t0 < seconds; it++) {
		dwell = 1 + it % 3;
		switch (it % 8) {
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
		case 6:
			relabel(S_DENY);
			break;
		case 7:
			relabel(S_ALLOW);
			break;
		}
		poll(NULL, 0, dwell);
	}
	__atomic_store_n(&S->stop, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < nhammers; i++) {
		if (waitpid(pids[i], &st, 0) != pids[i] || !WIFEXITED(st) ||
		    WEXITSTATUS(st)) {
			fprintf(stderr, "avcstress: hammer %d failed (0x%x)\n", i, st);
			bad++;
		}
	}
	for (i = 0; i < nhammers; i++) {
		struct hammer *h = &S->h[i];

		for (k = 0; k < NKINDS; k++) {
			sum[k].checks += h->k[k].checks;
			sum[k].judged_allow += h->k[k].judged_allow;
			sum[k].judged_deny += h->k[k].judged_deny;
			sum[k].unjudged += h->k[k].unjudged;
			fa += h->k[k].fail_allow;
			fd += h->k[k].fail_deny;
		}
		for (k = 0; k < h->nrec; k++)
			printf("avcstress: FAILURE hammer %d: %s %s at seq %llu (after %s)\n", i,
			       op_name[h->fail_op[k] & ~OP_GRANTED],
			       h->fail_op[k] & OP_GRANTED ? "denied while granted" :
							    "allowed after revoke returned",
			       (unsigned long long)h->fail_seq[k],
			       change_name(h->fail_seq[k]));
	}
	printf("avcstress: iterations=%ld reloads=%llu enforce_toggles=%llu cpu_offline_online=%llu relabels=%llu seconds=%.1f toggle_hold=%d\n",
	       it, (unsigned long long)reloads, (unsigned long long)toggles,
	       (unsigned long long)hotplugs, (unsigned long long)relabels,
	       now() - t0, hold);
	for (k = 0; k < NKINDS; k++)
		printf("avcstress: %s%shammers=%d checks=%llu judged_allow=%llu judged_deny=%llu unjudged=%llu\n",
		       k == K_CHECK ? "" : kind_name[k], k == K_CHECK ? "" : " ", nh,
		       (unsigned long long)sum[k].checks,
		       (unsigned long long)sum[k].judged_allow,
		       (unsigned long long)sum[k].judged_deny,
		       (unsigned long long)sum[k].unjudged);
	/* All kinds together. */
	printf("avcstress: failures: allowed_after_revoke=%llu denied_while_granted=%llu\n",
	       (unsigned long long)fd, (unsigned long long)fa);
	/* Every kind must have been judged under both states. */
	for (k = 0; k < NKINDS; k++) {
		if (sum[k].judged_deny && sum[k].judged_allow)
			continue;
		printf("avcstress: too few judged checks to mean anything (%s)\n",
		       kind_name[k]);
		bad++;
	}
	if ((have_cpu1 && !hotplugs) || !relabels)
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
	prog_name = "avcstress";
	if (argc == 3 && !strcmp(argv[1], "hammer"))
		return hammer(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "held"))
		return held(atoi(argv[2]));
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "run"))
		return run(atol(argv[2]), atof(argv[3]), atoi(argv[4]),
			   argc == 6 ? atoi(argv[5]) : 0);
	fprintf(stderr, "usage: avcstress run ITERATIONS SECONDS HAMMERS [HOLD] | hammer ID | held ID\n");
	return 2;
}
