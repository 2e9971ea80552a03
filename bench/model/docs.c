/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The docs' figures from the stored run (docs.h). */
#include "docs.h"

#include "readahead.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the layouts the docs' tables show, the plan first, and how they name them */
static const char *const doc_layouts[] = { "stripeplan", "mkfs-topology", "parted-default",
					   "legacy-63" };
static const char *const doc_layout_titles[] = { "stripeplan", "mkfs-topology",
						 "parted default (GPT at 1 MiB)",
						 "msdos at sector 63" };

struct meta {
	char command[512];
	char date[64];
	char kernel[128];
	char cpus[16];
	char seconds[32];
	char load_min[16];
	char load_mean[16];
	char load_max[16];
	char images[256];   /* where the loop images lived (bench/run, images_place) */
	char images_fs[32]; /* and its file system type, as stat -f names it */
};

static FILE *fragment(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.md", dir, name);
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "sp-bench-report: cannot write '%s': %s\n", path, strerror(errno));
	return f;
}

static int done(FILE *f, const char *name)
{
	if (fclose(f)) {
		fprintf(stderr, "sp-bench-report: cannot write the '%s' fragment: %s\n", name,
			strerror(errno));
		return -EIO;
	}
	return 0;
}

static void meta_field(char *dst, size_t len, const char *key, const char *want,
		       const char *value)
{
	if (!strcmp(key, want))
		snprintf(dst, len, "%s", value);
}

static void meta_load(const char *path, struct meta *m)
{
	char line[1024];
	FILE *f;

	memset(m, 0, sizeof(*m));
	f = path ? fopen(path, "r") : NULL;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t');

		if (line[0] == '#' || !tab)
			continue;
		*tab = '\0';
		tab[1 + strcspn(tab + 1, "\n")] = '\0';
		meta_field(m->command, sizeof(m->command), line, "command", tab + 1);
		meta_field(m->date, sizeof(m->date), line, "date", tab + 1);
		meta_field(m->kernel, sizeof(m->kernel), line, "kernel", tab + 1);
		meta_field(m->cpus, sizeof(m->cpus), line, "cpus", tab + 1);
		meta_field(m->seconds, sizeof(m->seconds), line, "seconds", tab + 1);
		meta_field(m->load_min, sizeof(m->load_min), line, "load_min", tab + 1);
		meta_field(m->load_mean, sizeof(m->load_mean), line, "load_mean", tab + 1);
		meta_field(m->load_max, sizeof(m->load_max), line, "load_max", tab + 1);
		meta_field(m->images, sizeof(m->images), line, "images", tab + 1);
		meta_field(m->images_fs, sizeof(m->images_fs), line, "images_fs", tab + 1);
	}
	fclose(f);
}

/* How many runs each layout had of WORKLOAD: the least over arrays and the
 * judged layouts (they ran alike; a smaller count shows a run cut short). */
static size_t workload_runs(const struct array_label *arrays, size_t n_arrays,
			    const struct cases *c, const char *workload)
{
	size_t least = 0;

	for (size_t i = 0; i < n_arrays; i++)
		for (size_t l = 0; l < ARRAY_SIZE(doc_layouts); l++) {
			struct bstat_sample s = cases_sample(c, arrays[i].name, doc_layouts[l],
							     workload, bench_rule_keys[0]);

			if (s.n && (!least || s.n < least))
				least = s.n;
		}
	return least;
}

/* The command without the options that say only where the run wrote
 * (--out DIR, --json FILE): the docs quote what was measured, and a
 * scratch directory is nothing a reader can repeat. */
static void command_text(const char *command, char *out, size_t len)
{
	static const char *const where[] = { " --out ", " --json " };
	size_t u = 0;

	out[0] = '\0';
	while (*command && u + 1 < len) {
		bool skipped = false;

		for (size_t i = 0; i < ARRAY_SIZE(where) && !skipped; i++) {
			size_t n = strlen(where[i]);

			if (strncmp(command, where[i], n))
				continue;
			command += n;
			command += strcspn(command, " ");
			skipped = true;
		}
		if (!skipped)
			out[u++] = *command++;
	}
	out[u] = '\0';
}

