/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bench's cases: one JSON object a case, as sp-replay prints them
 * (cases.jsonl), and what the report and the docs read from them: a
 * layout's runs of one array x workload as a sample, and the rule's
 * judgement of the plan against each peer (rule.h).
 *
 * A layout's runs are named LAYOUT, LAYOUT.2 ... LAYOUT.99 (bench/run
 * --repeat).
 */
#ifndef BENCH_CASES_H
#define BENCH_CASES_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "base/base.h"
#include "rule.h"
#include "stats.h"

#define BENCH_MAX_RUNS 99
/* the planned layout on the workloads its profile is not for: printed, never judged */
#define BENCH_INFORMATIONAL "stripeplan.general"

/* The lines of a JSONL file, parsed. */
struct cases {
	json_object **v;
	size_t n;
};

struct array_label {
	char name[64];
	char label[256];
};

/* in the report's order */
extern const char *const bench_workloads[5];
/* the layouts the rule judges the plan against: what a user gets without it */
extern const char *const bench_peers[3];
/* the metrics the rule judges: the case's key, its short name (known-worse,
 * verdicts.tsv) and its label in the report */
extern const char *const bench_rule_keys[2];
extern const char *const bench_rule_key_names[2];
extern const char *const bench_rule_key_labels[2];

/* A missing file is an empty list; a line that is not a JSON object is
 * reported on stderr and skipped.  0 or -errno. */
int cases_load(const char *path, struct cases *c);
void cases_free(struct cases *c);
/* A new JSON array holding (a reference to) every case. */
json_object *cases_json_array(const struct cases *c);

/* A string member, "" where the case has none. */
const char *case_str(json_object *o, const char *key);
/* A number, NAN where the case has null or nothing. */
double case_num(json_object *o, const char *key);

/* The case of exactly this layout name (one run), or NULL. */
json_object *cases_find(const struct cases *c, const char *array, const char *layout,
			const char *workload);
bool cases_array_ran(const struct cases *c, const char *array);
/* LAYOUT is one of BASE's runs: BASE or "BASE.2" ... "BASE.99" */
bool cases_is_run_of(const char *layout, const char *base);

/* All of a layout's runs of one case, for one key. */
struct bstat_sample cases_sample(const struct cases *c, const char *array, const char *base,
				 const char *workload, const char *key);
struct bstat_sample cases_planned_sample(const struct cases *c, const char *array,
					 const char *workload, const char *key);
/* The profile the planned runs of one case were planned with; "mixed" if
 * they differ, "—" for none. */
const char *cases_planned_profile(const struct cases *c, const char *array,
				  const char *workload);

/* The plan against PEER on one array x workload x metric (an index into
 * bench_rule_keys), with both samples. */
struct brule_judgement cases_judge(const struct cases *c, const char *array,
				   const char *workload, size_t key, const char *peer,
				   struct bstat_sample *plan, struct bstat_sample *other);

/* Every comparison the rule makes where both sides ran, in the report's
 * order (array, workload, metric, peer); `each` returns nonzero to stop,
 * and that is returned. */
typedef int (*cases_judged_fn)(void *ctx, const char *array, const char *workload, size_t key,
			       const char *peer, const struct bstat_sample *plan,
			       const struct bstat_sample *other, const struct brule_judgement *j);
int cases_each_judgement(const struct array_label *arrays, size_t n_arrays,
			 const struct cases *c, cases_judged_fn each, void *ctx);

#endif
