/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The read-ahead sweep's cases (bench/lib/readahead.bash, --parts
 * readahead), as sp-replay printed them: one file read cold on the plan's
 * fixture at the plan's read_ahead_kb (layout "ra-plan", ".R" on the R-th
 * round) and at the kernel's for a device that exports the array's
 * geometry ("ra-topology"), workload "seqread-<MiB>m", the setting's
 * read_ahead_kb in "profile".  Only the knob differs between the two, so
 * their difference is what the plan's read-ahead costs or saves.
 */
#ifndef BENCH_READAHEAD_H
#define BENCH_READAHEAD_H

#include <stdio.h>

#include "cases.h"
#include "stats.h"

#define BENCH_RA_MAX_SIZES 8

/* one array x file size: both settings' runs and the difference of their means */
struct ra_row {
	unsigned file_mib;
	char plan_kib[16];
	char topology_kib[16];
	struct bstat_sample plan; /* member I/Os per MiB */
	struct bstat_sample topology;
	struct bstat_diff diff; /* plan - topology, BRULE_CONFIDENCE interval */
	bool have_diff;         /* both settings ran twice or more */
};

/* ARRAY's rows, smallest file first; how many (at most MAX). */
size_t ra_rows(const struct cases *ra, const char *array, struct ra_row *out, size_t max);

/* The Markdown table of every array's rows (the docs' "readahead" block and
 * the report's section); nothing when no array has any. */
void ra_table(FILE *f, const struct array_label *arrays, size_t n_arrays,
	      const struct cases *ra);

#endif
