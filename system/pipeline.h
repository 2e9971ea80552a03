/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Runs the steps: apply = (safety, then for each step verify -> apply ->
 * verify), check = the verifies alone.  Reads like systemd-repart's run():
 * probe, refuse, ponder, write.
 */
#ifndef STRIPEPLAN_PIPELINE_H
#define STRIPEPLAN_PIPELINE_H

#include "steps.h"

struct sp_run_opts {
	const char *root;           /* default "/" */
	bool dry_run;
	bool force;
	unsigned partition_wait_ms; /* 0 = default */
	unsigned lock_wait_ms;      /* 0 = default (5000) */
	const struct sp_sysfs *sysfs; /* NULL = the machine's /sys */
	/* tests only: where programs are looked for instead of the system
	 * directories (SP_EXEC_SYSTEM_DIRS); NULL = those */
	const char *program_dirs;
	/* tests only: seconds a program may run; 0 = its deadline */
	unsigned program_deadline_s;
	/* tests only: end the run after this step, as if killed there */
	const char *stop_after;
	/*
	 * tests only: called once, after every refusal has passed and right
	 * before the first write, so a test can change the device at the
	 * worst moment and see that nothing is written
	 */
	void (*before_write)(void *data);
	void *before_write_data;
	/* apply: the key of the plan's LUKS2 layer (--key-file), NULL none */
	const struct sp_key *key;
	/* tests only (STRIPEPLAN_TEST_FAST_PBKDF): a cheap PBKDF for luksFormat */
	bool fast_pbkdf;
	bool strict;                /* check: any finding is drift, even one that costs nothing */
	/* check for scan: no lock on the disk (check takes a shared one on a
	 * read-only descriptor; neither opens one for writing) */
	bool read_only;
	/* called when a step that will apply starts (after every refusal),
	 * so the CLI can show it running; NULL: not told */
	void (*on_step_start)(const char *name, size_t index, size_t total, void *userdata);
	/* called after each step finishes, so the CLI can print progress */
	void (*on_step)(const struct sp_step_result *res, size_t index, size_t total, void *userdata);
	void *userdata;
};

/* Both return the exit code (also in report->exit_code) and never print. */
int sp_pipeline_apply(const struct sp_plan *plan, const struct sp_run_opts *opts,
		      struct sp_report *report);
int sp_pipeline_check(const struct sp_plan *plan, const struct sp_run_opts *opts,
		      struct sp_report *report);

#endif
