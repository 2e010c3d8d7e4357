// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the SELinux access vector cache and its per-CPU cache.
 *
 * Included by avc.c so that the tests can reach its static functions.  A
 * test security server, wired in with static stubs, hands out decisions
 * derived from a seeded hash, so the tests know what the policy says.
 * The reference for every check is the stock algorithm: the decision of
 * the AVC node as stock looks it up, or the security server's when there
 * is none, followed by stock's denial and audit rules.
 */

#include <kunit/test.h>
#include <kunit/static_stub.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>

/* SIDs well above what a real policy hands out. */
#define AVC_TEST_SID		0x7ff00000u
#define AVC_TEST_NSID		6

/* Random checks of the differential test; debug kernels may ask for fewer. */
static unsigned int avc_kunit_checks = 1000000;
module_param(avc_kunit_checks, uint, 0444);
MODULE_PARM_DESC(avc_kunit_checks, "random checks in avc_test_differential");

static const u16 avc_test_classes[] = {
	SECCLASS_FILE, SECCLASS_DIR, SECCLASS_FD, SECCLASS_PROCESS,
};

/* The policy of the test security server. */
struct avc_test_policy {
	u32 seqno;
	u32 salt;
	bool boolean;
	/* Force-deny AVC_TEST_DENY_PERM on the race keys (file, dir). */
	bool deny;
};

static struct avc_test_policy avc_test_pol;
#define AVC_TEST_DENY_PERM	FILE__READ

/* One audit record as slow_avc_audit() would have written it. */
struct avc_test_audit {
	u32 ssid, tsid, requested, audited, denied;
	u16 tclass;
	int result;
};

struct avc_test_state {
	struct avc_test_audit rec;
	unsigned int nrec;
	/* Saved state of the AVC, restored by avc_test_exit(). */
	bool enforcing;
	unsigned int threshold;
	u32 latest_notif;
	u32 pcpu_seqno;
};

static struct avc_test_state avc_test_st;

static u32 avc_test_mix(u32 a, u32 b)
{
	return hash_32(a ^ hash_32(b ^ 0x9e3779b9u, 32), 32);
}

/* The decision of the test policy @p for one (ssid, tsid, tclass). */
static void avc_test_decide(const struct avc_test_policy *p, u32 ssid,
			    u32 tsid, u16 tclass, struct av_decision *avd)
{
	u32 h = avc_test_mix(p->salt ^ p->boolean,
			     avc_test_mix(ssid, avc_test_mix(tsid, tclass)));

	/* Permissions live in the low 6 bits so that requests repeat. */
	avd->allowed = avc_test_mix(h, 1) & 0x3f;
	if (p->boolean)
		avd->allowed ^= avc_test_mix(h, 2) & 0x3;
	avd->auditallow = avc_test_mix(h, 3) & avc_test_mix(h, 4) & 0x3f;
	avd->auditdeny = ~(avc_test_mix(h, 5) & avc_test_mix(h, 6) & 0x3f);
	avd->flags = (avc_test_mix(h, 7) & 7) ? 0 : AVD_FLAGS_PERMISSIVE;
	avd->seqno = p->seqno;
	if (ssid == AVC_TEST_SID && tsid == AVC_TEST_SID &&
	    (tclass == SECCLASS_FILE || tclass == SECCLASS_DIR)) {
		/* The keys of the race tests: never audited, never permissive. */
		avd->allowed |= AVC_TEST_DENY_PERM;
		avd->auditallow = 0;
		avd->flags = 0;
		if (p->deny)
			avd->allowed &= ~AVC_TEST_DENY_PERM;
	}
}

static void avc_test_compute_av(u32 ssid, u32 tsid, u16 tclass,
				struct av_decision *avd,
				struct extended_perms *xperms)
{
	struct avc_test_policy p = {
		.seqno = READ_ONCE(avc_test_pol.seqno),
		.salt = READ_ONCE(avc_test_pol.salt),
		.boolean = READ_ONCE(avc_test_pol.boolean),
		.deny = READ_ONCE(avc_test_pol.deny),
	};

	xperms->len = 0;
	avc_test_decide(&p, ssid, tsid, tclass, avd);
}

static int avc_test_slow_audit(u32 ssid, u32 tsid, u16 tclass, u32 requested,
			       u32 audited, u32 denied, int result,
			       struct common_audit_data *a)
{
	avc_test_st.nrec++;
	avc_test_st.rec = (struct avc_test_audit){
		.ssid = ssid, .tsid = tsid, .tclass = tclass,
		.requested = requested, .audited = audited, .denied = denied,
		.result = result,
	};
	return 0;
}

/*
 * Install a new test policy as selinux_policy_commit() and
 * security_set_bools() do: tell the per-CPU cache, install, then reset.
 */
static void avc_test_change(u32 salt, bool boolean, bool deny)
{
	avc_pcpu_policy_change(avc_test_pol.seqno + 1);
	WRITE_ONCE(avc_test_pol.salt, salt);
	WRITE_ONCE(avc_test_pol.boolean, boolean);
	WRITE_ONCE(avc_test_pol.deny, deny);
	WRITE_ONCE(avc_test_pol.seqno, avc_test_pol.seqno + 1);
	avc_ss_reset(avc_test_pol.seqno);
}

/* Load a new test policy, as selinux_policy_commit() would. */
static void avc_test_load(u32 salt, bool boolean)
{
	avc_test_change(salt, boolean, avc_test_pol.deny);
}

/* Switch enforcing as sel_write_enforce() does. */
static void avc_test_setenforce(bool on)
{
	bool old = enforcing_enabled();

	enforcing_set(on);
	if (on && !old)
		avc_ss_reset(0);
}

static int avc_test_init(struct kunit *test)
{
	avc_test_st.nrec = 0;
	avc_test_st.enforcing = enforcing_enabled();
	avc_test_st.threshold = avc_get_cache_threshold();
	avc_test_st.latest_notif = avc_policy_seqno();
	avc_test_st.pcpu_seqno = READ_ONCE(avc_pcpu_seqno);
	avc_test_pol = (struct avc_test_policy){
		.seqno = avc_test_st.latest_notif + 1000, .salt = 1,
	};
	kunit_activate_static_stub(test, avc_security_compute_av,
				   avc_test_compute_av);
	kunit_activate_static_stub(test, slow_avc_audit, avc_test_slow_audit);
	enforcing_set(true);
	avc_pcpu_policy_change(avc_test_pol.seqno);
	avc_ss_reset(avc_test_pol.seqno);
	return 0;
}

static void avc_test_exit(struct kunit *test)
{
	avc_set_cache_threshold(avc_test_st.threshold);
	enforcing_set(avc_test_st.enforcing);
	avc_pcpu_policy_change(avc_test_st.pcpu_seqno);
	avc_ss_reset(0);
	WRITE_ONCE(selinux_avc.avc_cache.latest_notif, avc_test_st.latest_notif);
}

/*
 * The stock algorithm: take the AVC node's decision, or the security
 * server's if there is no node, then deny or grant as avc_denied() does.
 * Must run with nothing else touching the test keys.
 */
static int avc_test_expect(u32 ssid, u32 tsid, u16 tclass, u32 requested,
			   unsigned int flags, struct av_decision *avd)
{
	struct avc_node *node;
	u32 denied;

	rcu_read_lock();
	node = avc_search_node(ssid, tsid, tclass);
	if (node)
		*avd = node->ae.avd;
	else
		avc_test_decide(&avc_test_pol, ssid, tsid, tclass, avd);
	rcu_read_unlock();

	denied = requested & ~avd->allowed;
	if (!denied)
		return 0;
	if (flags & AVC_STRICT)
		return -EACCES;
	if (enforcing_enabled() && !(avd->flags & AVD_FLAGS_PERMISSIVE))
		return -EACCES;
	return 0;
}

static void avc_test_avd_eq(struct kunit *test, const struct av_decision *a,
			    const struct av_decision *b)
{
	KUNIT_EXPECT_EQ(test, a->allowed, b->allowed);
	KUNIT_EXPECT_EQ(test, a->auditallow, b->auditallow);
	KUNIT_EXPECT_EQ(test, a->auditdeny, b->auditdeny);
	KUNIT_EXPECT_EQ(test, a->flags, b->flags);
	KUNIT_EXPECT_EQ(test, a->seqno, b->seqno);
}

/*
 * Besides the AVC node's decision, a hit may return the one the server
 * computed for the key, when permissive grants have widened the node
 * since the slot was filled: it must allow the request unaudited and
 * differ from the node's only in allowed permissions outside the request.
 */
