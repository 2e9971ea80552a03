/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The knobs stripeplan sets and their values, as numbers: a value is
 * parsed once where it enters (a profile, a plan file, the kernel's sysfs
 * text), compared as a number, and turned into text only where it leaves
 * (sysfs, the udev rule, the tune script, JSON).  Nothing parses back text
 * the planner wrote, so a profile's "0004096" cannot become a value that
 * never equals the kernel's 4096.  A plan's tuning entry names a knob of
 * a device (or a module's parameter) and the value it gets.
 */
#ifndef STRIPEPLAN_KERNEL_KNOB_H
#define STRIPEPLAN_KERNEL_KNOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "limits/limit.h"

struct sp_error;

/* The I/O schedulers of every era: blk-mq's and the single-queue ones. */
enum sp_scheduler {
	SP_SCHED_NONE = 0,
	SP_SCHED_MQ_DEADLINE,
	SP_SCHED_BFQ,
	SP_SCHED_KYBER,
	SP_SCHED_NOOP,
	SP_SCHED_DEADLINE,
	SP_SCHED_CFQ,
};
SP_STRING_TABLE_DECLARE(sp_scheduler, enum sp_scheduler);

enum sp_value_kind {
	SP_VALUE_UNSET = 0, /* no value (a module option's unknown driver default) */
	SP_VALUE_NUMBER,    /* a count in the knob's unit */
	SP_VALUE_SCHEDULER, /* queue/scheduler */
	SP_VALUE_AUTO,      /* a profile's md/stripe_cache_size: sized by the planner */
	SP_VALUE_WORD,      /* a module parameter that is not a number: [a-z0-9,] */
};

#define SP_VALUE_WORD_MAX 64U

struct sp_value {
	enum sp_value_kind kind;
	uint64_t number;
	enum sp_scheduler scheduler;
	char word[SP_VALUE_WORD_MAX];
};

/* A sysfs knob (relative to /sys/block/DEV) and the kernel's rules for it. */
struct sp_knob {
	const char *attribute;     /* "queue/read_ahead_kb" */
	enum sp_value_kind kind;   /* SP_VALUE_NUMBER or SP_VALUE_SCHEDULER */
	enum sp_limit_id limit;    /* its bounds, unit and source (limit.h) */
	bool kernel_may_lower;     /* the store succeeds with less than asked */
	bool may_be_auto;          /* a profile may leave it to the planner */
	bool in_profiles;          /* a profile's "tuning" may set it (the
				    * scheduler has a key of its own) */
};

/* The knob of attribute, or NULL when stripeplan sets no such knob. */
const struct sp_knob *sp_knob_find(const char *attribute);
/* "queue/read_ahead_kb, queue/max_sectors_kb, ...": the knobs a profile may set */
const char *sp_knob_profile_list(char *buf, size_t len);

/*
 * A value as a person or the planner wrote it (a profile, a plan file),
 * for knob (NULL: a module parameter, a number or a word): one spelling
 * only, the one the kernel prints back -- a decimal number without a sign
 * or leading zeros, within the knob's bounds; a scheduler's name; "auto"
 * where the knob allows it.  -EINVAL or -ERANGE with err saying why
 * ("'0004096' has a leading zero: write 4096").
 */
int sp_value_parse(const char *text, const struct sp_knob *knob, struct sp_value *ret,
		   struct sp_error *err);
/* What the kernel says a knob is, from its sysfs text: "4096", md's
 * "30000 (local)", the bracketed entry of "[mq-deadline] none".  -EINVAL
 * for anything else (a scheduler stripeplan does not know). */
int sp_value_from_kernel(const char *text, const struct sp_knob *knob, struct sp_value *ret);
/* "4096", "mq-deadline", "auto", the word; "" unset.  Returns buf. */
const char *sp_value_format(const struct sp_value *v, char *buf, size_t len);
#define SP_VALUE_TEXT(v) sp_value_format((v), (char[SP_VALUE_WORD_MAX]){ 0 }, SP_VALUE_WORD_MAX)
bool sp_value_equal(const struct sp_value *a, const struct sp_value *b);
/* A number, for the planner: SP_VALUE_NUMBER with n. */
struct sp_value sp_value_number(uint64_t n);

/* ------------------------------------------------------------ entries */

enum sp_tuning_kind {
	SP_TUNING_SYSFS = 0, /* /sys/block/<device>/<attribute>, set live and at boot */
	SP_TUNING_MODULE,    /* /sys/module/<device>/parameters/<attribute>: modprobe.d */
};

/* One knob.  Its sysfs path is derived (sp_tuning_path), never stored. */
struct sp_tuning {
	enum sp_tuning_kind kind;
	char device[SP_NAME_MAX];        /* kernel name "sdb", "cciss!c0d0"; or the module */
	char attribute[2 * SP_NAME_MAX]; /* "queue/read_ahead_kb"; or the module parameter */
	struct sp_value value;           /* a number, a scheduler, or a module parameter's word */
	char why[SP_MSG_MAX];
};

/* "sysfs", "module" (the plan file's "kind"); NULL for no kind. */
SP_STRING_TABLE_DECLARE(sp_tuning_kind, enum sp_tuning_kind);
/* The knob's file: "/sys/block/sdb/queue/read_ahead_kb",
 * "/sys/module/megaraid_mbox/parameters/max_sectors".  0 or -ENAMETOOLONG. */
int sp_tuning_path(const struct sp_tuning *t, char *buf, size_t len);
/* The inverse, for the plan file's "path" (the one place a path is split):
 * -EINVAL unless path is the form sp_tuning_path() writes for kind.  Sets
 * kind, device and attribute of *ret. */
int sp_tuning_from_path(enum sp_tuning_kind kind, const char *path, struct sp_tuning *ret);
/* Whether an entry is one stripeplan may write: device, attribute and value
 * of the strict character sets, no "." or ".." component.  0 or -EINVAL. */
int sp_tuning_check(const struct sp_tuning *t);

#endif