/* Where the loop images lived: on a disk file system a partition's offset
 * changes their timing and what the model gathers (bench/README.md,
 * "Findings"), so the docs say it.  Runs stored before bench/run recorded
 * it say nothing. */
static void write_images(FILE *f, const struct meta *m)
{
	if (!m->images_fs[0])
		return;
	if (!strcmp(m->images_fs, "tmpfs"))
		fprintf(f, "; the loop images on tmpfs, in `%s`", m->images);
	else
		fprintf(f, "; the loop images on %s, in `%s`, where a partition's offset\n"
			   "changes their timing",
			m->images_fs, m->images);
}

static int write_run(const char *dir, const struct array_label *arrays, size_t n_arrays,
		     const struct cases *c, const struct meta *m)
{
	FILE *f = fragment(dir, "run");
	size_t runs[ARRAY_SIZE(bench_workloads)];
	bool said[ARRAY_SIZE(bench_workloads)] = { false };
	char command[sizeof(m->command)];
	const char *sep = "";

	if (!f)
		return -EIO;
	command_text(m->command[0] ? m->command : "bench/run", command, sizeof(command));
	fprintf(f, "`sudo %s`", command);
	if (m->date[0]) {
		fprintf(f, " (%s: %s s on a %s-CPU VM, Linux %s, the 1-minute load average %s–%s,\n"
			   "mean %s",
			m->date, m->seconds, m->cpus, m->kernel, m->load_min, m->load_max,
			m->load_mean);
		write_images(f, m);
		fputc(')', f);
	}
	fputs(": every layout's cases", f);
	for (size_t w = 0; w < ARRAY_SIZE(bench_workloads); w++)
		runs[w] = workload_runs(arrays, n_arrays, c, bench_workloads[w]);
	/* "5 times on stripewrite, seqwrite and seqread; 20 times on metadata" */
	for (size_t w = 0; w < ARRAY_SIZE(bench_workloads); w++) {
		size_t left = 0;

		if (said[w] || !runs[w])
			continue;
		for (size_t v = w; v < ARRAY_SIZE(bench_workloads); v++)
			left += runs[v] == runs[w];
		fprintf(f, "%s %zu times on ", sep, runs[w]);
		for (size_t v = w; v < ARRAY_SIZE(bench_workloads); v++) {
			if (runs[v] != runs[w])
				continue;
			said[v] = true;
			left--;
			fprintf(f, "%s%s", bench_workloads[v], left > 1 ? ", " : left ? " and " : "");
		}
		sep = ";";
	}
	fputs(", each run on fresh fixtures, in rounds where the layouts take turns going first.\n",
	      f);
	return done(f, "run");
}

static const char *mean_text(const struct bstat_sample *s, char *buf, size_t len)
{
	if (s->n)
		snprintf(buf, len, "%.2f", s->mean);
	else
		snprintf(buf, len, "—");
	return buf;
}

/* A table of one figure's means: a row per array, a column per layout. */
static int write_means(const char *dir, const char *name, const struct array_label *arrays,
		       size_t n_arrays, const struct cases *c, const char *workload,
		       const char *key, bool with_general)
{
	FILE *f = fragment(dir, name);
	char buf[32];

	if (!f)
		return -EIO;
	fputs("| array |", f);
	for (size_t l = 0; l < ARRAY_SIZE(doc_layouts); l++) {
		fprintf(f, " %s |", doc_layout_titles[l]);
		if (l == 0 && with_general)
			fputs(" general |", f);
	}
	fputs("\n|---|", f);
	for (size_t l = 0; l < ARRAY_SIZE(doc_layouts) + with_general; l++)
		fputs("---:|", f);
	fputc('\n', f);
	for (size_t i = 0; i < n_arrays; i++) {
		if (!cases_array_ran(c, arrays[i].name))
			continue;
		fprintf(f, "| %s |", arrays[i].label);
		for (size_t l = 0; l < ARRAY_SIZE(doc_layouts); l++) {
			struct bstat_sample s = cases_sample(c, arrays[i].name, doc_layouts[l],
							     workload, key);

			fprintf(f, " %s |", mean_text(&s, buf, sizeof(buf)));
			if (l == 0 && with_general) {
				json_object *g = cases_find(c, arrays[i].name, BENCH_INFORMATIONAL,
							    workload);

				s = cases_sample(c, arrays[i].name, BENCH_INFORMATIONAL, workload,
						 key);
				fprintf(f, " %s |", g ? mean_text(&s, buf, sizeof(buf)) : "—");
			}
		}
		fputc('\n', f);
	}
	return done(f, name);
}

