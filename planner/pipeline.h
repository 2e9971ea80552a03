/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Runs the steps: apply = (safety, then for each step verify -> apply ->
 * verify), check = the verifies alone.  Reads like systemd-repart's run():
 * probe, refuse, ponder, write.
 */
#ifndef STRIPEPLAN_PIPELINE_H
#define STRIPEPLAN_PIPELINE_H

#include "steps.h"

#define SP_MAX_STEPS 8U

struct sp_run_opts {
	const char *root;           /* default "/" */
	bool dry_run;
	bool force;
	unsigned partition_wait_ms; /* 0 = default */
	unsigned lock_wait_ms;      /* 0 = default (5000) */
	/* called after each step finishes, so the CLI can print progress */
	void (*on_step)(const struct sp_step_result *res, size_t index, size_t total, void *userdata);
	void *userdata;
};

enum sp_outcome {
	SP_OUTCOME_DONE = 0,   /* apply changed the device and verified it */
	SP_OUTCOME_UNCHANGED,  /* already matched: nothing done */
	SP_OUTCOME_DRY_RUN,    /* nothing done: lines say what would be */
	SP_OUTCOME_MATCH,      /* check: everything matches */
	SP_OUTCOME_DRIFT,      /* check: differences listed */
	SP_OUTCOME_REFUSED,    /* safety: nothing touched */
	SP_OUTCOME_FAILED,     /* a step failed; steps say what was left */
};

struct sp_report {
	const char *command;   /* "apply" or "check" */
	enum sp_outcome outcome;
	int exit_code;
	size_t n_steps;
	struct sp_step_result steps[SP_MAX_STEPS];
	size_t n_notes;        /* device-level findings: identity drift, warnings */
	char notes[SP_STEP_MAX_LINES][SP_MSG_MAX];
	struct sp_error error; /* for REFUSED and FAILED */
	char fs_uuid[SP_UUID_MAX];
	double seconds;
};

/* Both return the exit code (also in report->exit_code) and never print. */
int sp_pipeline_apply(const struct sp_plan *plan, const struct sp_run_opts *opts,
		      struct sp_report *report);
int sp_pipeline_check(const struct sp_plan *plan, const struct sp_run_opts *opts,
		      struct sp_report *report);
void sp_report_free(struct sp_report *report);
const char *sp_outcome_name(enum sp_outcome o);
const char *sp_step_status_name(enum sp_step_status s);

#endif
