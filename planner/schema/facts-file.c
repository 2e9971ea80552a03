/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Device facts from a JSON file instead of a device (plan --facts, tests):
 * the same table as the plan's "device" object, which holds less (the
 * rows marked SP_VIEW_FACTS are what only the probe and a facts file say).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "array/facts.h"
#include "base/devname.h"
#include "base/error.h"
#include "objects.h"
#include "schema.h"

static void facts_init(void *obj)
{
	struct sp_facts *f = obj;

	f->rotational = -1;
	f->read_only = -1;
}

/* What a real device always satisfies; a facts file and a plan must too. */
static int facts_check(void *obj, const struct sp_where *w, struct sp_error *err)
{
	struct sp_facts *f = obj;

	if (f->path[0] != '/')
		return sp_where_error(err, w, "path", EINVAL, ": '%s' is not an absolute device path",
				      f->path);
	if (f->physical_sector_bytes < f->logical_sector_bytes)
		return sp_where_error(err, w, "physical_sector_bytes", EINVAL,
				      ": %u is smaller than logical_sector_bytes (%u)",
				      f->physical_sector_bytes, f->logical_sector_bytes);
	if (!f->size_bytes || f->size_bytes % f->logical_sector_bytes)
		return sp_where_error(err, w, "size_bytes", EINVAL,
				      ": %" PRIu64 " is not a positive multiple of %u", f->size_bytes,
				      f->logical_sector_bytes);
	/* an offline plan through a stable link has none: apply reads it */
	if (!f->kernel_name[0] && !(f->offline && sp_is_stable_link(f->path)) &&
	    sp_kernel_name_from_path(f->path, f->kernel_name, sizeof(f->kernel_name), NULL) < 0)
		return sp_where_error(err, w, "kernel_name", EINVAL,
				      " is not given and cannot be derived from path '%s'", f->path);
	/* derived from the path, it is held to the rule its row holds a given one to */
	if (sp_name_bad_char(f->kernel_name))
		return sp_where_error(err, w, "kernel_name", EINVAL,
				      " holds a character that is not allowed (0x%02x): a name such "
				      "as 'sdb' becomes a sysfs path and a udev match",
				      sp_name_bad_char(f->kernel_name));
	return 0;
}

/* "schedulers": ["mq-deadline", "none"], as queue/scheduler offers them */
/* a PCI id is four hex digits or unknown */
static int controller_check(void *obj, const struct sp_where *w, struct sp_error *err)
{
	const struct sp_controller_facts *c = obj;
	const struct {
		const char *name, *value;
	} ids[] = { { "pci_vendor", c->pci_vendor },
		    { "pci_device", c->pci_device },
		    { "pci_subvendor", c->pci_subvendor },
		    { "pci_subdevice", c->pci_subdevice } };

	const struct {
		const char *name, *value;
	} words[] = { { "proc_name", c->proc_name },
		      { "vendor", c->vendor },
		      { "model", c->model },
		      { "revision", c->revision } };

	for (size_t i = 0; i < ARRAY_SIZE(ids); i++)
		if (ids[i].value[0] && strlen(ids[i].value) != 4)
			return sp_where_error(err, w, ids[i].name, EINVAL,
					      ": '%s' is not four hex digits", ids[i].value);
	/* the kernel gives INQUIRY strings as printable ASCII (the SCSI
	 * standard's); anything else would reach a terminal in a message */
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		for (const char *p = words[i].value; *p; p++)
			if (*p < 0x20 || *p > 0x7e)
				return sp_where_error(err, w, words[i].name, EINVAL,
						      " holds a byte that is not printable ASCII (0x%02x)",
						      (unsigned char)*p);
	return 0;
}

static const struct sp_field scheduler_elem =
	SP_ELEM_STRING(sizeof(((struct sp_facts *)0)->schedulers[0]),
		       .flags = SP_FF_NAME | SP_FF_NONEMPTY);

/*
 * The plan's "device" is the facts the plan was made for; SP_VIEW_FACTS
 * rows are what only a probe says (the queue's schedulers, whether it is
 * a partition): the plan does not carry them, and refuses them.
 */
#define HEX4 "0123456789abcdef"

/* "controller": who drives the disk, for recognition; not in a plan */
static const struct sp_field controller_fields[] = {
	SP_STRING(sp_controller_facts, proc_name, "proc_name", .flags = SP_FF_NAME | SP_FF_NULL_EMPTY),
	SP_STRING(sp_controller_facts, vendor, "vendor", .flags = SP_FF_NULL_EMPTY),
	SP_STRING(sp_controller_facts, model, "model", .flags = SP_FF_NULL_EMPTY),
	SP_STRING(sp_controller_facts, revision, "revision", .flags = SP_FF_NULL_EMPTY),
	SP_STRING(sp_controller_facts, pci_vendor, "pci_vendor", .flags = SP_FF_NULL_EMPTY,
		  .charset = HEX4, .charset_says = "four lowercase hex digits"),
	SP_STRING(sp_controller_facts, pci_device, "pci_device", .flags = SP_FF_NULL_EMPTY,
		  .charset = HEX4, .charset_says = "four lowercase hex digits"),
	SP_STRING(sp_controller_facts, pci_subvendor, "pci_subvendor", .flags = SP_FF_NULL_EMPTY,
		  .charset = HEX4, .charset_says = "four lowercase hex digits"),
	SP_STRING(sp_controller_facts, pci_subdevice, "pci_subdevice", .flags = SP_FF_NULL_EMPTY,
		  .charset = HEX4, .charset_says = "four lowercase hex digits"),
	SP_STRING(sp_controller_facts, scsi_address, "scsi_address", .flags = SP_FF_NULL_EMPTY,
		  .charset = "0123456789:", .charset_says = "host:channel:target:lun in decimal"),
};
static const struct sp_schema controller_schema =
	SP_SCHEMA(sp_controller_facts, controller_fields, .check = controller_check);