static bool avc_test_pregrant(const struct av_decision *got,
			      const struct av_decision *want, u32 ssid,
			      u32 tsid, u16 tclass, u32 requested)
{
	struct av_decision server;

	avc_test_decide(&avc_test_pol, ssid, tsid, tclass, &server);
	return !memcmp(got, &server, sizeof(server)) &&
	       !(requested & ~got->allowed) && !(requested & got->auditallow) &&
	       !(got->allowed & ~want->allowed) &&
	       got->auditallow == want->auditallow &&
	       got->auditdeny == want->auditdeny &&
	       got->flags == want->flags && got->seqno == want->seqno;
}

/*
 * One check against the reference, through avc_has_perm() if @audit, else
 * avc_has_perm_noaudit().  Returns false on any difference.
 */
static bool avc_test_check(struct kunit *test, u32 ssid, u32 tsid, u16 tclass,
			   u32 requested, unsigned int flags, bool audit)
{
	struct av_decision want, got;
	u32 audited, denied;
	int want_rc, rc;
	bool ok;

	/* avc_has_perm() has no flags. */
	if (audit)
		flags = 0;
	preempt_disable();
	want_rc = avc_test_expect(ssid, tsid, tclass, requested, flags, &want);
	audited = avc_audit_required(requested, &want, want_rc, 0, &denied);
	avc_test_st.nrec = 0;
	if (audit) {
		rc = avc_has_perm(ssid, tsid, tclass, requested, NULL);
	} else {
		rc = avc_has_perm_noaudit(ssid, tsid, tclass, requested, flags,
					  &got);
	}
	preempt_enable();

	if (audit) {
		ok = rc == want_rc &&
		     avc_test_st.nrec == (audited ? 1 : 0) &&
		     (!audited || (avc_test_st.rec.audited == audited &&
				   avc_test_st.rec.denied == denied &&
				   avc_test_st.rec.requested == requested &&
				   avc_test_st.rec.result == want_rc &&
				   avc_test_st.rec.ssid == ssid &&
				   avc_test_st.rec.tsid == tsid &&
				   avc_test_st.rec.tclass == tclass));
	} else {
		ok = rc == want_rc &&
		     (!memcmp(&got, &want, sizeof(got)) ||
		      avc_test_pregrant(&got, &want, ssid, tsid, tclass,
					requested));
	}
	if (!ok) {
		KUNIT_FAIL(test,
			   "ssid=%#x tsid=%#x tclass=%u req=%#x flags=%u audit=%d: rc %d want %d, nrec %u want audited %#x",
			   ssid, tsid, tclass, requested, flags, audit, rc,
			   want_rc, avc_test_st.nrec, audited);
		if (!audit)
			avc_test_avd_eq(test, &got, &want);
	}
	return ok;
}

/*
 * Differential test: a million random checks, interleaved with policy
 * reloads, boolean changes, setenforce, permissive grants and reclaim.
 */
static void avc_test_differential(struct kunit *test)
{
	struct rnd_state rs;
	unsigned int i, bad = 0, events = 0;
	u64 hits0 = 0, hits1 = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		hits0 += per_cpu(avc_pcpu_stats, cpu).hits;
	prandom_seed_state(&rs, 0x5e11c0de);
	for (i = 0; i < avc_kunit_checks && bad < 10; i++) {
		u32 r = prandom_u32_state(&rs);
		u32 ssid = AVC_TEST_SID + r % AVC_TEST_NSID;
		u32 tsid = AVC_TEST_SID + (r >> 4) % AVC_TEST_NSID;
		u16 tclass = avc_test_classes[(r >> 8) % 4];
		u32 req = BIT((r >> 12) % 6);
		unsigned int flags = (r >> 16) % 32 ? 0 : AVC_STRICT;
		bool audit = (r >> 21) & 1;

		if ((r >> 22) & 1)
			req |= BIT((r >> 23) % 6);
		if (!avc_test_check(test, ssid, tsid, tclass, req, flags,
				    audit))
			bad++;

		if (prandom_u32_state(&rs) % 512)
			continue;
		events++;
		switch (prandom_u32_state(&rs) % 10) {
		case 0 ... 2: /* policy reload */
			avc_test_load(prandom_u32_state(&rs),
				      avc_test_pol.boolean);
			break;
		case 3 ... 4: /* boolean change: a policy commit of its own */
			avc_test_load(avc_test_pol.salt,
				      !avc_test_pol.boolean);
			break;
		case 5 ... 6: /* setenforce 1 */
			avc_test_setenforce(true);
			break;
		case 7: /* setenforce 0: permissive grants follow */
			avc_test_setenforce(false);
			break;
		case 8: /* reclaim pressure */
			avc_set_cache_threshold(4 + prandom_u32_state(&rs) % 32);
			break;
		default:
			avc_set_cache_threshold(avc_test_st.threshold);
			break;
		}
	}
	for_each_possible_cpu(cpu)
		hits1 += per_cpu(avc_pcpu_stats, cpu).hits;
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, i, avc_kunit_checks);
	KUNIT_EXPECT_GT(test, events, avc_kunit_checks / 1000);
	/*
	 * The per-CPU cache must have answered many of them, or the test
	 * proves nothing.  Permissive grants invalidate it, so not most.
	 */
	KUNIT_EXPECT_GT(test, hits1 - hits0, (u64)avc_kunit_checks / 50);
	kunit_info(test, "%u checks, %u events, %llu per-CPU hits\n", i,
		   events, hits1 - hits0);
}

/* A permission revoked by a reload is denied as soon as the reload returns. */
static void avc_test_revoke(struct kunit *test)
{
	const u32 s = AVC_TEST_SID;
	struct av_decision avd;
	int i;

	bool hit;
	int rc;

	preempt_disable();
	for (i = 0; i < 3; i++)
		avc_has_perm_noaudit(s, s, SECCLASS_FILE, AVC_TEST_DENY_PERM, 0,
				     &avd);
	hit = avc_pcpu_probe(s, s, SECCLASS_FILE, AVC_TEST_DENY_PERM, NULL);
	preempt_enable();
	/* Allowed, and answered from this CPU's cache. */
	KUNIT_ASSERT_TRUE(test, hit);
	avc_test_pol.deny = true;
	avc_test_load(avc_test_pol.salt, avc_test_pol.boolean);
	KUNIT_EXPECT_EQ(test, avc_has_perm(s, s, SECCLASS_FILE,
					   AVC_TEST_DENY_PERM, NULL), -EACCES);
	KUNIT_EXPECT_EQ(test, avc_test_st.nrec, 1);
	rc = avc_has_perm_noaudit(s, s, SECCLASS_FILE, AVC_TEST_DENY_PERM, 0,
				  &avd);
	KUNIT_EXPECT_EQ(test, rc, -EACCES);
	avc_test_pol.deny = false;
}

/* Find a permission the test policy denies on (s, t, FILE). */
static u32 avc_test_denied_perm(u32 s, u32 t, struct av_decision *avd)
{
	avc_test_decide(&avc_test_pol, s, t, SECCLASS_FILE, avd);
	return ~avd->allowed & 0x3f ? BIT(__ffs(~avd->allowed & 0x3f)) : 0;
}

/* What avc_test_reset_seam() saw at each step of one avc_ss_reset(). */
struct avc_test_reset {
	u16 hi, lo;		/* race key classes, by AVC bucket: higher, lower */
	unsigned int steps;	/* BIT(step) for each step reached */
	bool lo_hit;		/* flush between the buckets: probe of lo */
	int lo_rc;		/* ... check of lo, whose node is gone */
	int flush_rc;		/* ... check of hi, whose node is not */
	bool flush_hit;		/* ... and a probe of hi right after it */
	bool callbacks_hit;	/* probe of hi once the flush is complete */
	int callbacks_rc;	/* ... and a check */
	bool published_hit;	/* probe of hi once the new seqno is published */
	int published_rc;	/* ... a check */
	int published_stock;	/* ... and what stock's AVC answers */
};

static struct avc_test_reset avc_test_rst;

static int avc_test_race_check(u16 tclass)
{
	struct av_decision avd;

	return avc_has_perm_noaudit(AVC_TEST_SID, AVC_TEST_SID, tclass,
				    AVC_TEST_DENY_PERM, 0, &avd);
}

static bool avc_test_race_probe(u16 tclass)
{
	return avc_pcpu_probe(AVC_TEST_SID, AVC_TEST_SID, tclass,
			      AVC_TEST_DENY_PERM, NULL);
}

