/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a device's facts own (an md array's members), and what they say of it (facts.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

#define MEGASAS_MAX_PD_CHANNELS 2U /* drivers/scsi/megaraid/megaraid_sas.h */

/* The channel of "host:channel:target:lun" (four decimal fields), or -1. */
static long scsi_channel(const char *address)
{
	const char *p = address;
	long channel = -1;

	for (int field = 0; field < 4; field++) {
		size_t n = strspn(p, "0123456789");
		long v = 0;

		if (n == 0 || n > 9)
			return -1;
		for (size_t i = 0; i < n; i++)
			v = v * 10 + (p[i] - '0');
		if (field == 1)
			channel = v;
		p += n;
		if (field < 3 && *p++ != ':')
			return -1;
	}
	return *p ? -1 : channel;
}

bool sp_controller_passthrough(const struct sp_controller_facts *c)
{
	long channel = scsi_channel(c->scsi_address);

	return !strcmp(c->proc_name, "megaraid_sas") && channel >= 0 &&
	       channel < (long)MEGASAS_MAX_PD_CHANNELS;
}
