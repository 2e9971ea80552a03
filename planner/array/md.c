/* SPDX-License-Identifier: GPL-2.0-or-later */
/* md arrays as the kernel names them: md/level's personalities. */
#include <errno.h>
#include <string.h>

#include "base/base.h"
#include "base/error.h"
#include "md.h"

int sp_md_level(const struct sp_md_facts *md, const char *array, enum sp_level *ret,
		struct sp_error *err)
{
	static const struct {
		const char *name;
		enum sp_level level;
	} known[] = {
		{ "raid0", SP_LEVEL_0 }, { "raid1", SP_LEVEL_1 },   { "raid5", SP_LEVEL_5 },
		{ "raid6", SP_LEVEL_6 }, { "raid10", SP_LEVEL_10 }, { "raid4", SP_LEVEL_4 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(known); i++) {
		if (!strcmp(md->level, known[i].name)) {
			*ret = known[i].level;
			return 0;
		}
	}
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "level: %s is md '%s', which stripeplan does not plan (it plans raid0, "
			    "raid1, raid4, raid5, raid6 and raid10)",
			    array, md->level[0] ? md->level : "(none)");
}

int sp_md_member_add(struct sp_md_facts *md, const struct sp_md_member *m)
{
	if (md->n_members >= SP_MAX_MEMBERS)
		return -E2BIG;
	if (sp_array_room(&md->members, md->n_members, sizeof(*md->members)) < 0)
		return -ENOMEM;
	md->members[md->n_members++] = *m;
	return 0;
}
