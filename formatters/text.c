/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plan for people: every value with the reason it has that value. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "limits/limit.h"

static const char *data_disks_reason(const struct sp_plan *p, char *buf, size_t len)
{
	unsigned per_span = p->disks / (p->spans ? p->spans : 1);

	switch (p->level) {
	case SP_LEVEL_0:
		snprintf(buf, len, "raid0 stripes over every disk");
		break;
	case SP_LEVEL_1:
		snprintf(buf, len, "raid1 mirrors: one disk's worth of data");
		break;
	case SP_LEVEL_10:
		if (p->layout.near_copies) {
			char l[SP_MD_LAYOUT_NAME_MAX];

			sp_md_layout_name(&p->layout, l, sizeof(l));
			if (p->data_disks == p->disks)
				snprintf(buf, len, "md raid10 %s: the kernel's optimal I/O is %u chunks "
					 "(%u disks %s)", l, p->data_disks, p->disks,
					 p->layout.near_copies > 1 ?
					 "do not divide into the near copies" : "each hold a chunk of a stripe");
			else
				snprintf(buf, len, "md raid10 %s: the kernel's optimal I/O is %u disks / "
					 "%u near copies chunks", l, p->disks, p->layout.near_copies);
			break;
		}
		snprintf(buf, len, "raid10 mirrors pairs: %u disks / 2", p->disks);
		break;
	case SP_LEVEL_4:
	case SP_LEVEL_5:
	case SP_LEVEL_6:
		snprintf(buf, len, "%s keeps %u disk%s of parity per stripe: %u - %u", sp_level_name(p->level),
			 sp_level_parity_disks(p->level), p->level == SP_LEVEL_6 ? "s" : "", p->disks,
			 sp_level_parity_disks(p->level));
		break;
	default:
		snprintf(buf, len, "%u spans of %u disks, each keeping %u parity: %u x (%u - %u)", p->spans,
			 per_span, sp_level_parity_disks(p->level), p->spans, per_span,
			 sp_level_parity_disks(p->level));
		break;
	}
	return buf;
}

static const char *from(enum sp_source s)
{
	switch (s) {
	case SP_SOURCE_KERNEL:
		return " (from the kernel)";
	case SP_SOURCE_DEFAULT:
		return " (the profile's default)";
	case SP_SOURCE_TOPOLOGY:
		return " (from the device's exported topology)";
	case SP_SOURCE_REPORT:
		return " (from the controller's report)";
	case SP_SOURCE_ASSUMED:
		return " (assumed: the device tells no level)";
	default:
		return "";
	}
}

static void print_array(FILE *f, const struct sp_plan *p)
{
	char a[32], b[128];

	fprintf(f, "Array\n");
	if (p->level_source == SP_SOURCE_KERNEL)
		fprintf(f, "  geometry       read from %s's md/ in sysfs: level, raid_disks, chunk_size%s\n",
			p->device.kernel_name, p->layout.near_copies ? ", layout" : "");
	if (p->chunk_source == SP_SOURCE_TOPOLOGY)
		fprintf(f, "  geometry       read from %s's queue limits: minimum_io_size %" PRIu64
			" is the strip (chunk), optimal_io_size %" PRIu64 " the full stripe%s\n",
			p->device.kernel_name, p->device.min_io_bytes, p->device.optimal_io_bytes,
			p->disks_source == SP_SOURCE_TOPOLOGY ? "; the disks follow from the level" : "");
	if (p->level_source == SP_SOURCE_ASSUMED)
		fprintf(f, "  level          unknown: %s stands in for it to price what is found; "
			"raid10 of this stripe costs the same, parity RAID more\n",
			sp_level_name(p->level));
	if (p->level_source == SP_SOURCE_REPORT)
		fprintf(f, "  geometry       read from %s: level, disks%s%s\n", p->geometry_report,
			p->spans > 1 ? ", spans" : "", p->chunk_source == SP_SOURCE_REPORT ? ", strip" : "");
	if (p->layout.near_copies) {
		sp_md_layout_name(&p->layout, a, sizeof(a));
		fprintf(f, "  layout         %-14s %u near, %u %s cop%s of each chunk%s\n", a,
			p->layout.near_copies, p->layout.far_copies,
			p->layout.offset ? "offset" : "far", p->layout.far_copies == 1 ? "y" : "ies",
			from(p->layout_source));
	}
	fprintf(f, "  data disks     %-14u %s\n", p->data_disks, data_disks_reason(p, b, sizeof(b)));
	if (!p->stripe_width_bytes) {
		fprintf(f, "  stripe         none           a mirror writes every block to each disk: there is no chunk or stripe to align to\n");
		return;
	}
	fprintf(f, "  chunk          %-14s written to one disk before moving to the next%s\n",
		SP_SIZE_TEXT(p->chunk_bytes, SP_SIZE_HUMAN), from(p->chunk_source));
	fprintf(f, "  full stripe    %-14s chunk x data disks: one write of this size and alignment touches every disk once\n",
		SP_SIZE_TEXT(p->stripe_width_bytes, SP_SIZE_HUMAN));
}

