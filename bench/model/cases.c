/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bench's cases (cases.h). */
#include "cases.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a case is one line of sp-replay's; far shorter than this */
#define LINE_MAX_BYTES 65536

const char *const bench_workloads[5] = { "stripewrite", "seqwrite", "smallfiles", "metadata",
					 "seqread" };
const char *const bench_peers[3] = { "parted-default", "mkfs-topology", "legacy-63" };
const char *const bench_rule_keys[2] = { "member_ios_per_mib", "member_bytes_per_data_byte" };
const char *const bench_rule_key_names[2] = { "ios", "bytes" };
const char *const bench_rule_key_labels[2] = { "I/Os", "bytes" };

int cases_load(const char *path, struct cases *c)
{
	FILE *f = fopen(path, "r");
	char *line;
	int lineno = 0;

	c->v = NULL;
	c->n = 0;
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	line = malloc(LINE_MAX_BYTES);
	if (!line) {
		fclose(f);
		return -ENOMEM;
	}
	while (fgets(line, LINE_MAX_BYTES, f)) {
		json_object *o, **grown;

		lineno++;
		if (line[0] == '\n')
			continue;
		o = json_tokener_parse(line);
		if (!o || !json_object_is_type(o, json_type_object)) {
			fprintf(stderr, "sp-bench-report: %s line %d is not a JSON object\n", path,
				lineno);
			json_object_put(o);
			continue;
		}
		grown = realloc(c->v, (c->n + 1) * sizeof(json_object *));
		if (!grown) {
			json_object_put(o);
			break;
		}
		c->v = grown;
		c->v[c->n++] = o;
	}
	fclose(f);
	free(line);
	return 0;
}

const char *case_str(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return "";
	return json_object_get_string(v);
}

double case_num(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return NAN;
	return json_object_get_double(v);
}

json_object *cases_find(const struct cases *c, const char *array, const char *layout,
			      const char *workload)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(case_str(c->v[i], "array"), array) &&
		    !strcmp(case_str(c->v[i], "layout"), layout) &&
		    !strcmp(case_str(c->v[i], "workload"), workload))
			return c->v[i];
	return NULL;
}

/* LAYOUT is a run of BASE: BASE itself or a repeat "BASE.2" ... "BASE.99" */
bool cases_is_run_of(const char *layout, const char *base)
{
	size_t n = strlen(base);
	const char *r = layout + n + 1;

	if (strncmp(layout, base, n))
		return false;
	if (layout[n] == '\0')
		return true;
	if (layout[n] != '.' || r[0] < '1' || r[0] > '9')
		return false;
	if (r[1] == '\0')
		return r[0] >= '2';
	return r[1] >= '0' && r[1] <= '9' && r[2] == '\0';
}

static bool is_planned(const char *layout)
{
	return cases_is_run_of(layout, "stripeplan");
}

struct bstat_sample cases_sample(const struct cases *c, const char *array,
					 const char *layout, const char *workload, const char *key)
{
	struct bstat_sample s;
	double *v = malloc((c->n ? c->n : 1) * sizeof(*v));
	size_t n = 0;

	if (!v) {
		bstat_sample_of(NULL, 0, &s);
		return s;
	}
	for (size_t i = 0; i < c->n; i++) {
		double x;

		if (strcmp(case_str(c->v[i], "array"), array) ||
		    strcmp(case_str(c->v[i], "workload"), workload) ||
		    !cases_is_run_of(case_str(c->v[i], "layout"), layout))
			continue;
		x = case_num(c->v[i], key);
		if (!isnan(x))
			v[n++] = x;
	}
	bstat_sample_of(v, n, &s);
	free(v);
	return s;
}

struct bstat_sample cases_planned_sample(const struct cases *c, const char *array,
					  const char *workload, const char *key)
{
	return cases_sample(c, array, "stripeplan", workload, key);
}

struct brule_judgement cases_judge(const struct cases *c, const char *array,
				    const char *workload, size_t key, const char *peer,
				    struct bstat_sample *plan, struct bstat_sample *other)
{
	struct brule_judgement j;

	*plan = cases_planned_sample(c, array, workload, bench_rule_keys[key]);
	*other = cases_sample(c, array, peer, workload, bench_rule_keys[key]);
	brule_judge(plan, other, &j);
	return j;
}

const char *cases_planned_profile(const struct cases *c, const char *array,
				   const char *workload)
{
	const char *p = NULL;

	for (size_t i = 0; i < c->n; i++) {
		const char *q = case_str(c->v[i], "profile");

		if (strcmp(case_str(c->v[i], "array"), array) ||
		    strcmp(case_str(c->v[i], "workload"), workload) || !is_planned(case_str(c->v[i], "layout")))
			continue;
		if (p && strcmp(p, q))
			return "mixed";
		p = q;
	}
	return p && *p ? p : "—";
}

bool cases_array_ran(const struct cases *c, const char *array)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(case_str(c->v[i], "array"), array))
			return true;
	return false;
}

int cases_each_judgement(const struct array_label *arrays, size_t n_arrays,
			 const struct cases *c, cases_judged_fn each, void *ctx)
{
	for (size_t i = 0; i < n_arrays; i++) {
		for (size_t w = 0; w < ARRAY_SIZE(bench_workloads); w++) {
			for (size_t k = 0; k < ARRAY_SIZE(bench_rule_keys); k++) {
				for (size_t p = 0; p < ARRAY_SIZE(bench_peers); p++) {
					struct bstat_sample plan, other;
					struct brule_judgement j = cases_judge(c, arrays[i].name,
									 bench_workloads[w], k,
									 bench_peers[p], &plan, &other);
					int r;

					if (!plan.n || !other.n)
						continue;
					r = each(ctx, arrays[i].name, bench_workloads[w], k,
						 bench_peers[p], &plan, &other, &j);
					if (r)
						return r;
				}
			}
		}
	}
	return 0;
}

json_object *cases_json_array(const struct cases *c)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < c->n; i++)
		json_object_array_add(a, json_object_get(c->v[i]));
	return a;
}

void cases_free(struct cases *c)
{
	for (size_t i = 0; i < c->n; i++)
		json_object_put(c->v[i]);
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