/* The spread of each workload's runs: sd over mean, least and most over
 * arrays and layouts, for both metrics. */
static int write_spread(const char *dir, const struct array_label *arrays, size_t n_arrays,
			const struct cases *c)
{
	FILE *f = fragment(dir, "spread");

	if (!f)
		return -EIO;
	fputs("| workload | runs | member I/Os | member bytes |\n|---|---:|---:|---:|\n", f);
	for (size_t w = 0; w < ARRAY_SIZE(bench_workloads); w++) {
		size_t runs = workload_runs(arrays, n_arrays, c, bench_workloads[w]);

		if (!runs)
			continue;
		fprintf(f, "| %s | %zu |", bench_workloads[w], runs);
		for (size_t k = 0; k < ARRAY_SIZE(bench_rule_keys); k++) {
			double lo = INFINITY, hi = -INFINITY;

			for (size_t i = 0; i < n_arrays; i++)
				for (size_t l = 0; l < ARRAY_SIZE(doc_layouts); l++) {
					struct bstat_sample s = cases_sample(c, arrays[i].name,
									     doc_layouts[l],
									     bench_workloads[w],
									     bench_rule_keys[k]);
					double r;

					if (s.n < 2 || !(s.mean > 0))
						continue;
					r = s.sd / s.mean;
					lo = fmin(lo, r);
					hi = fmax(hi, r);
				}
			if (isinf(lo))
				fputs(" — |", f);
			else
				fprintf(f, " %.1f–%.1f %% |", lo * 100, hi * 100);
		}
		fputc('\n', f);
	}
	return done(f, "spread");
}

static const char *label_of(const struct array_label *arrays, size_t n_arrays,
			    const char *name)
{
	for (size_t i = 0; i < n_arrays; i++)
		if (!strcmp(arrays[i].name, name))
			return arrays[i].label;
	return name;
}

struct summary {
	const struct array_label *arrays;
	size_t n_arrays;
	FILE *f;
	unsigned counts[BRULE_TOO_FEW_RUNS + 1];
	bool listing; /* second pass: the ones not at or below */
};

static int summary_line(void *ctx, const char *array, const char *workload, size_t key,
			const char *peer, const struct bstat_sample *plan,
			const struct bstat_sample *other, const struct brule_judgement *j)
{
	struct summary *s = ctx;

	if (!s->listing) {
		s->counts[j->verdict]++;
		return 0;
	}
	if (j->verdict == BRULE_AT_OR_BELOW)
		return 0;
	fprintf(s->f,
		"- **%s**: %s on %s, member %s: the plan %.2f ± %.2f against %s's %.2f ± %.2f,\n"
		"  %+.2f %% (%.0f %% interval %+.2f to %+.2f %%)\n",
		brule_verdict_name(j->verdict), workload, label_of(s->arrays, s->n_arrays, array),
		key ? "bytes per data byte" : "I/Os per MiB", plan->mean, plan->sd, peer,
		other->mean, other->sd, j->diff_rel * 100, BRULE_CONFIDENCE * 100,
		j->lo_rel * 100, j->hi_rel * 100);
	return 0;
}

static int write_rule_summary(const char *dir, const struct array_label *arrays,
			      size_t n_arrays, const struct cases *c)
{
	struct summary s = { .arrays = arrays, .n_arrays = n_arrays };
	unsigned total;

	s.f = fragment(dir, "rule-summary");
	if (!s.f)
		return -EIO;
	cases_each_judgement(arrays, n_arrays, c, summary_line, &s);
	total = s.counts[0] + s.counts[1] + s.counts[2] + s.counts[3];
	fprintf(s.f,
		"Of its %u comparisons (array × workload × metric × peer), the plan is at or below\n"
		"the peer in %u, worse in %u and undecided in %u",
		total, s.counts[BRULE_AT_OR_BELOW], s.counts[BRULE_WORSE], s.counts[BRULE_UNDECIDED]);
	if (s.counts[BRULE_TOO_FEW_RUNS])
		fprintf(s.f, "; %u had too few runs to judge", s.counts[BRULE_TOO_FEW_RUNS]);
	fputs(total == s.counts[BRULE_AT_OR_BELOW] ? ".\n" : ":\n\n", s.f);
	s.listing = true;
	cases_each_judgement(arrays, n_arrays, c, summary_line, &s);
	return done(s.f, "rule-summary");
}

