/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef STRIPEPLAN_RENDER_TUNING_FILES_H
#define STRIPEPLAN_RENDER_TUNING_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "array/facts.h"
#include "array/md.h"
#include "base/base.h"
#include "plan/plan.h"

/*
 * What the files find each device by, an input of its own beside the
 * plan: an md array by its UUID, a disk, LUN or md member by its WWN or
 * serial number, and only what has none of them by kernel name.
 */
struct sp_identities {
	bool md;                      /* the device is an md array */
	char md_uuid[SP_MD_UUID_MAX]; /* udev's MD_UUID spelling; "" unknown */
	char wwn[SP_NAME_MAX];        /* the device's own; "" unknown */
	char serial[SP_NAME_MAX];
	/* an md array's member disks (disk: the kernel name the plan's tuning
	 * entries use; wwn, serial: "" unknown), the facts' own: valid while
	 * the facts they were taken from are (up to 1920 of them) */
	size_t n_members;
	const struct sp_md_member *members;
};

/*
 * The identities of a plan's devices.  The device's WWN and serial are
 * the plan's (apply refuses a device whose WWN is not the one a plan
 * names); an md array's UUID and its members' are what now holds when it
 * is a probed md array, since a plan made offline knows none of them, and
 * the plan's otherwise.  now is NULL where nothing is probed (plan
 * --format udev renders from the plan's own facts).  apply, check and
 * plan --format all render from this, so they cannot disagree.  ret
 * points into planned's or now's members: keep them while it is used.
 */
void sp_identities_of(const struct sp_facts *planned, const struct sp_facts *now,
		      struct sp_identities *ret);

/*
 * The plan's tuning as persistence files (render/tuning-files.c), from
 * the plan and the identities and nothing else.  The tune script is
 * templates/stripeplan-tune.sh.in: POSIX sh that finds each device in
 * sysfs by the identity the udev rule matches it by (so a renamed disk is
 * still found, and a disk that took its old name is left alone), sets and
 * reads back its sysfs knobs, honours SYSFS_ROOT, and takes an optional
 * kernel name (udev's %k) to tune one device only.  The udev rule sets
 * the sysfs knobs on add|change, matching an md array by its UUID
 * (ENV{MD_UUID}), other devices and md members by WWN or serial, and only
 * what has none by kernel name: then `warning` (may be NULL) says so,
 * otherwise it is set to "".  The modprobe.d file is "" when the plan has
 * no module options.  Entries that fail sp_tuning_check() are left out
 * with a comment.
 */
char *sp_format_tuning_script(const struct sp_plan *plan, const struct sp_identities *ids);
char *sp_format_udev_rule(const struct sp_plan *plan, const struct sp_identities *ids,
			  char *warning, size_t len);
char *sp_format_modprobe_conf(const struct sp_plan *plan, const struct sp_identities *ids);
/* File names for them, after what the rule matches the device by, so they
 * stay put when kernel names move between boots:
 * "65-stripeplan-md-3f1c2a9e-6b0d4e21-9a7f5c33-c2e81b04.rules" for an md
 * array matched by MD_UUID (after mdadm's 63-md-raid-arrays.rules sets
 * it), "60-stripeplan-wwn-naa.5000c500a1b2c3d4.rules", "...-serial-X...",
 * and only for a device with no identity "60-stripeplan-sdb.rules";
 * "stripeplan-tune-" the same.  Characters outside [A-Za-z0-9._-] (the '!'
 * of cciss!c0d0) become '-'.  0 or -errno. */
int sp_udev_rule_name(const struct sp_plan *plan, const struct sp_identities *ids, char *buf,
		      size_t len);
int sp_tune_script_name(const struct sp_plan *plan, const struct sp_identities *ids, char *buf,
			size_t len);
#endif
