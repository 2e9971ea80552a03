/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sp-bench-report: the bench's report.  Reads what bench/run left in its
 * results directory and writes report.md, bench.json and the plot's data:
 *
 *	cases.jsonl   one sp-replay case a line (part 1, RAID efficiency)
 *	log.jsonl     the same for the log sweep (part 1b)
 *	tuning.tsv    knob, value, setting, median, q1, q3, min, max MiB/s, mean request KiB
 *	cost.tsv      measure, value, unit, how
 *
 * Each is optional: a part that did not run has no section.  This program
 * computes no figure of its own beyond means, spreads and ratios of the
 * figures sp-replay (the core's array model) and bench/run measured.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cases.h"
#include "docs.h"
#include "readahead.h"

#define MAX_ARRAYS 16
#define MAX_LAYOUTS 16
/* stripewrite "reaches" the minimum within 5 %: the filesystem's own log
 * and metadata writes, a few KiB each a partial stripe, cost the rest */
#define REACH_RATIO 1.05

static const char usage[] =
	"Usage: sp-bench-report --dir DIR [--array NAME|LABEL]... [--layouts LIST]\n"
	"                       [--command CMD] [--mode quick|full] [--seconds N]\n"
	"                       [--version TEXT] [--tune-mib N] [--tune-runs N]\n"
	"                       [--known-worse FILE] [--docs DIR] [--meta FILE]\n"
	"                       [--readahead-meta FILE]\n"
	"\n"
	"Writes DIR/report.md, DIR/bench.json, DIR/verdicts.tsv (every comparison the\n"
	"rule makes) and DIR/logs/plot.WORKLOAD.dat from DIR/cases.jsonl,\n"
	"DIR/log.jsonl, DIR/readahead.jsonl, DIR/tuning.tsv and DIR/cost.tsv; with\n"
	"--known-worse, the\n"
	"comparisons the plan loses or the runs cannot decide to FILE\n"
	"(bench/traces/known-worse); with --docs,\n"
	"the figures README.md and bench/README.md quote, one Markdown file each, to\n"
	"that directory, the run described by --meta (bench/run's traces/run.tsv),\n"
	"the read-ahead sweep's by --readahead-meta (traces/readahead.run.tsv).\n";

struct opts {
	const char *dir;
	const char *command;
	const char *mode;
	const char *version;
	long seconds;
	long tune_mib;
	long tune_runs;
	const char *known_worse;
	const char *docs_dir;
	const char *meta;
	const char *readahead_meta;
	struct array_label arrays[MAX_ARRAYS];
	size_t n_arrays;
	char layouts[MAX_LAYOUTS][64];
	size_t n_layouts;
};

static const char *const sweep_workloads[] = { "smallfiles", "seqwrite", "stripewrite",
					       "metadata" };


static int die(const char *what, const char *arg)
{
	fprintf(stderr, "sp-bench-report: %s%s%s\n", what, arg ? ": " : "", arg ? arg : "");
	return 2;
}

/* "1.23", or a dash for a figure the case has not got */
static const char *f2(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "—");
	else
		snprintf(buf, len, "%.2f", v);
	return buf;
}

static const char *pct(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "—");
	else
		snprintf(buf, len, "%.1f %%", v * 100);
	return buf;
}

static const char *size_text(double bytes, char *buf, size_t len)
{
	if (isnan(bytes))
		snprintf(buf, len, "—");
	else if (fmod(bytes, 1048576) == 0)
		snprintf(buf, len, "%.0f MiB", bytes / 1048576);
	else
		snprintf(buf, len, "%.0f KiB", bytes / 1024);
	return buf;
}

