/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The LIMITS section of stripeplan(8), written from the limits table
 * (planner/limits/limit.c) and the shipped controller profiles: cli/limits-doc
 * fails when the page's copy differs, and UPDATE_GOLDEN=1 rewrites it.
 * With --rows, each row as one line for cli/limits-prose.awk, which holds the
 * numbers the docs write beside a cite to the row's own:
 *   id TAB min TAB max TAB unit TAB what, release, source and note
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "limits/limit.h"
#include "stripeplan.h"

/* roff text: a backslash is \e, a leading dot or quote is guarded, '-' is \- */
static void roff(const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", stdout);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else
			putchar(*s);
	}
}

static void bound(const struct sp_limit *l)
{
	if (l->action == SP_LIMIT_CHANGED && !strcmp(l->unit, SP_LIMIT_UNIT_RELEASE)) {
		printf("from %" PRIu64 ".%" PRIu64, l->min / 1000, l->min % 1000);
		return;
	}
	if (l->action == SP_LIMIT_CHANGED) { /* a vendor's major release: "from RHEL 8" */
		printf("from ");
		roff(l->unit);
		printf(" %" PRIu64, l->min);
		return;
	}
	if (l->min && l->max)
		printf("%" PRIu64 " to %" PRIu64 " ", l->min, l->max);
	else if (l->max)
		printf("at most %" PRIu64 " ", l->max);
	else
		printf("at least %" PRIu64 " ", l->min);
	roff(l->unit);
	/* and as people read sizes */
	if (!strcmp(l->unit, "bytes") && (l->max ? l->max : l->min) >= (1ULL << 20)) {
		uint64_t v = l->max ? l->max : l->min;

		printf(" (%s%s)", SP_SIZE_TEXT(v + (v & 1), SP_SIZE_HUMAN), v & 1 ? " less one byte" : "");
	}
}

static const char *const actions[] = {
	[SP_LIMIT_REFUSED] = "outside it: refused",
	[SP_LIMIT_IGNORED] = "outside it: ignored (the plan warns)",
	[SP_LIMIT_TRUNCATED] = "outside it: stored truncated, without a word (the plan refuses it)",
	[SP_LIMIT_CHANGED] = "changed",
};

static void limit_rows(void)
{
	for (int i = 0; i < SP_LIMIT_COUNT; i++) {
		const struct sp_limit *l = sp_limit((enum sp_limit_id)i);

		printf(".TP\n.B ");
		roff(l->id);
		printf("\n");
		roff(l->tool);
		printf(": ");
		roff(l->what);
		printf(", ");
		bound(l);
		if (l->action != SP_LIMIT_CHANGED)
			printf("; %s", actions[l->action]);
		printf("%s", l->note ? "; " : ".\n");
		if (l->note) {
			roff(l->note);
			printf(".\n");
		}
		printf("Release and source: ");
		roff(l->since);
		printf("; ");
		roff(l->source);
		printf(".\n");
		if (l->releases) {
			printf("Older releases: ");
			roff(l->releases);
			printf(".\n");
		}
	}
}

static void profile_rows(const struct sp_profile_set *set)
{
	printf(".PP\nThe shipped controller profiles' documented limits\n"
	       "(\\fBstripeplan controllers\\fR shows them with their sources):\n");
	for (size_t i = 0; i < sp_profiles_count(set); i++) {
		const struct sp_profile *p = sp_profiles_get(set, i);

		printf(".TP\n.B ");
		roff(p->name);
		printf("\n");
		if (p->n_strip_sizes) {
			roff(p->strip_name[0] ? p->strip_name : "strip");
			printf("s");
			for (size_t s = 0; s < p->n_strip_sizes; s++)
				printf("%s%s", s ? ", " : " ",
				       SP_SIZE_TEXT(p->strip_sizes_bytes[s], SP_SIZE_SHORT));
		} else if (!strncmp(p->strips_source, "not found", 9)) {
			/* stripeplan's own bounds, not the vendor's: say so */
			printf("strip sizes not found in the vendor's documents: a chunk of %s to %s "
			       "is taken as declared",
			       SP_SIZE_TEXT(p->chunk_min_bytes, SP_SIZE_SHORT),
			       SP_SIZE_TEXT(p->chunk_max_bytes, SP_SIZE_SHORT));
		} else {
			printf("chunk %s to %s", SP_SIZE_TEXT(p->chunk_min_bytes, SP_SIZE_SHORT),
			       SP_SIZE_TEXT(p->chunk_max_bytes, SP_SIZE_SHORT));
		}
		if (p->default_strip_bytes)
			printf(", default %s", SP_SIZE_TEXT(p->default_strip_bytes, SP_SIZE_SHORT));
		if (p->spans_max)
			printf("; %u to %u spans", p->spans_min ? p->spans_min : 2, p->spans_max);
		if (p->span_disks_max)
			printf(" of at most %u disks", p->span_disks_max);
		if (p->max_disks)
			printf("; at most %u disks", p->max_disks);
		for (size_t r = 0; r < p->n_level_rules; r++) {
			const struct sp_level_rule *rule = &p->level_rules[r];

			printf("; %s from %u", sp_level_name(rule->level), rule->min_disks);
			if (rule->max_disks)
				printf(" to %u", rule->max_disks);
			printf(" disk%s", rule->min_disks == 1 && !rule->max_disks ? "" : "s");
			if (rule->chunk == SP_CHUNK_SECTOR_MULTIPLE)
				printf(", any chunk of whole 4\\ KiB blocks");
		}
		printf(".\n");
	}
}

/* tabs and newlines never occur in the table's text; a row with one would
 * shift the fields, so it is refused rather than printed */
static int print_field(const char *s, const char *after)
{
	if (strpbrk(s, "\t\n"))
		return -1;
	printf("%s%s", s, after);
	return 0;
}

static int rows_for_prose(void)
{
	for (int i = 0; i < SP_LIMIT_COUNT; i++) {
		const struct sp_limit *l = sp_limit((enum sp_limit_id)i);

		printf("%s\t%" PRIu64 "\t%" PRIu64 "\t", l->id, l->min, l->max);
		if (print_field(l->unit, "\t") < 0 || print_field(l->what, " ") < 0 ||
		    print_field(l->since, " ") < 0 || print_field(l->source, " ") < 0 ||
		    print_field(l->note ? l->note : "", "\n") < 0) {
			fprintf(stderr, "limits-doc: row %s has a tab or a newline\n", l->id);
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct sp_profile_set *set = NULL;
	struct sp_error err = { 0 };

	if (argc == 2 && !strcmp(argv[1], "--rows"))
		return rows_for_prose();
	if (argc != 1) {
		fprintf(stderr, "usage: limits-doc [--rows]\n");
		return 2;
	}

	if (sp_profiles_embedded(&set, &err) < 0) {
		fprintf(stderr, "limits-doc: %s\n", err.message);
		return 1;
	}
	limit_rows();
	profile_rows(set);
	sp_profiles_free(set);
	return 0;
}