static void print_device(FILE *f, const struct sp_plan *p)
{
	const struct sp_facts *d = &p->device;

	fprintf(f, "\nDevice %s (%s)%s\n", d->path,
		d->kernel_name[0] ? d->kernel_name : "kernel name read where apply probes it",
		d->offline ? ", not probed: facts from the command line" : "");
	fprintf(f, "  size           %s (%" PRIu64 " bytes)\n",
		SP_SIZE_TEXT(d->size_bytes, SP_SIZE_HUMAN),
		d->size_bytes);
	fprintf(f, "  sectors        %u-byte logical, %u-byte physical\n", d->logical_sector_bytes,
		d->physical_sector_bytes);
	if (!d->offline)
		fprintf(f, "  topology       minimum I/O %" PRIu64 ", optimal I/O %" PRIu64 "%s\n",
			d->min_io_bytes, d->optimal_io_bytes,
			d->optimal_io_bytes ? "" : " (none exported, as usual for hardware RAID and loop devices)");
}

static void print_whole_device(FILE *f, const struct sp_plan *p)
{
	fprintf(f, "\nNo partition table: the filesystem goes on %s itself\n", p->partition_path);
	if (p->table_source == SP_SOURCE_DEFAULT)
		fprintf(f, "                 the default for md arrays: the array is the volume, as nearly every md user runs\n"
			   "                 it; no label to keep aligned or to move when the array grows (mdadm --grow)\n");
	else
		fprintf(f, "                 as asked (--table none)\n");
	fprintf(f, "  start          0: the start of the device is aligned to any stripe\n");
	fprintf(f, "  size           %s, the whole device\n",
		SP_SIZE_TEXT(p->size_bytes, SP_SIZE_HUMAN));
}

static void print_partition(FILE *f, const struct sp_plan *p)
{
	uint64_t sector = p->device.logical_sector_bytes;

	if (p->table == SP_TABLE_NONE) {
		print_whole_device(f, p);
		return;
	}
	fprintf(f, "\nPartition %s (%s label)\n", p->partition_path, sp_table_name(p->table));
	fprintf(f, "  start          %s, byte %" PRIu64 ", sector %" PRIu64 "\n",
		SP_SIZE_TEXT(p->start_bytes, SP_SIZE_HUMAN), p->start_bytes,
		p->start_bytes / sector);
	if (!p->stripe_width_bytes) {
		fprintf(f, "                 1 MiB and the %u-byte physical sector: a mirror has no stripe\n",
			p->device.physical_sector_bytes);
		fprintf(f, "  size           %s, %" PRIu64 " sectors\n",
			SP_SIZE_TEXT(p->size_bytes, SP_SIZE_HUMAN),
			p->size_bytes / sector);
		fprintf(f, "                 rounded down to whole physical sectors%s\n",
			p->reserved_tail_bytes ? ", keeping the last bytes for the GPT backup header" : "");
		return;
	}
	fprintf(f, "                 the least common multiple of the %s full stripe, 1 MiB and the %u-byte physical sector%s\n",
		SP_SIZE_TEXT(p->stripe_width_bytes, SP_SIZE_HUMAN), p->device.physical_sector_bytes,
		p->device.optimal_io_bytes && p->device.optimal_io_bytes != p->stripe_width_bytes &&
		p->align_bytes % p->device.optimal_io_bytes == 0 ? " (and the exported optimal I/O size)" : "");
	fprintf(f, "  size           %s, %" PRIu64 " sectors, %" PRIu64 " whole stripes\n",
		SP_SIZE_TEXT(p->size_bytes, SP_SIZE_HUMAN), p->size_bytes / sector,
		p->size_bytes / p->stripe_width_bytes);
	if (p->reserved_tail_bytes)
		fprintf(f, "                 rounded down to whole stripes, keeping the last %" PRIu64
			" bytes for the GPT backup header\n", p->reserved_tail_bytes);
	else
		fprintf(f, "                 rounded down to whole stripes\n");
}

/* "= 86 x 192 KiB" of an offset that is whole stripes (a mirror has none) */
static const char *in_stripes(const struct sp_plan *p, uint64_t bytes, char *buf, size_t len)
{
	if (!p->stripe_width_bytes)
		snprintf(buf, len, "(a mirror has no stripe)");
	else
		snprintf(buf, len, "= %" PRIu64 " x %s", bytes / p->stripe_width_bytes,
			 SP_SIZE_TEXT(p->stripe_width_bytes, SP_SIZE_HUMAN));
	return buf;
}

