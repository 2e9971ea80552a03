/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The array model: requests in, member I/O out.  See model.h for what
 * is modelled and what is not.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/units.h"
#include "model.h"

/* A row with writes gathered but not yet written back. */
struct open_row {
	uint64_t row;
	unsigned inflight;  /* issued writes touching it, not yet completed */
	uint64_t last_use;  /* for the forced destage: oldest goes first */
	uint8_t *covered;   /* row_sectors bytes, column by column: 1 = written */
};

struct inflight_write {
	uint64_t lun_sector;
	uint64_t nr_sectors;
};

struct rm_model {
	struct rm_geometry geo;
	enum rm_gather gather;
	struct rm_stats stats;
	struct open_row *rows;
	size_t nrows;
	struct inflight_write *inflight;
	size_t ninflight;
	uint64_t clock;
	uint8_t *scratch_row;  /* RM_GATHER_NONE: one request's coverage */
	unsigned *writers;     /* per offset within a chunk: data columns written */
	uint8_t **pool;        /* coverage buffers of destaged rows, reused */
	size_t npool;
};

int rm_geometry_init(const struct rm_array *array, struct rm_geometry *ret,
		     struct sp_error *err)
{
	struct rm_geometry g = { 0 };
	unsigned data_disks;
	int r;

	r = sp_raid_data_disks(array->level, array->disks, array->spans, &data_disks, err);
	if (r < 0)
		return r;
	if (array->chunk_bytes == 0 || array->chunk_bytes % RM_SECTOR_BYTES)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "chunk: %llu bytes is not a whole number of 512-byte sectors",
				    (unsigned long long)array->chunk_bytes);
	g.chunk_sectors = array->chunk_bytes / RM_SECTOR_BYTES;
	g.parity_columns = sp_level_parity_disks(array->level);
	g.copies = 1;
	switch (array->level) {
	case SP_LEVEL_1:
		/* one column, every disk a copy of it */
		g.data_columns = 1;
		g.copies = array->disks;
		break;
	case SP_LEVEL_10:
		g.data_columns = data_disks;
		g.copies = 2;
		break;
	case SP_LEVEL_50:
	case SP_LEVEL_60:
		/* a row is one span's stripe: parity is per span */
		g.data_columns = data_disks / array->spans;
		break;
	default:
		g.data_columns = data_disks;
		break;
	}
	if (g.chunk_sectors > RM_MAX_ROW_SECTORS / g.data_columns)
		return sp_error_set(err, ERANGE, SP_ERR_INVALID,
				    "chunk: %u data chunks of %llu bytes make a row larger than %llu MiB",
				    g.data_columns, (unsigned long long)array->chunk_bytes,
				    RM_MAX_ROW_SECTORS * RM_SECTOR_BYTES / SP_MIB);
	g.row_sectors = g.chunk_sectors * g.data_columns;
	if (array->offset_sectors > UINT64_MAX / 4)
		return sp_error_set(err, ERANGE, SP_ERR_INVALID,
				    "offset: %llu sectors is beyond any LUN",
				    (unsigned long long)array->offset_sectors);
	g.offset_sectors = array->offset_sectors;
	*ret = g;
	return 0;
}

int rm_model_new(const struct rm_array *array, enum rm_gather gather, struct rm_model **ret,
		 struct sp_error *err)
{
	struct rm_model *m;
	int r;

	m = calloc(1, sizeof(*m));
	if (!m)
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	r = rm_geometry_init(array, &m->geo, err);
	if (r < 0)
		goto fail;
	m->gather = gather;
	m->rows = calloc(RM_MAX_OPEN_ROWS + 1, sizeof(*m->rows));
	m->inflight = calloc(RM_MAX_INFLIGHT, sizeof(*m->inflight));
	m->pool = calloc(RM_MAX_OPEN_ROWS + 1, sizeof(*m->pool));
	m->scratch_row = calloc(m->geo.row_sectors, 1);
	m->writers = calloc(m->geo.chunk_sectors, sizeof(*m->writers));
	if (!m->rows || !m->inflight || !m->pool || !m->scratch_row || !m->writers) {
		r = sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
		goto fail;
	}
	*ret = m;
	return 0;
fail:
	rm_model_free(m);
	return r;
}

