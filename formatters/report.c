/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What apply and check did, for people (text) and for machines (JSON). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "format.h"
#include "json-out.h"

static const char *status_words(enum sp_step_status s)
{
	switch (s) {
	case SP_STEP_DONE:
		return "done, verified";
	case SP_STEP_UNCHANGED:
		return "already matches";
	case SP_STEP_DRIFT:
		return "DIFFERS";
	case SP_STEP_FAILED:
		return "FAILED";
	case SP_STEP_SKIPPED:
		return "skipped";
	case SP_STEP_DRY_RUN:
		return "dry run: would do";
	default:
		return "pending";
	}
}

char *sp_format_step_line(const struct sp_step_result *res, size_t index, size_t total)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, "[%zu/%zu] %-11s %s  %.2f s  %s\n", index + 1, total, res->name,
		res->summary[0] ? res->summary : "-", res->seconds, status_words(res->status));
	for (size_t i = 0; i < res->n_lines; i++)
		fprintf(f, "        %s %s\n", res->status == SP_STEP_DRY_RUN ? "would:" : "-",
			res->lines[i]);
	if (res->status == SP_STEP_FAILED && res->error.message[0])
		fprintf(f, "        error: %s\n", res->error.message);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static const char *outcome_sentence(const struct sp_report *r)
{
	switch (r->outcome) {
	case SP_OUTCOME_DONE:
		return "done: the device now matches the plan";
	case SP_OUTCOME_UNCHANGED:
		return "unchanged: the device already matched the plan";
	case SP_OUTCOME_DRY_RUN:
		return "dry run: nothing was written";
	case SP_OUTCOME_MATCH:
		return "match: the device matches the plan";
	case SP_OUTCOME_DRIFT:
		return r->strict || r->worst < 0 ?
			       "drift: the device differs from the plan" :
			       "drift: the device loses performance or will not boot as it is";
	case SP_OUTCOME_HARMLESS:
		return "differs harmlessly: every difference from the plan costs nothing";
	case SP_OUTCOME_REFUSED:
		return "refused: nothing was written";
	default:
		return "failed";
	}
}

/* "findings: 1 costly, 0 suboptimal, 2 differs" (check only) */
static void count_findings(const struct sp_report *r, FILE *f)
{
	size_t n[3] = { 0 };

	if (strcmp(r->command, "check") || r->outcome == SP_OUTCOME_FAILED)
		return;
	for (size_t i = 0; i < r->n_steps; i++)
		for (size_t j = 0; j < r->steps[i].findings.n; j++)
			n[r->steps[i].findings.f[j].severity]++;
	if (n[0] + n[1] + n[2])
		fprintf(f, "findings: %zu costly, %zu suboptimal, %zu differs%s\n",
			n[SP_SEVERITY_COSTLY], n[SP_SEVERITY_SUBOPTIMAL], n[SP_SEVERITY_DIFFERS],
			r->strict ? " (--strict: any difference is drift)" : "");
}

/*
 * "  1. partition   wipe          /dev/loop3: gpt signature at offset 0x200
 *     (destroys)": what apply did, or a dry run would do, in order.
 */
static void actions_text(const struct sp_report *r, FILE *f)
{
	size_t n = 0;

	const struct sp_step_result *res;

	if (strcmp(r->command, "apply") || !sp_report_n_actions(r))
		return;
	fprintf(f, "%s:\n", r->outcome == SP_OUTCOME_DRY_RUN ? "actions apply would take" :
								"actions taken");
	for (size_t i = 0; (res = sp_report_result(r, i)); i++) {
		for (size_t j = 0; j < res->n_actions; j++) {
			const struct sp_action *a = &res->actions[j];

			fprintf(f, "  %2zu. %-10s %-12s %s: %s -> %s%s\n", ++n, res->name,
				sp_action_kind_name(a->kind), a->target,
				a->before[0] ? a->before : "(nothing)",
				a->after[0] ? a->after : "(gone)",
				a->destroys ? "  [destroys]" : "");
		}
		if (res->n_actions_dropped)
			fprintf(f, "      ... and %zu %s actions not recorded (out of memory)\n",
				res->n_actions_dropped, res->name);
	}
}

char *sp_format_report_text(const struct sp_report *r, const struct sp_plan *plan)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	for (size_t i = 0; i < r->n_notes; i++)
		fprintf(f, "  - %s\n", r->notes[i]);
	if (r->outcome == SP_OUTCOME_FAILED) {
		fprintf(f, "state left behind on %s:\n", plan->device.path);
		for (size_t i = 0; i < r->n_steps; i++)
			fprintf(f, "  %-11s %s\n", r->steps[i].name, sp_step_status_name(r->steps[i].status));
	}
	actions_text(r, f);
	fprintf(f, "%s %s: %s (%.2f s)\n", r->command, plan->device.path, outcome_sentence(r),
		r->seconds);
	count_findings(r, f);
	if (r->fs_uuid[0] && (r->outcome == SP_OUTCOME_DONE || r->outcome == SP_OUTCOME_UNCHANGED ||
			      r->outcome == SP_OUTCOME_MATCH))
		fprintf(f, "filesystem %s on %s, UUID=%s\n", sp_fs_name(plan->fs), plan->partition_path,
			r->fs_uuid);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

