/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"

static void line_addv(char (*lines)[SP_MSG_MAX], size_t max, size_t *n, size_t *n_dropped,
		      const char *fmt, va_list ap)
{
	if (*n < max) {
		vsnprintf(lines[(*n)++], SP_MSG_MAX, fmt, ap);
		return;
	}
	/* full: the last line gives way to the count of those not shown */
	*n_dropped += *n_dropped ? 1 : 2;
	snprintf(lines[max - 1], SP_MSG_MAX, "... and %zu more", *n_dropped);
}

void sp_line_add(char (*lines)[SP_MSG_MAX], size_t max, size_t *n, size_t *n_dropped,
		 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line_addv(lines, max, n, n_dropped, fmt, ap);
	va_end(ap);
}

void sp_step_line(struct sp_step_result *res, const char *fmt, ...)
{
	va_list ap;

	if (!res)
		return;
	va_start(ap, fmt);
	line_addv(res->lines, SP_STEP_MAX_LINES, &res->n_lines, &res->n_lines_dropped, fmt, ap);
	va_end(ap);
}

void sp_step_result_clear(struct sp_step_result *res)
{
	const char *name;

	if (!res)
		return;
	name = res->name;
	free(res->tool_output);
	free(res->actions);
	memset(res, 0, sizeof(*res));
	res->name = name;
}

void sp_step_action(struct sp_step_result *res, enum sp_action_kind kind, const char *target,
		    const char *before, const char *after)
{
	struct sp_action *a;

	if (!res)
		return;
	if (res->n_actions == res->cap_actions) {
		size_t cap = res->cap_actions ? 2 * res->cap_actions : 16;
		struct sp_action *grown = realloc(res->actions, cap * sizeof(*grown));

		if (!grown) {
			/* said, not hidden: the report counts what it lost */
			res->n_actions_dropped++;
			return;
		}
		res->actions = grown;
		res->cap_actions = cap;
	}
	a = &res->actions[res->n_actions++];
	a->kind = kind;
	a->destroys = kind == SP_ACTION_WIPE || kind == SP_ACTION_LABEL || kind == SP_ACTION_MKFS ||
		      kind == SP_ACTION_FSTAB_REMOVE ||
		      /* a layer formatted over something: what was there is gone */
		      ((kind == SP_ACTION_LUKS || kind == SP_ACTION_LVM) && before && before[0]);
	snprintf(a->target, sizeof(a->target), "%s", target ? target : "");
	snprintf(a->before, sizeof(a->before), "%s", before ? before : "");
	snprintf(a->after, sizeof(a->after), "%s", after ? after : "");
}

void sp_step_take_findings(struct sp_step_result *res)
{
	for (size_t i = 0; i < res->findings.n; i++)
		sp_step_line(res, "%s: %s", sp_severity_name(res->findings.f[i].severity),
			     res->findings.f[i].message);
	if (res->findings.dropped)
		sp_step_line(res, "... and %zu more findings", res->findings.dropped);
	res->status = res->findings.n ? SP_STEP_DRIFT : SP_STEP_UNCHANGED;
}

static const char *const sp_outcome_table[] = {
	[SP_OUTCOME_DONE] = "done",       [SP_OUTCOME_UNCHANGED] = "unchanged",
	[SP_OUTCOME_DRY_RUN] = "dry-run", [SP_OUTCOME_MATCH] = "match",
	[SP_OUTCOME_DRIFT] = "drift",     [SP_OUTCOME_REFUSED] = "refused",
	[SP_OUTCOME_FAILED] = "failed",   [SP_OUTCOME_HARMLESS] = "differs",
};
SP_STRING_TABLE(sp_outcome, enum sp_outcome, "unknown")

static const char *const sp_step_status_table[] = {
	[SP_STEP_PENDING] = "pending",     [SP_STEP_DONE] = "done",
	[SP_STEP_UNCHANGED] = "unchanged", [SP_STEP_DRIFT] = "drift",
	[SP_STEP_FAILED] = "failed",       [SP_STEP_SKIPPED] = "skipped",
	[SP_STEP_DRY_RUN] = "dry-run",
};
SP_STRING_TABLE(sp_step_status, enum sp_step_status, "unknown")

const struct sp_step_result *sp_report_result(const struct sp_report *r, size_t i)
{
	if (i < r->n_steps)
		return &r->steps[i];
	return i == r->n_steps ? &r->kept : NULL;
}

size_t sp_report_n_actions(const struct sp_report *r)
{
	const struct sp_step_result *res;
	size_t n = 0;

	for (size_t i = 0; (res = sp_report_result(r, i)); i++)
		n += res->n_actions;
	return n;
}

void sp_report_free(struct sp_report *r)
{
	for (size_t i = 0; r && i < r->n_steps; i++)
		sp_step_result_clear(&r->steps[i]);
	if (r)
		sp_step_result_clear(&r->kept);
}

static const char *const sp_action_kind_table[] = {
	[SP_ACTION_WIPE] = "wipe",
	[SP_ACTION_LABEL] = "label",
	[SP_ACTION_MKFS] = "mkfs",
	[SP_ACTION_FSTAB_REMOVE] = "fstab-remove",
	[SP_ACTION_FSTAB_ADD] = "fstab-add",
	[SP_ACTION_FILE] = "file",
	[SP_ACTION_KNOB] = "knob",
	[SP_ACTION_LUKS] = "luks",
	[SP_ACTION_LVM] = "lvm",
};
SP_STRING_TABLE(sp_action_kind, enum sp_action_kind, "unknown")