static void print_luks(FILE *f, const struct sp_plan *p)
{
	const struct sp_luks_plan *l = &p->luks;
	uint64_t def = 16 * SP_MIB;
	char b[64];

	fprintf(f, "  LUKS2          %s on %s\n", l->path, l->below);
	fprintf(f, "    data offset  %s (%" PRIu64 " bytes, --offset %" PRIu64 " 512-byte sectors) %s\n",
		SP_SIZE_TEXT(l->offset_bytes, SP_SIZE_HUMAN), l->offset_bytes, l->offset_bytes / 512,
		in_stripes(p, l->offset_bytes, b, sizeof(b)));
	fprintf(f, "                 the least multiple of %s (the full stripe, 4 KiB and the sector) at or above\n"
		   "                 the 16 MiB cryptsetup keeps by default for its two 16 KiB headers and the keyslots\n",
		SP_SIZE_TEXT(l->align_bytes, SP_SIZE_HUMAN));
	if (p->stripe_width_bytes && def % p->stripe_width_bytes)
		fprintf(f, "                 area; cryptsetup's own 16 MiB, what it takes on a LUN that exports no optimal\n"
			   "                 I/O size, is %" PRIu64 ".%02" PRIu64 " stripes: every write above it would straddle them\n",
			def / p->stripe_width_bytes,
			def % p->stripe_width_bytes * 100 / p->stripe_width_bytes);
	else
		fprintf(f, "                 area; here that is cryptsetup's own default\n");
	fprintf(f, "    sector       %u bytes (--sector-size): %s\n", l->sector_bytes,
		l->sector_bytes > p->device.logical_sector_bytes ?
			"the physical sector, as cryptsetup picks it" :
		l->sector_bytes == p->device.physical_sector_bytes ?
			"the device's sector, as cryptsetup picks it" :
			"the logical sector, as cryptsetup picks it: a larger one\n"
			"                 the device does not write whole could be torn");
	fprintf(f, "    holds        %s%s\n", SP_SIZE_TEXT(l->size_bytes, SP_SIZE_HUMAN),
		p->stripe_width_bytes && l->size_bytes % p->stripe_width_bytes == 0 ?
			", whole stripes" : "");
	fprintf(f, "    command      cryptsetup luksFormat --type luks2 --offset %" PRIu64
		" --sector-size %u --key-file KEYFILE %s\n",
		l->offset_bytes / 512, l->sector_bytes, l->below);
	fprintf(f, "                 the key from a file apply is given or a prompt: never on a command line, in\n"
		   "                 the plan or in the report\n");
}

static void print_lvm(FILE *f, const struct sp_plan *p)
{
	const struct sp_lvm_plan *v = &p->lvm;
	char b[64];

	fprintf(f, "  LVM            %s on %s\n", v->path, v->below);
	fprintf(f, "    pe_start     %s %s (pvcreate --dataalignment %" PRIu64 "k --dataalignmentoffset 0)\n",
		SP_SIZE_TEXT(v->pe_start_bytes, SP_SIZE_HUMAN),
		in_stripes(p, v->pe_start_bytes, b, sizeof(b)), (uint64_t)(v->data_alignment_bytes / SP_KIB));
	fprintf(f, "                 the first extent on the least common multiple of the stripe, 1 MiB and the\n"
		   "                 physical sector, past LVM's metadata area (1 MiB by default; it grows to fill\n"
		   "                 the room)\n");
	fprintf(f, "    extent       %s %s (vgcreate -s %" PRIu64 "k): the least multiple of %s at or\n"
		   "                 above LVM's 4 MiB default, so every extent, and every LV made later, starts on a\n"
		   "                 stripe (LVM takes an extent that is not a power of two as whole 128 KiB)\n",
		SP_SIZE_TEXT(v->extent_bytes, SP_SIZE_HUMAN),
		in_stripes(p, v->extent_bytes, b, sizeof(b)), (uint64_t)(v->extent_bytes / SP_KIB),
		SP_SIZE_TEXT(v->data_alignment_bytes, SP_SIZE_HUMAN));
	fprintf(f, "    LV           %s: %" PRIu64 " extents = %s, linear on the one PV (lvcreate -l %" PRIu64
		" -n %s %s)\n",
		v->lv, v->extents, SP_SIZE_TEXT(v->size_bytes, SP_SIZE_HUMAN), v->extents, v->lv, v->vg);
	if (v->read_ahead_sectors)
		fprintf(f, "    read-ahead   %" PRIu64 " KiB (lvcreate -r %" PRIu64 ", in 512-byte sectors): %s's\n"
			   "                 read_ahead_kb on the LV, kept in the VG's metadata and set at every\n"
			   "                 activation (LVM's auto leaves the kernel's 128 KiB)\n",
			v->read_ahead_sectors / 2, v->read_ahead_sectors, p->device.kernel_name);
}