struct rm_model *rm_model_free(struct rm_model *m)
{
	if (!m)
		return NULL;
	for (size_t i = 0; i < m->nrows; i++)
		free(m->rows[i].covered);
	for (size_t i = 0; i < m->npool; i++)
		free(m->pool[i]);
	free(m->rows);
	free(m->inflight);
	free(m->pool);
	free(m->scratch_row);
	free(m->writers);
	free(m);
	return NULL;
}

const struct rm_geometry *rm_model_geometry(const struct rm_model *m)
{
	return &m->geo;
}

/* Runs of set bytes in v[0..n): each run is one member I/O; *ret_set counts the bytes. */
static uint64_t runs(const uint8_t *v, uint64_t n, uint64_t *ret_set)
{
	uint64_t nruns = 0, set = 0;
	bool prev = false;

	for (uint64_t i = 0; i < n; i++) {
		bool cur = v[i] != 0;

		if (cur) {
			set++;
			if (!prev)
				nruns++;
		}
		prev = cur;
	}
	*ret_set = set;
	return nruns;
}

/* Writes one row back to the members and counts what that costs. */
static void destage(struct rm_model *m, const uint8_t *covered)
{
	const struct rm_geometry *g = &m->geo;
	const uint64_t S = g->chunk_sectors, D = g->data_columns, P = g->parity_columns;
	struct rm_stats *st = &m->stats;
	uint64_t written = 0, n, set, rmw_offsets = 0, rcw_offsets = 0;
	bool full;

	for (uint64_t j = 0; j < D; j++) {
		n = runs(covered + j * S, S, &set);
		st->write.member_writes += n * g->copies;
		st->write.member_write_sectors += set * g->copies;
		written += set;
	}
	if (!written)
		return;
	st->destaged_sectors += written;
	full = written == g->row_sectors;
	if (full) {
		st->rows_full++;
		st->full_row_sectors += written;
	}
	if (!P) {
		if (!full)
			st->rows_partial++;
		return;
	}

	for (uint64_t o = 0; o < S; o++)
		m->writers[o] = 0;
	for (uint64_t j = 0; j < D; j++)
		for (uint64_t o = 0; o < S; o++)
			m->writers[o] += covered[j * S + o];

	/* Parity is rewritten wherever any data column was; one run per parity member. */
	{
		uint64_t prun = 0, pset = 0;
		bool prev = false;

		for (uint64_t o = 0; o < S; o++) {
			bool cur = m->writers[o] > 0;

			pset += cur;
			prun += cur && !prev;
			prev = cur;
		}
		st->write.member_writes += P * prun;
		st->write.member_write_sectors += P * pset;
	}
	if (full)
		return;

	/*
	 * md decides per stripe_head (one page on every member) from the
	 * number of member blocks each way must read: read-modify-write
	 * reads the k data blocks being replaced and the P parity blocks,
	 * reconstruct-write reads the D - k data blocks not being replaced.
	 * Ties go to reconstruct-write.  Here the unit is a sector offset.
	 */
	for (uint64_t j = 0; j <= D; j++) {
		/* j == D stands for the parity members */
		uint64_t nruns = 0, nset = 0;
		bool prev = false;

		for (uint64_t o = 0; o < S; o++) {
			unsigned k = m->writers[o];
			bool rmw = k && k + P < D - k;
			bool need;

			if (!k)
				need = false;
			else if (j == D)
				need = rmw;
			else
				need = rmw ? covered[j * S + o] : !covered[j * S + o];
			nset += need;
			nruns += need && !prev;
			prev = need;
			if (j == 0 && k) {
				if (rmw)
					rmw_offsets++;
				else
					rcw_offsets++;
			}
		}
		if (j == D) {
			nruns *= P;
			nset *= P;
		}
		st->write.member_reads += nruns;
		st->write.member_read_sectors += nset;
	}
	if (rmw_offsets && rcw_offsets)
		st->rows_mixed++;
	else if (rmw_offsets)
		st->rows_rmw++;
	else
		st->rows_rcw++;
}

