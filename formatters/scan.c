/* SPDX-License-Identifier: GPL-2.0-or-later */
/* scan rows -> a table and a paragraph per device, or JSON (the rows' table). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/units.h"
#include "format.h"
#include "json-out.h"
#include "schema/scan-file.h"

char *sp_format_scan_json(const struct sp_scan_row *rows, size_t n,
			  const char (*warnings)[SP_MSG_MAX], size_t n_warnings, int exit_code)
{
	json_object *root = json_object_new_object(), *list = json_object_new_array(),
		    *warns = json_object_new_array();

	if (!root || !list || !warns) {
		json_object_put(root);
		json_object_put(list);
		json_object_put(warns);
		return NULL;
	}
	json_object_object_add(root, "format_version", json_object_new_int(SP_SCAN_FORMAT_VERSION));
	json_object_object_add(root, "exit_code", json_object_new_int(exit_code));
	for (size_t i = 0; i < n; i++)
		json_object_array_add(list, sp_schema_write(&sp_scan_row_schema, &rows[i], 0));
	json_object_object_add(root, "devices", list);
	for (size_t i = 0; i < n_warnings; i++)
		json_object_array_add(warns, json_object_new_string(warnings[i]));
	json_object_object_add(root, "warnings", warns);
	return sp_json_to_text(root);
}

struct text {
	char *buf;
	size_t len, used;
	bool failed;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (t->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		w = vsnprintf(t->buf ? t->buf + t->used : NULL, t->buf ? t->len - t->used : 0, fmt, ap);
		va_end(ap);
		if (w < 0) {
			t->failed = true;
			return;
		}
		if (t->buf && (size_t)w < t->len - t->used) {
			t->used += (size_t)w;
			return;
		}
		size_t want = t->len * 2 + (size_t)w + 256;
		char *grown = realloc(t->buf, want);

		if (!grown) {
			t->failed = true;
			return;
		}
		t->buf = grown;
		t->len = want;
	}
}

/* strips in the full stripe: a LUN's exported topology tells them, not its disks */
static unsigned strips(const struct sp_scan_row *r)
{
	return (unsigned)(r->stripe_bytes / r->chunk_bytes);
}

static void geometry_short(const struct sp_scan_row *r, char *buf, size_t len)
{
	if (!r->level[0] && r->chunk_bytes)
		snprintf(buf, len, "level? %u x %s", strips(r),
			 SP_SIZE_TEXT(r->chunk_bytes, SP_SIZE_SHORT));
	else if (!r->level[0])
		snprintf(buf, len, "unknown");
	else if (!r->chunk_bytes)
		snprintf(buf, len, "%s %u disks", r->level, r->disks);
	else
		snprintf(buf, len, "%s %u x %s", r->level, r->disks,
			 SP_SIZE_TEXT(r->chunk_bytes, SP_SIZE_SHORT));
}

static void verdict_short(const struct sp_scan_row *r, char *buf, size_t len)
{
	if (r->error[0])
		snprintf(buf, len, "probe failed");
	else if (r->checked)
		snprintf(buf, len, "%u costly, %u suboptimal, %u differs", r->costly, r->suboptimal,
			 r->differs);
	else if (r->system)
		snprintf(buf, len, "system disk");
	else if (r->member_of[0])
		snprintf(buf, len, "member of %s", r->member_of);
	else if (r->candidate)
		snprintf(buf, len, "candidate");
	else if (r->in_use[0])
		snprintf(buf, len, "in use");
	else
		snprintf(buf, len, "not checked");
}

static void paragraph(struct text *t, const struct sp_scan_row *r)
{
	add(t, "\n%s: %s, %s, controller %s", r->device, r->kind,
	    SP_SIZE_TEXT(r->size_bytes, SP_SIZE_HUMAN), r->controller[0] ? r->controller : "unknown");
	add(t, "%s%s%s\n", r->controller_by[0] ? " (" : "", r->controller_by,
	    r->controller_by[0] ? ")" : "");
	if (r->level[0] && r->chunk_bytes)
		add(t, "  geometry: %s, %u disks, %s chunk, full stripe %s (%s)\n", r->level, r->disks,
		    SP_SIZE_TEXT(r->chunk_bytes, SP_SIZE_HUMAN),
		    SP_SIZE_TEXT(r->stripe_bytes, SP_SIZE_HUMAN), r->geometry_from);
	else if (r->level[0])
		add(t, "  geometry: %s, %u disks, no stripe (%s)\n", r->level, r->disks,
		    r->geometry_from);
	else if (r->chunk_bytes)
		add(t, "  geometry: level unknown, %s strip, full stripe %s (%s)\n",
		    SP_SIZE_TEXT(r->chunk_bytes, SP_SIZE_HUMAN),
		    SP_SIZE_TEXT(r->stripe_bytes, SP_SIZE_HUMAN), r->geometry_from);
	else
		add(t, "  geometry: %s\n", r->geometry_from[0] ? r->geometry_from : "unknown");
	if (r->contents[0])
		add(t, "  on it: %s\n", r->contents);
	if (r->member_of[0])
		add(t, "  member of %s: judged as part of it\n", r->member_of);
	if (r->system)
		add(t, "  system disk: holds %s; never a candidate for apply\n", r->system_use);
	if (r->in_use[0])
		add(t, "  in use: %s\n", r->in_use);
	if (r->candidate)
		add(t, "  candidate: blank and used by nothing; 'stripeplan plan --device %s' "
		       "plans its layout\n", r->device);
	if (r->checked) {
		add(t, "  check: %u costly, %u suboptimal, %u differs\n", r->costly, r->suboptimal,
		    r->differs);
		if (r->worst[0])
			add(t, "  worst: %s: %s\n", r->worst_severity, r->worst);
	} else if (r->not_checked[0]) {
		add(t, "  not checked: %s\n", r->not_checked);
	}
	if (r->error[0])
		add(t, "  failed: %s\n", r->error);
}

char *sp_format_scan_text(const struct sp_scan_row *rows, size_t n,
			  const char (*warnings)[SP_MSG_MAX], size_t n_warnings)
{
	struct text t = { 0 };
	char geometry[64], verdict[96];

	add(&t, "%-20s %10s %-9s %-20s %-18s %s\n", "DEVICE", "SIZE", "KIND", "CONTROLLER",
	    "GEOMETRY", "VERDICT");
	for (size_t i = 0; i < n; i++) {
		geometry_short(&rows[i], geometry, sizeof(geometry));
		verdict_short(&rows[i], verdict, sizeof(verdict));
		add(&t, "%-20s %10s %-9s %-20s %-18s %s\n", rows[i].device,
		    SP_SIZE_TEXT(rows[i].size_bytes, SP_SIZE_HUMAN), rows[i].kind,
		    rows[i].controller[0] ? rows[i].controller : "unknown", geometry, verdict);
	}
	if (!n)
		add(&t, "(no block device that holds or could hold an array)\n");
	for (size_t i = 0; i < n; i++)
		paragraph(&t, &rows[i]);
	for (size_t i = 0; i < n_warnings; i++)
		add(&t, "%swarning: %s\n", i ? "" : "\n", warnings[i]);
	if (t.failed) {
		free(t.buf);
		return NULL;
	}
	return t.buf;
}