static void print_stack(FILE *f, const struct sp_plan *p)
{
	char b[64];

	if (!p->n_layers)
		return;
	fprintf(f, "\nStack on %s, bottom up:", p->partition_path);
	for (size_t i = 0; i < p->n_layers; i++)
		fprintf(f, " %s", p->layers[i] == SP_LAYER_LUKS ? "LUKS2," : "LVM,");
	fprintf(f, " %s\n", sp_fs_name(p->fs));
	for (size_t i = 0; i < p->n_layers; i++) {
		if (p->layers[i] == SP_LAYER_LUKS)
			print_luks(f, p);
		else
			print_lvm(f, p);
	}
	fprintf(f, "  filesystem     on %s, %s into %s %s; byte %" PRIu64 " of %s\n",
		p->fs_path, SP_SIZE_TEXT(p->fs_offset_bytes, SP_SIZE_HUMAN), p->partition_path,
		in_stripes(p, p->fs_offset_bytes, b, sizeof(b)), p->start_bytes + p->fs_offset_bytes,
		p->device.path);
	fprintf(f, "                 %s%s; its stripe geometry below is the array's, unchanged through the layers\n",
		SP_SIZE_TEXT(p->fs_size_bytes, SP_SIZE_HUMAN),
		p->stripe_width_bytes && p->fs_size_bytes % p->stripe_width_bytes == 0 ?
			", whole stripes" : "");
}

static void print_xfs_ag(FILE *f, const struct sp_plan *p)
{
	const struct sp_xfs_ag *ag = &p->xfs_ag;

	if (!p->xfs_agsize_bytes)
		return;
	fprintf(f, "  agsize         %-14s %u allocation groups",
		SP_SIZE_TEXT(p->xfs_agsize_bytes, SP_SIZE_HUMAN),
		ag->agcount);
	if (!ag->rotation_period) {
		fprintf(f, " of at least 68 MiB: mkfs.xfs's own would be too small for the 64 MiB log it requires\n");
		return;
	}
	fprintf(f, " of %" PRIu64 " whole stripes, so swalloc puts file data on full stripes\n",
		ag->units_per_ag);
	fprintf(f, "                 %" PRIu64 " is not a multiple of the %u disks per parity set: parity rotates every\n"
		"                 stripe, so AG headers start on %u different members, not all on one\n",
		ag->units_per_ag, ag->rotation_period, ag->header_positions);
	fprintf(f, "                 (mkfs.xfs warns \"AG size is a multiple of stripe width\" for any whole-stripe AG;\n"
		"                 its rule assumes every stripe starts on the same disk, which parity rotation undoes)\n");
}

/*
 * What the plan gives up on the bench's arrays, written by bench/docs from
 * the stored run (cli/bench-docs fails when it is not what the run gives):
 * printed with every XFS plan of the general workload, whatever its level,
 * since the losses may be any array's (RAID10's seqread in the run of
 * 2026-12-06).
 */
/* bench-figures: plan-trades (generated by bench/docs from bench/traces) */
static const char xfs_trades[] =
	"  given up       what the bench's runs show the plan costs more than a peer layout (bench/run,\n"
	"                 stored run; Welch's interval of the difference lies above +0.5 %):\n"
	"                 RAID10 8 x 256 KiB, seqread: 4.07 member I/Os per MiB,\n"
	"                   4.01 with mkfs.xfs's own geometry (+1.46 %, 95 % interval +0.84 to +2.08 %)\n"
	"                   the read-ahead's (below): nothing else that differs moves a read's requests\n"
	"                 RAID5 15 x 128 KiB, fsync'd small files: 128.96 member I/Os per MiB,\n"
	"                   128.00 with mkfs.xfs's own geometry (+0.75 %, 95 % interval +0.75 to +0.75 %)\n"
	"                 RAID5 4 x 64 KiB, fsync'd small files: 129.60 member I/Os per MiB,\n"
	"                   128.00 with mkfs.xfs's own geometry (+1.25 %, 95 % interval +1.25 to +1.25 %)\n"
	"                 read-ahead: one file read cold at the plan's read_ahead_kb and at the kernel's\n"
	"                 for the array's geometry, nothing else changed (bench/run --parts readahead),\n"
	"                 member I/Os per MiB, on the arrays where the plan's costs more on a file:\n"
	"                 RAID10 8 x 256 KiB, 4096 KiB against 2048 KiB:\n"
	"                   128 MiB: 4.11 against 4.05 (+1.6 %, 95 % interval +1.4 to +1.9 %)\n"
	"                   1024 MiB: 4.66 against 4.75 (-1.9 %, 95 % interval -2.0 to -1.9 %)\n"
	"                 RAID5 10 x 1 MiB, 32768 KiB against 18432 KiB:\n"
	"                   128 MiB: 1.68 against 1.67 (+0.8 %, 95 % interval -0.0 to +1.6 %)\n"
	"                   1024 MiB: 1.62 against 1.59 (+1.5 %, 95 % interval +1.4 to +1.6 %)\n"
	"                 the read-ahead is the profile's, for the sequential throughput the field measured\n"
	"                 with it (the tuning's why): the bench counts I/Os, not their speed\n"
	"                 every other comparison at or below the peer (the README's bench rule table)\n";
/* /bench-figures */

