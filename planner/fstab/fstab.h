/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fstab editing for the fstab step, kept apart from the step so it can be
 * tested without root or a device.
 *
 * The tool owns exactly one kind of line: an entry directly below a
 * marker comment
 *
 *	# stripeplan: /data
 *	UUID=0f5e... /data xfs noatime,logbufs=8,... 0 0
 *
 * whose mount point or UUID is the one being planned.  Every other byte
 * of the file is copied through unchanged; libmount parses the entries
 * only to find conflicts, never to write them back.
 */
#ifndef STRIPEPLAN_FSTAB_FSTAB_H
#define STRIPEPLAN_FSTAB_FSTAB_H

#include <stdbool.h>
#include <stddef.h>

#include "base/base.h"
#include "base/error.h"
#include "line.h"
#include "mountpoint.h"
#include "plan/plan.h"

#define SP_FSTAB_MARKER "# stripeplan:"

enum sp_fstab_action {
	SP_FSTAB_KEEP = 0, /* the file already holds exactly our line */
	SP_FSTAB_ADD,      /* marker and line appended */
	SP_FSTAB_REPLACE,  /* our earlier line replaced in place */
};

/*
 * Returns old_text with owned_line in it: in place of the line the tool
 * owns for this mount point or UUID (a second owned one is dropped), or
 * appended with its marker.  A missing final newline is added first.
 *
 * Refuses (-EEXIST, SP_ERR_INVALID, message naming the line number) when
 * a line the tool does not own already mounts on `mountpoint` (compared
 * unescaped, trailing slashes ignored) or uses `uuid` (UUID=, or
 * /dev/disk/by-uuid/); -EINVAL for control characters in the inputs or
 * an owned_line that is not one entry for `mountpoint`.  uuid may be NULL
 * or "" when it is not known yet (dry run before mkfs): only the mount
 * point is checked then.  *ret_text is malloc'd, set only on success.
 */
int sp_fstab_merge(const char *old_text, const char *owned_line, const char *mountpoint,
		   const char *uuid, char **ret_text, struct sp_error *err);
/* The same, and says what changed (ret_action may be NULL). */
int sp_fstab_merge_action(const char *old_text, const char *owned_line, const char *mountpoint,
			  const char *uuid, char **ret_text, enum sp_fstab_action *ret_action,
			  struct sp_error *err);

/*
 * What the merge cannot know from text alone: which spellings name what
 * apply writes, and what another spelling names (the system side resolves
 * both: system/fs-names.h).  Without it the merge judges by `uuid` alone.
 */
struct sp_fstab_names {
	/* does the entry's source (tag and value as sp_fstab_match_fn gets
	 * them) name the disk, a partition on it or a filesystem there? */
	bool (*ours)(const char *tag, const char *value, const char *source, void *userdata);
	/* the node the source names now ("" when none), for messages */
	void (*node_of)(const char *tag, const char *value, const char *source, char *buf,
			size_t len, void *userdata);
	const char *device;         /* what apply formats, for messages: "/dev/sdb1" */
	void *userdata;
};

/*
 * sp_fstab_merge_action, with names.  A line the tool does not own that
 * names what apply writes, in any spelling, is refused (-EEXIST, invalid
 * input) wherever it mounts it: two lines would mount one filesystem, or
 * one would name a filesystem apply replaces.  A block the tool owns for
 * `mountpoint` that names another device present now is refused the same
 * way, naming both devices: one mount point is not given to a second
 * device.  One naming no device present now (its filesystem was re-made
 * by a run that was stopped) is replaced.  The result must stay within
 * SP_INPUT_MAX_BYTES, what the reader takes back (-EFBIG, invalid input).
 */
int sp_fstab_merge_names(const char *old_text, const char *owned_line, const char *mountpoint,
			 const char *uuid, const struct sp_fstab_names *names, char **ret_text,
			 enum sp_fstab_action *ret_action, struct sp_error *err);

/* plan->fstab_line with the placeholder replaced by uuid.  -EINVAL for a
 * missing placeholder or a uuid with characters other than [0-9A-Za-z-],
 * -ENAMETOOLONG when buf is too small. */
int sp_fstab_line_render(const struct sp_plan *plan, const char *uuid, char *buf, size_t len);

/* One entry that names a filesystem by UUID, for verify. */
struct sp_fstab_entry {
	unsigned line; /* 1-based */
	bool owned;    /* directly below a marker */
	char source[SP_PATH_MAX]; /* as written: "UUID=...", "/dev/disk/by-id/..." */
	char target[SP_PATH_MAX]; /* unescaped */
	char fstype[SP_NAME_MAX];
	char options[SP_PATH_MAX];
	int passno;
};

/*
 * Finds the entries whose source is UUID=uuid or /dev/disk/by-uuid/uuid.
 * Fills at most max entries but counts them all in *ret_n.
 */
int sp_fstab_find_uuid(const char *text, const char *uuid, struct sp_fstab_entry *ret, size_t max,
		       size_t *ret_n, struct sp_error *err);
/*
 * The same for any way of naming a filesystem: match() sees the source's
 * tag and value ("LABEL", "data"; "" and "" for a path) and the source as
 * written, and says whether it names the one looked for.
 */
typedef bool (*sp_fstab_match_fn)(const char *tag, const char *value, const char *source,
				  void *userdata);
int sp_fstab_find(const char *text, sp_fstab_match_fn match, void *userdata,
		  struct sp_fstab_entry *ret, size_t max, size_t *ret_n, struct sp_error *err);

#endif
