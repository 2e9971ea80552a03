/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The stack stage: the layers between the partition (or the whole md
 * device) and the filesystem, bottom up -- a LUKS2 volume, an LVM PV with
 * its VG and one linear LV -- each starting on a full stripe, so the
 * filesystem's su/sw (which do not change) are aligned to the array and
 * not to a header.  Each layer shifts what is above it by its own header:
 * a LUKS2 volume's data by its data offset, a PV's extents by pe_start.
 * Each offset is planned as a whole number of full stripes, and every
 * extent is whole stripes, so an LV added later starts on one too.
 *
 * The numbers are the tools' own rules, read in their sources:
 *  - cryptsetup (lib/luks2/luks2_json_format.c,
 *    LUKS2_hdr_get_storage_params): two 16 KiB JSON headers and a keyslots
 *    area make 16 MiB by default (LUKS2_DEFAULT_HDR_SIZE), rounded up to
 *    the device's optimal I/O when it exports one (utils_device.c,
 *    device_topology_alignment) and to 1 MiB when not; with --offset the
 *    keyslots area is the offset less the two headers, so an offset of 16
 *    MiB or more keeps at least the default keyslots area.
 *  - cryptsetup's sector size (utils_device.c,
 *    device_optimal_encryption_sector_size): the physical sector when it is
 *    larger than the logical and at most 4 KiB, else the logical one.
 *  - lvm2 (measured with pvcreate 2.03.16 on a loop device): the first
 *    extent starts at the first multiple of --dataalignment at or past the
 *    1 MiB its default metadata area ends at (192 KiB: 1152 KiB; 3 MiB:
 *    3 MiB), the metadata area growing to fill the gap.
 *  - lvm2 (lib/metadata/vg.c, vg_check_new_extent_size): an extent size
 *    that is not a power of two must be a multiple of 128 KiB.
 *  - lvm2 (lib/misc/lvm-string.c, _validate_name and
 *    apply_lvname_restrictions): names of [a-zA-Z0-9+_.-], at most 127
 *    bytes, not starting with '-', not "." or ".."; LV names not starting
 *    "snapshot" or "pvmove" nor holding "_cdata", "_tmeta", ... .
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/devname.h"
#include "base/error.h"
#include "base/units.h"
#include "plan-internal.h"

/* cryptsetup's default LUKS2 metadata and keyslots area (LUKS2_DEFAULT_HDR_SIZE) */
#define LUKS2_DEFAULT_HDR_BYTES (16 * SP_MIB)
/* LUKS2 keeps its areas in 4 KiB units (MISALIGNED_4K in cryptsetup) */
#define LUKS2_AREA_ALIGN_BYTES 4096U
/* lvm2's default extent (DEFAULT_EXTENT_SIZE) and where its default
 * metadata area ends (pe_start without --dataalignment) */
#define LVM_DEFAULT_EXTENT_BYTES (4 * SP_MIB)
#define LVM_DEFAULT_PE_START_BYTES SP_MIB
/* vg_check_new_extent_size: a non-power-of-two extent is whole 128 KiB */
#define LVM_NON_POW2_EXTENT_UNIT_BYTES (128 * SP_KIB)

bool sp_plan_has_layer(const struct sp_plan *plan, enum sp_layer l)
{
	for (size_t i = 0; i < plan->n_layers; i++)
		if (plan->layers[i] == l)
			return true;
	return false;
}

static bool lvm_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '+' || c == '_' || c == '.' || c == '-';
}

/* lvm2's _validate_name: what vgcreate and lvcreate accept */
static int lvm_name_check(const char *what, const char *name, struct sp_error *err)
{
	if (!name[0])
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "%s: the name is empty", what);
	if (strlen(name) >= SP_DM_NAME_MAX)
		return sp_error_set(err, ENAMETOOLONG, SP_ERR_INVALID,
				    "%s: '%.40s...' is longer than the %u bytes LVM takes", what,
				    name, SP_DM_NAME_MAX - 1);
	if (name[0] == '-')
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "%s: '%s' starts with '-', which LVM refuses (it joins VG and LV "
				    "names with '-')",
				    what, name);
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "%s: '%s' is not a name", what,
				    name);
	for (const char *p = name; *p; p++)
		if (!lvm_name_char(*p))
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "%s: '%s' holds '%c'; LVM names are made of "
					    "a-z A-Z 0-9 + _ . -",
					    what, name, (*p >= 0x20 && *p < 0x7f) ? *p : '?');
	return 0;
}

