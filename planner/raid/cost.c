/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a layout found on an array costs, from the same array model the
 * bench replays traces through: synthetic requests placed where the
 * filesystem places them, each costed alone.
 *
 * Writes: one full stripe each.  A filesystem with a stripe width
 * (XFS swalloc, ext4's stripe allocator) starts them on a multiple of it
 * from the partition start; with only a stripe unit, on a multiple of
 * that; without either, on any block.  Over all those offsets, taken
 * modulo the stripe (they repeat after it), the ratio is what the
 * layout's writes cost over what full-stripe writes would.
 */
#include <errno.h>
#include <inttypes.h>

#include "base/error.h"
#include "base/units.h"
#include "cost.h"
#include "model.h"

/* Offsets costed per direction; past this the period is sampled evenly. */
#define COST_MAX_SAMPLES 4096U

static uint64_t write_alignment(const struct sp_layout *l)
{
	if (l->fs_su_bytes && l->fs_sw)
		return l->fs_su_bytes * l->fs_sw;
	if (l->fs_su_bytes)
		return l->fs_su_bytes;
	return l->fs_block_bytes ? l->fs_block_bytes : SP_FS_BLOCK_BYTES;
}

static uint64_t read_alignment(const struct sp_layout *l)
{
	if (l->fs_su_bytes)
		return l->fs_su_bytes;
	return l->fs_block_bytes ? l->fs_block_bytes : SP_FS_BLOCK_BYTES;
}

/*
 * Issues one request of `bytes` at every multiple of gcd(align, period)
 * below period (sampled when there are too many): exactly the offsets,
 * modulo period, that multiples of align reach.
 */
static int issue_all(struct rm_model *m, enum rm_dir dir, uint64_t align, uint64_t period,
		     uint64_t bytes, struct sp_error *err)
{
	uint64_t step = sp_gcd(align, period), n = period / step, stride = 1;
	int r = 0;

	if (n > COST_MAX_SAMPLES)
		stride = (n + COST_MAX_SAMPLES - 1) / COST_MAX_SAMPLES;
	for (uint64_t j = 0; r == 0 && j < n; j += stride)
		r = rm_model_issue(m, dir, j * step / RM_SECTOR_BYTES, bytes / RM_SECTOR_BYTES, err);
	return r;
}

static int check_layout(const struct sp_layout *l, uint64_t w_align, uint64_t r_align,
			struct sp_error *err)
{
	if (l->level == SP_LEVEL_1)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "level: a mirror has no stripe to misalign");
	if (l->start_bytes % RM_SECTOR_BYTES || w_align % RM_SECTOR_BYTES ||
	    r_align % RM_SECTOR_BYTES)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "layout: start %" PRIu64 " B or alignment %" PRIu64 "/%" PRIu64
				    " B is not whole 512-byte sectors",
				    l->start_bytes, w_align, r_align);
	return 0;
}

int sp_cost_layout(const struct sp_layout *l, struct sp_cost *ret, struct sp_error *err)
{
	uint64_t w_align = write_alignment(l), r_align = read_alignment(l), stripe_bytes, chunk;
	struct rm_array a = { l->level, l->disks, l->spans, l->chunk_bytes,
			      l->start_bytes / RM_SECTOR_BYTES };
	struct rm_figures wf, rf;
	struct rm_model *m = NULL;
	struct rm_stats st;
	int r;

	r = check_layout(l, w_align, r_align, err);
	if (r < 0)
		return r;
	r = rm_model_new(&a, RM_GATHER_NONE, &m, err);
	if (r < 0)
		return r;
	chunk = l->chunk_bytes;
	/* rows of every span: one "stripe" as the plan and mkfs count it */
	stripe_bytes = rm_model_geometry(m)->row_sectors * RM_SECTOR_BYTES *
		       (sp_level_has_spans(l->level) && l->spans ? l->spans : 1);
	r = issue_all(m, RM_WRITE, w_align, stripe_bytes, stripe_bytes, err);
	if (r == 0)
		r = issue_all(m, RM_READ, r_align, chunk, chunk, err);
	if (r == 0)
		r = rm_model_finish(m, &st);
	if (r == 0) {
		rm_figures(rm_model_geometry(m), &st, RM_WRITE, 0, &wf);
		rm_figures(rm_model_geometry(m), &st, RM_READ, 0, &rf);
		*ret = (struct sp_cost){
			.known = true,
			.write_ratio = wf.member_ios_per_mib / wf.min_member_ios_per_mib,
			.read_ratio = rf.member_ios_per_mib / rf.min_member_ios_per_mib,
		};
	}
	rm_model_free(m);
	return r;
}