/* One row per array x workload x metric; the verdicts against the peers in its last column. */
struct table_row {
	char verdicts[512];
};

static void table_verdict(struct table_row *r, const char *peer, const struct brule_judgement *j)
{
	size_t u = strlen(r->verdicts);

	if (j->verdict != BRULE_AT_OR_BELOW)
		snprintf(r->verdicts + u, sizeof(r->verdicts) - u, "%s**%s** %s %s (%+.2f %%)",
			 u ? "; " : "", brule_verdict_name(j->verdict),
			 j->verdict == BRULE_WORSE ? "than" : "against", peer, j->diff_rel * 100);
}

static int write_rule_table(const char *dir, const struct array_label *arrays,
			    size_t n_arrays, const struct cases *c)
{
	FILE *f = fragment(dir, "rule-table");
	char buf[64];

	if (!f)
		return -EIO;
	fputs("| array | workload | metric |", f);
	for (size_t l = 0; l < ARRAY_SIZE(doc_layouts); l++)
		fprintf(f, " %s |", doc_layouts[l]);
	fputs(" verdict |\n|---|---|---|", f);
	for (size_t l = 0; l < ARRAY_SIZE(doc_layouts); l++)
		fputs("---:|", f);
	fputs("---|\n", f);
	for (size_t i = 0; i < n_arrays; i++)
		for (size_t w = 0; w < ARRAY_SIZE(bench_workloads); w++)
			for (size_t k = 0; k < ARRAY_SIZE(bench_rule_keys); k++) {
				struct table_row r = { "" };
				struct bstat_sample plan = cases_planned_sample(
					c, arrays[i].name, bench_workloads[w], bench_rule_keys[k]);

				if (!plan.n)
					continue;
				fprintf(f, "| %s | %s | %s |", arrays[i].name, bench_workloads[w],
					bench_rule_key_labels[k]);
				for (size_t l = 0; l < ARRAY_SIZE(doc_layouts); l++) {
					struct bstat_sample s = cases_sample(c, arrays[i].name,
									     doc_layouts[l],
									     bench_workloads[w],
									     bench_rule_keys[k]);

					if (s.n)
						snprintf(buf, sizeof(buf), "%.2f ± %.2f", s.mean, s.sd);
					else
						snprintf(buf, sizeof(buf), "—");
					fprintf(f, " %s |", buf);
				}
				for (size_t p = 0; p < ARRAY_SIZE(bench_peers); p++) {
					struct bstat_sample a, b;
					struct brule_judgement j = cases_judge(c, arrays[i].name,
									       bench_workloads[w], k,
									       bench_peers[p], &a, &b);

					if (a.n && b.n)
						table_verdict(&r, bench_peers[p], &j);
				}
				fprintf(f, " %s |\n", r.verdicts[0] ? r.verdicts : "at or below all");
			}
	return done(f, "rule-table");
}

/*
 * The plan's own text states what the runs say it gives up: the C block
 * formatters/text.c prints with every XFS plan of the general workload,
 * one line per comparison the plan does not pass, then what the
 * read-ahead sweep says the plan's read-ahead costs.
 */
struct trades {
	const struct array_label *arrays;
	size_t n_arrays;
	const struct cases *ra; /* the read-ahead sweep's, for seqread's why */
	FILE *f;
	unsigned undecided;
};

/* each peer as the plan text names it: what a user would otherwise have made */
static const char *peer_phrase(const char *peer)
{
	if (!strcmp(peer, "mkfs-topology"))
		return "with mkfs.xfs's own geometry";
	if (!strcmp(peer, "parted-default"))
		return "with parted's default (GPT at 1 MiB, no su)";
	if (!strcmp(peer, "legacy-63"))
		return "with an msdos table at sector 63";
	return peer;
}