/* The seam in avc_ss_reset(): check the race keys at every step. */
static void avc_test_reset_seam(enum avc_reset_step step, unsigned int bucket)
{
	struct avc_test_reset *r = &avc_test_rst;
	struct av_decision avd;

	switch (step) {
	case AVC_RESET_FLUSH:
		if (bucket != avc_hash(AVC_TEST_SID, AVC_TEST_SID, r->hi))
			return;
		/* lo's bucket is flushed: stock recomputes, and denies. */
		r->lo_hit = avc_test_race_probe(r->lo);
		r->lo_rc = avc_test_race_check(r->lo);
		/* hi's is not: its old node still answers. */
		r->flush_rc = avc_test_race_check(r->hi);
		r->flush_hit = avc_test_race_probe(r->hi);
		break;
	case AVC_RESET_CALLBACKS:
		r->callbacks_hit = avc_test_race_probe(r->hi);
		r->callbacks_rc = avc_test_race_check(r->hi);
		break;
	case AVC_RESET_PUBLISHED:
		r->published_hit = avc_test_race_probe(r->hi);
		r->published_rc = avc_test_race_check(r->hi);
		r->published_stock = avc_test_expect(AVC_TEST_SID, AVC_TEST_SID,
						     r->hi, AVC_TEST_DENY_PERM,
						     0, &avd);
		break;
	}
	r->steps |= BIT(step);
}

/*
 * A revoking policy change, with checks run by the real avc_ss_reset() at
 * each of its steps, on two keys whose AVC buckets the flush reaches one
 * after the other.  Here the change is made the way a caller that only
 * knows avc_ss_reset() makes it: policy changed, then the reset, without
 * avc_pcpu_policy_change(); the reset on its own must keep the cache
 * coherent.  Between the two buckets, the key already flushed must miss
 * and be denied, as stock recomputes it; the other may be answered by its
 * old node and fill a slot from it, as stock answers from the node.  Once
 * the flush is complete, and so before the reset callbacks run and before
 * avc_latest_notif_update() publishes the new seqno, nothing filled before
 * may answer: stock would deny from then on.  selinux_file_open()
 * rechecks after reading the new seqno and never revalidates after that.
 */
static void avc_test_reset_window(struct kunit *test)
{
	struct avc_test_reset *r = &avc_test_rst;
	u32 bf = avc_hash(AVC_TEST_SID, AVC_TEST_SID, SECCLASS_FILE);
	u32 bd = avc_hash(AVC_TEST_SID, AVC_TEST_SID, SECCLASS_DIR);

	KUNIT_ASSERT_NE(test, bf, bd);
	*r = (struct avc_test_reset){
		.hi = bf > bd ? SECCLASS_FILE : SECCLASS_DIR,
		.lo = bf > bd ? SECCLASS_DIR : SECCLASS_FILE,
		.lo_rc = 1, .flush_rc = 1, .callbacks_rc = 1,
		.published_rc = 1,
	};
	/* Fill and probes on one CPU's slots; the callbacks may sleep. */
	migrate_disable();
	/* Nodes and slots that allow the permission, before the reload. */
	KUNIT_EXPECT_EQ(test, avc_test_race_check(r->lo), 0);
	KUNIT_EXPECT_EQ(test, avc_test_race_check(r->hi), 0);
	KUNIT_EXPECT_TRUE(test, avc_test_race_probe(r->lo));
	kunit_activate_static_stub(test, avc_reset_seam, avc_test_reset_seam);
	WRITE_ONCE(avc_test_pol.deny, true);
	WRITE_ONCE(avc_test_pol.seqno, avc_test_pol.seqno + 1);
	avc_ss_reset(avc_test_pol.seqno);
	kunit_deactivate_static_stub(test, avc_reset_seam);
	migrate_enable();
	avc_test_pol.deny = false;

	KUNIT_ASSERT_EQ(test, r->steps, BIT(AVC_RESET_FLUSH) |
			BIT(AVC_RESET_CALLBACKS) | BIT(AVC_RESET_PUBLISHED));
	/* A flushed key is not served from before the reset. */
	KUNIT_EXPECT_FALSE(test, r->lo_hit);
	KUNIT_EXPECT_EQ(test, r->lo_rc, -EACCES);
	/* The scenario happened: an old node answered and filled a slot. */
	KUNIT_EXPECT_EQ(test, r->flush_rc, 0);
	KUNIT_EXPECT_TRUE(test, r->flush_hit);
	/* The callbacks run on a flushed AVC, as in stock. */
	KUNIT_EXPECT_FALSE(test, r->callbacks_hit);
	KUNIT_EXPECT_EQ(test, r->callbacks_rc, -EACCES);
	/* Nothing allows once the new seqno is visible. */
	KUNIT_EXPECT_FALSE(test, r->published_hit);
	KUNIT_EXPECT_EQ(test, r->published_stock, -EACCES);
	KUNIT_EXPECT_EQ(test, r->published_rc, r->published_stock);
}

/* Take the AVC node of one key out, as reclaim would. */
static void avc_test_drop_node(u32 ssid, u32 tsid, u16 tclass)
{
	u32 h = avc_hash(ssid, tsid, tclass);
	spinlock_t *lock = &selinux_avc.avc_cache.slots_lock[h];
	struct avc_node *node;
	unsigned long flags;

	spin_lock_irqsave(lock, flags);
	hlist_for_each_entry(node, &selinux_avc.avc_cache.slots[h], list) {
		if (node->ae.ssid == ssid && node->ae.tsid == tsid &&
		    node->ae.tclass == tclass) {
			avc_node_delete(node);
			break;
		}
	}
	spin_unlock_irqrestore(lock, flags);
}

/*
 * A revoking reload made as selinux_policy_commit() makes it: the cache is
 * told, the new policy installed, and only then is the AVC reset.  Between
 * the installation and the reset, stock answers a key from its old node
 * while the node lasts, and from the new policy once the node is reclaimed;
 * the cache must answer neither from before the change (its slot is dead),
 * nor cache the old node's decision.  During the reset's flush a key whose
 * node the flush has not reached is answered by the old node, as in stock,
 * and still not cached; once the flush is done everything is denied.
 */
static void avc_test_policy_switch(struct kunit *test)
{
	struct avc_test_reset *r = &avc_test_rst;
	u32 bf = avc_hash(AVC_TEST_SID, AVC_TEST_SID, SECCLASS_FILE);
	u32 bd = avc_hash(AVC_TEST_SID, AVC_TEST_SID, SECCLASS_DIR);
	struct av_decision avd;
	bool hit_installed, hit_node, hit_after;
	int rc_node, rc_dropped, stock_dropped;

	*r = (struct avc_test_reset){
		.hi = bf > bd ? SECCLASS_FILE : SECCLASS_DIR,
		.lo = bf > bd ? SECCLASS_DIR : SECCLASS_FILE,
		.lo_rc = 1, .flush_rc = 1, .callbacks_rc = 1,
		.published_rc = 1,
	};
	migrate_disable();
	KUNIT_EXPECT_EQ(test, avc_test_race_check(SECCLASS_FILE), 0);
	KUNIT_EXPECT_EQ(test, avc_test_race_check(SECCLASS_DIR), 0);
	KUNIT_EXPECT_TRUE(test, avc_test_race_probe(r->lo));
	/* selinux_policy_commit(), up to the reset. */
	avc_pcpu_policy_change(avc_test_pol.seqno + 1);
	WRITE_ONCE(avc_test_pol.deny, true);
	WRITE_ONCE(avc_test_pol.seqno, avc_test_pol.seqno + 1);
	hit_installed = avc_test_race_probe(r->lo);
	/* The old node still answers, as in stock, but is not cached. */
	rc_node = avc_test_race_check(r->lo);
	hit_node = avc_test_race_probe(r->lo);
	/* Reclaimed: stock recomputes under the new policy, and so must we. */
	avc_test_drop_node(AVC_TEST_SID, AVC_TEST_SID, r->lo);
	stock_dropped = avc_test_expect(AVC_TEST_SID, AVC_TEST_SID, r->lo,
					AVC_TEST_DENY_PERM, 0, &avd);
	rc_dropped = avc_test_race_check(r->lo);
	/* The reset, with the checks of avc_test_reset_seam() at its steps. */
	kunit_activate_static_stub(test, avc_reset_seam, avc_test_reset_seam);
	avc_ss_reset(avc_test_pol.seqno);
	kunit_deactivate_static_stub(test, avc_reset_seam);
	hit_after = avc_test_race_probe(r->hi);
	migrate_enable();
	avc_test_pol.deny = false;

	KUNIT_EXPECT_FALSE(test, hit_installed);
	KUNIT_EXPECT_EQ(test, rc_node, 0);
	KUNIT_EXPECT_FALSE(test, hit_node);
	KUNIT_EXPECT_EQ(test, stock_dropped, -EACCES);
	KUNIT_EXPECT_EQ(test, rc_dropped, -EACCES);
	KUNIT_ASSERT_EQ(test, r->steps, BIT(AVC_RESET_FLUSH) |
			BIT(AVC_RESET_CALLBACKS) | BIT(AVC_RESET_PUBLISHED));
	KUNIT_EXPECT_FALSE(test, r->lo_hit);
	KUNIT_EXPECT_EQ(test, r->lo_rc, -EACCES);
	/* hi's old node answers until the flush reaches it, uncached. */
	KUNIT_EXPECT_EQ(test, r->flush_rc, 0);
	KUNIT_EXPECT_FALSE(test, r->flush_hit);
	KUNIT_EXPECT_FALSE(test, r->callbacks_hit);
	KUNIT_EXPECT_EQ(test, r->callbacks_rc, -EACCES);
	KUNIT_EXPECT_FALSE(test, r->published_hit);
	KUNIT_EXPECT_EQ(test, r->published_rc, -EACCES);
	KUNIT_EXPECT_FALSE(test, hit_after);
}