/* a plan without a stripe unit tells mkfs.xfs so (xfs_noalign_args()) */
static void print_xfs_noalign(FILE *f)
{
	fprintf(f, "  -d noalign     so mkfs.xfs does not take su/sw from md or a LUN that exports an optimal I/O size\n");
}

/* --workload small-sync on XFS, a striped array: the figures and what is given up */
static void print_xfs_small_sync_stripe(FILE *f)
{
	fprintf(f, "  su, sw         none           no stripe unit, so no log stripe unit: each fsync's log write is padded\n"
		"                                to the 512-byte sector, not to the 4 KiB block mkfs.xfs takes at least beside\n"
		"                                a stripe unit; 64 KiB fsync'd files, member bytes per data byte, without su\n"
		"                                against the general plan's: 2.06 against 2.13 on RAID10 8 x 256 KiB, 4.11 against\n"
		"                                4.27 on RAID5 10 x 1 MiB and 15 x 128 KiB, 4.11 against 4.31 on RAID5 4 x 64 KiB\n"
		"                                (3.3-4.6 %% fewer; bench/run --quick)\n");
	fprintf(f, "  given up       stripe-sized writes: without a stripe unit (and so without swalloc) XFS does not put file\n"
		"                 data on full stripes; the layout without one (parted's default) cost 1.26-2.25x the level's\n"
		"                 minimum member I/O, the general plan 1.00-1.03x (bench/run --quick); and files as large as a\n"
		"                 chunk stay on chunks only with one: 64 KiB files on RAID5 4 x 64 KiB cost 171.9 member I/Os\n"
		"                 per MiB without su, 137.2 with the general plan's, 128.6 with mkfs.xfs's own (full bench run,\n"
		"                 3000 files); a stripe unit cannot be added later (mount -o sunit= needs a filesystem made\n"
		"                 with one): re-create to change workload\n");
}

/* --workload metadata on XFS, a striped array: the figures and what is given up */
static void print_xfs_metadata_stripe(FILE *f)
{
	fprintf(f, "  su, sw         none           no stripe unit: XFS aligns allocations to one, which spreads small files\n"
		"                                and their metadata over more requests; 50 000 2 KiB files untarred, renamed\n"
		"                                and removed, member I/Os per MiB without su against the general plan's su, two\n"
		"                                full bench runs: 37.6 and 34.4 against 43.7 and 37.4 on RAID10 8 x 256 KiB, 39.8\n"
		"                                and 30.3 against 44.4 and 47.3 on RAID5 10 x 1 MiB, 62.6 and 67.7 against 66.9\n"
		"                                and 72.4 on 15 x 128 KiB, 88.1 and 95.0 against 91.7 and 91.8 on 4 x 64 KiB; the\n"
		"                                workload's writeback is gathered by timing, and one layout's figure moved by\n"
		"                                up to 72 %% between the two runs\n");
	fprintf(f, "  given up       stripe-sized writes, as with --workload small-sync: 1.26-2.25x the level's minimum member\n"
		"                 I/O without a stripe unit, 1.00-1.03x with the general plan's; re-create to change workload\n");
}

/* --workload small-sync or metadata on XFS: what it plans and why */
static void print_xfs_small_files(FILE *f, const struct sp_plan *p)
{
	if (p->workload == SP_WORKLOAD_METADATA)
		fprintf(f, "  workload       metadata       many small files made and removed, no fsync (untar, build trees, caches)\n");
	else
		fprintf(f, "  workload       small-sync     many small files, each written and fsynced (mail spools, maildirs, queues)\n");
	if (p->stripe_width_bytes && p->workload == SP_WORKLOAD_METADATA)
		print_xfs_metadata_stripe(f);
	else if (p->stripe_width_bytes)
		print_xfs_small_sync_stripe(f);
	else
		fprintf(f, "  stripe         none           a mirror has no stripe: as the general plan, no su/sw and log writes\n"
			"                                padded to the sector\n");
	print_xfs_noalign(f);
	if (!p->xfs_agsize_bytes) {
		fprintf(f, "  agcount        %-14u mkfs.xfs's own for one device, as parted's default layout gets: whole-stripe\n"
			"                                groups serve swalloc only, which needs a stripe unit\n",
			p->xfs_ag.agcount);
		return;
	}
	fprintf(f, "  agsize         %-14s %u allocation groups of at least 68 MiB: mkfs.xfs's own would be too small\n"
		"                                for the 64 MiB log it requires\n",
		SP_SIZE_TEXT(p->xfs_agsize_bytes, SP_SIZE_HUMAN), p->xfs_ag.agcount);
}

