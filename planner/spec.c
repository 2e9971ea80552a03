/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Names users type for filesystems and partition tables. */
#include <errno.h>
#include <string.h>

#include "stripeplan.h"

static const char *const fs_names[] = { [SP_FS_XFS] = "xfs", [SP_FS_EXT3] = "ext3", [SP_FS_EXT4] = "ext4" };
static const char *const table_names[] = { [SP_TABLE_GPT] = "gpt", [SP_TABLE_MSDOS] = "msdos",
					   [SP_TABLE_NONE] = "none" };
static const char *const source_names[] = { [SP_SOURCE_DECLARED] = "declared",
					    [SP_SOURCE_KERNEL] = "kernel",
					    [SP_SOURCE_DEFAULT] = "default",
					    [SP_SOURCE_NONE] = "none" };

int sp_parse_fs(const char *text, enum sp_fs *ret, struct sp_error *err)
{
	for (size_t i = 0; i < sizeof(fs_names) / sizeof(fs_names[0]); i++) {
		if (!strcmp(text, fs_names[i])) {
			*ret = (enum sp_fs)i;
			return 0;
		}
	}
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "fs: unknown filesystem '%s' (known: xfs, ext3, ext4)", text);
}

const char *sp_fs_name(enum sp_fs fs)
{
	return (size_t)fs < sizeof(fs_names) / sizeof(fs_names[0]) ? fs_names[fs] : "unknown";
}

const char *sp_mkfs_tool(enum sp_fs fs)
{
	return fs == SP_FS_XFS ? "mkfs.xfs" : "mke2fs";
}

int sp_parse_table(const char *text, enum sp_table *ret, struct sp_error *err)
{
	/* "dos" and "mbr" are what sfdisk and fdisk users call it */
	if (!strcmp(text, "gpt")) {
		*ret = SP_TABLE_GPT;
		return 0;
	}
	if (!strcmp(text, "msdos") || !strcmp(text, "dos") || !strcmp(text, "mbr")) {
		*ret = SP_TABLE_MSDOS;
		return 0;
	}
	if (!strcmp(text, "none")) {
		*ret = SP_TABLE_NONE;
		return 0;
	}
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "table: unknown partition table '%s' (known: gpt, msdos, none)", text);
}

const char *sp_table_name(enum sp_table t)
{
	return (size_t)t < sizeof(table_names) / sizeof(table_names[0]) ? table_names[t] : "unknown";
}

int sp_parse_tuning_recipe(const char *text, enum sp_tuning_recipe *ret, struct sp_error *err)
{
	if (!strcmp(text, "default")) {
		*ret = SP_TUNING_DEFAULT;
		return 0;
	}
	if (!strcmp(text, "field-report")) {
		*ret = SP_TUNING_FIELD_REPORT;
		return 0;
	}
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "tuning: unknown recipe '%s' (known: default, field-report)", text);
}

const char *sp_tuning_recipe_name(enum sp_tuning_recipe r)
{
	return r == SP_TUNING_FIELD_REPORT ? "field-report" : "default";
}

static const char *const workload_names[] = {
	[SP_WORKLOAD_GENERAL] = "general",
	[SP_WORKLOAD_METADATA] = "metadata",
	[SP_WORKLOAD_SMALL_SYNC] = "small-sync",
};

int sp_parse_workload(const char *text, enum sp_workload *ret, struct sp_error *err)
{
	for (size_t i = 0; i < sizeof(workload_names) / sizeof(workload_names[0]); i++) {
		if (!strcmp(text, workload_names[i])) {
			*ret = (enum sp_workload)i;
			return 0;
		}
	}
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "workload: unknown workload '%s' (known: general, metadata, small-sync)",
			    text);
}

bool sp_workload_xfs_stripe(enum sp_workload w)
{
	return w == SP_WORKLOAD_GENERAL;
}

const char *sp_workload_name(enum sp_workload w)
{
	return (size_t)w < sizeof(workload_names) / sizeof(workload_names[0]) ?
		       workload_names[w] : "general";
}

const char *sp_source_name(enum sp_source s)
{
	return (size_t)s < sizeof(source_names) / sizeof(source_names[0]) ? source_names[s] : "unknown";
}

int sp_parse_source(const char *text, enum sp_source *ret)
{
	for (size_t i = 0; i < sizeof(source_names) / sizeof(source_names[0]); i++) {
		if (!strcmp(text, source_names[i])) {
			*ret = (enum sp_source)i;
			return 0;
		}
	}
	return -EINVAL;
}
