/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The read-ahead sweep's rows and table (readahead.h). */
#include "readahead.h"

#include <stdlib.h>
#include <string.h>

#include "rule.h"

#define RA_KEY "member_ios_per_mib"

/* "seqread-128m" -> 128; 0 when WORKLOAD is not one of the sweep's */
static unsigned file_mib_of(const char *workload)
{
	char *end;
	unsigned long mib;

	if (strncmp(workload, "seqread-", 8) != 0)
		return 0;
	mib = strtoul(workload + 8, &end, 10);
	if (end == workload + 8 || strcmp(end, "m") != 0 || mib == 0 || mib > 1048576)
		return 0;
	return (unsigned)mib;
}

/* the read_ahead_kb a setting's first run of one file was read with */
static void setting_kib(const struct cases *ra, const char *array, const char *workload,
			const char *base, char *out, size_t len)
{
	snprintf(out, len, "?");
	for (size_t i = 0; i < ra->n; i++)
		if (!strcmp(case_str(ra->v[i], "array"), array) &&
		    !strcmp(case_str(ra->v[i], "workload"), workload) &&
		    cases_is_run_of(case_str(ra->v[i], "layout"), base)) {
			snprintf(out, len, "%s", case_str(ra->v[i], "profile"));
			return;
		}
}

static bool listed(const unsigned *sizes, size_t n, unsigned mib)
{
	for (size_t i = 0; i < n; i++)
		if (sizes[i] == mib)
			return true;
	return false;
}

static int by_size(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

size_t ra_rows(const struct cases *ra, const char *array, struct ra_row *out, size_t max)
{
	unsigned sizes[BENCH_RA_MAX_SIZES] = { 0 };
	size_t n = 0;

	for (size_t i = 0; i < ra->n && n < BENCH_RA_MAX_SIZES && n < max; i++) {
		unsigned mib = file_mib_of(case_str(ra->v[i], "workload"));

		if (mib && !strcmp(case_str(ra->v[i], "array"), array) && !listed(sizes, n, mib))
			sizes[n++] = mib;
	}
	qsort(sizes, n, sizeof(sizes[0]), by_size);
	for (size_t i = 0; i < n; i++) {
		struct ra_row *r = &out[i];
		char workload[32];

		memset(r, 0, sizeof(*r));
		r->file_mib = sizes[i];
		snprintf(workload, sizeof(workload), "seqread-%um", sizes[i]);
		r->plan = cases_sample(ra, array, "ra-plan", workload, RA_KEY);
		r->topology = cases_sample(ra, array, "ra-topology", workload, RA_KEY);
		setting_kib(ra, array, workload, "ra-plan", r->plan_kib, sizeof(r->plan_kib));
		setting_kib(ra, array, workload, "ra-topology", r->topology_kib,
			    sizeof(r->topology_kib));
		r->have_diff = bstat_welch(&r->plan, &r->topology, BRULE_CONFIDENCE, &r->diff) == 0;
	}
	return n;
}

void ra_table(FILE *f, const struct array_label *arrays, size_t n_arrays,
	      const struct cases *ra)
{
	bool header = false;

	for (size_t a = 0; a < n_arrays; a++) {
		struct ra_row rows[BENCH_RA_MAX_SIZES];
		size_t n = ra_rows(ra, arrays[a].name, rows, BENCH_RA_MAX_SIZES);

		for (size_t i = 0; i < n; i++) {
			const struct ra_row *r = &rows[i];

			if (!header) {
				fputs("| array | file | plan's read_ahead_kb | member I/Os per MiB | "
				      "kernel's read_ahead_kb | member I/Os per MiB | difference "
				      "(95 % interval) |\n|---|---:|---:|---:|---:|---:|---|\n",
				      f);
				header = true;
			}
			fprintf(f, "| %s | %u MiB | %s | %.3f ± %.3f | %s | %.3f ± %.3f |", arrays[a].name,
				r->file_mib, r->plan_kib, r->plan.mean, r->plan.sd, r->topology_kib,
				r->topology.mean, r->topology.sd);
			if (r->have_diff)
				fprintf(f, " %+.2f %% (%+.2f to %+.2f %%) |\n",
					r->diff.diff / r->topology.mean * 100,
					r->diff.lo / r->topology.mean * 100,
					r->diff.hi / r->topology.mean * 100);
			else
				fputs(" — |\n", f);
		}
	}
}