static void print_filesystem(FILE *f, const struct sp_plan *p)
{
	fprintf(f, "\nFilesystem %s, %u-byte blocks\n", sp_fs_name(p->fs), p->block_bytes);
	if (p->fs == SP_FS_XFS && !sp_workload_xfs_stripe(p->workload)) {
		print_xfs_small_files(f, p);
	} else if (!p->stripe_width_bytes) {
		fprintf(f, "  stripe         none           a mirror has no stripe: no %s, and %s\n",
			p->fs == SP_FS_XFS ? "su/sw" : "stride/stripe_width",
			p->fs == SP_FS_XFS ? "log writes are not padded to a stripe unit" :
			"the allocator does not round to a stripe");
		if (p->fs == SP_FS_XFS)
			print_xfs_noalign(f);
		else
			fprintf(f, "  -E             stride=0,stripe_width=0, so mke2fs does not take them from a LUN that\n"
				"                 exports minimum and optimal I/O sizes\n");
	} else if (p->fs == SP_FS_XFS) {
		fprintf(f, "  su             %-14s stripe unit = the chunk\n",
			SP_SIZE_TEXT(p->xfs_su_bytes, SP_SIZE_HUMAN));
		fprintf(f, "  sw             %-14u stripe width in units = the data disks (full stripe %s)\n",
			p->xfs_sw, SP_SIZE_TEXT(p->stripe_width_bytes, SP_SIZE_HUMAN));
		fprintf(f, "  log su         %-14s one block, the least mkfs.xfs takes beside a stripe unit: every log write\n"
			"                 is padded to it, and padding a small write to the chunk (mkfs.xfs's own choice up\n"
			"                 to XFS's 256 KiB cap, 32 KiB beyond) makes it no full stripe; measured on 64 KiB\n"
			"                 fsync'd files: 2.13 member bytes per byte at 4 KiB, 10.0 at a 256 KiB chunk (RAID10\n"
			"                 8 x 256 KiB), 4.27 against 6.01 at 32 KiB (RAID5 10 x 1 MiB), member I/Os equal\n"
			"                 (bench/run --parts log)\n",
			SP_SIZE_TEXT(p->xfs_log_su_bytes, SP_SIZE_HUMAN));
		fprintf(f, "                 fsync-heavy small files (mail spools, queues) are better served by --workload small-sync:\n"
			"                 this log su costs them 3.4-4.9 %% more member bytes than none (4.27 against 4.11, RAID5)\n");
		print_xfs_ag(f, p);
		/* every array's losses, each named: a reader of any plan sees them */
		fputs(xfs_trades, f);
	} else {
		fprintf(f, "  stride         %-14u blocks per chunk: %s / %u\n", p->ext_stride_blocks,
			SP_SIZE_TEXT(p->chunk_bytes, SP_SIZE_HUMAN), p->block_bytes);
		fprintf(f, "  stripe_width   %-14u blocks per full stripe: stride x %u data disks; ext4 aligns a file to it\n"
			"                 when it allocates whole stripes (a fallocated or direct-I/O file): stripe-sized\n"
			"                 writes to one measured 1.02x the minimum against 1.27x without it (RAID10\n"
			"                 8 x 256 KiB), 1.03x against 1.50x (RAID5 15 x 128 KiB) (bench/run --parts ext4)\n",
			p->ext_stripe_width_blocks, p->data_disks);
		if (p->workload == SP_WORKLOAD_SMALL_SYNC)
			fprintf(f, "  workload       small-sync     planned as general: the journal's writes are not padded to the stride,\n"
				"                                and 64 KiB fsync'd files cost 5.30-5.33 member bytes per data byte with\n"
				"                                and without stride/stripe_width (bench/run --parts log)\n");
	}
	fprintf(f, "  command       ");
	for (size_t i = 0; i < p->n_mkfs_argv; i++)
		fprintf(f, " %s", p->mkfs_argv[i]);
	fprintf(f, "\n");
}

static void print_mount(FILE *f, const struct sp_plan *p)
{
	fprintf(f, "\nMount%s%s\n", p->mountpoint[0] ? " on " : "", p->mountpoint);
	fprintf(f, "  options       ");
	for (size_t i = 0; i < p->n_mount_options; i++)
		fprintf(f, "%s%s", i ? "," : " ", p->mount_options[i]);
	fprintf(f, "\n");
	fprintf(f, "                 noatime (implies nodiratime); nofail%s so a missing array does not stop the boot\n",
		p->n_mount_options && strstr(p->mount_options[p->n_mount_options - 1], "device-timeout") ?
		" and a 30 s device timeout" : "");
	for (size_t i = 0; i < p->n_mount_options; i++)
		if (!strcmp(p->mount_options[i], "inode64"))
			fprintf(f, "                 inode64: before Linux 3.7 XFS keeps every inode in the first "
				"TiB unless told (%s)\n",
				SP_LIMIT_CITED(SP_LIMIT_XFS_INODE64_DEFAULT));
	if (p->fs == SP_FS_XFS && p->workload == SP_WORKLOAD_METADATA)
		fprintf(f, "                 logbufs=8,logbsize=256k (--workload metadata): 8x fewer log writes on small files\n"
			"                 made and removed without fsync (21 requests against 163, member I/Os 1.28 against\n"
			"                 1.84 per MiB on RAID10 8 x 256 KiB); fsync'd 64 KiB files cost up to 6 %% more member\n"
			"                 bytes (4.52 against 4.27 on RAID5) (bench/run --parts log)\n");
	else if (p->fs == SP_FS_XFS)
		fprintf(f, "                 logbufs and logbsize left at the kernel's 8 x 32 KiB: 256 KiB buffers cost fsync'd\n"
			"                 64 KiB files up to 6 %% more member bytes (4.52 against 4.27 on RAID5) and save\n"
			"                 log writes only on metadata work without fsync (21 requests against 163):\n"
			"                 --workload metadata (bench/run --parts log)\n");
	if (p->fstab_line[0])
		fprintf(f, "  fstab          %s\n                 (apply writes the UUID mkfs gives the filesystem)\n",
			p->fstab_line);
}

