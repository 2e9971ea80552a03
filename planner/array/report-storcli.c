/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Broadcom's StorCLI (and Dell's PERCCLI, the same tool rebranded) report
 * of one virtual drive: 'storcli64 /c0/v1 show all J'.  The shape, as
 * StorCLI 007.x prints it, taken from public captures kept as test data
 * by storcli parsers in Go and PHP (a 'show all J' of CLI Version
 * 007.1907.0000.0000 on Linux 5.14 with seven VDs, RAID1 and RAID0), and
 * from the 'VDn Properties' keys that inventory and monitoring code in
 * Ruby, Go and SQL schemas reads ("Strip Size", "Span Depth", "Number of
 * Drives Per Span", "OS Drive Name", "SCSI NAA Id"); found by code search, the
 * repositories not recorded:
 *
 *   { "Controllers": [ { "Command Status": { "Status": "Success", ... },
 *     "Response Data": {
 *       "/c0/v1": [ { "DG/VD": "1/1", "TYPE": "RAID5", "Size": "1.635 TB", ... } ],
 *       "PDs for VD 1": [ { "EID:Slt": "8:2", ... }, ... ],
 *       "VD1 Properties": { "Strip Size": "256 KB", "Span Depth": 1,
 *                           "Number of Drives Per Span": 4,
 *                           "OS Drive Name": "/dev/sdb",
 *                           "SCSI NAA Id": "6d0946602a1b3c00...", ... } } } ] }
 *
 * Only those fields are read; a report of several drives (/cX/vall) is
 * refused, as the plan is for one.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/error.h"
#include "report.h"

/* json-c's own nesting bound is 32; a report nests 5 deep */
#define STORCLI_DEPTH_MAX 16

static int missing(const char *field, struct sp_error *err)
{
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "storcli report: %s is missing; give the saved output of 'storcli64 "
			    "/cX/vY show all J' (or perccli64) for one virtual drive",
			    field);
}

static json_object *member(json_object *o, const char *key, json_type type)
{
	json_object *v = NULL;

	if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, type))
		return NULL;
	return v;
}

static int parse_text(const char *text, size_t len, json_object **ret, struct sp_error *err)
{
	json_tokener *tok = json_tokener_new_ex(STORCLI_DEPTH_MAX);
	enum json_tokener_error jerr;
	json_object *obj;
	size_t end;

	if (!tok)
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "storcli report: out of memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	obj = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	while (jerr == json_tokener_success && end < len && strchr(" \t\r\n", text[end]))
		end++;
	if (jerr != json_tokener_success || end != len || !json_object_is_type(obj, json_type_object)) {
		json_object_put(obj);
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "storcli report: not one JSON object (%s)",
				    jerr == json_tokener_continue ? "it ends early" :
				    jerr != json_tokener_success  ? json_tokener_error_desc(jerr) :
								    "text after the object");
	}
	*ret = obj;
	return 0;
}

/* digits at *p, 1 to max of them, as a number */
static bool number(const char **p, size_t max, unsigned *ret)
{
	size_t n = strspn(*p, "0123456789");
	unsigned v = 0;

	if (n == 0 || n > max)
		return false;
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (unsigned)((*p)[i] - '0');
	*p += n;
	*ret = v;
	return true;
}

/* "/c0/v1": controller 0, drive 1 */
static bool drive_key(const char *key, unsigned *ret_vd)
{
	unsigned c;

	if (strncmp(key, "/c", 2) != 0)
		return false;
	key += 2;
	if (!number(&key, 3, &c) || strncmp(key, "/v", 2) != 0)
		return false;
	key += 2;
	return number(&key, 4, ret_vd) && *key == '\0';
}

/* "/c0/v1" names the drive; exactly one such key */
static int find_drive(json_object *data, unsigned *ret_vd, json_object **ret_row,
		      struct sp_error *err)
{
	unsigned n = 0;

	json_object_object_foreach(data, key, val)
	{
		unsigned vd;

		if (!drive_key(key, &vd))
			continue;
		if (++n > 1)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "storcli report: it holds more than one virtual drive "
					    "(%s and another); save the report of one: 'storcli64 "
					    "/cX/vY show all J'",
					    key);
		if (!json_object_is_type(val, json_type_array) || json_object_array_length(val) != 1 ||
		    !json_object_is_type(json_object_array_get_idx(val, 0), json_type_object))
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "storcli report: \"%s\" is not a table of one row", key);
		*ret_vd = vd;
		*ret_row = json_object_array_get_idx(val, 0);
	}
	return n ? 0 : missing("the virtual drive's table (\"/cX/vY\")", err);
}

static int parse_type(const char *type, enum sp_level *ret, struct sp_error *err)
{
	static const struct {
		const char *name;
		enum sp_level level;
	} types[] = { { "RAID0", SP_LEVEL_0 },   { "RAID1", SP_LEVEL_1 },   { "RAID5", SP_LEVEL_5 },
		      { "RAID6", SP_LEVEL_6 },   { "RAID10", SP_LEVEL_10 }, { "RAID50", SP_LEVEL_50 },
		      { "RAID60", SP_LEVEL_60 } };

	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (!strcmp(type, types[i].name)) {
			*ret = types[i].level;
			return 0;
		}
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "storcli report: TYPE '%.20s' is not a level stripeplan plans "
			    "(RAID0, RAID1, RAID5, RAID6, RAID10, RAID50, RAID60)",
			    type);
}

