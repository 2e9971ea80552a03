/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Names users type for filesystems, partition tables, workloads and recipes. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "spec.h"

static const char *const sp_fs_table[] = {
	[SP_FS_XFS] = "xfs",
	[SP_FS_EXT3] = "ext3",
	[SP_FS_EXT4] = "ext4",
};
SP_STRING_TABLE(sp_fs, enum sp_fs, "unknown")

static const char *const sp_table_table[] = {
	[SP_TABLE_GPT] = "gpt",
	[SP_TABLE_MSDOS] = "msdos",
	[SP_TABLE_NONE] = "none",
};
SP_STRING_TABLE(sp_table, enum sp_table, "unknown")

static const char *const sp_source_table[] = {
	[SP_SOURCE_DECLARED] = "declared",
	[SP_SOURCE_KERNEL] = "kernel",
	[SP_SOURCE_DEFAULT] = "default",
	[SP_SOURCE_NONE] = "none",
	[SP_SOURCE_TOPOLOGY] = "topology",
	[SP_SOURCE_REPORT] = "report",
	[SP_SOURCE_ASSUMED] = "assumed",
};
SP_STRING_TABLE(sp_source, enum sp_source, "unknown")

static const char *const sp_tuning_recipe_table[] = {
	[SP_TUNING_DEFAULT] = "default",
	[SP_TUNING_FIELD_REPORT] = "field-report",
};
SP_STRING_TABLE(sp_tuning_recipe, enum sp_tuning_recipe, "default")

static const char *const sp_workload_table[] = {
	[SP_WORKLOAD_GENERAL] = "general",
	[SP_WORKLOAD_METADATA] = "metadata",
	[SP_WORKLOAD_SMALL_SYNC] = "small-sync",
};
SP_STRING_TABLE(sp_workload, enum sp_workload, "general")

static const char *const sp_layer_table[] = {
	[SP_LAYER_LUKS] = "luks",
	[SP_LAYER_LVM] = "lvm",
};
SP_STRING_TABLE(sp_layer, enum sp_layer, "unknown")

int sp_parse_stack(const char *text, enum sp_layer *layers, size_t *ret_n, struct sp_error *err)
{
	char buf[64];
	char *save = NULL;
	size_t n = 0;

	if (!strcmp(text, "none")) {
		*ret_n = 0;
		return 0;
	}
	if (strlen(text) >= sizeof(buf) || !text[0] || text[0] == ',' ||
	    text[strlen(text) - 1] == ',' || strstr(text, ",,"))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "stack: '%.40s' is not a list of layers, bottom up (known: %s; "
				    "e.g. luks,lvm)",
				    text, SP_NAMES_JOINED(&sp_layer_names));
	snprintf(buf, sizeof(buf), "%s", text);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		enum sp_layer l;

		if (sp_layer_from_name(tok, &l) < 0)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "stack: unknown layer '%s' (known: %s)", tok,
					    SP_NAMES_JOINED(&sp_layer_names));
		for (size_t i = 0; i < n; i++)
			if (layers[i] == l)
				return sp_error_set(err, EINVAL, SP_ERR_INVALID,
						    "stack: '%s' is named twice in '%s'", tok, text);
		if (n >= SP_MAX_LAYERS)
			return sp_error_set(err, E2BIG, SP_ERR_INVALID,
					    "stack: more than %u layers in '%s'", SP_MAX_LAYERS, text);
		layers[n++] = l;
	}
	*ret_n = n;
	return 0;
}

int sp_parse_fs(const char *text, enum sp_fs *ret, struct sp_error *err)
{
	if (sp_fs_from_name(text, ret) == 0)
		return 0;
	return sp_error_set(err, EINVAL, SP_ERR_INVALID, "fs: unknown filesystem '%s' (known: %s)",
			    text, SP_NAMES_JOINED(&sp_fs_names));
}

const char *sp_mkfs_tool(enum sp_fs fs)
{
	return fs == SP_FS_XFS ? "mkfs.xfs" : "mke2fs";
}

int sp_parse_table(const char *text, enum sp_table *ret, struct sp_error *err)
{
	/* "dos" and "mbr" are what sfdisk and fdisk users call it */
	if (!strcmp(text, "dos") || !strcmp(text, "mbr")) {
		*ret = SP_TABLE_MSDOS;
		return 0;
	}
	if (sp_table_from_name(text, ret) == 0)
		return 0;
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "table: unknown partition table '%s' (known: %s)", text,
			    SP_NAMES_JOINED(&sp_table_names));
}

int sp_parse_tuning_recipe(const char *text, enum sp_tuning_recipe *ret, struct sp_error *err)
{
	if (sp_tuning_recipe_from_name(text, ret) == 0)
		return 0;
	return sp_error_set(err, EINVAL, SP_ERR_INVALID, "tuning: unknown recipe '%s' (known: %s)",
			    text, SP_NAMES_JOINED(&sp_tuning_recipe_names));
}

int sp_parse_workload(const char *text, enum sp_workload *ret, struct sp_error *err)
{
	if (sp_workload_from_name(text, ret) == 0)
		return 0;
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "workload: unknown workload '%s' (known: %s)", text,
			    SP_NAMES_JOINED(&sp_workload_names));
}

bool sp_workload_xfs_stripe(enum sp_workload w)
{
	return w == SP_WORKLOAD_GENERAL;
}
