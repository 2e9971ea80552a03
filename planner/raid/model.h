/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The array model: what a stream of block requests to a RAID LUN costs its
 * member disks.
 *
 * The bench records the requests the kernel really issues to a loop device
 * (which has no members) and replays them here.  The array is described
 * the way stripeplan describes it (level, disks, spans, chunk) plus where
 * sector 0 of the trace lies on the LUN.
 *
 * Layout assumed: the LUN's data is cut into rows of `data_columns`
 * chunks, one chunk per data disk, each row with its own parity (RAID5/6)
 * or mirror copies (RAID1/10).  For RAID50/60 one row is one span's
 * stripe and consecutive rows go to consecutive spans; the cost of a row
 * does not depend on which span holds it.
 *
 * Writes are costed per row when the row is written back ("destaged"):
 *  - a full row (every data sector of it written) costs one write per
 *    member and no reads: the full-stripe write;
 *  - a partial row of a parity level needs reads first, and like md's
 *    handle_stripe_dirtying() the model picks, for every sector offset
 *    within the chunk, read-modify-write (read the old data being replaced
 *    and the old parity) or reconstruct-write (read the data not being
 *    replaced), whichever reads fewer members; a tie goes to
 *    reconstruct-write, md's default (rmw_level = 1);
 *  - mirrors and RAID0 never read to write.
 * A member I/O is one contiguous run of sectors on one member within one
 * row; runs on the same member in neighbouring rows are not merged, so the
 * least a byte can cost is the full-stripe cost (rm_min_write_ios_per_mib).
 *
 * Gathering: with RM_GATHER_INFLIGHT, writes that are in flight at the
 * same time are gathered per row, as md's stripe cache and a controller's
 * write cache gather the pieces of one large write that the block layer
 * split (the loop device splits at 1280 KiB, less than a 9 MiB stripe);
 * a row is destaged when the last in-flight write touching it completes.
 * Writes that do not overlap in time are never gathered: a direct write
 * that completed cannot be combined with the next one.  RM_GATHER_NONE
 * costs every request alone at issue.
 *
 * Reads are costed at issue: one member read per chunk touched.
 */
#ifndef STRIPEPLAN_RAID_MODEL_H
#define STRIPEPLAN_RAID_MODEL_H

#include <stdint.h>
#include <stdio.h>

#include "raid.h"

struct sp_error;

#define RM_SECTOR_BYTES 512ULL
/* A row's coverage is kept a byte per sector: bound it (512 MiB of data). */
#define RM_MAX_ROW_SECTORS (1ULL << 20)
/* More open rows than this means completions are missing: destage the oldest. */
#define RM_MAX_OPEN_ROWS 4096U
#define RM_MAX_INFLIGHT 65536U

enum rm_dir {
	RM_READ = 0,
	RM_WRITE = 1,
};

enum rm_gather {
	RM_GATHER_NONE = 0,
	RM_GATHER_INFLIGHT = 1,
};

/* What the user describes. */
struct rm_array {
	enum sp_level level;
	unsigned disks;
	unsigned spans;          /* RAID50/60 only; 0 elsewhere */
	uint64_t chunk_bytes;
	uint64_t offset_sectors; /* LUN sector of the trace's sector 0 */
};

/* What follows from it. */
struct rm_geometry {
	unsigned data_columns;   /* data chunks per row */
	unsigned parity_columns; /* parity chunks per row: 0, 1 or 2 */
	unsigned copies;         /* members holding each data chunk: 2 for RAID10 */
	uint64_t chunk_sectors;
	uint64_t row_sectors;    /* data sectors per row */
	uint64_t offset_sectors;
};

/* Requests of one direction and the member I/O they cost. */
struct rm_counts {
	uint64_t requests;
	uint64_t sectors;
	uint64_t crossing_requests; /* touched more chunks than their length needs */
	uint64_t member_reads;
	uint64_t member_writes;
	uint64_t member_read_sectors;
	uint64_t member_write_sectors;
};