static void count_request(struct rm_counts *c, const struct rm_geometry *g, uint64_t lun,
			  uint64_t nr)
{
	uint64_t touched = (lun + nr - 1) / g->chunk_sectors - lun / g->chunk_sectors + 1;
	uint64_t needed = (nr + g->chunk_sectors - 1) / g->chunk_sectors;

	c->requests++;
	c->sectors += nr;
	if (touched > needed)
		c->crossing_requests++;
}

/* A read costs one member read per chunk it touches, from one copy. */
static void cost_read(struct rm_model *m, uint64_t lun, uint64_t nr)
{
	const uint64_t S = m->geo.chunk_sectors;
	uint64_t chunks = (lun + nr - 1) / S - lun / S + 1;

	m->stats.read.member_reads += chunks;
	m->stats.read.member_read_sectors += nr;
}

static struct open_row *find_row(struct rm_model *m, uint64_t row)
{
	for (size_t i = 0; i < m->nrows; i++)
		if (m->rows[i].row == row)
			return &m->rows[i];
	return NULL;
}

/* Destages rows[i] and forgets it; its buffer goes back to the pool. */
static void close_row(struct rm_model *m, size_t i)
{
	destage(m, m->rows[i].covered);
	m->pool[m->npool++] = m->rows[i].covered;
	m->rows[i] = m->rows[--m->nrows];
}

static int open_row(struct rm_model *m, uint64_t row, struct open_row **ret,
		    struct sp_error *err)
{
	struct open_row *r;
	uint8_t *buf;

	if (m->nrows == RM_MAX_OPEN_ROWS) {
		/* completions are missing or the queue is absurdly deep: oldest first */
		size_t oldest = 0;

		for (size_t i = 1; i < m->nrows; i++)
			if (m->rows[i].last_use < m->rows[oldest].last_use)
				oldest = i;
		close_row(m, oldest);
		m->stats.forced_destages++;
	}
	if (m->npool) {
		buf = m->pool[--m->npool];
		memset(buf, 0, m->geo.row_sectors);
	} else {
		buf = calloc(m->geo.row_sectors, 1);
		if (!buf)
			return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	}
	r = &m->rows[m->nrows++];
	*r = (struct open_row){ .row = row, .covered = buf };
	*ret = r;
	return 0;
}

int rm_model_issue(struct rm_model *m, enum rm_dir dir, uint64_t sector, uint64_t nr_sectors,
		   struct sp_error *err)
{
	const struct rm_geometry *g = &m->geo;
	uint64_t lun, end, first, last;
	int r;

	if (nr_sectors == 0)
		return 0; /* flushes carry no data */
	if (sector > UINT64_MAX / 4 || nr_sectors > UINT32_MAX)
		return sp_error_set(err, ERANGE, SP_ERR_INVALID,
				    "request at sector %llu of %llu sectors is out of range",
				    (unsigned long long)sector, (unsigned long long)nr_sectors);
	lun = sector + g->offset_sectors;
	end = lun + nr_sectors;
	if (dir == RM_READ) {
		count_request(&m->stats.read, g, lun, nr_sectors);
		cost_read(m, lun, nr_sectors);
		return 0;
	}
	count_request(&m->stats.write, g, lun, nr_sectors);