/* lvm2's apply_lvname_restrictions: the names its own sub-LVs take */
static int lv_name_check(const char *name, struct sp_error *err)
{
	static const char *const prefixes[] = { "pvmove", "snapshot" };
	static const char *const parts[] = { "_cdata", "_cmeta", "_corig", "_cpool", "_cvol",
					     "_wcorig", "_mimage", "_mlog", "_rimage", "_rmeta",
					     "_tdata", "_tmeta", "_vdata", "_imeta", "_iorig",
					     "_pmspare", "_vorigin" };
	int r = lvm_name_check("lv", name, err);

	if (r < 0)
		return r;
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "lv: names starting '%s' are LVM's own", prefixes[i]);
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++)
		if (strstr(name, parts[i]))
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "lv: names holding '%s' are LVM's own", parts[i]);
	return 0;
}

/*
 * A device-mapper name for the LUKS2 mapping: the kernel takes any bytes
 * but '/' and refuses "control", "." and ".." (dm-ioctl.c, check_name);
 * it also becomes /dev/mapper/NAME, a crypttab field and a systemd unit
 * name, so it is held to LVM's characters.
 */
static int dm_name_check(const char *name, struct sp_error *err)
{
	int r = lvm_name_check("luks-name", name, err);

	if (r == 0 && !strcmp(name, "control"))
		r = sp_error_set(err, EINVAL, SP_ERR_INVALID,
				 "luks-name: 'control' is device-mapper's own /dev/mapper/control");
	return r;
}

/* The length of name in a device-mapper name, where LVM doubles each '-'. */
static size_t dm_escaped_len(const char *name)
{
	size_t n = strlen(name);

	for (const char *p = name; *p; p++)
		n += *p == '-';
	return n;
}

/* A default name made from a kernel name: what LVM does not take becomes '_'. */
static void name_from(const char *prefix, const char *kernel_name, const char *suffix, char *buf,
		      size_t len)
{
	size_t at = strlen(prefix), end;

	snprintf(buf, len, "%s%s%s", prefix, kernel_name, suffix);
	end = at + strlen(kernel_name) < strlen(buf) ? at + strlen(kernel_name) : strlen(buf);
	for (size_t i = at; i < end; i++)
		if (!lvm_name_char(buf[i]))
			buf[i] = '_';
}

/* How a layer is built: what it starts on, and what it leaves above. */
struct layer_base {
	const char *path;     /* the device the layer is made on */
	uint64_t size_bytes;  /* its size */
	uint64_t offset_bytes; /* its start from the partition's */
};

/* One stripe or, for a mirror (no stripe), 1 byte: a multiple of it is free. */
static uint64_t stripe_or_one(const struct sp_plan *plan)
{
	return plan->stripe_width_bytes ? plan->stripe_width_bytes : 1;
}

static uint64_t round_up(uint64_t v, uint64_t unit)
{
	return (v + unit - 1) / unit * unit;
}

/* cryptsetup's own choice, made here so the plan says it */
static unsigned luks_sector_bytes(const struct sp_facts *f)
{
	unsigned logical = f->logical_sector_bytes, physical = f->physical_sector_bytes;

	if (logical >= physical || physical <= 512 || physical > 4096 || physical % logical)
		return logical;
	return physical;
}

static int luks_align(const struct sp_plan *plan, unsigned sector_bytes, uint64_t *ret)
{
	uint64_t align = stripe_or_one(plan);

	if (sp_lcm(align, LUKS2_AREA_ALIGN_BYTES, &align) < 0 ||
	    sp_lcm(align, plan->device.physical_sector_bytes, &align) < 0 ||
	    sp_lcm(align, sector_bytes, &align) < 0)
		return -EOVERFLOW;
	*ret = align;
	return 0;
}

uint64_t sp_stack_luks_offset_bytes(const struct sp_plan *plan, unsigned sector_bytes)
{
	uint64_t align;

	if (luks_align(plan, sector_bytes ? sector_bytes : 512, &align) < 0)
		return 0;
	return round_up(LUKS2_DEFAULT_HDR_BYTES, align);
}

