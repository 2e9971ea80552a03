/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The "md" object of a facts file or a plan's device: what the kernel
 * says about an md array, read with the same bounds from both, because
 * both are input somebody may have edited.
 */
#include <string.h>

#include <json-c/json.h>

#include "array/facts.h"
#include "array/md.h"
#include "objects.h"
#include "schema.h"

/* An md member whose disk is not given is a whole disk: the disk is its name. */
static int member_check(void *obj, const struct sp_where *w, struct sp_error *err)
{
	struct sp_md_member *m = obj;

	(void)w;
	(void)err;
	if (!m->disk[0])
		memcpy(m->disk, m->name, sizeof(m->disk));
	return 0;
}

/* every name becomes a sysfs path or a udev match: SP_FF_NAME */
static const struct sp_field member_fields[] = {
	SP_STRING(sp_md_member, name, "name", .flags = SP_FF_NAME | SP_FF_NONEMPTY | SP_FF_REQUIRED),
	SP_STRING(sp_md_member, disk, "disk", .flags = SP_FF_NAME),
	SP_STRING(sp_md_member, wwn, "wwn", .flags = SP_FF_NAME | SP_FF_NULL_EMPTY),
	SP_STRING(sp_md_member, serial, "serial", .flags = SP_FF_NAME | SP_FF_NULL_EMPTY),
	SP_BOOL(sp_md_member, has_queue_depth, "has_queue_depth"),
	/* the disk's queue limits (array/facts.h); 0 and left out when unknown */
	SP_U64(sp_md_member, max_hw_sectors_kib, "max_hw_sectors_kib", 0, SP_MAX_HW_SECTORS_KIB_MAX,
	       .flags = SP_FF_OMIT_EMPTY, .empty = sp_u64_zero),
	SP_UINT(sp_md_member, tag_depth, "tag_depth", 0, SP_TAG_DEPTH_MAX, .flags = SP_FF_OMIT_EMPTY,
		.empty = sp_uint_zero),
};
static const struct sp_schema member_schema =
	SP_SCHEMA(sp_md_member, member_fields, .check = member_check);

static const struct sp_field member_elem = SP_ELEM_OBJECT(&member_schema);

/* the object is there: it is an md array */
static void md_init(void *obj)
{
	((struct sp_md_facts *)obj)->present = true;
}

static const struct sp_field md_fields[] = {
	SP_STRING(sp_md_facts, level, "level", .flags = SP_FF_NAME | SP_FF_NONEMPTY | SP_FF_REQUIRED),
	SP_UINT(sp_md_facts, raid_disks, "raid_disks", 0, SP_MAX_DISKS),
	SP_U64(sp_md_facts, chunk_bytes, "chunk_bytes", 0, SP_CHUNK_MAX_BYTES),
	SP_U64(sp_md_facts, layout, "layout", 0, UINT32_MAX),
	SP_STRING(sp_md_facts, sync_action, "sync_action", .flags = SP_FF_NAME | SP_FF_NULL_EMPTY),
	SP_UINT(sp_md_facts, degraded, "degraded", 0, SP_MAX_DISKS),
	SP_STRING(sp_md_facts, uuid, "uuid", .flags = SP_FF_NAME | SP_FF_NULL_EMPTY),
	/* what recognition needs (intel-vroc's "external:imsm"), not the plan */
	SP_STRING(sp_md_facts, metadata, "metadata", .flags = SP_FF_NAME | SP_FF_NULL_EMPTY,
		  .views = SP_VIEW_FACTS),
	SP_LIST_GROWN(sp_md_facts, members, n_members, SP_MAX_MEMBERS, "members", &member_elem),
};
static const struct sp_unlisted md_unlisted[] = {
	SP_UNLISTED(sp_md_facts, present, "the object itself: there (read: md_init) or null"),
};
const struct sp_schema sp_md_schema = SP_SCHEMA(sp_md_facts, md_fields, .init = md_init,
						.unlisted = md_unlisted,
						.n_unlisted = ARRAY_SIZE(md_unlisted));

bool sp_md_absent(const void *md)
{
	return !((const struct sp_md_facts *)md)->present;
}

struct json_object *sp_md_facts_to_json(const struct sp_md_facts *md)
{
	return md->present ? sp_schema_write(&sp_md_schema, md, SP_VIEW_ALL) : NULL;
}