	first = lun / g->row_sectors;
	last = (end - 1) / g->row_sectors;
	if (m->gather == RM_GATHER_INFLIGHT && m->ninflight == RM_MAX_INFLIGHT)
		return sp_error_set(err, ENOSPC, SP_ERR_INVALID,
				    "more than %u writes in flight: the trace lacks completions",
				    RM_MAX_INFLIGHT);
	for (uint64_t row = first; row <= last; row++) {
		uint64_t base = row * g->row_sectors;
		uint64_t from = (lun > base ? lun : base) - base;
		uint64_t to = (end < base + g->row_sectors ? end : base + g->row_sectors) - base;
		struct open_row *o;

		if (m->gather == RM_GATHER_NONE) {
			memset(m->scratch_row, 0, g->row_sectors);
			memset(m->scratch_row + from, 1, to - from);
			destage(m, m->scratch_row);
			continue;
		}
		o = find_row(m, row);
		if (!o) {
			r = open_row(m, row, &o, err);
			if (r < 0)
				return r;
		}
		memset(o->covered + from, 1, to - from);
		o->inflight++;
		o->last_use = m->clock++;
	}
	if (m->gather == RM_GATHER_INFLIGHT)
		m->inflight[m->ninflight++] = (struct inflight_write){ lun, nr_sectors };
	return 0;
}

int rm_model_complete(struct rm_model *m, enum rm_dir dir, uint64_t sector,
		      uint64_t nr_sectors, struct sp_error *err)
{
	const struct rm_geometry *g = &m->geo;
	uint64_t lun, first, last;
	size_t i;

	(void)err;
	if (dir == RM_READ || nr_sectors == 0 || m->gather == RM_GATHER_NONE)
		return 0;
	if (sector > UINT64_MAX / 4 || nr_sectors > UINT32_MAX) {
		m->stats.unmatched_completions++;
		return 0;
	}
	lun = sector + g->offset_sectors;
	/* oldest first: the same range may be in flight twice */
	for (i = 0; i < m->ninflight; i++)
		if (m->inflight[i].lun_sector == lun && m->inflight[i].nr_sectors == nr_sectors)
			break;
	if (i == m->ninflight) {
		/* issued before the capture began, or completed in pieces */
		m->stats.unmatched_completions++;
		return 0;
	}
	memmove(&m->inflight[i], &m->inflight[i + 1],
		(m->ninflight - i - 1) * sizeof(*m->inflight));
	m->ninflight--;

	first = lun / g->row_sectors;
	last = (lun + nr_sectors - 1) / g->row_sectors;
	for (uint64_t row = first; row <= last; row++) {
		struct open_row *o = find_row(m, row);

		if (!o)
			continue; /* destaged early */
		if (o->inflight)
			o->inflight--;
		if (!o->inflight)
			close_row(m, (size_t)(o - m->rows));
	}
	return 0;
}

int rm_model_finish(struct rm_model *m, struct rm_stats *ret)
{
	/* what is still open was never completed in the trace: write it back as it is */
	while (m->nrows)
		close_row(m, m->nrows - 1);
	m->ninflight = 0;
	*ret = m->stats;
	return 0;
}

double rm_min_write_ios_per_mib(const struct rm_geometry *g)
{
	double row_mib = (double)(g->row_sectors * RM_SECTOR_BYTES) / (double)SP_MIB;

	return (double)(g->data_columns * g->copies + g->parity_columns) / row_mib;
}

double rm_min_read_ios_per_mib(const struct rm_geometry *g)
{
	return (double)SP_MIB / (double)(g->chunk_sectors * RM_SECTOR_BYTES);
}

/* What one row costs when `sectors` of it are written from its start, alone. */
static void row_cost(struct rm_model *m, uint8_t *row, uint64_t sectors, uint64_t *ret_ios,
		     uint64_t *ret_sectors)
{
	const struct rm_counts *w = &m->stats.write;

	m->stats = (struct rm_stats){ 0 };
	memset(row, 0, m->geo.row_sectors);
	memset(row, 1, sectors);
	destage(m, row);
	*ret_ios = w->member_reads + w->member_writes;
	*ret_sectors = w->member_read_sectors + w->member_write_sectors;
}

