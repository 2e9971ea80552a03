/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bench's rule (rule.h). */
#include "rule.h"

#include <math.h>

void brule_judge(const struct bstat_sample *plan, const struct bstat_sample *peer,
		 struct brule_judgement *out)
{
	double scale = fabs(peer->mean) > 0 ? fabs(peer->mean) : 1;

	*out = (struct brule_judgement){ .verdict = BRULE_TOO_FEW_RUNS,
					 .lo_rel = NAN,
					 .hi_rel = NAN,
					 .diff_rel = NAN };
	out->diff.diff = out->diff.se = out->diff.df = out->diff.t = NAN;
	out->diff.lo = out->diff.hi = NAN;
	if (bstat_welch(plan, peer, BRULE_CONFIDENCE, &out->diff) < 0)
		return;
	out->diff_rel = out->diff.diff / scale;
	out->lo_rel = out->diff.lo / scale;
	out->hi_rel = out->diff.hi / scale;
	if (out->lo_rel > BRULE_NEGLIGIBLE)
		out->verdict = BRULE_WORSE;
	else if (out->hi_rel <= BRULE_MARGIN)
		out->verdict = BRULE_AT_OR_BELOW;
	else
		out->verdict = BRULE_UNDECIDED;
}

const char *brule_verdict_name(enum brule_verdict v)
{
	switch (v) {
	case BRULE_AT_OR_BELOW: return "at or below";
	case BRULE_WORSE: return "worse";
	case BRULE_UNDECIDED: return "undecided";
	case BRULE_TOO_FEW_RUNS: break;
	}
	return "too few runs";
}
