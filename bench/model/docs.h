/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The figures README.md and bench/README.md quote from the stored run, as
 * Markdown fragments, one file each in a directory: bench/docs splices
 * each between the markers that name it in the two files, and
 * tests/cli/bench-docs.sh fails when the text there is not what the
 * stored traces give.
 *
 *	run.md               the run: command, time, machine, load, runs per workload
 *	stripewrite.md       stripe-sized writes, x the level's minimum, per layout
 *	smallfiles-bytes.md  fsync'd small files, member bytes per data byte
 *	spread.md            how much each workload's runs spread
 *	rule-summary.md      the rule's verdicts, counted, the worse ones named
 *	rule-table.md        every array x workload x metric, each layout's mean
 *	plan-trades.md       C: what the plan text says it gives up (formatters/text.c),
 *	                     with the read-ahead sweep's figures under a seqread loss
 *	readahead.md         the read-ahead sweep (readahead.h): its run and table
 *
 * META is the run's own record (bench/run writes traces/run.tsv: "key
 * TAB value" lines); without it run.md says only what the cases say.
 * RA is the read-ahead sweep's cases (none: empty), RA_META its run's
 * record (bench/run writes traces/readahead.run.tsv).
 */
#ifndef BENCH_DOCS_H
#define BENCH_DOCS_H

#include "cases.h"

/* 0, or -errno having said on stderr what could not be written */
int docs_write(const char *dir, const struct array_label *arrays, size_t n_arrays,
	       const struct cases *c, const char *meta_path, const struct cases *ra,
	       const char *ra_meta_path);

#endif