/*
 * A node that avc_update_node() changed never reaches the per-CPU cache,
 * not even after a second update that leaves its decision as it was (two
 * CPUs granting the same permission at once, or an extended-permission
 * update): the copy must keep the mark of the first grant.
 */
static void avc_test_updated_stays_out(struct kunit *test)
{
	const u32 s = AVC_TEST_SID + 2, t = AVC_TEST_SID + 7;
	struct av_decision avd;
	u32 perm = 0;
	int salt;

	for (salt = 1; salt < 1000 && !perm; salt++) {
		avc_test_load(salt, false);
		perm = avc_test_denied_perm(s, t, &avd);
		if (avd.auditallow & perm)
			perm = 0;
	}
	KUNIT_ASSERT_NE(test, perm, 0);

	avc_test_setenforce(false);
	migrate_disable();
	/* Denied, granted for permissive mode: the node is changed. */
	KUNIT_EXPECT_EQ(test, avc_has_perm_noaudit(s, t, SECCLASS_FILE, perm, 0,
						   &avd), 0);
	/* A second grant of the same permission, as from another CPU. */
	avc_update_node(AVC_CALLBACK_GRANT, perm, 0, 0, s, t, SECCLASS_FILE,
			avd.seqno, NULL, 0);
	/*
	 * Grants leave the slot filled before them; empty it, as an eviction
	 * would, so that the check below would fill it from the node.
	 */
	avc_pcpu_invalidate();
	/* The changed node answers from the AVC, and is not cached. */
	KUNIT_EXPECT_EQ(test, avc_has_perm_noaudit(s, t, SECCLASS_FILE, perm, 0,
						   &avd), 0);
	KUNIT_EXPECT_TRUE(test, avd.allowed & perm);
	KUNIT_EXPECT_FALSE(test, avc_pcpu_probe(s, t, SECCLASS_FILE, perm,
						NULL));
	migrate_enable();
}

/* Permissive-mode grants must not survive setenforce 1. */
static void avc_test_permissive_setenforce(struct kunit *test)
{
	const u32 s = AVC_TEST_SID + 1, t = AVC_TEST_SID + 2;
	struct av_decision avd;
	u32 perm;
	int salt;

	/* Pick a policy in which (s, t, FILE) denies something, audited. */
	for (salt = 1; salt < 1000; salt++) {
		avc_test_load(salt, false);
		perm = avc_test_denied_perm(s, t, &avd);
		if (perm && (avd.auditdeny & perm) &&
		    !(avd.auditallow & perm) &&
		    !(avd.flags & AVD_FLAGS_PERMISSIVE))
			break;
	}
	KUNIT_ASSERT_LT(test, salt, 1000);

	avc_test_setenforce(false);
	KUNIT_EXPECT_EQ(test, avc_has_perm(s, t, SECCLASS_FILE, perm, NULL), 0);
	KUNIT_EXPECT_EQ(test, avc_test_st.nrec, 1);
	KUNIT_EXPECT_EQ(test, avc_test_st.rec.denied, perm);
	/* Granted now: stock neither denies nor audits it again. */
	avc_test_st.nrec = 0;
	KUNIT_EXPECT_EQ(test, avc_has_perm(s, t, SECCLASS_FILE, perm, NULL), 0);
	KUNIT_EXPECT_EQ(test, avc_test_st.nrec, 0);

	avc_test_setenforce(true);
	avc_test_st.nrec = 0;
	KUNIT_EXPECT_EQ(test, avc_has_perm(s, t, SECCLASS_FILE, perm, NULL),
			-EACCES);
	KUNIT_EXPECT_EQ(test, avc_test_st.nrec, 1);
	KUNIT_EXPECT_EQ(test, avc_has_perm_noaudit(s, t, SECCLASS_FILE, perm, 0,
						   &avd), -EACCES);
}

/*
 * A permissive grant that read enforcing == 0 before setenforce 1 and
 * reaches avc_update_node() after its flush must not land on the node a
 * later check inserted: the AVC would allow in enforcing mode until the
 * next reset.  Played in the order the race takes; the late grant is the
 * call avc_denied() makes.
 */
static void avc_test_late_grant(struct kunit *test)
{
	const u32 s = AVC_TEST_SID + 1, t = AVC_TEST_SID + 6;
	struct av_decision avd;
	u32 perm = 0;
	int salt;

	for (salt = 1; salt < 1000 && !perm; salt++) {
		avc_test_load(salt, false);
		perm = avc_test_denied_perm(s, t, &avd);
		if (avd.flags & AVD_FLAGS_PERMISSIVE)
			perm = 0;
	}
	KUNIT_ASSERT_NE(test, perm, 0);

	avc_test_setenforce(false);
	/* The racing check read permissive mode: its decision, its node. */
	KUNIT_ASSERT_EQ(test, avc_has_perm_noaudit(s, t, SECCLASS_FILE, perm, 0,
						   &avd), 0);
	avc_test_setenforce(true);
	/* Another check inserts a fresh node under the same seqno. */
	KUNIT_ASSERT_EQ(test, avc_has_perm_noaudit(s, t, SECCLASS_FILE, perm, 0,
						   &avd), -EACCES);
	/* The late grant of the first check. */
	avc_update_node(AVC_CALLBACK_GRANT, perm, 0, 0, s, t, SECCLASS_FILE,
			avd.seqno, NULL, 0);
	KUNIT_EXPECT_EQ(test, avc_has_perm_noaudit(s, t, SECCLASS_FILE, perm, 0,
						   &avd), -EACCES);
	KUNIT_EXPECT_EQ(test, avc_has_perm(s, t, SECCLASS_FILE, perm, NULL),
			-EACCES);
}

/*
 * Denials, auditallow and dontaudit are audited as often as stock audits
 * them, permissive-domain grants included: once, then granted silently.
 */
static void avc_test_audit_counts(struct kunit *test)
{
	const u32 s = AVC_TEST_SID + 3;
	unsigned int want = 0, got = 0, n = 0, i;
	u32 t, perm;
	int ret;

	for (t = AVC_TEST_SID; t < AVC_TEST_SID + 64; t++) {
		struct av_decision avd;

		avc_test_decide(&avc_test_pol, s, t, SECCLASS_FILE, &avd);
		for (perm = 1; perm < BIT(6); perm <<= 1) {
			for (i = 0; i < 4; i++) {
				u32 denied = perm & ~avd.allowed, d;
				int rc = denied && !(avd.flags &
						     AVD_FLAGS_PERMISSIVE) ?
					 -EACCES : 0;

				if (avc_audit_required(perm, &avd, rc, 0, &d))
					want++;
				if (denied && !rc)
					avd.allowed |= perm;
				avc_test_st.nrec = 0;
				ret = avc_has_perm(s, t, SECCLASS_FILE, perm,
						   NULL);
				KUNIT_EXPECT_EQ(test, ret, rc);
				got += avc_test_st.nrec;
				n++;
			}
		}
	}
	KUNIT_EXPECT_EQ(test, got, want);
	KUNIT_EXPECT_GT(test, want, 0);
	kunit_info(test, "%u checks, %u audit records\n", n, got);
}