static int lvm_align(const struct sp_plan *plan, uint64_t *ret)
{
	uint64_t unit = stripe_or_one(plan);

	if (sp_lcm(unit, LVM_DEFAULT_PE_START_BYTES, &unit) < 0 ||
	    sp_lcm(unit, plan->device.physical_sector_bytes, &unit) < 0)
		return -EOVERFLOW;
	*ret = unit;
	return 0;
}

uint64_t sp_stack_lvm_alignment_bytes(const struct sp_plan *plan)
{
	uint64_t unit;

	return lvm_align(plan, &unit) < 0 ? 0 : unit;
}

static int plan_luks(const struct sp_spec *spec, struct sp_plan *plan, struct layer_base *base,
		     struct sp_error *err)
{
	struct sp_luks_plan *l = &plan->luks;
	uint64_t align;
	int r;

	if (spec->luks_name[0]) {
		snprintf(l->name, sizeof(l->name), "%s", spec->luks_name);
	} else if (sp_plan_has_layer(plan, SP_LAYER_LVM) && plan->layers[0] == SP_LAYER_LVM) {
		/* on the LV: named after it, as /dev/mapper shows it */
		int n = snprintf(l->name, sizeof(l->name), "%s-%s_crypt", plan->lvm.vg,
				 plan->lvm.lv);

		if (n < 0 || (size_t)n >= sizeof(l->name))
			return sp_error_set(err, ENAMETOOLONG, SP_ERR_INVALID,
					    "luks-name: the default '%s-%s_crypt' is longer than "
					    "the %u bytes of a device-mapper name; give --luks-name",
					    plan->lvm.vg, plan->lvm.lv, SP_DM_NAME_MAX - 1);
	} else {
		char kernel[SP_NAME_MAX];

		if (sp_kernel_name_from_path(base->path, kernel, sizeof(kernel), NULL) < 0)
			snprintf(kernel, sizeof(kernel), "%s", plan->device.kernel_name);
		/* debian-installer's partman-crypto names them so: sda5_crypt */
		name_from("", kernel, "_crypt", l->name, sizeof(l->name));
	}
	r = dm_name_check(l->name, err);
	if (r < 0)
		return r;
	snprintf(l->below, sizeof(l->below), "%s", base->path);
	snprintf(l->path, sizeof(l->path), "/dev/mapper/%s", l->name);
	l->sector_bytes = luks_sector_bytes(&plan->device);
	if (luks_align(plan, l->sector_bytes, &align) < 0)
		return sp_error_set(err, EOVERFLOW, SP_ERR_INVALID,
				    "stack: the LUKS2 data offset cannot be aligned without overflow");
	l->align_bytes = align;
	l->offset_bytes = round_up(LUKS2_DEFAULT_HDR_BYTES, align);
	if (base->size_bytes < l->offset_bytes + stripe_or_one(plan) ||
	    base->size_bytes - l->offset_bytes < SP_MIB)
		return sp_error_set(err, ENOSPC, SP_ERR_INVALID,
				    "size: %s (%s) leaves no room for data after the LUKS2 "
				    "header's %s",
				    base->path, SP_SIZE_TEXT(base->size_bytes, SP_SIZE_HUMAN),
				    SP_SIZE_TEXT(l->offset_bytes, SP_SIZE_HUMAN));
	/* dm-crypt maps whole encryption sectors */
	l->size_bytes = (base->size_bytes - l->offset_bytes) / l->sector_bytes * l->sector_bytes;
	base->path = l->path;
	base->size_bytes = l->size_bytes;
	base->offset_bytes += l->offset_bytes;
	return 0;
}