/* What the field report did that the default tuning does not, and why. */
static void print_left_out(FILE *f, const struct sp_plan *p)
{
	if (!p->n_left_out)
		return;
	fprintf(f, "\nLeft out of the default tuning (the field report set them)\n");
	for (size_t i = 0; i < p->n_left_out; i++) {
		const struct sp_left_out *l = &p->left_out[i];

		fprintf(f, "  %s\n      report: %s\n      left out: %s\n", l->what, l->why, l->reason);
	}
}

static void print_tuning(FILE *f, const struct sp_plan *p)
{
	if (!p->n_tuning && !p->n_left_out)
		return;
	if (p->tuning_recipe == SP_TUNING_FIELD_REPORT)
		fprintf(f, "\nTuning (--tuning field-report: the seed report's whole recipe, as measured then)\n");
	else if (p->n_left_out)
		fprintf(f, "\nTuning (default: what holds on current kernels and disks)\n");
	else
		fprintf(f, "\nTuning\n");
	for (size_t i = 0; i < p->n_tuning; i++) {
		const struct sp_tuning *t = &p->tuning[i];
		char path[SP_PATH_MAX];

		if (t->kind == SP_TUNING_MODULE) {
			fprintf(f, "  options %s %s=%s  (modprobe.d; takes effect when the module loads)\n",
				t->device, t->attribute, SP_VALUE_TEXT(&t->value));
		} else {
			sp_tuning_path(t, path, sizeof(path));
			fprintf(f, "  %s = %s\n", path, SP_VALUE_TEXT(&t->value));
		}
		fprintf(f, "      %s\n", t->why);
	}
	if (p->md_stripe_cache_bytes) {
		fprintf(f, "  md stripe cache memory: %s\n",
			SP_SIZE_TEXT(p->md_stripe_cache_bytes, SP_SIZE_HUMAN));
	}
	print_left_out(f, p);
}

char *sp_format_plan_text(const struct sp_plan *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, "stripeplan: %s %s, %u disks", p->controller, sp_level_name(p->level), p->disks);
	if (p->spans > 1)
		fprintf(f, " in %u spans", p->spans);
	fprintf(f, ", for Linux %s\n", p->kernel.release);
	for (size_t i = 0; i < p->n_recognised_by; i++)
		fprintf(f, "%s%s\n", i ? "                 " : "  recognised by  ", p->recognised_by[i]);
	fprintf(f, "\n");
	print_array(f, p);
	print_device(f, p);
	print_partition(f, p);
	print_stack(f, p);
	print_filesystem(f, p);
	print_mount(f, p);
	print_tuning(f, p);
	if (p->n_advice) {
		fprintf(f, "\nController settings stripeplan cannot set\n");
		for (size_t i = 0; i < p->n_advice; i++)
			fprintf(f, "  - %s\n", p->advice[i]);
	}
	if (p->n_warnings) {
		fprintf(f, "\nWarnings\n");
		for (size_t i = 0; i < p->n_warnings; i++)
			fprintf(f, "  [%s] %s\n", p->warnings[i].code, p->warnings[i].message);
	}
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* the controller's documented limits, each with its source */
static void profile_limits_text(FILE *f, const struct sp_profile *pr)
{
	if (pr->max_disks)
		fprintf(f, "  levels and disks: at most %u disks%s%s\n", pr->max_disks,
			pr->levels_source[0] ? "; " : "", pr->levels_source);
	else if (pr->levels_source[0])
		fprintf(f, "  levels and disks: %s\n", pr->levels_source);
	if (pr->n_strip_sizes || pr->strips_source[0]) {
		fprintf(f, "  %ss: ", pr->strip_name[0] ? pr->strip_name : "strip");
		for (size_t i = 0; i < pr->n_strip_sizes; i++)
			fprintf(f, "%s%s", i ? ", " : "",
				SP_SIZE_TEXT(pr->strip_sizes_bytes[i], SP_SIZE_SHORT));
		if (!pr->n_strip_sizes)
			fprintf(f, "%s..%s", SP_SIZE_TEXT(pr->chunk_min_bytes, SP_SIZE_SHORT),
				SP_SIZE_TEXT(pr->chunk_max_bytes, SP_SIZE_SHORT));
		if (pr->default_strip_bytes)
			fprintf(f, ", default %s", SP_SIZE_TEXT(pr->default_strip_bytes, SP_SIZE_SHORT));
		fprintf(f, " (%s)\n", pr->strips_source);
	}
	if (pr->spans_max || pr->span_disks_max || pr->spans_source[0]) {
		fprintf(f, "  spans: %u", pr->spans_min ? pr->spans_min : 2);
		if (pr->spans_max)
			fprintf(f, " to %u", pr->spans_max);
		else
			fprintf(f, " or more");
		if (pr->span_disks_max)
			fprintf(f, ", at most %u disks each", pr->span_disks_max);
		fprintf(f, " (%s)\n", pr->spans_source);
	}
	for (size_t i = 0; i < pr->n_level_rules; i++) {
		const struct sp_level_rule *r = &pr->level_rules[i];

		if (!r->source[0])
			continue;
		fprintf(f, "  %s: %u", sp_level_name(r->level), r->min_disks);
		if (r->max_disks)
			fprintf(f, " to %u", r->max_disks);
		else
			fprintf(f, " or more");
		fprintf(f, " disks, chunk a %s (%s)\n", sp_chunk_rule_name(r->chunk), r->source);
	}
}