static int count(json_object *props, const char *key, unsigned *ret, struct sp_error *err)
{
	json_object *v = NULL;
	int64_t n;

	if (!json_object_object_get_ex(props, key, &v))
		return missing(key, err);
	n = json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : 0;
	if (n < 1 || n > SP_MAX_DISKS)
		return sp_error_set(err, ERANGE, SP_ERR_INVALID,
				    "storcli report: \"%s\" is %.20s, not a count of 1 to %u", key,
				    json_object_to_json_string(v), SP_MAX_DISKS);
	*ret = (unsigned)n;
	return 0;
}

/* disks, spans and level from the spans' shape: RAID10/50/60 are spans of RAID1/5/6 */
static int geometry(json_object *props, struct sp_controller_report *r, struct sp_error *err)
{
	unsigned per_span = 0, depth = 0;
	int rc = count(props, "Span Depth", &depth, err);

	if (rc == 0)
		rc = count(props, "Number of Drives Per Span", &per_span, err);
	if (rc < 0)
		return rc;
	if ((unsigned long)per_span * depth > SP_MAX_DISKS)
		return sp_error_set(err, ERANGE, SP_ERR_INVALID,
				    "storcli report: %u spans of %u drives is more than %u disks", depth,
				    per_span, SP_MAX_DISKS);
	if (sp_level_has_spans(r->level) != (depth > 1) && r->level != SP_LEVEL_10)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "storcli report: \"Span Depth\" %u does not fit TYPE %s (RAID50 "
				    "and RAID60 span, other levels do not)",
				    depth, sp_level_name(r->level));
	r->disks = per_span * depth;
	r->spans = sp_level_has_spans(r->level) ? depth : 0;
	return 0;
}

static int parse_properties(json_object *data, unsigned vd, struct sp_controller_report *r,
			    struct sp_error *err)
{
	char key[32];
	json_object *props, *strip, *name, *naa, *pds;
	int rc;

	snprintf(key, sizeof(key), "VD%u Properties", vd);
	props = member(data, key, json_type_object);
	if (!props)
		return missing(key, err);
	strip = member(props, "Strip Size", json_type_string);
	if (!strip)
		return missing("\"Strip Size\"", err);
	rc = sp_report_size(json_object_get_string(strip), "storcli report: \"Strip Size\"",
			    &r->chunk_bytes, err);
	if (rc == 0)
		rc = geometry(props, r, err);
	if (rc < 0)
		return rc;
	/* a drive not exposed to the OS, or an older StorCLI, names none */
	name = member(props, "OS Drive Name", json_type_string);
	if (name && (rc = sp_report_device(json_object_get_string(name),
					   "storcli report: \"OS Drive Name\"", r->device,
					   sizeof(r->device), err)) < 0)
		return rc;
	/* the LD's identifier, which the disk's wwid carries as naa.<id> */
	naa = member(props, "SCSI NAA Id", json_type_string);
	if (naa && (rc = sp_report_naa_id(json_object_get_string(naa),
					  "storcli report: \"SCSI NAA Id\"", r->naa_id, err)) < 0)
		return rc;
	snprintf(key, sizeof(key), "PDs for VD %u", vd);
	pds = member(data, key, json_type_array);
	if (pds && json_object_array_length(pds) != r->disks)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "storcli report: \"%s\" lists %zu drives, but %u spans of %u "
				    "make %u",
				    key, json_object_array_length(pds), r->spans ? r->spans : 1,
				    r->spans ? r->disks / r->spans : r->disks, r->disks);
	snprintf(r->drive, sizeof(r->drive), "VD %u", vd);
	return 0;
}

static int parse_report(json_object *top, struct sp_controller_report *r, struct sp_error *err)
{
	json_object *ctrls = member(top, "Controllers", json_type_array), *ctrl, *status, *data,
		    *row = NULL, *type;
	unsigned vd = 0;
	int rc;

	if (!ctrls || json_object_array_length(ctrls) != 1)
		return missing("\"Controllers\" (one controller)", err);
	ctrl = json_object_array_get_idx(ctrls, 0);
	status = member(member(ctrl, "Command Status", json_type_object), "Status", json_type_string);
	if (!status)
		return missing("\"Command Status\".\"Status\"", err);
	if (strcmp(json_object_get_string(status), "Success") != 0)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "storcli report: the command did not succeed (Status '%.40s')",
				    json_object_get_string(status));
	data = member(ctrl, "Response Data", json_type_object);
	if (!data)
		return missing("\"Response Data\"", err);
	rc = find_drive(data, &vd, &row, err);
	if (rc < 0)
		return rc;
	type = member(row, "TYPE", json_type_string);
	if (!type)
		return missing("the drive's \"TYPE\"", err);
	rc = parse_type(json_object_get_string(type), &r->level, err);
	if (rc < 0)
		return rc;
	return parse_properties(data, vd, r, err);
}

int sp_report_parse_storcli(const char *text, size_t len, struct sp_controller_report *ret,
			    struct sp_error *err)
{
	struct sp_controller_report r = { .kind = SP_REPORT_STORCLI };
	json_object *top = NULL;
	int rc;

	if (len > SP_REPORT_MAX_BYTES)
		return sp_error_set(err, EFBIG, SP_ERR_INVALID,
				    "storcli report: more than %u bytes", SP_REPORT_MAX_BYTES);
	rc = parse_text(text, len, &top, err);
	if (rc == 0)
		rc = parse_report(top, &r, err);
	json_object_put(top);
	if (rc == 0)
		*ret = r;
	return rc;
}
