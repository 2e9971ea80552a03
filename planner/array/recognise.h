/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which profile a device's controller is, from what the kernel says of it
 * (struct sp_controller_facts, md's superblock format) matched against the
 * profiles' "recognition" rows: data, not code.
 */
#ifndef STRIPEPLAN_ARRAY_RECOGNISE_H
#define STRIPEPLAN_ARRAY_RECOGNISE_H

#include <stddef.h>

#include "base/base.h"
#include "facts.h"
#include "profile.h"

#define SP_RECOGNISED_BY_MAX 4U

struct sp_recognition {
	/* the profile the facts decide, or NULL: none, or more than one */
	const struct sp_profile *profile;
	/* the facts that decided, in words: "PCI 1000:10e2 subsystem 1028:1ae1 (PERC H755 Front)" */
	size_t n_by;
	char by[SP_RECOGNISED_BY_MAX][SP_MSG_MAX / 2];
	/* what the kernel said, for a message: "SCSI host proc_name 'virtio_scsi', ..." */
	char seen[SP_MSG_MAX];
	/* when no profile is decided: the profiles that match as well as any
	 * other ("dell-perc-h730p, broadcom-mr9560, ..."), or "" */
	char candidates[SP_MSG_MAX];
	/* a physical disk its RAID controller passes through (JBOD): no
	 * profile, as it is no array (sp_controller_passthrough()) */
	bool passthrough;
};

/* Fills ret for facts f against the profiles of set.  Never fails: no
 * profile decided is ret->profile == NULL. */
void sp_recognise(const struct sp_profile_set *set, const struct sp_facts *f,
		  struct sp_recognition *ret);

#endif
