/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sp-replay: runs one captured trace through the array model and prints
 * one JSON object, a case of the bench's report.  The only file of the
 * model that prints or exits.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/units.h"
#include "raid/model.h"

static const char usage[] =
	"Usage: sp-replay --level LEVEL --disks N [--spans G] --chunk SIZE [OPTIONS] [TRACE]\n"
	"\n"
	"Replay a block trace (lines 'I|C R|W SECTOR SECTORS'; '-' or none: stdin)\n"
	"through a model of the RAID array and print what it cost the members, as JSON.\n"
	"\n"
	"      --offset-sectors N   LUN sector of the trace's sector 0 (default 0: the\n"
	"                           trace was taken on the whole LUN)\n"
	"      --gather inflight|none\n"
	"                           inflight (default): writes in flight together are\n"
	"                           gathered per stripe; none: each request alone\n"
	"      --direction write|read\n"
	"                           which requests the headline figures describe\n"
	"      --payload-bytes N    what the workload itself wrote (or read): figures\n"
	"                           per MiB are per MiB of it, so log and metadata\n"
	"                           writes count as cost (default: the requests' bytes)\n"
	"      --request-bytes N    the size of the workload's own writes (or reads):\n"
	"                           the achievable floor is each of them alone, starting\n"
	"                           a stripe (default: no floor, its figures are null)\n"
	"      --array NAME, --layout NAME, --workload NAME, --profile NAME\n"
	"                           labels copied into the output (profile: the plan's\n"
	"                           --workload; without it, \"profile\" is null)\n"
	"  -h, --help               show this help\n";

enum {
	OPT_LEVEL = 256,
	OPT_DISKS,
	OPT_SPANS,
	OPT_CHUNK,
	OPT_OFFSET,
	OPT_GATHER,
	OPT_DIRECTION,
	OPT_PAYLOAD,
	OPT_REQUEST,
	OPT_ARRAY,
	OPT_LAYOUT,
	OPT_WORKLOAD,
	OPT_PROFILE,
};

struct labels {
	const char *array;
	const char *layout;
	const char *workload;
	const char *profile; /* NULL: the layout was not planned for a workload */
};

