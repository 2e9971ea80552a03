/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every way fstab can name a filesystem or a partition, resolved in one
 * place: UUID=, LABEL=, PARTUUID=, PARTLABEL= and ID= (quoted or not, as
 * planner/fstab.c hands them over), /dev/disk/by-* links (read as their
 * tag where udev made none), and any path to a block node, compared by
 * device number.  Both the fstab step's refusals ("is this line about
 * what apply writes?") and check's search for the line that mounts a
 * filesystem use it.
 */
#ifndef STRIPEPLAN_FS_NAMES_H
#define STRIPEPLAN_FS_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* A set of names: device numbers, UUIDs, labels, PARTUUIDs, PARTLABELs. */
struct sp_fs_names;

/* An empty set, or NULL when out of memory. */
struct sp_fs_names *sp_fs_names_new(void);
void sp_fs_names_free(struct sp_fs_names *n);

/*
 * Adds the block node at path: its device number, its partition entry's
 * PARTUUID and PARTLABEL, and the UUID and LABEL of the filesystem on it
 * (libblkid, read-only).  0, or -errno when path is no block node.
 */
int sp_fs_names_add_node(struct sp_fs_names *n, const char *path);
/* Adds a filesystem by its UUID and label (either may be NULL or ""). */
int sp_fs_names_add_fs(struct sp_fs_names *n, const char *uuid, const char *label);

/*
 * Whether an fstab source names anything in the set: tag and value as
 * "LABEL", "data" ("" and "" for a path), source as written.  UUIDs and
 * PARTUUIDs compare without case, labels exactly.
 */
bool sp_fs_names_match(const struct sp_fs_names *n, const char *tag, const char *value,
		       const char *source);

/*
 * The node a source names on this machine now, for messages ("/dev/sdc1"):
 * through udev's /dev/disk/by-* links, else libblkid's evaluation (which may
 * read every disk's superblock); "" when nothing has that name now.
 */
void sp_fs_names_resolve(const char *tag, const char *value, const char *source, char *buf,
			 size_t len);

#endif