static const char *workload_phrase(const char *workload)
{
	if (!strcmp(workload, "metadata"))
		return "small files made and removed";
	if (!strcmp(workload, "smallfiles"))
		return "fsync'd small files";
	return workload;
}

/* "RAID5 10 × 1 MiB (HP ..., seed 001)" -> "RAID5 10 x 1 MiB": plan text is ASCII */
static void short_label(const char *label, char *out, size_t len)
{
	size_t o = 0;

	for (const char *c = label; *c && *c != '(' && *c != ':' && o + 1 < len; c++) {
		if (!strncmp(c, "\xc3\x97", 2)) { /* U+00D7 MULTIPLICATION SIGN */
			out[o++] = 'x';
			c++;
		} else {
			out[o++] = *c;
		}
	}
	while (o && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
}

/* an array whose plan's read-ahead the sweep judges worse on some file: the rule's judgement */
static bool ra_costs_more(const struct ra_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct brule_judgement j;

		brule_judge(&rows[i].plan, &rows[i].topology, &j);
		if (j.verdict == BRULE_WORSE)
			return true;
	}
	return false;
}

/*
 * What the read-ahead sweep measured, for every array where the plan's
 * read-ahead costs more on some file by the rule: each file's figures, the
 * ones where it costs less too.  The efficiency part's seqread against
 * mkfs-topology differs in the read-ahead and in nothing else a read
 * reaches, so its loss is explained here or nowhere.
 */
static void trade_read_ahead(const struct trades *t)
{
	bool header = false;

	for (size_t a = 0; a < t->n_arrays; a++) {
		struct ra_row rows[BENCH_RA_MAX_SIZES];
		size_t n = ra_rows(t->ra, t->arrays[a].name, rows, BENCH_RA_MAX_SIZES);
		char label[96];

		if (!n || !ra_costs_more(rows, n))
			continue;
		if (!header) {
			fputs("\t\"                 read-ahead: one file read cold at the plan's read_ahead_kb and at the kernel's\\n\"\n"
			      "\t\"                 for the array's geometry, nothing else changed (bench/run --parts readahead),\\n\"\n"
			      "\t\"                 member I/Os per MiB, on the arrays where the plan's costs more on a file:\\n\"\n",
			      t->f);
			header = true;
		}
		short_label(label_of(t->arrays, t->n_arrays, t->arrays[a].name), label, sizeof(label));
		fprintf(t->f, "\t\"                 %s, %s KiB against %s KiB:\\n\"\n", label,
			rows[0].plan_kib, rows[0].topology_kib);
		for (size_t i = 0; i < n; i++) {
			const struct ra_row *r = &rows[i];

			fprintf(t->f, "\t\"                   %u MiB: %.2f against %.2f", r->file_mib,
				r->plan.mean, r->topology.mean);
			if (r->have_diff)
				fprintf(t->f, " (%+.1f %%, 95 %% interval %+.1f to %+.1f %%)",
					r->diff.diff / r->topology.mean * 100,
					r->diff.lo / r->topology.mean * 100,
					r->diff.hi / r->topology.mean * 100);
			fputs("\\n\"\n", t->f);
		}
	}
	if (header)
		fputs("\t\"                 the read-ahead is the profile's, for the sequential throughput the field measured\\n\"\n"
		      "\t\"                 with it (the tuning's why): the bench counts I/Os, not their speed\\n\"\n",
		      t->f);
}