static int lvm_names(const struct sp_spec *spec, struct sp_plan *plan, struct sp_error *err)
{
	struct sp_lvm_plan *v = &plan->lvm;
	int r;

	if (spec->vg_name[0])
		snprintf(v->vg, sizeof(v->vg), "%s", spec->vg_name);
	else
		name_from("vg_", plan->device.kernel_name, "", v->vg, sizeof(v->vg));
	snprintf(v->lv, sizeof(v->lv), "%s", spec->lv_name[0] ? spec->lv_name : "data");
	r = lvm_name_check("vg", v->vg, err);
	if (r == 0)
		r = lv_name_check(v->lv, err);
	if (r < 0)
		return r;
	/* the LV's device-mapper name is VG-LV with each '-' doubled */
	if (dm_escaped_len(v->vg) + 1 + dm_escaped_len(v->lv) >= SP_DM_NAME_MAX)
		return sp_error_set(err, ENAMETOOLONG, SP_ERR_INVALID,
				    "lv: '%s-%s' (each '-' doubled) is longer than the %u bytes of "
				    "a device-mapper name",
				    v->vg, v->lv, SP_DM_NAME_MAX - 1);
	snprintf(v->path, sizeof(v->path), "/dev/%s/%s", v->vg, v->lv);
	return 0;
}

static int plan_lvm(struct sp_plan *plan, struct layer_base *base, struct sp_error *err)
{
	struct sp_lvm_plan *v = &plan->lvm;
	uint64_t unit;

	snprintf(v->below, sizeof(v->below), "%s", base->path);
	/* the stripe, 1 MiB (so the metadata area keeps its default room and
	 * an extent is whole 128 KiB, as lvm2 asks of one that is not a
	 * power of two) and the physical sector */
	if (lvm_align(plan, &unit) < 0)
		return sp_error_set(err, EOVERFLOW, SP_ERR_INVALID,
				    "stack: the LVM data alignment cannot be computed without overflow");
	v->data_alignment_bytes = unit;
	v->pe_start_bytes = unit;
	v->extent_bytes = round_up(LVM_DEFAULT_EXTENT_BYTES, unit);
	if (!sp_is_power_of_two(v->extent_bytes) && v->extent_bytes % LVM_NON_POW2_EXTENT_UNIT_BYTES)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "stack: extent size %" PRIu64 " is neither a power of two nor "
				    "whole 128 KiB",
				    v->extent_bytes);
	if (base->size_bytes < v->pe_start_bytes + v->extent_bytes)
		return sp_error_set(err, ENOSPC, SP_ERR_INVALID,
				    "size: %s (%s) holds no %s extent after the PV's %s of metadata",
				    base->path, SP_SIZE_TEXT(base->size_bytes, SP_SIZE_HUMAN),
				    SP_SIZE_TEXT(v->extent_bytes, SP_SIZE_HUMAN),
				    SP_SIZE_TEXT(v->pe_start_bytes, SP_SIZE_HUMAN));
	v->extents = (base->size_bytes - v->pe_start_bytes) / v->extent_bytes;
	v->size_bytes = v->extents * v->extent_bytes;
	base->path = v->path;
	base->size_bytes = v->size_bytes;
	base->offset_bytes += v->pe_start_bytes;
	return 0;
}

/* What --vg, --lv and --luks-name name must be in the stack. */
static int names_have_layers(const struct sp_spec *spec, struct sp_error *err)
{
	bool lvm = false, luks = false;

	for (size_t i = 0; i < spec->n_layers; i++) {
		lvm |= spec->layers[i] == SP_LAYER_LVM;
		luks |= spec->layers[i] == SP_LAYER_LUKS;
	}
	if (!lvm && (spec->vg_name[0] || spec->lv_name[0]))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "%s: names an LVM volume, but the stack has no lvm (--stack lvm)",
				    spec->vg_name[0] ? "vg" : "lv");
	if (!luks && spec->luks_name[0])
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "luks-name: names a LUKS2 volume, but the stack has no luks "
				    "(--stack luks)");
	return 0;
}

int sp_plan_stack(const struct sp_spec *spec, const struct sp_profile *profile,
		  struct sp_plan *plan, struct sp_error *err)
{
	struct layer_base base = { plan->partition_path, plan->size_bytes, 0 };
	int r;

	(void)profile;
	r = names_have_layers(spec, err);
	if (r < 0)
		return r;
	plan->n_layers = spec->n_layers;
	memcpy(plan->layers, spec->layers, sizeof(plan->layers));
	/* the LV's names first: a LUKS2 volume on it is named after it */
	if (sp_plan_has_layer(plan, SP_LAYER_LVM))
		r = lvm_names(spec, plan, err);
	for (size_t i = 0; r == 0 && i < plan->n_layers; i++)
		r = plan->layers[i] == SP_LAYER_LUKS ? plan_luks(spec, plan, &base, err) :
						       plan_lvm(plan, &base, err);
	if (r < 0)
		return r;
	snprintf(plan->fs_path, sizeof(plan->fs_path), "%s", base.path);
	plan->fs_size_bytes = base.size_bytes;
	plan->fs_offset_bytes = base.offset_bytes;
	return 0;
}