static void efficiency_intro(FILE *f)
{
	fputs("## RAID efficiency\n\n"
	      "Block requests captured with tracefs on loop devices, replayed through a model of\n"
	      "each array (bench/README.md).  *Full-stripe writes*: share of the data written as\n"
	      "whole stripes.  *Member I/Os per MiB*: member disk reads and writes per MiB of the\n"
	      "workload's own data (file bytes written; read, for seqread), so the filesystem's\n"
	      "log and metadata writes count as cost.  *× minimum*: that, divided by the least\n"
	      "the level allows.  *Member bytes per byte*: bytes read and written on the members\n"
	      "per byte of the workload's data (a log write padded to the log stripe unit costs\n"
	      "here even where it adds no I/O), and its multiple of the level's least (n/(n−1)\n"
	      "for RAID5 of n disks, 2 for RAID10, 1 for reads).  *× floor*: the same against the\n"
	      "achievable floor, what the workload's own requests cost when each starts a stripe\n"
	      "and is written alone (a 64 KiB fsynced file: read-modify-write or reconstruct-write,\n"
	      "whichever is cheaper; a stripe-sized write: a full stripe).  *Chunk crossings*:\n"
	      "requests that touched more chunks than their size needs.  Writes in flight together\n"
	      "are gathered per stripe, as md's stripe cache or a controller's write cache would,\n"
	      "so a large write the block layer split still counts as one; writes that did not\n"
	      "overlap in time are never combined.\n\n"
	      "Layouts: *stripeplan*: `stripeplan apply --workload PROFILE` and the plan's mount\n"
	      "options, planned for the workload it runs (*profile*: seqwrite, seqread and\n"
	      "stripewrite `general` — on parity RAID with XFS allocation groups of whole stripes\n"
	      "and `swalloc`, a log stripe unit of one block; smallfiles `small-sync`, no stripe\n"
	      "unit, so log writes are padded to the sector only; metadata `metadata`, log buffers\n"
	      "of 256 KiB).  Every workload runs on a filesystem made for it (seqread on\n"
	      "seqwrite's), so no layout's figure depends on what ran before.  *LAYOUT.N*: the\n"
	      "N-th run of a layout, on fresh fixtures, in rounds where the layouts take turns\n"
	      "going first: the rule compares means.  *stripeplan.general*: the default profile on the\n"
	      "workloads it is not planned for, so the trade stays on record: printed, not judged.\n"
	      "*mkfs-topology*: what mkfs.xfs does by itself on a device that exports its\n"
	      "geometry (md, a LUN reporting optimal I/O) — **emulated**: a loop device exports\n"
	      "none, so mkfs.xfs is given exactly the su/sw it would read (chunk, data disks) on\n"
	      "the whole device, and nothing else; its own AGs, log stripe unit and mount options.\n"
	      "*parted-default*: GPT from `parted -a optimal ... 0% 100%` (1 MiB), plain mkfs.xfs.\n"
	      "*legacy-63*: msdos label, partition at sector 63, plain mkfs.xfs.  The last two know\n"
	      "nothing of the array: their traces are taken once a round and replayed through\n"
	      "every array's model.\n\n",
	      f);
}

static void stripewrite_verdicts(FILE *f, const struct opts *o, const struct cases *c)
{
	char a[32], b[32];

	fputs("stripewrite, each layout's mean over its runs against the theoretical minimum:\n\n", f);
	for (size_t i = 0; i < o->n_arrays; i++) {
		const char *name = o->arrays[i].name;
		struct bstat_sample r = cases_planned_sample(c, name, "stripewrite", "ratio_to_min");
		struct bstat_sample full = cases_planned_sample(c, name, "stripewrite",
								"full_stripe_write_fraction");

		if (!cases_array_ran(c, name))
			continue;
		fprintf(f, "- %s: stripeplan ", name);
		if (!r.n)
			fputs("not run", f);
		else
			fprintf(f, r.mean <= REACH_RATIO ? "**reaches the minimum** (%s×, %s full stripes)" :
							   "**misses the minimum**: %s×, %s full stripes",
				f2(r.mean, a, sizeof(a)), pct(full.mean, b, sizeof(b)));
		for (size_t l = 0; l < o->n_layouts; l++) {
			struct bstat_sample q = cases_sample(c, name, o->layouts[l], "stripewrite",
							     "ratio_to_min");

			if (q.n && strcmp(o->layouts[l], "stripeplan"))
				fprintf(f, "; %s %s×", o->layouts[l], f2(q.mean, a, sizeof(a)));
		}
		fputc('\n', f);
	}
}

static void case_row(FILE *f, json_object *k)
{
	static const char *const cols[] = { "member_ios_per_mib", "ratio_to_min",
					    "ratio_to_floor", "member_bytes_per_data_byte",
					    "bytes_ratio_to_min", "bytes_ratio_to_floor" };
	char buf[32];

	fprintf(f, "| %s%s | %s | %s | %s |", case_str(k, "workload"),
		!strcmp(case_str(k, "direction"), "read") ? " (read)" : "", case_str(k, "layout"),
		*case_str(k, "profile") ? case_str(k, "profile") : "—",
		pct(case_num(k, "full_stripe_write_fraction"), buf, sizeof(buf)));
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		fprintf(f, " %s |", f2(case_num(k, cols[i]), buf, sizeof(buf)));
	fprintf(f, " %s |\n", pct(case_num(k, "chunk_crossing_fraction"), buf, sizeof(buf)));
}

