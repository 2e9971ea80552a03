/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What apply and check report: one result per step and the run's outcome.
 * Plain data, filled by the system library's steps and pipeline and read
 * by the formatters, which therefore need nothing from the system library.
 */
#ifndef STRIPEPLAN_AUDIT_RESULT_H
#define STRIPEPLAN_AUDIT_RESULT_H

#include "audit.h"
#include "base/base.h"
#include "base/error.h"

#define SP_STEP_MAX_LINES 24U
#define SP_UUID_MAX 64U

#define SP_MAX_STEPS 8U

enum sp_step_status {
	SP_STEP_PENDING = 0,
	SP_STEP_DONE,      /* apply changed something and verify agreed */
	SP_STEP_UNCHANGED, /* the system already matched the plan */
	SP_STEP_DRIFT,     /* verify found differences (lines say which) */
	SP_STEP_FAILED,    /* apply or verify could not run (error says why) */
	SP_STEP_SKIPPED,   /* an earlier step failed, or nothing to do */
	SP_STEP_DRY_RUN,   /* dry run: lines say what apply would do */
};

/*
 * One thing apply does, or in a dry run would do, in the order it does
 * it: recorded by the step at the point it acts (a dry run passes the
 * same point without writing), so the dry run's list and the real run's
 * are the same list.  `before` is what the action destroys or replaces
 * ("" when nothing: a new file, a blank device), `after` what it leaves.
 */
enum sp_action_kind {
	SP_ACTION_WIPE = 0,     /* a signature erased: before "xfs at 0x0", after "" */
	SP_ACTION_LABEL,        /* partition table: old label -> new */
	SP_ACTION_MKFS,         /* filesystem: old type and UUID -> new */
	SP_ACTION_FSTAB_REMOVE, /* an fstab line removed: before the line */
	SP_ACTION_FSTAB_ADD,    /* an fstab line added: after the line */
	SP_ACTION_FILE,         /* a file written: target its path */
	SP_ACTION_KNOB,         /* a kernel setting: old value -> new */
	SP_ACTION_LUKS,         /* a LUKS2 volume formatted (before: what it replaces), or opened */
	SP_ACTION_LVM,          /* an LVM PV, VG or LV made, or activated */
};

#define SP_ACTION_VALUE_MAX 256U

struct sp_action {
	enum sp_action_kind kind;
	bool destroys;          /* data or configuration is lost (wipe, label, mkfs, line removed) */
	char target[SP_ACTION_VALUE_MAX];  /* the device, file or knob */
	char before[SP_ACTION_VALUE_MAX];
	char after[SP_ACTION_VALUE_MAX];
};

struct sp_step_result {
	const char *name;
	enum sp_step_status status;
	char summary[SP_MSG_MAX];  /* one line: "gpt, 1 partition at 1 MiB, 2.34 TiB" */
	size_t n_lines;            /* differences (verify), actions (dry run), warnings */
	char lines[SP_STEP_MAX_LINES][SP_MSG_MAX];
	size_t n_lines_dropped;    /* past the last slot, which says "... and N more" */
	struct sp_findings findings; /* verify: what differs, judged (audit.h) */
	char *tool_output;         /* malloc'd: what mkfs and friends printed */
	double seconds;
	struct sp_error error;     /* when FAILED */
	/* apply: what it did, or would do (dry run), in order: every one of
	 * them (1920 md members' knobs included), malloc'd */
	size_t n_actions, cap_actions;
	struct sp_action *actions;
	size_t n_actions_dropped;  /* could not be recorded: out of memory */
};

enum sp_outcome {
	SP_OUTCOME_DONE = 0,   /* apply changed the device and verified it */
	SP_OUTCOME_UNCHANGED,  /* already matched: nothing done */
	SP_OUTCOME_DRY_RUN,    /* nothing done: lines say what would be */
	SP_OUTCOME_MATCH,      /* check: everything matches */
	SP_OUTCOME_DRIFT,      /* check: differences listed */
	SP_OUTCOME_REFUSED,    /* safety: nothing touched */
	SP_OUTCOME_FAILED,     /* a step failed; steps say what was left */
	SP_OUTCOME_HARMLESS,   /* check: findings, every one of them costs nothing (exit 0) */
};

struct sp_report {
	const char *command;   /* "apply" or "check" */
	enum sp_outcome outcome;
	int exit_code;
	size_t n_steps;
	struct sp_step_result steps[SP_MAX_STEPS];
	/* apply: keeping this run's own report under the root (the CLI's
	 * runlog), after the steps: its one action, named "report" */
	struct sp_step_result kept;
	size_t n_notes;        /* device-level findings: identity drift, warnings */
	char notes[SP_STEP_MAX_LINES][SP_MSG_MAX];
	size_t n_notes_dropped;
	struct sp_error error; /* for REFUSED and FAILED */
	char fs_uuid[SP_UUID_MAX];
	double seconds;
	bool strict;           /* check --strict */
	int worst;             /* check: worst enum sp_severity found, -1 none */
};

/*
 * Adds a line to a list of max lines counted in *n.  A full list drops
 * nothing unsaid: its last line becomes "... and N more", N counted in
 * *n_dropped.
 */
void sp_line_add(char (*lines)[SP_MSG_MAX], size_t max, size_t *n, size_t *n_dropped,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* sp_line_add() to res's lines. */
void sp_step_line(struct sp_step_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Frees what res holds and empties it, keeping its name. */
void sp_step_result_clear(struct sp_step_result *res);
/* Adds an action to res (see struct sp_action); before and after may be
 * NULL for "". */
void sp_step_action(struct sp_step_result *res, enum sp_action_kind kind, const char *target,
		    const char *before, const char *after);
SP_STRING_TABLE_DECLARE(sp_action_kind, enum sp_action_kind);
/* After a judge filled res->findings: one line per finding ("costly:
 * ..."), status DRIFT when there is any, else UNCHANGED. */
void sp_step_take_findings(struct sp_step_result *res);
/* The report's step results, steps then kept, i from 0 while it returns
 * one: the one order every list of actions follows. */
const struct sp_step_result *sp_report_result(const struct sp_report *report, size_t i);
/* Every action the report's steps record, kept included. */
size_t sp_report_n_actions(const struct sp_report *report);
void sp_report_free(struct sp_report *report);
SP_STRING_TABLE_DECLARE(sp_outcome, enum sp_outcome);
SP_STRING_TABLE_DECLARE(sp_step_status, enum sp_step_status);

#endif
