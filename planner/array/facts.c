/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a device's facts own: an md array's members (facts.h). */
#include <errno.h>
#include <stdlib.h>

#include "base/base.h"
#include "facts.h"

void sp_facts_release(struct sp_facts *f)
{
	if (!f)
		return;
	free(f->md.members);
	f->md.members = NULL;
	f->md.n_members = 0;
}

int sp_facts_copy(struct sp_facts *dst, const struct sp_facts *src)
{
	*dst = *src;
	if (sp_array_dup(&dst->md.members, src->md.members, src->md.n_members,
			 sizeof(*src->md.members)) < 0) {
		dst->md.n_members = 0;
		return -ENOMEM;
	}
	return 0;
}