/* The layouts in the order given, each followed by its repeats. */
static void each_layout_case(FILE *f, const struct opts *o, const struct cases *c,
			     const char *array, const char *workload)
{
	for (size_t l = 0; l < o->n_layouts; l++) {
		json_object *k = cases_find(c, array, o->layouts[l], workload);

		if (k)
			case_row(f, k);
		for (int r = 2; r <= BENCH_MAX_RUNS; r++) {
			char rep[64];

			snprintf(rep, sizeof(rep), "%s.%d", o->layouts[l], r);
			k = cases_find(c, array, rep, workload);
			if (k)
				case_row(f, k);
		}
		if (strcmp(o->layouts[l], "stripeplan"))
			continue;
		k = cases_find(c, array, BENCH_INFORMATIONAL, workload);
		if (k)
			case_row(f, k);
	}
}

static void efficiency_tables(FILE *f, const struct opts *o, const struct cases *c)
{
	char a[32], b[32], w[32];

	for (size_t i = 0; i < o->n_arrays; i++) {
		const char *name = o->arrays[i].name;
		json_object *wc = NULL, *rc = NULL;

		if (!cases_array_ran(c, name))
			continue;
		for (size_t k = 0; k < c->n; k++) {
			if (strcmp(case_str(c->v[k], "array"), name))
				continue;
			if (!wc && !strcmp(case_str(c->v[k], "direction"), "write"))
				wc = c->v[k];
			if (!rc && !strcmp(case_str(c->v[k], "direction"), "read"))
				rc = c->v[k];
		}
		fprintf(f, "\n### %s\n\nStripe width %s. The least member I/O the level allows: ",
			o->arrays[i].label,
			size_text(case_num(wc ? wc : rc, "stripe_width_bytes"), w, sizeof(w)));
		if (wc)
			fprintf(f, "%s per MiB written (every write a full stripe)",
				f2(case_num(wc, "min_member_ios_per_mib"), a, sizeof(a)));
		if (rc)
			fprintf(f, "%s%s per MiB read (one I/O per chunk)", wc ? ", " : "",
				f2(case_num(rc, "min_member_ios_per_mib"), b, sizeof(b)));
		fputs(".\n\n| workload | layout | profile | full-stripe writes | member I/Os per MiB "
		      "| × minimum | × floor | member bytes per byte | × minimum | × floor "
		      "| chunk crossings |\n"
		      "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
		      f);
		for (size_t k = 0; k < ARRAY_SIZE(bench_workloads); k++)
			each_layout_case(f, o, c, name, bench_workloads[k]);
	}
}

/* "35.52 ± 2.60 (20)": mean, standard deviation, runs */
static const char *sample_text(const struct bstat_sample *s, char *buf, size_t len)
{
	if (!s->n)
		snprintf(buf, len, "—");
	else
		snprintf(buf, len, "%.2f ± %.2f (%zu)", s->mean, s->sd, s->n);
	return buf;
}

/* "+0.75 % (+0.75 to +0.75)": the difference and its interval, over the peer's mean */
static const char *diff_text(const struct brule_judgement *j, char *buf, size_t len)
{
	if (isnan(j->diff_rel))
		snprintf(buf, len, "—");
	else
		snprintf(buf, len, "%+.2f %% (%+.2f to %+.2f)", j->diff_rel * 100, j->lo_rel * 100,
			 j->hi_rel * 100);
	return buf;
}

struct rule_row_ctx {
	FILE *f;
	const struct cases *c;
	unsigned counts[BRULE_TOO_FEW_RUNS + 1];
};

static int rule_row(void *ctx, const char *array, const char *workload, size_t key,
		    const char *peer, const struct bstat_sample *plan,
		    const struct bstat_sample *other, const struct brule_judgement *j)
{
	struct rule_row_ctx *r = ctx;
	char a[64], b[64], d[64];

	r->counts[j->verdict]++;
	fprintf(r->f, "| %s | %s | %s | %s | %s | %s | %s | %s | %s%s%s |\n", array, workload,
		cases_planned_profile(r->c, array, workload), bench_rule_key_labels[key],
		sample_text(plan, a, sizeof(a)), peer, sample_text(other, b, sizeof(b)),
		diff_text(j, d, sizeof(d)), j->verdict == BRULE_AT_OR_BELOW ? "" : "**",
		brule_verdict_name(j->verdict), j->verdict == BRULE_AT_OR_BELOW ? "" : "**");
	return 0;
}

/*
 * The rule the bench exists for: the planned layout costs no more than
 * what a user gets without it (parted-default, mkfs-topology, legacy-63),
 * in member I/Os and in member bytes, as far as the runs can tell
 * (bench/model/rule.h).
 */