char *sp_format_report_summary(const struct sp_report *r, const struct sp_plan *plan)
{
	bool failed = r->outcome == SP_OUTCOME_FAILED || r->outcome == SP_OUTCOME_REFUSED;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, "%s '%s': %s", r->command, plan->device.path, outcome_sentence(r));
	if (failed && r->error.message[0])
		fprintf(f, ": %s", r->error.message);
	for (size_t i = 0; i < r->n_notes; i++)
		if (!strncmp(r->notes[i], "left behind:", 12))
			fprintf(f, "; %s", r->notes[i]);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static json_object *step_json(const struct sp_step_result *res)
{
	json_object *o = json_object_new_object(), *lines = json_object_new_array();

	json_object_object_add(o, "name", json_object_new_string(res->name));
	json_object_object_add(o, "status", json_object_new_string(sp_step_status_name(res->status)));
	json_object_object_add(o, "summary", json_object_new_string(res->summary));
	for (size_t i = 0; i < res->n_lines; i++)
		json_object_array_add(lines, json_object_new_string(res->lines[i]));
	json_object_object_add(o, "lines", lines);
	json_object_object_add(o, "seconds", json_object_new_double(res->seconds));
	if (res->tool_output)
		json_object_object_add(o, "tool_output", json_object_new_string(res->tool_output));
	if (res->status == SP_STEP_FAILED)
		json_object_object_add(o, "error", json_object_new_string(res->error.message));
	return o;
}

static json_object *action_json(const char *step, const struct sp_action *a)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "step", json_object_new_string(step));
	json_object_object_add(o, "action", json_object_new_string(sp_action_kind_name(a->kind)));
	json_object_object_add(o, "target", json_object_new_string(a->target));
	json_object_object_add(o, "before", json_object_new_string(a->before));
	json_object_object_add(o, "after", json_object_new_string(a->after));
	json_object_object_add(o, "destroys", json_object_new_boolean(a->destroys));
	return o;
}

/* Every step's actions, in the order apply takes them. */
static json_object *actions_json(const struct sp_report *r, size_t *ret_dropped)
{
	json_object *a = json_object_new_array();
	const struct sp_step_result *res;

	*ret_dropped = 0;
	for (size_t i = 0; (res = sp_report_result(r, i)); i++) {
		for (size_t j = 0; j < res->n_actions; j++)
			json_object_array_add(a, action_json(res->name, &res->actions[j]));
		*ret_dropped += res->n_actions_dropped;
	}
	return a;
}

static json_object *finding_json(const char *step, const struct sp_finding *fd)
{
	json_object *o = json_object_new_object(), *cost = NULL;

	json_object_object_add(o, "step", json_object_new_string(step));
	json_object_object_add(o, "severity", json_object_new_string(sp_severity_name(fd->severity)));
	json_object_object_add(o, "code", json_object_new_string(fd->code));
	json_object_object_add(o, "message", json_object_new_string(fd->message));
	if (fd->cost.known) {
		cost = json_object_new_object();
		json_object_object_add(cost, "write_ratio", json_object_new_double(fd->cost.write_ratio));
		json_object_object_add(cost, "read_ratio", json_object_new_double(fd->cost.read_ratio));
	}
	json_object_object_add(o, "cost", cost);
	return o;
}

static json_object *findings_json(const struct sp_report *r)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < r->n_steps; i++)
		for (size_t j = 0; j < r->steps[i].findings.n; j++)
			json_object_array_add(a, finding_json(r->steps[i].name,
							      &r->steps[i].findings.f[j]));
	return a;
}

char *sp_format_report_json(const struct sp_report *r, const struct sp_plan *plan)
{
	json_object *root = json_object_new_object(), *steps = json_object_new_array();
	json_object *notes = json_object_new_array();

	json_object_object_add(root, "command", json_object_new_string(r->command));
	json_object_object_add(root, "device", json_object_new_string(plan->device.path));
	json_object_object_add(root, "outcome", json_object_new_string(sp_outcome_name(r->outcome)));
	json_object_object_add(root, "exit_code", json_object_new_int(r->exit_code));
	for (size_t i = 0; i < r->n_steps; i++)
		json_object_array_add(steps, step_json(&r->steps[i]));
	json_object_object_add(root, "steps", steps);
	for (size_t i = 0; i < r->n_notes; i++)
		json_object_array_add(notes, json_object_new_string(r->notes[i]));
	json_object_object_add(root, "notes", notes);
	if (!strcmp(r->command, "apply")) {
		size_t dropped;

		json_object_object_add(root, "actions", actions_json(r, &dropped));
		json_object_object_add(root, "actions_dropped", json_object_new_int64((int64_t)dropped));
	}
	if (!strcmp(r->command, "check")) {
		json_object_object_add(root, "findings", findings_json(r));
		json_object_object_add(root, "strict", json_object_new_boolean(r->strict));
		json_object_object_add(root, "worst", r->worst >= 0 ?
				       json_object_new_string(sp_severity_name((enum sp_severity)r->worst)) :
				       NULL);
	}
	if (r->error.message[0] && (r->outcome == SP_OUTCOME_FAILED || r->outcome == SP_OUTCOME_REFUSED))
		json_object_object_add(root, "error", json_object_new_string(r->error.message));
	json_object_object_add(root, "fs_uuid", r->fs_uuid[0] ? json_object_new_string(r->fs_uuid) : NULL);
	json_object_object_add(root, "seconds", json_object_new_double(r->seconds));
	return sp_json_to_text(root);
}