struct rm_stats {
	struct rm_counts write; /* member reads here are the reads writes needed */
	struct rm_counts read;
	uint64_t rows_full;     /* destaged with every data sector written */
	uint64_t rows_rmw;      /* partial, read-modify-write at every offset */
	uint64_t rows_rcw;      /* partial, reconstruct-write at every offset */
	uint64_t rows_mixed;    /* partial, some offsets each way */
	uint64_t rows_partial;  /* partial rows of levels without parity */
	uint64_t destaged_sectors;  /* data sectors written back */
	uint64_t full_row_sectors;  /* ... of them in full rows */
	uint64_t unmatched_completions; /* write completions never issued in the trace */
	uint64_t forced_destages;   /* rows written back early: too many open */
};

/*
 * The figures the report shows, for one direction.  "Per MiB" and "per
 * byte" are per MiB of payload: what the workload itself wrote (or read),
 * so that the filesystem's log and metadata writes count as cost, not as
 * data.  Without a payload, the requests' own bytes are used.
 */
struct rm_figures {
	double device_mib;   /* the requests' bytes */
	double payload_mib;
	double full_stripe_write_fraction; /* writes only; -1 for reads */
	double member_ios_per_mib;
	double min_member_ios_per_mib;
	double member_bytes_per_data_byte;
	double min_member_bytes_per_data_byte;
	double chunk_crossing_fraction;
};

/*
 * The achievable floor of a workload whose own requests (as it issues
 * them: a file's writes, one fsynced file) are each `request_bytes` long:
 * what they cost when every one of them starts a row and is written (or
 * read) alone.  Whole rows are full-stripe writes; what is left over is
 * one partial row, written by the cheaper of read-modify-write and
 * reconstruct-write at each offset, as the model costs any partial row.
 * No layout can do better without gathering requests the workload issued
 * apart; a layout that pads, splits or misplaces them does worse.
 */
struct rm_floor {
	double member_ios_per_mib;         /* per MiB of the requests' data */
	double member_bytes_per_data_byte;
};

struct rm_model;

int rm_geometry_init(const struct rm_array *array, struct rm_geometry *ret,
		     struct sp_error *err);

int rm_model_new(const struct rm_array *array, enum rm_gather gather,
		 struct rm_model **ret, struct sp_error *err);
struct rm_model *rm_model_free(struct rm_model *m);
const struct rm_geometry *rm_model_geometry(const struct rm_model *m);

/* sector and nr_sectors in 512-byte units, as the block tracepoints give them. */
int rm_model_issue(struct rm_model *m, enum rm_dir dir, uint64_t sector, uint64_t nr_sectors,
		   struct sp_error *err);
int rm_model_complete(struct rm_model *m, enum rm_dir dir, uint64_t sector,
		      uint64_t nr_sectors, struct sp_error *err);
/* Destages every row still open and returns the totals. */
int rm_model_finish(struct rm_model *m, struct rm_stats *ret);

/* The least member I/O per MiB the level allows: every row written whole. */
double rm_min_write_ios_per_mib(const struct rm_geometry *g);
double rm_min_read_ios_per_mib(const struct rm_geometry *g);
int rm_floor(const struct rm_geometry *g, enum rm_dir dir, uint64_t request_bytes,
	     struct rm_floor *ret, struct sp_error *err);
void rm_figures(const struct rm_geometry *g, const struct rm_stats *s, enum rm_dir dir,
		uint64_t payload_bytes, struct rm_figures *ret);

/*
 * Replays a trace in the bench's text form, one event a line:
 *	I W 18432 1024     issued: direction (R or W), sector, sectors
 *	C W 18432 1024     completed
 * Blank lines and lines starting with '#' are skipped.  `name` is used in
 * messages ("trace.txt:12: ...").
 */
int rm_trace_replay(struct rm_model *m, FILE *in, const char *name, struct sp_error *err);

#endif