static void rule_table(FILE *f, const struct opts *o, const struct cases *c)
{
	struct rule_row_ctx r = { .f = f, .c = c };

	fprintf(f,
		"\n### The rule: the plan against what a user gets without it\n\n"
		"Each layout's mean ± standard deviation over its runs (how many in brackets), and\n"
		"the difference of the plan's mean and the peer's, over the peer's mean, with its\n"
		"%.0f %% confidence interval by Welch's t.  *worse*: the interval lies above\n"
		"%+.1f %% (less counts as equal); *at or below*: otherwise, and its upper end is at\n"
		"most %+.0f %% (the runs would have told a %.0f %% excess from none); *undecided*:\n"
		"neither, the runs spread too much (more are needed).  *profile*: the `--workload`\n"
		"the planned layout was planned with (bench/model/rule.h).\n\n"
		"| array | workload | profile | metric | stripeplan | peer | peer's | plan − peer, "
		"%.0f %% interval | verdict |\n"
		"|---|---|---|---|---:|---|---:|---:|---|\n",
		BRULE_CONFIDENCE * 100, BRULE_NEGLIGIBLE * 100, BRULE_MARGIN * 100,
		BRULE_MARGIN * 100, BRULE_CONFIDENCE * 100);
	cases_each_judgement(o->arrays, o->n_arrays, c, rule_row, &r);
	fprintf(f, "\n%u comparisons: %u at or below, %u worse, %u undecided, %u with too few runs.\n",
		r.counts[0] + r.counts[1] + r.counts[2] + r.counts[3], r.counts[BRULE_AT_OR_BELOW],
		r.counts[BRULE_WORSE], r.counts[BRULE_UNDECIDED], r.counts[BRULE_TOO_FEW_RUNS]);
}

/* known-worse and verdicts.tsv: one line a comparison */
struct verdict_line_ctx {
	FILE *f;
	bool worse_only;
};

static int verdict_line(void *ctx, const char *array, const char *workload, size_t key,
			const char *peer, const struct bstat_sample *plan,
			const struct bstat_sample *other, const struct brule_judgement *j)
{
	struct verdict_line_ctx *v = ctx;

	if (v->worse_only) {
		if (j->verdict == BRULE_WORSE || j->verdict == BRULE_UNDECIDED)
			fprintf(v->f, "%s %s %s %s %s %.2f %.2f %+.2f%% %+.2f%% %+.2f%% %zu %zu\n", array,
				workload, bench_rule_key_names[key], peer,
				j->verdict == BRULE_WORSE ? "worse" : "undecided", plan->mean,
				other->mean, j->diff_rel * 100, j->lo_rel * 100, j->hi_rel * 100,
				plan->n, other->n);
		return 0;
	}
	fprintf(v->f, "%s\t%s\t%s\t%s\t%s\t%.6g\t%.6g\t%zu\t%.6g\t%.6g\t%zu\t%.6g\t%.6g\t%.6g\n",
		array, workload, bench_rule_key_names[key], peer, brule_verdict_name(j->verdict),
		plan->mean, plan->sd, plan->n, other->mean, other->sd, other->n, j->diff_rel,
		j->lo_rel, j->hi_rel);
	return 0;
}

static int write_verdicts(const struct opts *o, const struct cases *c, const char *path,
			  bool worse_only)
{
	struct verdict_line_ctx v = { .worse_only = worse_only };
	char tmp[4200];

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	v.f = fopen(tmp, "w");
	if (!v.f)
		return die("cannot write", tmp);
	if (worse_only)
		fprintf(v.f,
			"# Generated by sp-bench-report (bench/model/report.c) from the run in\n"
			"# bench/traces; never edited by hand: tests/cli/bench-rule.sh fails when it is\n"
			"# not what the stored traces give.  The comparisons the planned layout does\n"
			"# not pass (bench/model/rule.h): worse, where it costs more than a peer and the\n"
			"# runs can tell (the %.0f %% confidence interval of the difference of the means,\n"
			"# Welch's t, lies above +%.1f %% of the peer's mean), each a trade the plan's\n"
			"# text states with its figures or a loss still to be mended; undecided, where\n"
			"# the runs spread too much to tell a %.0f %% excess from none, and more runs\n"
			"# are needed (bench/run --repeat WORKLOAD=N).\n"
			"#\n"
			"# array workload metric peer verdict plan-mean peer-mean difference\n"
			"# interval-low interval-high plan-runs peer-runs (metric: ios, member I/Os per\n"
			"# MiB; bytes, member bytes per data byte; the difference over the peer's mean)\n",
			BRULE_CONFIDENCE * 100, BRULE_NEGLIGIBLE * 100, BRULE_MARGIN * 100);
	else
		fputs("# array\tworkload\tmetric\tpeer\tverdict\tplan_mean\tplan_sd\tplan_runs"
		      "\tpeer_mean\tpeer_sd\tpeer_runs\tdiff_rel\tlo_rel\thi_rel\n",
		      v.f);
	cases_each_judgement(o->arrays, o->n_arrays, c, verdict_line, &v);
	if (fclose(v.f) || rename(tmp, path))
		return die("cannot write", path);
	return 0;
}