static int die(const char *fmt, const char *arg)
{
	fprintf(stderr, "sp-replay: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return SP_EXIT_INVALID;
}

/* Labels go into JSON unescaped, so they may hold only what needs no escaping. */
static bool label_ok(const char *s)
{
	if (!*s || strlen(s) > SP_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-", *s))
			return false;
	return true;
}

/* JSON has no NaN or infinity; the figures are finite by construction, but say null if not. */
static void print_number(const char *key, double v, bool last)
{
	if (v != v || v > 1e300 || v < -1e300)
		printf("\"%s\": null%s", key, last ? "" : ", ");
	else
		printf("\"%s\": %.6g%s", key, v, last ? "" : ", ");
}

static void print_case(const struct labels *l, const struct rm_geometry *g,
		       const struct rm_stats *s, enum rm_dir dir, uint64_t payload_bytes,
		       const struct rm_floor *floor)
{
	const struct rm_counts *c = dir == RM_WRITE ? &s->write : &s->read;
	struct rm_figures f;

	rm_figures(g, s, dir, payload_bytes, &f);
	printf("{\"array\": \"%s\", \"layout\": \"%s\", \"workload\": \"%s\", ", l->array,
	       l->layout, l->workload);
	if (l->profile)
		printf("\"profile\": \"%s\", ", l->profile);
	else
		printf("\"profile\": null, ");
	printf("\"direction\": \"%s\", ", dir == RM_WRITE ? "write" : "read");
	/* one row: what the report calls the array's stripe */
	printf("\"stripe_width_bytes\": %llu, ",
	       (unsigned long long)(g->row_sectors * RM_SECTOR_BYTES));
	printf("\"requests\": %llu, ", (unsigned long long)c->requests);
	print_number("payload_mib", f.payload_mib, false);
	print_number("device_mib", f.device_mib, false);
	if (dir == RM_WRITE)
		print_number("full_stripe_write_fraction", f.full_stripe_write_fraction, false);
	else
		printf("\"full_stripe_write_fraction\": null, ");
	print_number("member_ios_per_mib", f.member_ios_per_mib, false);
	print_number("min_member_ios_per_mib", f.min_member_ios_per_mib, false);
	print_number("ratio_to_min",
		     f.min_member_ios_per_mib > 0 ? f.member_ios_per_mib / f.min_member_ios_per_mib :
						    0,
		     false);
	print_number("chunk_crossing_fraction", f.chunk_crossing_fraction, false);
	print_number("member_bytes_per_data_byte", f.member_bytes_per_data_byte, false);
	print_number("min_member_bytes_per_data_byte", f.min_member_bytes_per_data_byte, false);
	print_number("bytes_ratio_to_min",
		     f.min_member_bytes_per_data_byte > 0 ?
			     f.member_bytes_per_data_byte / f.min_member_bytes_per_data_byte :
			     0,
		     false);
	if (floor) {
		print_number("floor_member_ios_per_mib", floor->member_ios_per_mib, false);
		print_number("floor_member_bytes_per_data_byte", floor->member_bytes_per_data_byte,
			     false);
		print_number("ratio_to_floor", f.member_ios_per_mib / floor->member_ios_per_mib,
			     false);
		print_number("bytes_ratio_to_floor",
			     f.member_bytes_per_data_byte / floor->member_bytes_per_data_byte, false);
	} else {
		printf("\"floor_member_ios_per_mib\": null, \"floor_member_bytes_per_data_byte\": null, "
		       "\"ratio_to_floor\": null, \"bytes_ratio_to_floor\": null, ");
	}
	printf("\"member_reads\": %llu, \"member_writes\": %llu, ",
	       (unsigned long long)c->member_reads, (unsigned long long)c->member_writes);
	printf("\"member_read_bytes\": %llu, \"member_write_bytes\": %llu, ",
	       (unsigned long long)(c->member_read_sectors * RM_SECTOR_BYTES),
	       (unsigned long long)(c->member_write_sectors * RM_SECTOR_BYTES));
	printf("\"rows\": {\"full\": %llu, \"rmw\": %llu, \"rcw\": %llu, \"mixed\": %llu, "
	       "\"partial\": %llu}, ",
	       (unsigned long long)s->rows_full, (unsigned long long)s->rows_rmw,
	       (unsigned long long)s->rows_rcw, (unsigned long long)s->rows_mixed,
	       (unsigned long long)s->rows_partial);
	printf("\"other_direction_requests\": %llu, ",
	       (unsigned long long)(dir == RM_WRITE ? s->read.requests : s->write.requests));
	printf("\"unmatched_completions\": %llu, \"forced_destages\": %llu}\n",
	       (unsigned long long)s->unmatched_completions,
	       (unsigned long long)s->forced_destages);
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "level", required_argument, NULL, OPT_LEVEL },
		{ "disks", required_argument, NULL, OPT_DISKS },
		{ "spans", required_argument, NULL, OPT_SPANS },
		{ "chunk", required_argument, NULL, OPT_CHUNK },
		{ "offset-sectors", required_argument, NULL, OPT_OFFSET },
		{ "gather", required_argument, NULL, OPT_GATHER },
		{ "direction", required_argument, NULL, OPT_DIRECTION },
		{ "payload-bytes", required_argument, NULL, OPT_PAYLOAD },
		{ "request-bytes", required_argument, NULL, OPT_REQUEST },
		{ "array", required_argument, NULL, OPT_ARRAY },
		{ "layout", required_argument, NULL, OPT_LAYOUT },
		{ "workload", required_argument, NULL, OPT_WORKLOAD },
		{ "profile", required_argument, NULL, OPT_PROFILE },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct labels labels = { "array", "layout", "workload", NULL };
	struct rm_array array = { 0 };
	struct sp_error err = { 0 };
	struct rm_model *m = NULL;
	struct rm_stats stats;
	enum rm_gather gather = RM_GATHER_INFLIGHT;
	enum rm_dir dir = RM_WRITE;
	const char *path = "-";
	uint64_t payload_bytes = 0, request_bytes = 0;
	struct rm_floor floor = { 0 };
	bool have_level = false;
	uint64_t v;
	FILE *in = stdin;
	int c, rc = SP_EXIT_FAILED;

	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case OPT_LEVEL:
			if (sp_parse_level(optarg, &array.level, &err) < 0)
				return die("%s", err.message);
			have_level = true;
			break;
		case OPT_DISKS:
			if (sp_parse_count(optarg, "disks", 1, SP_MAX_DISKS, &v, &err) < 0)
				return die("%s", err.message);
			array.disks = (unsigned)v;
			break;
		case OPT_SPANS:
			if (sp_parse_count(optarg, "spans", 0, SP_MAX_DISKS, &v, &err) < 0)
				return die("%s", err.message);
			array.spans = (unsigned)v;
			break;
		case OPT_CHUNK:
			if (sp_parse_size(optarg, "chunk", &array.chunk_bytes, &err) < 0)
				return die("%s", err.message);
			break;
		case OPT_OFFSET:
			if (sp_parse_count(optarg, "offset-sectors", 0, UINT64_MAX / 4, &v, &err) < 0)
				return die("%s", err.message);
			array.offset_sectors = v;
			break;
		case OPT_GATHER:
			if (!strcmp(optarg, "inflight"))
				gather = RM_GATHER_INFLIGHT;
			else if (!strcmp(optarg, "none"))
				gather = RM_GATHER_NONE;
			else
				return die("gather: 'inflight' or 'none', not '%s'", optarg);
			break;
		case OPT_DIRECTION:
			if (!strcmp(optarg, "write"))
				dir = RM_WRITE;
			else if (!strcmp(optarg, "read"))
				dir = RM_READ;
			else
				return die("direction: 'write' or 'read', not '%s'", optarg);
			break;
		case OPT_PAYLOAD:
			if (sp_parse_count(optarg, "payload-bytes", 1, UINT64_MAX / 4, &payload_bytes,
					   &err) < 0)
				return die("%s", err.message);
			break;
		case OPT_REQUEST:
			if (sp_parse_size(optarg, "request-bytes", &request_bytes, &err) < 0)
				return die("%s", err.message);
			break;
		case OPT_ARRAY:
		case OPT_LAYOUT:
		case OPT_WORKLOAD:
		case OPT_PROFILE:
			if (!label_ok(optarg))
				return die("label '%s': use letters, digits and ._+- only", optarg);
			if (c == OPT_ARRAY)
				labels.array = optarg;
			else if (c == OPT_LAYOUT)
				labels.layout = optarg;
			else if (c == OPT_WORKLOAD)
				labels.workload = optarg;
			else
				labels.profile = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs("Try 'sp-replay --help'.\n", stderr);
			return SP_EXIT_INVALID;
		}
	}
	if (optind < argc)
		path = argv[optind++];
	if (optind < argc)
		return die("one trace at a time; '%s' is one too many", argv[optind]);
	if (!have_level || !array.disks || !array.chunk_bytes)
		return die("%s", "--level, --disks and --chunk are required");

	if (rm_model_new(&array, gather, &m, &err) < 0)
		return die("%s", err.message);
	if (request_bytes && rm_floor(rm_model_geometry(m), dir, request_bytes, &floor, &err) < 0) {
		rm_model_free(m);
		return die("%s", err.message);
	}
	if (strcmp(path, "-")) {
		in = fopen(path, "re");
		if (!in) {
			fprintf(stderr, "sp-replay: cannot open '%s': %s\n", path, strerror(errno));
			goto out;
		}
	}
	if (rm_trace_replay(m, in, path, &err) < 0) {
		fprintf(stderr, "sp-replay: %s\n", err.message);
		rc = sp_error_exit_code(&err);
		goto out;
	}
	rm_model_finish(m, &stats);
	print_case(&labels, rm_model_geometry(m), &stats, dir, payload_bytes,
		   request_bytes ? &floor : NULL);
	rc = fflush(stdout) ? SP_EXIT_FAILED : 0;
out:
	if (in && in != stdin)
		fclose(in);
	rm_model_free(m);
	return rc;
}