int rm_floor(const struct rm_geometry *g, enum rm_dir dir, uint64_t request_bytes,
	     struct rm_floor *ret, struct sp_error *err)
{
	struct rm_model m = { .geo = *g };
	uint8_t *row;
	unsigned *writers;
	uint64_t n, full_rows, rest, ios = 0, sectors = 0, row_ios = 0, row_sectors = 0;
	double bytes;

	if (request_bytes == 0 || request_bytes % RM_SECTOR_BYTES ||
	    request_bytes / RM_SECTOR_BYTES > UINT32_MAX)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "request: %llu bytes is not 1 to 2^32 whole 512-byte sectors",
				    (unsigned long long)request_bytes);
	n = request_bytes / RM_SECTOR_BYTES;
	bytes = (double)request_bytes;
	if (dir == RM_READ) {
		/* one member read per chunk, none more than the request's length needs */
		ios = (n + g->chunk_sectors - 1) / g->chunk_sectors;
		ret->member_ios_per_mib = (double)ios / (bytes / (double)SP_MIB);
		ret->member_bytes_per_data_byte = 1.0;
		return 0;
	}
	row = calloc(g->row_sectors, 1);
	writers = calloc(g->chunk_sectors, sizeof(*writers));
	if (!row || !writers) {
		free(row);
		free(writers);
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	}
	m.writers = writers;
	full_rows = n / g->row_sectors;
	rest = n % g->row_sectors;
	if (full_rows) {
		row_cost(&m, row, g->row_sectors, &row_ios, &row_sectors);
		ios = full_rows * row_ios;
		sectors = full_rows * row_sectors;
	}
	if (rest) {
		row_cost(&m, row, rest, &row_ios, &row_sectors);
		ios += row_ios;
		sectors += row_sectors;
	}
	free(row);
	free(writers);
	ret->member_ios_per_mib = (double)ios / (bytes / (double)SP_MIB);
	ret->member_bytes_per_data_byte = (double)(sectors * RM_SECTOR_BYTES) / bytes;
	return 0;
}

void rm_figures(const struct rm_geometry *g, const struct rm_stats *s, enum rm_dir dir,
		uint64_t payload_bytes, struct rm_figures *ret)
{
	const struct rm_counts *c = dir == RM_WRITE ? &s->write : &s->read;
	struct rm_figures f = { 0 };
	double device = (double)(c->sectors * RM_SECTOR_BYTES);
	double payload = payload_bytes ? (double)payload_bytes : device;

	f.device_mib = device / (double)SP_MIB;
	f.payload_mib = payload / (double)SP_MIB;
	if (dir == RM_WRITE) {
		f.min_member_ios_per_mib = rm_min_write_ios_per_mib(g);
		f.min_member_bytes_per_data_byte =
			(double)(g->data_columns * g->copies + g->parity_columns) /
			(double)g->data_columns;
		f.full_stripe_write_fraction =
			s->destaged_sectors ?
				(double)s->full_row_sectors / (double)s->destaged_sectors :
				0.0;
	} else {
		f.min_member_ios_per_mib = rm_min_read_ios_per_mib(g);
		f.min_member_bytes_per_data_byte = 1.0;
		f.full_stripe_write_fraction = -1.0;
	}
	if (payload > 0) {
		f.member_ios_per_mib = (double)(c->member_reads + c->member_writes) / f.payload_mib;
		f.member_bytes_per_data_byte =
			(double)((c->member_read_sectors + c->member_write_sectors) * RM_SECTOR_BYTES) /
			payload;
	}
	if (c->requests)
		f.chunk_crossing_fraction = (double)c->crossing_requests / (double)c->requests;
	*ret = f;
}