/*
 * The trade: the default profile on the workloads a named profile is
 * planned for, beside that profile and the bench_peers.  Not judged: a user who
 * runs such a workload is told to pick the profile.
 */
static void trade_table(FILE *f, const struct opts *o, const struct cases *c)
{
	char a[32], b[32], d[32];
	bool any = false;

	for (size_t i = 0; i < o->n_arrays && !any; i++)
		for (size_t w = 0; w < ARRAY_SIZE(bench_workloads) && !any; w++)
			any = cases_find(c, o->arrays[i].name, BENCH_INFORMATIONAL, bench_workloads[w]);
	if (!any)
		return;
	fputs("\n### The trade: the default profile where a named one is planned (not judged)\n\n"
	      "`stripeplan.general` is the plan with the default `--workload general` on the\n"
	      "workloads the bench plans with another profile (one run); *planned* is that\n"
	      "profile's mean over its runs (the rule's figure), and the peers' means.\n\n"
	      "| array | workload | metric | general | planned | profile",
	      f);
	for (size_t p = 0; p < ARRAY_SIZE(bench_peers); p++)
		fprintf(f, " | %s", bench_peers[p]);
	fputs(" |\n|---|---|---|---:|---:|---", f);
	for (size_t p = 0; p < ARRAY_SIZE(bench_peers); p++)
		fputs("|---:", f);
	fputs("|\n", f);
	for (size_t i = 0; i < o->n_arrays; i++) {
		const char *name = o->arrays[i].name;

		for (size_t w = 0; w < ARRAY_SIZE(bench_workloads); w++) {
			json_object *g = cases_find(c, name, BENCH_INFORMATIONAL, bench_workloads[w]);

			if (!g)
				continue;
			for (size_t k = 0; k < ARRAY_SIZE(bench_rule_keys); k++) {
				struct bstat_sample s = cases_planned_sample(c, name, bench_workloads[w],
								      bench_rule_keys[k]);

				fprintf(f, "| %s | %s | %s | %s | %s | %s |", name, bench_workloads[w],
					bench_rule_key_labels[k], f2(case_num(g, bench_rule_keys[k]), a, sizeof(a)),
					f2(s.mean, b, sizeof(b)),
					cases_planned_profile(c, name, bench_workloads[w]));
				for (size_t p = 0; p < ARRAY_SIZE(bench_peers); p++) {
					struct bstat_sample q = cases_sample(c, name, bench_peers[p],
									      bench_workloads[w],
									      bench_rule_keys[k]);

					fprintf(f, " %s |", f2(q.mean, d, sizeof(d)));
				}
				fputc('\n', f);
			}
		}
	}
}

static void sweep_table(FILE *f, const struct opts *o, const struct cases *c)
{
	char a[32];

	fputs("\n## Log sweep: the XFS log stripe unit, logbsize, ext4's stripe hints\n\n"
	      "The plan's partition and mkfs command with one thing changed (bench/README.md,\n"
	      "1b): `xfs-lsuS-lbsB` is `mkfs.xfs -l su=S` mounted with `logbsize=B` (32k: the\n"
	      "kernel's default, the option left out); `ext4-stripe` the plan's `mke2fs -E\n"
	      "stride=,stripe_width=`, `ext4-nostripe` the same without.  Member I/Os per MiB and\n"
	      "member bytes per data byte.\n\n"
	      "| array | variant | smallfiles I/Os | smallfiles bytes | seqwrite I/Os | seqwrite bytes "
	      "| stripewrite I/Os | stripewrite bytes | metadata I/Os | metadata bytes |\n"
	      "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
	      f);
	for (size_t i = 0; i < o->n_arrays; i++) {
		const char *name = o->arrays[i].name;

		/* variants in the order they ran */
		for (size_t k = 0; k < c->n; k++) {
			const char *variant = case_str(c->v[k], "layout");
			bool first = true;

			if (strcmp(case_str(c->v[k], "array"), name))
				continue;
			for (size_t j = 0; j < k && first; j++)
				if (!strcmp(case_str(c->v[j], "array"), name) &&
				    !strcmp(case_str(c->v[j], "layout"), variant))
					first = false;
			if (!first)
				continue;
			fprintf(f, "| %s | `%s` |", name, variant);
			for (size_t w = 0; w < ARRAY_SIZE(sweep_workloads); w++) {
				json_object *q = cases_find(c, name, variant, sweep_workloads[w]);

				fprintf(f, " %s |", f2(q ? case_num(q, "member_ios_per_mib") : NAN, a, sizeof(a)));
				fprintf(f, " %s |",
					f2(q ? case_num(q, "member_bytes_per_data_byte") : NAN, a, sizeof(a)));
			}
			fputc('\n', f);
		}
	}
}