/* what recognises the controller (stripeplan(8) RECOGNITION), with its source */
static void profile_recognition_text(FILE *f, const struct sp_profile *pr)
{
	const struct sp_profile_recognition *r = &pr->recognition;
	const char *sep = "";

	if (!r->source[0])
		return;
	fprintf(f, "  recognised by:");
	for (size_t i = 0; i < r->n_md_metadata; i++, sep = ",")
		fprintf(f, "%s md superblock %s", sep, r->md_metadata[i]);
	for (size_t i = 0; i < r->n_pci; i++, sep = ",") {
		const struct sp_profile_pci *p = &r->pci[i];

		fprintf(f, "%s PCI %s:%s", sep, p->vendor, p->device);
		if (p->subvendor[0])
			fprintf(f, " %s:%s", p->subvendor, p->subdevice);
	}
	for (size_t i = 0; i < r->n_inquiry; i++, sep = ",")
		fprintf(f, "%s INQUIRY '%s' '%s...'", sep, r->inquiry[i].vendor, r->inquiry[i].model);
	for (size_t i = 0; i < r->n_proc_names; i++, sep = ",")
		fprintf(f, "%s SCSI host %s", sep, r->proc_names[i]);
	fprintf(f, " (%s)\n", r->source);
}

char *sp_format_profiles_text(const struct sp_profile_set *set)
{
	static const enum sp_level all[] = { SP_LEVEL_0, SP_LEVEL_1, SP_LEVEL_4, SP_LEVEL_5, SP_LEVEL_6,
					     SP_LEVEL_10, SP_LEVEL_50, SP_LEVEL_60 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	for (size_t i = 0; i < sp_profiles_count(set); i++) {
		const struct sp_profile *pr = sp_profiles_get(set, i);
		char lo[32], hi[32];

		sp_format_size(pr->chunk_min_bytes, SP_SIZE_SHORT, lo, sizeof(lo));
		sp_format_size(pr->chunk_max_bytes, SP_SIZE_SHORT, hi, sizeof(hi));
		fprintf(f, "%s\n  %s\n  driver %s; levels", pr->name, pr->description,
			pr->driver[0] ? pr->driver : "(any)");
		for (size_t l = 0, n = 0; l < ARRAY_SIZE(all); l++)
			if (pr->levels_mask & sp_level_bit(all[l]))
				fprintf(f, "%s%u", n++ ? "," : " ", (unsigned)all[l]);
		fprintf(f, "; chunk %s..%s; %s write cache\n", lo, hi,
			pr->protected_write_cache ? "battery- or flash-backed" : "no protected");
		if (pr->scheduler[0] || pr->n_knobs || pr->n_module_options) {
			fprintf(f, "  tuning:");
			if (pr->scheduler[0])
				fprintf(f, " scheduler=%s", pr->scheduler);
			for (size_t k = 0; k < pr->n_knobs; k++)
				fprintf(f, " %s%s%s=%s", pr->knobs[k].on_by_default ? "" : "field-report:",
					pr->knobs[k].target == SP_TARGET_MEMBERS ? "members:" : "",
					pr->knobs[k].knob, SP_VALUE_TEXT(&pr->knobs[k].value));
			for (size_t k = 0; k < pr->n_module_options; k++)
				fprintf(f, " %s.%s=%s", pr->module_options[k].module,
					pr->module_options[k].param,
					SP_VALUE_TEXT(&pr->module_options[k].value));
			fprintf(f, "\n");
		}
		profile_limits_text(f, pr);
		profile_recognition_text(f, pr);
		if (pr->source[0])
			fprintf(f, "  source: %s\n", pr->source);
	}
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}