static bool controller_unknown(const void *member)
{
	const struct sp_controller_facts *c = member;

	return !c->proc_name[0] && !c->vendor[0] && !c->model[0] && !c->revision[0] &&
	       !c->pci_vendor[0] && !c->pci_device[0] && !c->pci_subvendor[0] &&
	       !c->pci_subdevice[0] && !c->scsi_address[0];
}

static const struct sp_field facts_fields[] = {
	SP_STRING(sp_facts, path, "path", .flags = SP_FF_REQUIRED),
	SP_STRING(sp_facts, kernel_name, "kernel_name", .flags = SP_FF_NAME,
		  .required_views = SP_VIEW_PLAN),
	SP_BOOL(sp_facts, offline, "offline", .required_views = SP_VIEW_PLAN),
	SP_U64(sp_facts, size_bytes, "size_bytes", 0, SP_JSON_U64_MAX, .flags = SP_FF_REQUIRED),
	SP_UINT(sp_facts, logical_sector_bytes, "logical_sector_bytes", 512, 65536,
		.flags = SP_FF_REQUIRED | SP_FF_POW2),
	SP_UINT(sp_facts, physical_sector_bytes, "physical_sector_bytes", 512, 65536,
		.flags = SP_FF_REQUIRED | SP_FF_POW2),
	/* queue/minimum_io_size and optimal_io_size are the kernel's unsigned int */
	SP_U64(sp_facts, min_io_bytes, "min_io_bytes", 0, UINT32_MAX,
	       .required_views = SP_VIEW_PLAN),
	SP_U64(sp_facts, optimal_io_bytes, "optimal_io_bytes", 0, UINT32_MAX,
	       .required_views = SP_VIEW_PLAN),
	/* -1: misaligned (queue/alignment_offset) */
	SP_I64(sp_facts, alignment_offset_bytes, "alignment_offset_bytes", -1, UINT32_MAX),
	/* what the knobs are bounded by (facts.h); files from before have none */
	SP_U64(sp_facts, max_hw_sectors_kib, "max_hw_sectors_kib", 0, SP_MAX_HW_SECTORS_KIB_MAX,
	       .flags = SP_FF_OMIT_EMPTY, .empty = sp_u64_zero),
	SP_UINT(sp_facts, tag_depth, "tag_depth", 0, SP_TAG_DEPTH_MAX, .flags = SP_FF_OMIT_EMPTY,
		.empty = sp_uint_zero),
	SP_TRISTATE(sp_facts, rotational, "rotational", .views = SP_VIEW_FACTS),
	SP_TRISTATE(sp_facts, read_only, "read_only", .views = SP_VIEW_FACTS),
	SP_UINT(sp_facts, major, "major", 0, UINT32_MAX, .views = SP_VIEW_FACTS),
	SP_UINT(sp_facts, minor, "minor", 0, UINT32_MAX, .views = SP_VIEW_FACTS),
	SP_STRING(sp_facts, wwn, "wwn", .flags = SP_FF_NULL_EMPTY),
	SP_STRING(sp_facts, serial, "serial", .flags = SP_FF_NULL_EMPTY),
	SP_U64(sp_facts, diskseq, "diskseq", 0, SP_JSON_U64_MAX, .flags = SP_FF_NULL_EMPTY),
	SP_STRING(sp_facts, driver, "driver", .views = SP_VIEW_FACTS),
	SP_BOOL(sp_facts, is_scsi, "is_scsi", .views = SP_VIEW_FACTS),
	SP_BOOL(sp_facts, is_partition, "is_partition", .views = SP_VIEW_FACTS),
	SP_LIST(sp_facts, schedulers, n_schedulers, "schedulers", &scheduler_elem,
		.views = SP_VIEW_FACTS),
	SP_OBJECT(sp_facts, controller, "controller", &controller_schema, .empty = controller_unknown,
		  .views = SP_VIEW_FACTS),
	SP_OBJECT(sp_facts, md, "md", &sp_md_schema, .empty = sp_md_absent),
};
const struct sp_schema sp_facts_schema =
	SP_SCHEMA(sp_facts, facts_fields, .init = facts_init, .check = facts_check);

int sp_facts_from_json(const char *text, const char *origin, struct sp_facts *ret,
		       struct sp_error *err)
{
	struct sp_facts *f = calloc(1, sizeof(*f));
	struct json_object *obj = NULL;
	char prefix[SP_PATH_MAX + 32];
	struct sp_where root;
	int r;

	if (!f)
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	snprintf(prefix, sizeof(prefix), "facts file '%s'", origin);
	root = (struct sp_where){ .name = "", .prefix = prefix, .view = SP_VIEW_FACTS };
	r = sp_json_parse_object(text, prefix, "device facts file", &obj, err);
	if (r == 0)
		r = sp_schema_read(&sp_facts_schema, obj, f, &root, err);
	if (r == 0)
		*ret = *f;
	else
		sp_facts_release(f);
	json_object_put(obj);
	free(f);
	return r;
}