/* Slot index: in range, and the hash spreads a realistic key set. */
static void avc_test_hash(struct kunit *test)
{
	static u16 count[AVC_PCPU_SLOTS];
	unsigned int i, max = 0;
	u32 s, t;

	memset(count, 0, sizeof(count));
	for (s = 1; s <= 32; s++)
		for (t = 1; t <= 64; t++)
			for (i = 1; i <= 4; i++) {
				u32 h = avc_pcpu_hash(s, t, i);

				KUNIT_ASSERT_LT(test, h, AVC_PCPU_SLOTS);
				count[h]++;
			}
	for (i = 0; i < AVC_PCPU_SLOTS; i++)
		max = max_t(unsigned int, max, count[i]);
	/* 8192 keys: an even spread puts 8192 / SLOTS in each slot. */
	KUNIT_EXPECT_LE(test, max, 3 * 8192 / AVC_PCPU_SLOTS);
	KUNIT_EXPECT_NE(test, avc_pcpu_hash(1, 2, 3), avc_pcpu_hash(2, 1, 3));
}

/* The generation rules, on one CPU with preemption off. */
static void avc_test_generation(struct kunit *test)
{
	const u32 s = AVC_TEST_SID + 4, t = AVC_TEST_SID + 5;
	struct av_decision avd = { .allowed = 1, .seqno = avc_test_pol.seqno };
	unsigned long g0 = avc_pcpu_gen_begin();
	struct avc_pcpu_entry *e;
	u32 perm;

	KUNIT_EXPECT_NE(test, g0, 0);
	preempt_disable();
	/* A fill of the current generation hits, for that request only. */
	avc_pcpu_fill(g0, s, t, SECCLASS_FILE, &avd);
	KUNIT_EXPECT_TRUE(test, avc_pcpu_probe(s, t, SECCLASS_FILE, 1, NULL));
	KUNIT_EXPECT_FALSE(test, avc_pcpu_probe(s, t, SECCLASS_FILE, 3, NULL));
	KUNIT_EXPECT_FALSE(test, avc_pcpu_probe(s, t, SECCLASS_DIR, 1, NULL));
	KUNIT_EXPECT_FALSE(test, avc_pcpu_probe(s, t, SECCLASS_FILE, 0, NULL));
	/* A slot valid for this generation is not rewritten. */
	avd.allowed = 3;
	avc_pcpu_fill(g0, s, t, SECCLASS_FILE, &avd);
	KUNIT_EXPECT_FALSE(test, avc_pcpu_probe(s, t, SECCLASS_FILE, 3, NULL));
	/* auditallow keeps a check on the slow path. */
	avc_pcpu_invalidate();
	g0 = avc_pcpu_gen_begin();
	avd.allowed = 1;
	avd.auditallow = 1;
	avc_pcpu_fill(g0, s, t, SECCLASS_FILE, &avd);
	KUNIT_EXPECT_FALSE(test, avc_pcpu_probe(s, t, SECCLASS_FILE, 1, NULL));
	avd.auditallow = 0;
	/* A decision of another policy seqno is not cached. */
	avc_pcpu_invalidate();
	g0 = avc_pcpu_gen_begin();
	avd.seqno--;
	avc_pcpu_fill(g0, s, t, SECCLASS_FILE, &avd);
	KUNIT_EXPECT_FALSE(test, avc_pcpu_probe(s, t, SECCLASS_FILE, 1, NULL));
	avd.seqno++;
	/* A half-written slot is a miss. */
	avc_pcpu_fill(g0, s, t, SECCLASS_FILE, &avd);
	e = this_cpu_ptr(&avc_pcpu_cache.slot[avc_pcpu_hash(s, t,
							    SECCLASS_FILE)]);
	avc_pcpu_write_begin(e);
	KUNIT_EXPECT_FALSE(test, avc_pcpu_probe(s, t, SECCLASS_FILE, 1, NULL));
	avc_pcpu_write_end(e);
	KUNIT_EXPECT_TRUE(test, avc_pcpu_probe(s, t, SECCLASS_FILE, 1, NULL));
	preempt_enable();

	/* Every flush moves the generation on and kills the slot. */
	avc_ss_reset(0);
	KUNIT_EXPECT_GT(test, avc_pcpu_gen_begin(), g0);
	KUNIT_EXPECT_FALSE(test, avc_pcpu_probe(s, t, SECCLASS_FILE, 1, NULL));
	/* A fill tagged with a past generation is refused. */
	preempt_disable();
	avc_pcpu_fill(g0, s, t, SECCLASS_FILE, &avd);
	KUNIT_EXPECT_FALSE(test, avc_pcpu_probe(s, t, SECCLASS_FILE, 1, NULL));
	preempt_enable();
	/*
	 * A permissive grant changes an AVC node, but only widens it: the
	 * generation stays (see avc_test_grant_keeps_slots()).
	 */
	perm = avc_test_denied_perm(s, t, &avd);
	KUNIT_ASSERT_NE(test, perm, 0);
	avc_test_setenforce(false);
	g0 = avc_pcpu_gen_begin();
	KUNIT_EXPECT_EQ(test, avc_has_perm_noaudit(s, t, SECCLASS_FILE, perm, 0,
						   &avd), 0);
	KUNIT_EXPECT_EQ(test, avc_pcpu_gen_begin(), g0);
	/* Any other change of a decision moves it on. */
	avc_update_node(AVC_CALLBACK_AUDITALLOW_ENABLE, perm, 0, 0, s, t,
			SECCLASS_FILE, avd.seqno, NULL, 0);
	KUNIT_EXPECT_GT(test, avc_pcpu_gen_begin(), g0);
}

/*
 * A permissive domain's grant only widens a node's decision, so it leaves
 * the per-CPU cache alone: a slot filled before it keeps answering what it
 * allowed, with the decision the security server computed (callers use a
 * returned decision only through avc_audit_required() with the request
 * it answered, for which the two agree).  The granted permission is
 * answered by the AVC, and a later change that is not a grant, even of a
 * node already changed, kills the slot.
 */
static void avc_test_grant_keeps_slots(struct kunit *test)
{
	const u32 s = AVC_TEST_SID + 9, t = AVC_TEST_SID + 10;
	struct av_decision server, want, avd;
	u32 a = 0, p = 0, audited, denied;
	unsigned long g0;
	int salt, rc;

	for (salt = 1; salt < 1000 && !(a && p); salt++) {
		avc_test_load(salt, false);
		p = avc_test_denied_perm(s, t, &server);
		if (!(server.flags & AVD_FLAGS_PERMISSIVE))
			p = 0;
		a = server.allowed & ~server.auditallow;
		a &= -a;
	}
	KUNIT_ASSERT_TRUE(test, a && p);

	migrate_disable();
	/* Fill the slot from the server's decision. */
	KUNIT_EXPECT_EQ(test, avc_has_perm_noaudit(s, t, SECCLASS_FILE, a, 0,
						   &avd), 0);
	KUNIT_EXPECT_TRUE(test, avc_pcpu_probe(s, t, SECCLASS_FILE, a, NULL));
	/* Denied and granted (permissive domain): the generation stays. */
	g0 = avc_pcpu_gen_begin();
	KUNIT_EXPECT_EQ(test, avc_has_perm_noaudit(s, t, SECCLASS_FILE, p, 0,
						   &avd), 0);
	KUNIT_EXPECT_EQ(test, avc_pcpu_gen_begin(), g0);
	/* The slot still answers its request, with the server's decision... */
	KUNIT_EXPECT_TRUE(test, avc_pcpu_probe(s, t, SECCLASS_FILE, a, &avd));
	avc_test_avd_eq(test, &avd, &server);
	/* ...which stock, from the granted node, answers the same way. */
	rc = avc_test_expect(s, t, SECCLASS_FILE, a, 0, &want);
	audited = avc_audit_required(a, &want, rc, 0, &denied);
	KUNIT_EXPECT_EQ(test, rc, 0);
	KUNIT_EXPECT_EQ(test, audited, 0);
	KUNIT_EXPECT_EQ(test, want.allowed, server.allowed | p);
	KUNIT_EXPECT_EQ(test, avc_audit_required(a, &avd, 0, 0, &denied), 0);
	/* The granted permission is the AVC's, and is not cached. */
	KUNIT_EXPECT_FALSE(test, avc_pcpu_probe(s, t, SECCLASS_FILE, p, NULL));
	KUNIT_EXPECT_EQ(test, avc_has_perm_noaudit(s, t, SECCLASS_FILE, p, 0,
						   &avd), 0);
	KUNIT_EXPECT_FALSE(test, avc_pcpu_probe(s, t, SECCLASS_FILE, p, NULL));
	KUNIT_EXPECT_TRUE(test, avc_pcpu_probe(s, t, SECCLASS_FILE, a, NULL));
	/* A revocation of the node, already changed by the grant, kills it. */
	avc_update_node(AVC_CALLBACK_REVOKE, a, 0, 0, s, t, SECCLASS_FILE,
			server.seqno, NULL, 0);
	KUNIT_EXPECT_GT(test, avc_pcpu_gen_begin(), g0);
	KUNIT_EXPECT_FALSE(test, avc_pcpu_probe(s, t, SECCLASS_FILE, a, NULL));
	KUNIT_EXPECT_EQ(test, avc_has_perm_noaudit(s, t, SECCLASS_FILE, a,
						   AVC_STRICT, &avd), -EACCES);
	migrate_enable();
}

