/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bench's rule, one comparison at a time: the planned layout's runs of
 * one array x workload x metric against one peer's runs of the same.
 *
 *   worse       the 95 % confidence interval of the difference of the
 *               means (Welch's t) lies above +0.5 % of the peer's mean:
 *               the plan costs more, by more than a negligible amount,
 *               and the runs can tell;
 *   at or below otherwise, when the interval's upper end is at most +10 %
 *               (the margin): had the plan cost 10 % more, the runs would
 *               most likely have said so;
 *   undecided   otherwise: the runs spread too much to tell a 10 % excess
 *               from none; more runs are needed.
 *
 * Negligible, 0.5 %: less than one member I/O in 200.  The rule counts
 * such a difference as equal even where the runs tell it exactly (the
 * plan's own log writes add 0.006 % to RAID10's stripe-sized writes in
 * member bytes); it was the slack the rule allowed before it had
 * statistics, for the figures' rounding.
 *
 * The margin is what the number of runs must be able to resolve, not a
 * tolerance: a difference the interval puts above +0.5 % is worse however
 * small.  10 %, because the metadata workload's runs spread by 5-17 %
 * (standard deviation over mean; 10 to 16 runs of each layout measured
 * by hand): the interval of two equal means narrows to 10 % after about
 * 16 runs of the noisiest, to 7 % (room for a true 3 %) after 30, which
 * is what bench/run runs; 5 % would take about 80.  The other workloads
 * spread by 0-5 %, and 6 runs tell, except seqwrite on a 9 MiB stripe,
 * whose gathering depends on timing (up to 16 % in the stored run: six
 * runs leave it undecided).
 */
#ifndef BENCH_RULE_H
#define BENCH_RULE_H

#include "stats.h"

#define BRULE_CONFIDENCE 0.95
#define BRULE_MARGIN 0.10
#define BRULE_NEGLIGIBLE 0.005

enum brule_verdict {
	BRULE_AT_OR_BELOW,
	BRULE_WORSE,
	BRULE_UNDECIDED,
	BRULE_TOO_FEW_RUNS, /* fewer than two runs of one side: nothing to judge by */
};

struct brule_judgement {
	enum brule_verdict verdict;
	struct bstat_diff diff; /* plan - peer, absolute */
	double lo_rel;          /* the interval's ends over the peer's mean */
	double hi_rel;
	double diff_rel;
};

void brule_judge(const struct bstat_sample *plan, const struct bstat_sample *peer,
		 struct brule_judgement *out);

/* "at or below", "worse", "undecided", "too few runs" */
const char *brule_verdict_name(enum brule_verdict v);

#endif