/* The read_ahead_kb the plan sets on the device itself, or 0. */
static uint64_t device_read_ahead_kib(const struct sp_plan *plan)
{
	for (size_t i = 0; i < plan->n_tuning; i++) {
		const struct sp_tuning *t = &plan->tuning[i];

		if (t->kind == SP_TUNING_SYSFS && t->value.kind == SP_VALUE_NUMBER &&
		    !strcmp(t->device, plan->device.kernel_name) &&
		    !strcmp(t->attribute, "queue/read_ahead_kb"))
			return t->value.number;
	}
	return 0;
}

/*
 * A LUKS2 mapping on top reads ahead as the device below it did when it
 * was opened: the disk as the tuning step set it (apply runs it before
 * the layers; at boot udev's rule sets it before crypttab opens the
 * volume), or the LV as lvcreate -r made it.  What stays for the user:
 * stripeplan neither sets nor checks the mapping's own value, so one
 * opened before (an apply re-run on an open stack that set the disk or
 * the LV again) keeps the old value until it is opened again.
 */
static void warn_luks_on_top(struct sp_plan *plan, uint64_t kib)
{
	sp_plan_add_warning(plan, "read-ahead-not-on-top",
			    "the filesystem reads through the LUKS2 mapping %s, which stripeplan "
			    "neither tunes nor checks: cryptsetup gives it the read-ahead %s has "
			    "when it opens it, %s %" PRIu64 " KiB (%s); a mapping opened before "
			    "keeps its own until it is opened again",
			    plan->luks.path, plan->luks.below,
			    plan->n_layers > 1 ? "the LV's planned" : "the planned", kib,
			    plan->n_layers > 1 ? "lvcreate -r" :
						 "the tuning sets it first, in apply and at boot");
}

/*
 * A dm device takes no read-ahead from the device below it by itself:
 * LVM gives an LV the kernel's own ('auto': 128 KiB, or twice the
 * optimal I/O size), so the filesystem on it would never see the planned
 * one (measured on Debian's 6.1 guest: md5 32768, the LV 384).  An LV
 * keeps it in the VG's metadata (lvcreate -r), which LVM applies at every
 * activation; lvm2 keeps it in whole pages (lvcreate.c: 'Overriding
 * readahead to a multiple of the page size'), so it is planned so and
 * apply's value is the plan's.  The LV gets it under a LUKS2 mapping too:
 * cryptsetup opens a mapping with the read-ahead of the device below it
 * (measured: md5_crypt opened on md5 at 384 KiB read 384, lunc on sda at
 * 4096 read 4096), which stripeplan does not set on the mapping itself.
 */
void sp_plan_stack_read_ahead(struct sp_plan *plan)
{
	const uint64_t page_sectors = SP_PAGE_BYTES / 512;
	uint64_t kib = device_read_ahead_kib(plan), sectors;

	plan->lvm.read_ahead_sectors = 0;
	if (!plan->n_layers || !kib)
		return;
	if (plan->layers[plan->n_layers - 1] == SP_LAYER_LUKS)
		warn_luks_on_top(plan, kib);
	if (!sp_plan_has_layer(plan, SP_LAYER_LVM))
		return;
	sectors = kib * 2 / page_sectors * page_sectors;
	if (sectors > SP_LVM_READ_AHEAD_MAX_SECTORS) {
		sp_plan_add_warning(plan, "read-ahead-not-on-top",
				    "queue/read_ahead_kb = %" PRIu64 " is more than LVM keeps for an LV "
				    "(%u sectors; lvm2 counts them in 32 bits): the LV %s keeps "
				    "LVM's own (auto)",
				    kib, SP_LVM_READ_AHEAD_MAX_SECTORS, plan->lvm.path);
		return;
	}
	plan->lvm.read_ahead_sectors = sectors ? sectors : page_sectors;
}