static int trade_line(void *ctx, const char *array, const char *workload, size_t key,
		      const char *peer, const struct bstat_sample *plan,
		      const struct bstat_sample *other, const struct brule_judgement *j)
{
	struct trades *t = ctx;
	struct ra_row rows[BENCH_RA_MAX_SIZES];
	char label[96];

	if (j->verdict == BRULE_UNDECIDED)
		t->undecided++;
	if (j->verdict != BRULE_WORSE)
		return 0;
	short_label(label_of(t->arrays, t->n_arrays, array), label, sizeof(label));
	fprintf(t->f,
		"\t\"                 %s, %s: %.2f member %s,\\n\"\n"
		"\t\"                   %.2f %s (%+.2f %%, %.0f %% interval %+.2f to %+.2f %%)\\n\"\n",
		label, workload_phrase(workload), plan->mean,
		key ? "bytes per data byte" : "I/Os per MiB", other->mean, peer_phrase(peer),
		j->diff_rel * 100, BRULE_CONFIDENCE * 100, j->lo_rel * 100, j->hi_rel * 100);
	if (!strcmp(workload, "seqread") && !strcmp(peer, "mkfs-topology") &&
	    ra_costs_more(rows, ra_rows(t->ra, array, rows, BENCH_RA_MAX_SIZES)))
		fputs("\t\"                   the read-ahead's (below): nothing else that differs moves a read's requests\\n\"\n",
		      t->f);
	return 0;
}

static int write_plan_trades(const char *dir, const struct array_label *arrays,
			     size_t n_arrays, const struct cases *c, const struct cases *ra)
{
	struct trades t = { .arrays = arrays, .n_arrays = n_arrays, .ra = ra };

	t.f = fragment(dir, "plan-trades");
	if (!t.f)
		return -EIO;
	fputs("static const char xfs_trades[] =\n"
	      "\t\"  given up       what the bench's runs show the plan costs more than a peer layout (bench/run,\\n\"\n"
	      "\t\"                 stored run; Welch's interval of the difference lies above +0.5 %):\\n\"\n",
	      t.f);
	cases_each_judgement(arrays, n_arrays, c, trade_line, &t);
	trade_read_ahead(&t);
	if (t.undecided)
		fprintf(t.f, "\t\"                 and %u comparison%s the runs cannot decide (the README's bench rule table)\\n\";\n",
			t.undecided, t.undecided == 1 ? "" : "s");
	else
		fputs("\t\"                 every other comparison at or below the peer (the README's bench rule table)\\n\";\n",
		      t.f);
	return done(t.f, "plan-trades");
}

/* the read-ahead sweep's table, and the run it came from */
static int write_readahead(const char *dir, const struct array_label *arrays, size_t n_arrays,
			   const struct cases *ra, const char *meta_path)
{
	char command[512];
	struct meta m;
	FILE *f;

	meta_load(meta_path, &m);
	f = fragment(dir, "readahead");
	if (!f)
		return -EIO;
	command_text(m.command, command, sizeof(command));
	if (!ra->n)
		fputs("No read-ahead sweep is stored.\n", f);
	else
		fprintf(f, "`%s`, %s, Linux %s, %s s (the loop images in `%s`, %s):\n\n",
			command[0] ? command : "bench/run --parts readahead",
			m.date[0] ? m.date : "undated", m.kernel[0] ? m.kernel : "unknown",
			m.seconds[0] ? m.seconds : "?", m.images[0] ? m.images : "?",
			m.images_fs[0] ? m.images_fs : "?");
	ra_table(f, arrays, n_arrays, ra);
	return done(f, "readahead");
}

int docs_write(const char *dir, const struct array_label *arrays, size_t n_arrays,
	       const struct cases *c, const char *meta_path, const struct cases *ra,
	       const char *ra_meta_path)
{
	struct meta m;
	int r;

	meta_load(meta_path, &m);
	r = write_run(dir, arrays, n_arrays, c, &m);
	if (!r)
		r = write_means(dir, "stripewrite", arrays, n_arrays, c, "stripewrite",
				"ratio_to_min", false);
	if (!r)
		r = write_means(dir, "smallfiles-bytes", arrays, n_arrays, c, "smallfiles",
				"member_bytes_per_data_byte", true);
	if (!r)
		r = write_spread(dir, arrays, n_arrays, c);
	if (!r)
		r = write_rule_summary(dir, arrays, n_arrays, c);
	if (!r)
		r = write_rule_table(dir, arrays, n_arrays, c);
	if (!r)
		r = write_plan_trades(dir, arrays, n_arrays, c, ra);
	if (!r)
		r = write_readahead(dir, arrays, n_arrays, ra, ra_meta_path);
	return r;
}