/* Tab-separated fields of one line, in place; returns how many. */
static size_t split_tabs(char *line, char **field, size_t max)
{
	size_t n = 0;

	line[strcspn(line, "\n")] = '\0';
	while (n < max) {
		field[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

/*
 * Tuning: each knob's first line is its baseline; a setting is faster or
 * slower only when its middle half (q1..q3) and the baseline's do not
 * overlap.
 */
static void tuning_table(FILE *f, const struct opts *o, FILE *in, json_object *out)
{
	char line[1024], knob[128] = "", *fl[9];
	double base = 0, blo = 0, bhi = 0;

	fprintf(f, "\n## Tuning: cold sequential buffered read through the page cache\n\n"
		"One %ld MiB file read with 128 KiB read() calls on a loop device doing direct\n"
		"I/O; this kernel's caches dropped before each read, the host's warmed by an untimed\n"
		"read; %ld interleaved rounds.  MiB/s: median, middle half, and min–max; the\n"
		"mean read request the device saw; the ratio of medians to the knob's baseline.  An\n"
		"effect counts only when the middle halves do not overlap.\n\n"
		"| knob | value | setting | MiB/s | middle half | range | mean request | ratio | effect |\n"
		"|---|---:|---|---:|---:|---:|---:|---:|---|\n",
		o->tune_mib, o->tune_runs);
	while (fgets(line, sizeof(line), in)) {
		double v[6];
		const char *effect;
		json_object *row;

		if (split_tabs(line, fl, 9) != 9)
			continue;
		for (int i = 0; i < 6; i++)
			v[i] = strtod(fl[3 + i], NULL);
		if (strcmp(knob, fl[0])) {
			snprintf(knob, sizeof(knob), "%s", fl[0]);
			base = v[0];
			blo = v[1];
			bhi = v[2];
			effect = "(baseline)";
		} else if (v[1] > bhi) {
			effect = "faster";
		} else if (v[2] < blo) {
			effect = "slower";
		} else {
			effect = "none measurable";
		}
		fprintf(f, "| %s | %s | %s | %.0f | %.0f–%.0f | %.0f–%.0f | %.0f KiB | %.2f | %s |\n",
			fl[0], fl[1], fl[2], v[0], v[1], v[2], v[3], v[4], v[5],
			base > 0 ? v[0] / base : 0, effect);
		row = json_object_new_object();
		json_object_object_add(row, "knob", json_object_new_string(fl[0]));
		json_object_object_add(row, "value", json_object_new_string(fl[1]));
		json_object_object_add(row, "setting", json_object_new_string(fl[2]));
		json_object_object_add(row, "median_mib_per_s", json_object_new_double(v[0]));
		json_object_object_add(row, "q1_mib_per_s", json_object_new_double(v[1]));
		json_object_object_add(row, "q3_mib_per_s", json_object_new_double(v[2]));
		json_object_object_add(row, "min_mib_per_s", json_object_new_double(v[3]));
		json_object_object_add(row, "max_mib_per_s", json_object_new_double(v[4]));
		json_object_object_add(row, "mean_request_kib", json_object_new_double(v[5]));
		json_object_array_add(out, row);
	}
}

static void cost_table(FILE *f, FILE *in, json_object *out)
{
	char line[1024], *fl[4];
	double apply_ms = 0, hand_ms = 0;

	fputs("\n## What stripeplan itself costs\n\n| measure | value | how |\n|---|---:|---|\n", f);
	while (fgets(line, sizeof(line), in)) {
		double v;

		if (split_tabs(line, fl, 4) != 4)
			continue;
		v = strtod(fl[1], NULL);
		fprintf(f, "| %s | %s %s | %s |\n", fl[0], fl[1], fl[2], fl[3]);
		if (!strcmp(fl[0], "apply_ms"))
			apply_ms = v;
		if (!strcmp(fl[0], "hand_ms"))
			hand_ms = v;
		json_object_object_add(out, fl[0], json_object_new_double(v));
	}
	if (hand_ms > 0)
		fprintf(f, "| apply ÷ by hand | %.2f | the same partition, mkfs and blkid; apply also "
			   "probes, locks and verifies |\n",
			apply_ms / hand_ms);
}

/* Rows: arrays; columns: the layouts (not the repeats); ratio to the minimum. */
static int plot_data(const struct opts *o, const struct cases *c)
{
	char path[4096];

	for (size_t w = 0; w < ARRAY_SIZE(bench_workloads); w++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/logs/plot.%s.dat", o->dir, bench_workloads[w]);
		f = fopen(path, "w");
		if (!f)
			return die("cannot write", path);
		fputs("array", f);
		for (size_t l = 0; l < o->n_layouts; l++)
			fprintf(f, "\t%s", o->layouts[l]);
		fputc('\n', f);
		for (size_t i = 0; i < o->n_arrays; i++) {
			if (!cases_array_ran(c, o->arrays[i].name))
				continue;
			fputs(o->arrays[i].name, f);
			for (size_t l = 0; l < o->n_layouts; l++) {
				json_object *k = cases_find(c, o->arrays[i].name, o->layouts[l],
							   bench_workloads[w]);
				double r = k ? case_num(k, "ratio_to_min") : NAN;

				if (isnan(r))
					fputs("\tNaN", f);
				else
					fprintf(f, "\t%.6g", r);
			}
			fputc('\n', f);
		}
		if (fclose(f))
			return die("cannot write", path);
	}
	return 0;
}

static FILE *open_in(const struct opts *o, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", o->dir, name);
	return fopen(path, "r");
}

static int render(const struct opts *o, const struct cases *cases, const struct cases *sweep,
		  const struct cases *ra);

static int write_report(const struct opts *o)
{
	struct cases cases = { NULL, 0 }, sweep = { NULL, 0 }, ra = { NULL, 0 };
	char path[4096];
	int r;

	snprintf(path, sizeof(path), "%s/cases.jsonl", o->dir);
	r = cases_load(path, &cases);
	snprintf(path, sizeof(path), "%s/log.jsonl", o->dir);
	if (r == 0)
		r = cases_load(path, &sweep);
	snprintf(path, sizeof(path), "%s/readahead.jsonl", o->dir);
	if (r == 0)
		r = cases_load(path, &ra);
	if (r < 0)
		r = die("cannot read the cases", strerror(-r));
	else
		r = render(o, &cases, &sweep, &ra);
	cases_free(&cases);
	cases_free(&sweep);
	cases_free(&ra);
	return r;
}

static int render(const struct opts *o, const struct cases *cases, const struct cases *sweep,
		  const struct cases *ra)
{
	char path[4096], tmp[4200], date[32];
	json_object *meta, *root, *tuning, *cost;
	struct utsname u;
	time_t now = time(NULL);
	FILE *f, *in;

	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));

	snprintf(path, sizeof(path), "%s/report.md", o->dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return die("cannot write", tmp);
	tuning = json_object_new_array();
	cost = json_object_new_object();
	fprintf(f, "# stripeplan bench\n\n`%s` — %s run, %.10s, Linux %s, %ld CPUs, %ld s.\n",
		o->command, o->mode, date, u.release, sysconf(_SC_NPROCESSORS_ONLN), o->seconds);
	if (cases->n) {
		fputc('\n', f);
		efficiency_intro(f);
		stripewrite_verdicts(f, o, cases);
		efficiency_tables(f, o, cases);
		rule_table(f, o, cases);
		trade_table(f, o, cases);
		char verdicts[4096];

		snprintf(verdicts, sizeof(verdicts), "%s/verdicts.tsv", o->dir);
		if (write_verdicts(o, cases, verdicts, false) ||
		    (o->known_worse && write_verdicts(o, cases, o->known_worse, true)) ||
		    (o->docs_dir && docs_write(o->docs_dir, o->arrays, o->n_arrays, cases, o->meta, ra,
					   o->readahead_meta))) {
			fclose(f);
			return 2;
		}
		if (plot_data(o, cases) == 0)
			fputs("\n![member I/O relative to the minimum](bench.svg)\n", f);
	}
	if (sweep->n)
		sweep_table(f, o, sweep);
	if (ra->n) {
		fputs("\n## Read-ahead sweep\n\nOne file read cold on the plan's fixture at the plan's "
		      "`read_ahead_kb` and at the kernel's for a device that exports the array's geometry "
		      "(twice its optimal I/O size), nothing else changed; member I/Os per MiB read.\n\n",
		      f);
		ra_table(f, o->arrays, o->n_arrays, ra);
	}
	in = open_in(o, "tuning.tsv");
	if (in) {
		tuning_table(f, o, in, tuning);
		fclose(in);
	}
	in = open_in(o, "cost.tsv");
	if (in) {
		cost_table(f, in, cost);
		fclose(in);
	}
	if (fclose(f) || rename(tmp, path)) {
		json_object_put(tuning);
		json_object_put(cost);
		return die("cannot write", path);
	}

	meta = json_object_new_object();
	root = json_object_new_object();
	json_object_object_add(meta, "date", json_object_new_string(date));
	json_object_object_add(meta, "kernel", json_object_new_string(u.release));
	json_object_object_add(meta, "mode", json_object_new_string(o->mode));
	json_object_object_add(meta, "command", json_object_new_string(o->command));
	json_object_object_add(meta, "seconds", json_object_new_int64(o->seconds));
	json_object_object_add(meta, "stripeplan", json_object_new_string(o->version));
	json_object_object_add(root, "meta", meta);
	json_object_object_add(root, "cases", cases_json_array(cases));
	json_object_object_add(root, "log_sweep", cases_json_array(sweep));
	json_object_object_add(root, "tuning", tuning);
	json_object_object_add(root, "cost", cost);
	snprintf(path, sizeof(path), "%s/bench.json", o->dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (json_object_to_file_ext(tmp, root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE) ||
	    rename(tmp, path)) {
		json_object_put(root);
		return die("cannot write", path);
	}
	json_object_put(root);
	return 0;
}

static int parse_layouts(struct opts *o, const char *list)
{
	char buf[1024], *save = NULL;

	if (strlen(list) >= sizeof(buf))
		return die("--layouts is too long", NULL);
	snprintf(buf, sizeof(buf), "%s", list);
	o->n_layouts = 0;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (o->n_layouts >= MAX_LAYOUTS || strlen(t) >= sizeof(o->layouts[0]))
			return die("too many or too long --layouts", t);
		snprintf(o->layouts[o->n_layouts++], sizeof(o->layouts[0]), "%s", t);
	}
	return 0;
}

static int parse_array(struct opts *o, const char *arg)
{
	const char *bar = strchr(arg, '|');
	struct array_label *a;

	if (!bar || bar == arg || o->n_arrays >= MAX_ARRAYS ||
	    (size_t)(bar - arg) >= sizeof(a->name) || strlen(bar + 1) >= sizeof(a->label))
		return die("--array takes NAME|LABEL (at most 16 of them)", arg);
	a = &o->arrays[o->n_arrays++];
	snprintf(a->name, sizeof(a->name), "%.*s", (int)(bar - arg), arg);
	snprintf(a->label, sizeof(a->label), "%s", bar + 1);
	return 0;
}

static long number(const char *arg, const char *opt)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*arg == '\0' || *end || v < 0) {
		die("not a number", opt);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "array", required_argument, NULL, 'a' },
		{ "layouts", required_argument, NULL, 'l' },
		{ "command", required_argument, NULL, 'c' },
		{ "mode", required_argument, NULL, 'm' },
		{ "seconds", required_argument, NULL, 's' },
		{ "version", required_argument, NULL, 'v' },
		{ "tune-mib", required_argument, NULL, 'T' },
		{ "tune-runs", required_argument, NULL, 'R' },
		{ "known-worse", required_argument, NULL, 'k' },
		{ "docs", required_argument, NULL, 'D' },
		{ "meta", required_argument, NULL, 'M' },
		{ "readahead-meta", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .command = "bench/run", .mode = "quick", .version = "" };
	int c;

	if (parse_layouts(&o, "stripeplan,mkfs-topology,parted-default,legacy-63"))
		return 2;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 'd': o.dir = optarg; break;
		case 'a': if (parse_array(&o, optarg)) return 2; break;
		case 'l': if (parse_layouts(&o, optarg)) return 2; break;
		case 'c': o.command = optarg; break;
		case 'm': o.mode = optarg; break;
		case 's': o.seconds = number(optarg, "--seconds"); break;
		case 'v': o.version = optarg; break;
		case 'T': o.tune_mib = number(optarg, "--tune-mib"); break;
		case 'R': o.tune_runs = number(optarg, "--tune-runs"); break;
		case 'k': o.known_worse = optarg; break;
		case 'D': o.docs_dir = optarg; break;
		case 'M': o.meta = optarg; break;
		case 'r': o.readahead_meta = optarg; break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (!o.dir || optind != argc) {
		fputs(usage, stderr);
		return 2;
	}
	return write_report(&o);
}