/* The statistics count hits, misses and fills on this CPU. */
static void avc_test_stats(struct kunit *test)
{
	const u32 s = AVC_TEST_SID, t = AVC_TEST_SID;
	struct avc_pcpu_stats a, b;
	struct av_decision avd;

	preempt_disable();
	a = *this_cpu_ptr(&avc_pcpu_stats);
	avc_has_perm_noaudit(s, t, SECCLASS_FILE, AVC_TEST_DENY_PERM, 0, &avd);
	avc_has_perm_noaudit(s, t, SECCLASS_FILE, AVC_TEST_DENY_PERM, 0, &avd);
	avc_has_perm(s, t, SECCLASS_FILE, AVC_TEST_DENY_PERM, NULL);
	b = *this_cpu_ptr(&avc_pcpu_stats);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, b.misses - a.misses, 1);
	KUNIT_EXPECT_EQ(test, b.fills - a.fills, 1);
	KUNIT_EXPECT_EQ(test, b.hits - a.hits, 2);
}

/* Interrupt nesting: hrtimer checks race process-context fills. */
struct avc_test_irq {
	struct hrtimer timer;
	struct task_struct *task;
	u32 tsid[2];
	struct av_decision want[2];
	unsigned int fired, checked, bad, midfill;
	struct avc_pcpu_entry *hold;
};

static struct avc_test_irq avc_test_irq_st;

static enum hrtimer_restart avc_test_irq_fn(struct hrtimer *timer)
{
	struct avc_test_irq *st = &avc_test_irq_st;
	struct av_decision avd;
	int i;

	st->fired++;
	/* The test stubs only answer for the test's own task. */
	if (current != st->task)
		goto again;
	if (st->hold) {
		/* Process context is in the middle of writing the slot. */
		if (avc_pcpu_probe(AVC_TEST_SID, st->tsid[0], SECCLASS_DIR,
				   st->want[0].allowed, NULL))
			st->bad++;
		st->midfill++;
	}
	for (i = 0; i < 2; i++) {
		u32 perm = st->want[i].allowed & -st->want[i].allowed;

		if (avc_has_perm_noaudit(AVC_TEST_SID, st->tsid[i],
					 SECCLASS_DIR, perm, 0, &avd) ||
		    memcmp(&avd, &st->want[i], sizeof(avd)))
			st->bad++;
		st->checked++;
	}
again:
	hrtimer_forward_now(timer, ns_to_ktime(20 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void avc_test_irq_nesting(struct kunit *test)
{
	struct avc_test_irq *st = &avc_test_irq_st;
	struct av_decision avd;
	unsigned long end;
	unsigned int loops = 0, salt;
	int i;

	memset(st, 0, sizeof(*st));
	st->task = current;
	/* Two keys that share a slot, with plain allow decisions. */
	st->tsid[0] = AVC_TEST_SID;
	for (st->tsid[1] = AVC_TEST_SID + 1;; st->tsid[1]++)
		if (avc_pcpu_hash(AVC_TEST_SID, st->tsid[1], SECCLASS_DIR) ==
		    avc_pcpu_hash(AVC_TEST_SID, st->tsid[0], SECCLASS_DIR))
			break;
	for (salt = 1; salt < 10000; salt++) {
		bool ok = true;

		avc_test_load(salt, false);
		for (i = 0; i < 2; i++) {
			avc_test_decide(&avc_test_pol, AVC_TEST_SID, st->tsid[i],
					SECCLASS_DIR, &st->want[i]);
			ok &= st->want[i].allowed && !st->want[i].auditallow &&
			      !(st->want[i].flags & AVD_FLAGS_PERMISSIVE);
		}
		if (ok)
			break;
	}
	KUNIT_ASSERT_LT(test, salt, 10000);

	/* The timer must interrupt this task: stay on its CPU. */
	migrate_disable();
	hrtimer_init(&st->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	st->timer.function = avc_test_irq_fn;
	hrtimer_start(&st->timer, ns_to_ktime(20 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);

	/* Fill a slot, then hold it half-written until the timer looked. */
	preempt_disable();
	avc_has_perm_noaudit(AVC_TEST_SID, st->tsid[0], SECCLASS_DIR,
			     st->want[0].allowed, 0, &avd);
	KUNIT_EXPECT_TRUE(test, avc_pcpu_probe(AVC_TEST_SID, st->tsid[0],
					       SECCLASS_DIR,
					       st->want[0].allowed, NULL));
	i = avc_pcpu_hash(AVC_TEST_SID, st->tsid[0], SECCLASS_DIR);
	st->hold = this_cpu_ptr(&avc_pcpu_cache.slot[i]);
	avc_pcpu_write_begin(st->hold);
	end = jiffies + 2 * HZ;
	while (!READ_ONCE(st->midfill) && time_before(jiffies, end))
		cpu_relax();
	avc_pcpu_write_end(st->hold);
	st->hold = NULL;
	preempt_enable();
	KUNIT_EXPECT_GT(test, st->midfill, 0);

	/*
	 * Then let fills of both keys evict each other under the timer, for
	 * 200 timer checks (the timer may tick only at HZ, as on UML).
	 */
	end = jiffies + 20 * HZ;
	while (READ_ONCE(st->checked) < 200 && time_before(jiffies, end)) {
		i = loops++ & 1;
		if (avc_has_perm_noaudit(AVC_TEST_SID, st->tsid[i], SECCLASS_DIR,
					 st->want[i].allowed, 0, &avd) ||
		    memcmp(&avd, &st->want[i], sizeof(avd)))
			st->bad++;
	}
	hrtimer_cancel(&st->timer);
	migrate_enable();
	KUNIT_EXPECT_EQ(test, st->bad, 0);
	KUNIT_EXPECT_GE(test, st->checked, 200);
	kunit_info(test, "%u process checks, %u timer checks in %u interrupts\n",
		   loops, st->checked, st->fired);
}

/*
 * Fill nesting: an interrupt that fills the slot a process-context fill is
 * writing.  The seam in avc_pcpu_fill() raises a hard interrupt (irq_work)
 * between the key and the decision of the slot write, and gives it time
 * to arrive.  The fill masks interrupts, so it may only run once the slot
 * is complete; had it run in the middle, the slot would pair the
 * interrupt's key with the process's decision.
 */
struct avc_test_nest {
	struct irq_work work;
	u32 tsid[2];
	u32 perm;		/* allowed for tsid[0], denied for tsid[1] */
	struct av_decision want[2];
	bool raised, ran, ran_inside;
	int irq_rc;
};

static struct avc_test_nest avc_test_nest_st;

/* The interrupt: a check of the second key, which misses and fills. */
static void avc_test_nest_irq(struct irq_work *work)
{
	struct avc_test_nest *st = &avc_test_nest_st;
	struct av_decision avd;

	st->irq_rc = avc_has_perm_noaudit(AVC_TEST_SID, st->tsid[1],
					  SECCLASS_DIR,
					  st->want[1].allowed &
					  ~st->want[1].auditallow, 0, &avd);
	WRITE_ONCE(st->ran, true);
}

static void avc_test_nest_seam(void)
{
	struct avc_test_nest *st = &avc_test_nest_st;
	unsigned long end;
	unsigned int i;

	if (in_interrupt() || st->raised)
		return;
	st->raised = true;
	/* Make the interrupt's fill take the slot over (see avc_pcpu_keep()). */
	this_cpu_write(avc_pcpu_conflicts, AVC_PCPU_EVICT - 1);
	irq_work_queue(&st->work);
	/*
	 * Where irq_work rides on the tick (SH), it runs at the next one:
	 * wait until jiffies has moved on by three, not for a count of
	 * udelay(1), which under qemu TCG on a loaded host ended before the
	 * tick came; 1 s of udelay() at most should the tick not come.
	 */
	end = jiffies + 2;
	for (i = 0; i < 1000000 && !READ_ONCE(st->ran) &&
	     time_before_eq(jiffies, end); i++)
		udelay(1);
	st->ran_inside = READ_ONCE(st->ran);
}

static void avc_test_fill_nesting(struct kunit *test)
{
	struct avc_test_nest *st = &avc_test_nest_st;
	struct av_decision avd;
	unsigned int salt;
	bool hit, leak;
	int rc;

	memset(st, 0, sizeof(*st));
	init_irq_work(&st->work, avc_test_nest_irq);
	st->tsid[0] = AVC_TEST_SID + 0x100;
	for (st->tsid[1] = st->tsid[0] + 1;; st->tsid[1]++)
		if (avc_pcpu_hash(AVC_TEST_SID, st->tsid[1], SECCLASS_DIR) ==
		    avc_pcpu_hash(AVC_TEST_SID, st->tsid[0], SECCLASS_DIR))
			break;
	/*
	 * A policy where the first key allows, unaudited, a permission that
	 * the second denies, and the second allows something unaudited.
	 */
	for (salt = 1; salt < 10000; salt++) {
		avc_test_load(salt, false);
		avc_test_decide(&avc_test_pol, AVC_TEST_SID, st->tsid[0],
				SECCLASS_DIR, &st->want[0]);
		avc_test_decide(&avc_test_pol, AVC_TEST_SID, st->tsid[1],
				SECCLASS_DIR, &st->want[1]);
		st->perm = st->want[0].allowed & ~st->want[0].auditallow &
			   ~st->want[1].allowed;
		if (st->perm &&
		    (st->want[1].allowed & ~st->want[1].auditallow))
			break;
	}
	KUNIT_ASSERT_LT(test, salt, 10000);
	st->perm &= -st->perm;

	/* The interrupt must come on this CPU, to this CPU's slot. */
	migrate_disable();
	kunit_activate_static_stub(test, avc_pcpu_fill_seam,
				   avc_test_nest_seam);
	rc = avc_has_perm_noaudit(AVC_TEST_SID, st->tsid[0], SECCLASS_DIR,
				  st->perm, 0, &avd);
	kunit_deactivate_static_stub(test, avc_pcpu_fill_seam);
	irq_work_sync(&st->work);
	hit = avc_pcpu_probe(AVC_TEST_SID, st->tsid[1], SECCLASS_DIR,
			     st->want[1].allowed & ~st->want[1].auditallow,
			     &avd);
	leak = avc_pcpu_probe(AVC_TEST_SID, st->tsid[1], SECCLASS_DIR,
			      st->perm, NULL);
	migrate_enable();

	KUNIT_EXPECT_EQ(test, rc, 0);
	KUNIT_ASSERT_TRUE(test, st->raised);
	KUNIT_ASSERT_TRUE(test, READ_ONCE(st->ran));
	KUNIT_EXPECT_EQ(test, st->irq_rc, 0);
	/* The interrupt's fill took the slot (the case means nothing else)... */
	KUNIT_EXPECT_TRUE(test, hit);
	if (hit)
		avc_test_avd_eq(test, &avd, &st->want[1]);
	/* ...with its own decision, which denies the permission. */
	KUNIT_EXPECT_FALSE(test, leak);
	kunit_info(test, "interrupt ran %s the slot write\n",
		   st->ran_inside ? "inside" : "after");
}

/* Multi-CPU: a reload loop on one CPU races checks on another. */
struct avc_test_race {
	struct kunit *test;
	struct completion done;
	atomic_t epoch;
	unsigned int resets;
	unsigned long checks, stale, wrong_deny, denied_window, hits;
	bool stop;
};

/* Let the checker finish two whole checks in the current state. */
static void avc_test_wait_checks(struct avc_test_race *r)
{
	unsigned long target = READ_ONCE(r->checks) + 2;
	unsigned long end = jiffies + HZ;

	while (READ_ONCE(r->checks) < target && time_before(jiffies, end))
		cond_resched();
}

static int avc_test_resetter(void *arg)
{
	struct avc_test_race *r = arg;
	unsigned int i;

	current->kunit_test = r->test;
	for (i = 0; i < r->resets; i++) {
		/* Bit 0 of the epoch: a change is under way. */
		atomic_set(&r->epoch, ((i + 1) << 2) | 1);
		/* Order the epoch before the change below. */
		smp_mb();
		if (i % 4 == 3) {
			/*
			 * setenforce 0, let the checker collect permissive
			 * grants, then setenforce 1 (seqno unchanged): the
			 * grants must not survive it.
			 */
			enforcing_set(false);
			avc_test_wait_checks(r);
			avc_test_setenforce(true);
		} else {
			avc_test_change(avc_test_pol.salt, avc_test_pol.boolean,
					!avc_test_pol.deny);
		}
		/* Order the completed change before the epoch. */
		smp_mb();
		/* Bit 1: the permission is denied from here on. */
		atomic_set(&r->epoch, ((i + 1) << 2) |
			   (avc_test_pol.deny ? 2 : 0));
		avc_test_wait_checks(r);
	}
	WRITE_ONCE(r->stop, true);
	current->kunit_test = NULL;
	return 0;
}

static int avc_test_checker(void *arg)
{
	struct avc_test_race *r = arg;
	struct av_decision avd;

	current->kunit_test = r->test;
	while (!READ_ONCE(r->stop)) {
		/* Bits 1:0 == 2: the change that denies has returned. */
		int e1 = atomic_read(&r->epoch), e2, rc;

		/* Order the epoch read before the check. */
		smp_mb();
		if (avc_pcpu_probe(AVC_TEST_SID, AVC_TEST_SID, SECCLASS_FILE,
				   AVC_TEST_DENY_PERM, NULL))
			r->hits++;
		rc = avc_has_perm_noaudit(AVC_TEST_SID, AVC_TEST_SID,
					  SECCLASS_FILE, AVC_TEST_DENY_PERM, 0,
					  &avd);
		/* Order the check before the second epoch read. */
		smp_mb();
		e2 = atomic_read(&r->epoch);
		if (e1 == e2 && (e1 & 3) == 2) {
			r->denied_window++;
			if (!rc)
				r->stale++;
		}
		if (e1 == e2 && (e1 & 3) == 0 && rc)
			r->wrong_deny++;
		WRITE_ONCE(r->checks, r->checks + 1);
		cond_resched();
	}
	current->kunit_test = NULL;
	complete(&r->done);
	return 0;
}

static void avc_test_multicpu(struct kunit *test)
{
	struct avc_test_race *r;
	struct task_struct *a, *b;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs (run under qemu -smp 2)");
	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->test = test;
	r->resets = 4000;
	init_completion(&r->done);
	avc_test_pol.deny = false;

	b = kthread_create(avc_test_checker, r, "avc_test_check");
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	a = kthread_create(avc_test_resetter, r, "avc_test_reset");
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	kthread_bind(b, cpumask_first(cpu_online_mask));
	kthread_bind(a, cpumask_next(cpumask_first(cpu_online_mask),
				     cpu_online_mask));
	wake_up_process(b);
	wake_up_process(a);
	wait_for_completion(&r->done);
	avc_test_pol.deny = false;

	KUNIT_EXPECT_EQ(test, r->stale, 0);
	KUNIT_EXPECT_EQ(test, r->wrong_deny, 0);
	/* The allowed windows were answered from the per-CPU cache too. */
	KUNIT_EXPECT_GT(test, r->hits, 0);
	/* About half the states deny, and the checker ran in each. */
	KUNIT_EXPECT_GE(test, r->denied_window, r->resets / 8);
	kunit_info(test, "%u resets, %lu checks in a denied window, %lu probe hits, %lu stale\n",
		   r->resets, r->denied_window, r->hits, r->stale);
}

/* Runs on one CPU through work_on_cpu(). */
static long avc_test_on_cpu(void *arg)
{
	struct kunit *test = arg;
	struct av_decision avd;
	long rc;

	current->kunit_test = test;
	rc = avc_has_perm_noaudit(AVC_TEST_SID, AVC_TEST_SID, SECCLASS_FILE,
				  AVC_TEST_DENY_PERM, 0, &avd);
	if (!rc && !avc_pcpu_probe(AVC_TEST_SID, AVC_TEST_SID, SECCLASS_FILE,
				   AVC_TEST_DENY_PERM, NULL))
		rc = 1;
	current->kunit_test = NULL;
	return rc;
}

/* A CPU that was offline during a revoking reload must not serve its slot. */
static void avc_test_hotplug(struct kunit *test)
{
	unsigned int cpu;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || num_online_cpus() < 2)
		kunit_skip(test, "needs CPU hotplug and two CPUs");
	cpu = cpumask_last(cpu_online_mask);
	avc_test_pol.deny = false;
	avc_test_load(avc_test_pol.salt, false);
	/* Allowed, and then answered from that CPU's cache. */
	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, avc_test_on_cpu, test), 0);
	KUNIT_ASSERT_EQ(test, remove_cpu(cpu), 0);
	avc_test_pol.deny = true;
	avc_test_load(avc_test_pol.salt, false);
	KUNIT_ASSERT_EQ(test, add_cpu(cpu), 0);
	KUNIT_EXPECT_EQ(test, work_on_cpu(cpu, avc_test_on_cpu, test),
			-EACCES);
	avc_test_pol.deny = false;
}

static struct kunit_case avc_test_cases[] = {
	KUNIT_CASE(avc_test_hash),
	KUNIT_CASE(avc_test_generation),
	KUNIT_CASE(avc_test_stats),
	KUNIT_CASE(avc_test_revoke),
	KUNIT_CASE(avc_test_reset_window),
	KUNIT_CASE(avc_test_policy_switch),
	KUNIT_CASE(avc_test_updated_stays_out),
	KUNIT_CASE(avc_test_grant_keeps_slots),
	KUNIT_CASE(avc_test_permissive_setenforce),
	KUNIT_CASE(avc_test_late_grant),
	KUNIT_CASE(avc_test_audit_counts),
	KUNIT_CASE_SLOW(avc_test_irq_nesting),
	KUNIT_CASE(avc_test_fill_nesting),
	KUNIT_CASE_SLOW(avc_test_multicpu),
	KUNIT_CASE(avc_test_hotplug),
	KUNIT_CASE_SLOW(avc_test_differential),
	{}
};

static struct kunit_suite avc_test_suite = {
	.name = "selinux_avc",
	.init = avc_test_init,
	.exit = avc_test_exit,
	.test_cases = avc_test_cases,
};

#ifdef CONFIG_SECURITY_SELINUX_AVC_KUNIT_BENCH
/*
 * Microbenchmark, not a test: time per check of the stock algorithm and of
 * the inline path, in one boot, printed as "avc_bench: NAME ns=N" lines.
 * Under UML the clock is the host's; under qemu -icount it counts guest
 * instructions.
 */
#define AVC_BENCH_ITERS		500000u
#define AVC_BENCH_THRASH	(4 * AVC_PCPU_SLOTS)

/* A check to time: the stock algorithm, the inline path, or nothing. */
typedef int (*avc_bench_fn)(u32 ssid, u32 tsid, u16 tclass, u32 requested,
			    struct av_decision *avd);

/* avc_has_perm_noaudit() as 6.12 has it, with no per-CPU cache. */
static noinline int avc_bench_stock(u32 ssid, u32 tsid, u16 tclass,
				    u32 requested, struct av_decision *avd)
{
	struct avc_node *node;
	u32 denied;

	rcu_read_lock();
	node = avc_lookup(ssid, tsid, tclass);
	if (unlikely(!node)) {
		rcu_read_unlock();
		return avc_perm_nonode(ssid, tsid, tclass, requested, 0, avd,
				       0);
	}
	denied = requested & ~node->ae.avd.allowed;
	memcpy(avd, &node->ae.avd, sizeof(*avd));
	rcu_read_unlock();
	if (unlikely(denied))
		return avc_denied(ssid, tsid, tclass, requested, 0, 0, 0, avd);
	return 0;
}

static noinline int avc_bench_patched(u32 ssid, u32 tsid, u16 tclass,
				      u32 requested, struct av_decision *avd)
{
	return avc_has_perm_noaudit(ssid, tsid, tclass, requested, 0, avd);
}

/* The loop and call overhead that every case below includes. */
static noinline int avc_bench_null(u32 ssid, u32 tsid, u16 tclass,
				   u32 requested, struct av_decision *avd)
{
	return 0;
}

/*
 * Picoseconds per check over AVC_BENCH_ITERS checks of @nkeys keys, from a
 * given start: every slot dead, and the conflict count that decides which
 * miss takes a slot over (avc_pcpu_keep()) at @phase.  With more keys than
 * slots, which key holds a slot depends on that count, and with it the
 * share of hits.
 */
static u64 avc_bench_once(avc_bench_fn fn, const u32 *tsid,
			  unsigned int nkeys, u32 perm, unsigned int phase)
{
	struct av_decision avd;
	unsigned int i, k = 0;
	u64 t0, t1;

	avc_pcpu_invalidate();
	this_cpu_write(avc_pcpu_conflicts, phase);
	for (i = 0; i < nkeys; i++)
		fn(AVC_TEST_SID, tsid[i], SECCLASS_FILE, perm, &avd);
	preempt_disable();
	t0 = ktime_get_ns();
	for (i = 0; i < AVC_BENCH_ITERS; i++) {
		fn(AVC_TEST_SID, tsid[k], SECCLASS_FILE, perm, &avd);
		if (++k == nkeys)
			k = 0;
	}
	t1 = ktime_get_ns();
	preempt_enable();
	return div_u64((t1 - t0) * 1000, AVC_BENCH_ITERS);
}

/*
 * The mean of avc_bench_once() over every start phase, on one CPU (a
 * migration would start over on another CPU's cache).
 */
static u64 avc_bench_run(avc_bench_fn fn, const u32 *tsid,
			 unsigned int nkeys, u32 perm)
{
	unsigned int phase;
	u64 sum = 0;

	migrate_disable();
	for (phase = 0; phase < AVC_PCPU_EVICT; phase++)
		sum += avc_bench_once(fn, tsid, nkeys, perm, phase);
	migrate_enable();
	return div_u64(sum, AVC_PCPU_EVICT);
}

static void avc_bench(struct kunit *test)
{
	u32 *tsid, same[2], t;
	unsigned int n = 0;
	u64 null, stock, hit, miss, miss_stock, thrash, thrash_stock;

	tsid = kunit_kcalloc(test, AVC_BENCH_THRASH, sizeof(*tsid), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tsid);
	/* Keys whose decision allows FILE__READ, unaudited: the hot case. */
	avc_test_pol.deny = false;
	for (t = AVC_TEST_SID; n < AVC_BENCH_THRASH; t++) {
		struct av_decision avd;

		avc_test_decide(&avc_test_pol, AVC_TEST_SID, t, SECCLASS_FILE,
				&avd);
		if ((avd.allowed & FILE__READ) && !(avd.auditallow & FILE__READ) &&
		    !(avd.flags & AVD_FLAGS_PERMISSIVE))
			tsid[n++] = t;
	}
	/* Two such keys that share a per-CPU slot: every check misses. */
	same[0] = tsid[0];
	for (n = 1; n < AVC_BENCH_THRASH; n++)
		if (avc_pcpu_hash(AVC_TEST_SID, tsid[n], SECCLASS_FILE) ==
		    avc_pcpu_hash(AVC_TEST_SID, same[0], SECCLASS_FILE))
			break;
	KUNIT_ASSERT_LT(test, n, AVC_BENCH_THRASH);
	same[1] = tsid[n];
	avc_set_cache_threshold(2 * AVC_BENCH_THRASH);

	null = avc_bench_run(avc_bench_null, tsid, 1, FILE__READ);
	stock = avc_bench_run(avc_bench_stock, tsid, 1, FILE__READ);
	hit = avc_bench_run(avc_bench_patched, tsid, 1, FILE__READ);
	miss_stock = avc_bench_run(avc_bench_stock, same, 2, FILE__READ);
	miss = avc_bench_run(avc_bench_patched, same, 2, FILE__READ);
	thrash_stock = avc_bench_run(avc_bench_stock, tsid, AVC_BENCH_THRASH,
				     FILE__READ);
	thrash = avc_bench_run(avc_bench_patched, tsid, AVC_BENCH_THRASH,
			       FILE__READ);

	kunit_info(test, "microbench: call_overhead ps=%llu\n", null);
	kunit_info(test, "microbench: stock_hit ps=%llu\n", stock);
	kunit_info(test, "microbench: pcpu_hit ps=%llu\n", hit);
	kunit_info(test, "microbench: stock_2keys ps=%llu\n", miss_stock);
	kunit_info(test, "microbench: pcpu_miss ps=%llu\n", miss);
	kunit_info(test, "microbench: stock_thrash ps=%llu\n", thrash_stock);
	kunit_info(test, "microbench: pcpu_thrash ps=%llu\n", thrash);
	kunit_info(test, "microbench: slots=%u thrash_keys=%u iters=%u\n",
		   AVC_PCPU_SLOTS, AVC_BENCH_THRASH, AVC_BENCH_ITERS);
}

static struct kunit_case avc_bench_cases[] = {
	KUNIT_CASE_SLOW(avc_bench),
	{}
};

static struct kunit_suite avc_bench_suite = {
	.name = "selinux_avc_bench",
	.init = avc_test_init,
	.exit = avc_test_exit,
	.test_cases = avc_bench_cases,
};

kunit_test_suites(&avc_test_suite, &avc_bench_suite);
#else
kunit_test_suites(&avc_test_suite);
#endif
