/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * HPE's Smart Storage Administrator CLI report of one logical drive:
 * 'ssacli ctrl slot=0 ld 1 show detail' (hpssacli and hpacucli print the
 * same).  The shape, from public captures kept in provisioning and
 * monitoring code's test data and in admins' notes (P420, P420i, P440ar
 * and P410i 'ld N show' / 'show config detail' output, the "Mirror
 * Group" and "Disk Name ... Mount Points" forms included); found by code
 * search, the repositories not recorded.  Not seen in any capture here,
 * so to be checked against a real report: the "RAID 5" spelling, RAID
 * 50/60's "Number of Parity Groups" and "Parity Group N:" headings, and
 * that their Full Stripe Size counts the data drives of every group:
 *
 *   Smart Array P420i in Slot 0 (Embedded)
 *      Array A
 *         Logical Drive: 1
 *            Size: 93.1 GB
 *            Fault Tolerance: 1+0          (0, 1, 1+0, 5, 6, 6 (ADG), 50, 60;
 *                                           newer firmware: "RAID 5")
 *            Strip Size: 256 KB
 *            Full Stripe Size: 512 KB      (strip x data disks)
 *            Number of Parity Groups: 2    (RAID 50 and 60 only)
 *            Unique Identifier: 600508B1001C7A2B3C4D5E6F70819203   (the disk's wwid: naa.<lowercase>)
 *            Disk Name: /dev/sda          Mount Points: None   (one line on some versions)
 *            Mirror Group 0:
 *               physicaldrive 2I:1:7 (port 2I:box 1:bay 7, SAS HDD, 300 GB, OK)
 *
 * Only those fields are read, and the physical drives listed under the
 * logical drive are counted; a report of several logical drives ('ld all')
 * is refused, as the plan is for one.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "base/units.h"
#include "report.h"

struct ssacli {
	unsigned logical_drives, physical_drives, parity_group_lines;
	char drive_number[12];
	char fault_tolerance[32];
	bool have_strip, have_full, have_groups, have_device, have_naa;
	uint64_t strip_bytes, full_bytes;
	unsigned groups;
	char device[SP_NAME_MAX];
	char naa_id[SP_REPORT_NAA_MAX];
};

static int missing(const char *field, struct sp_error *err)
{
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "ssacli report: '%s' is missing; give the saved output of 'ssacli ctrl "
			    "slot=N ld N show detail' for one logical drive",
			    field);
}

static int twice(const char *field, struct sp_error *err)
{
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "ssacli report: '%s' is given twice: is it the report of more than one "
			    "logical drive?",
			    field);
}

static int small_count(const char *value, const char *field, unsigned *ret, struct sp_error *err)
{
	char name[64];
	uint64_t v;
	int r;

	snprintf(name, sizeof(name), "ssacli report: '%s'", field);
	r = sp_parse_count(value, name, 1, SP_MAX_DISKS, &v, err);
	if (r == 0)
		*ret = (unsigned)v;
	return r;
}

static int copy_value(char *dst, size_t len, const char *value, const char *field,
		      struct sp_error *err)
{
	if (strlen(value) >= len)
		return sp_error_set(err, ENAMETOOLONG, SP_ERR_INVALID,
				    "ssacli report: '%s: %.20s...' is too long", field, value);
	memcpy(dst, value, strlen(value) + 1);
	return 0;
}

/* "Disk Name: /dev/sda          Mount Points: None": the first word */
static int disk_name(struct ssacli *s, const char *value, struct sp_error *err)
{
	char word[SP_NAME_MAX];
	size_t n = strcspn(value, " \t");

	if (s->have_device)
		return twice("Disk Name", err);
	if (n >= sizeof(word))
		return sp_error_set(err, ENAMETOOLONG, SP_ERR_INVALID,
				    "ssacli report: 'Disk Name: %.20s...' is too long", value);
	memcpy(word, value, n);
	word[n] = '\0';
	s->have_device = true;
	return sp_report_device(word, "ssacli report: 'Disk Name'", s->device, sizeof(s->device),
				err);
}

static int size_field(bool *have, uint64_t *bytes, const char *field, const char *value,
		      struct sp_error *err)
{
	char what[48];

	if (*have)
		return twice(field, err);
	*have = true;
	snprintf(what, sizeof(what), "ssacli report: '%s'", field);
	return sp_report_size(value, what, bytes, err);
}

/* One "Key: Value" line, leading blanks gone; what is not read is skipped. */
static int field(struct ssacli *s, const char *key, const char *value, struct sp_error *err)
{
	if (!strcmp(key, "Logical Drive")) {
		if (++s->logical_drives > 1)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "ssacli report: it holds more than one logical drive; "
					    "save the report of one: 'ssacli ctrl slot=N ld N show "
					    "detail'");
		return copy_value(s->drive_number, sizeof(s->drive_number), value, key, err);
	}
	if (!strcmp(key, "Fault Tolerance")) {
		if (s->fault_tolerance[0])
			return twice(key, err);
		return copy_value(s->fault_tolerance, sizeof(s->fault_tolerance), value, key, err);
	}
	if (!strcmp(key, "Strip Size"))
		return size_field(&s->have_strip, &s->strip_bytes, key, value, err);
	if (!strcmp(key, "Full Stripe Size"))
		return size_field(&s->have_full, &s->full_bytes, key, value, err);
	if (!strcmp(key, "Disk Name"))
		return disk_name(s, value, err);
	if (!strcmp(key, "Unique Identifier")) {
		if (s->have_naa)
			return twice(key, err);
		s->have_naa = true;
		return sp_report_naa_id(value, "ssacli report: 'Unique Identifier'", s->naa_id, err);
	}
	if (!strcmp(key, "Number of Parity Groups")) {
		if (s->have_groups)
			return twice(key, err);
		s->have_groups = true;
		return small_count(value, key, &s->groups, err);
	}
	return 0;
}

static int line(struct ssacli *s, char *text, struct sp_error *err)
{
	char *p = text + strspn(text, " \t"), *colon;
	size_t end = strlen(p), digits;

	while (end && strchr(" \t\r", p[end - 1]))
		p[--end] = '\0';
	/* "physicaldrive 1I:1:1 (port 1I:box 1:bay 1, SAS HDD, 300 GB, OK)":
	 * a member listed under the logical drive (a heading has no '(') */
	if (!strncmp(p, "physicaldrive ", 14) && strchr(p, '(')) {
		s->physical_drives++;
		return s->physical_drives > SP_MAX_DISKS ?
			       sp_error_set(err, E2BIG, SP_ERR_INVALID,
					    "ssacli report: more than %u physical drives", SP_MAX_DISKS) :
			       0;
	}
	/* "Parity Group 0:", the heading of a RAID 50/60 group's drives */
	digits = strncmp(p, "Parity Group ", 13) ? 0 : strspn(p + 13, "0123456789");
	if (digits && digits <= 4 && !strcmp(p + 13 + digits, ":")) {
		s->parity_group_lines++;
		return 0;
	}
	colon = strstr(p, ": ");
	if (!colon)
		return 0;
	*colon = '\0';
	return field(s, p, colon + 2, err);
}

static int scan_lines(const char *text, size_t len, struct ssacli *s, struct sp_error *err)
{
	char buf[SP_REPORT_LINE_MAX];
	size_t at = 0;

	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = (nl ? (size_t)(nl - text) : len) - at;
		int r;

		if (n >= sizeof(buf))
			return sp_error_set(err, E2BIG, SP_ERR_INVALID,
					    "ssacli report: a line of more than %u bytes: not what "
					    "ssacli writes",
					    SP_REPORT_LINE_MAX - 1);
		memcpy(buf, text + at, n);
		buf[n] = '\0';
		r = line(s, buf, err);
		if (r < 0)
			return r;
		at += n + 1;
	}
	return 0;
}

/* "RAID 6 (ADG)" -> "6 (ADG)"; the level, and whether "1" may be 1+0 */
static int parse_level(const char *ft, enum sp_level *ret, struct sp_error *err)
{
	static const struct {
		const char *name;
		enum sp_level level;
	} names[] = { { "0", SP_LEVEL_0 },	 { "1", SP_LEVEL_1 },  { "1+0", SP_LEVEL_10 },
		      { "1(+0)", SP_LEVEL_10 },	 { "10", SP_LEVEL_10 }, { "5", SP_LEVEL_5 },
		      { "6", SP_LEVEL_6 },	 { "6 (ADG)", SP_LEVEL_6 }, { "ADG", SP_LEVEL_6 },
		      { "50", SP_LEVEL_50 },	 { "60", SP_LEVEL_60 } };
	const char *p = strncmp(ft, "RAID ", 5) ? ft : ft + 5;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(p, names[i].name)) {
			*ret = names[i].level;
			return 0;
		}
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "ssacli report: 'Fault Tolerance: %s' is not a level stripeplan plans "
			    "(0, 1, 1+0, 5, 6, 50, 60; not the triple mirrors, ADM)",
			    ft);
}

/* the disks the full stripe's data disks make at this level */
static int disks_from_stripe(const struct ssacli *s, enum sp_level level, unsigned groups,
			     unsigned *ret, struct sp_error *err)
{
	uint64_t data;

	if (s->full_bytes % s->strip_bytes || s->full_bytes / s->strip_bytes > SP_MAX_DISKS)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "ssacli report: 'Full Stripe Size' (%llu bytes) is not 1 to %u "
				    "strips of 'Strip Size' (%llu bytes)",
				    (unsigned long long)s->full_bytes, SP_MAX_DISKS,
				    (unsigned long long)s->strip_bytes);
	data = s->full_bytes / s->strip_bytes;
	if (groups && data % groups)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "ssacli report: a full stripe of %llu strips does not divide into "
				    "%u parity groups",
				    (unsigned long long)data, groups);
	switch (level) {
	case SP_LEVEL_1:
	case SP_LEVEL_10:
		*ret = (unsigned)data * 2;
		break;
	case SP_LEVEL_5:
	case SP_LEVEL_6:
	case SP_LEVEL_50:
	case SP_LEVEL_60:
		*ret = (unsigned)data + sp_level_parity_disks(level) * (groups ? groups : 1);
		break;
	default:
		*ret = (unsigned)data;
		break;
	}
	/* the mirrors and parity drives of 1920 data drives are more than any array has */
	if (*ret > SP_MAX_DISKS)
		return sp_error_set(err, ERANGE, SP_ERR_INVALID,
				    "ssacli report: a full stripe of %llu strips at fault tolerance %s "
				    "makes %u drives, more than %u",
				    (unsigned long long)data, s->fault_tolerance, *ret, SP_MAX_DISKS);
	return 0;
}

static int geometry(const struct ssacli *s, struct sp_controller_report *r, struct sp_error *err)
{
	unsigned groups = 0, disks = s->physical_drives;
	int rc = parse_level(s->fault_tolerance, &r->level, err);

	if (rc < 0)
		return rc;
	if (sp_level_has_spans(r->level)) {
		groups = s->have_groups ? s->groups : s->parity_group_lines;
		if (!groups)
			return missing("Number of Parity Groups", err);
	}
	if (s->have_full) {
		rc = disks_from_stripe(s, r->level, groups, &disks, err);
		if (rc < 0)
			return rc;
		if (s->physical_drives && s->physical_drives != disks)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "ssacli report: it lists %u physical drives, but a full "
					    "stripe of %llu strips at fault tolerance %s makes %u",
					    s->physical_drives,
					    (unsigned long long)(s->full_bytes / s->strip_bytes),
					    s->fault_tolerance, disks);
	} else if (!disks) {
		return missing("Full Stripe Size", err);
	} else if (groups && disks % groups) {
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "ssacli report: it lists %u physical drives, which do not split "
				    "into %u parity groups",
				    disks, groups);
	}
	/* ssacli calls a mirror of two disks either; more than two is 1+0 */
	if (r->level == SP_LEVEL_1 && disks > 2)
		r->level = SP_LEVEL_10;
	else if (r->level == SP_LEVEL_10 && disks == 2)
		r->level = SP_LEVEL_1;
	r->disks = disks;
	r->spans = groups;
	return 0;
}

int sp_report_parse_ssacli(const char *text, size_t len, struct sp_controller_report *ret,
			   struct sp_error *err)
{
	struct sp_controller_report r = { .kind = SP_REPORT_SSACLI };
	struct ssacli s = { 0 };
	int rc;

	if (len > SP_REPORT_MAX_BYTES)
		return sp_error_set(err, EFBIG, SP_ERR_INVALID,
				    "ssacli report: more than %u bytes", SP_REPORT_MAX_BYTES);
	rc = scan_lines(text, len, &s, err);
	if (rc < 0)
		return rc;
	if (!s.logical_drives)
		return missing("Logical Drive", err);
	if (!s.fault_tolerance[0])
		return missing("Fault Tolerance", err);
	if (!s.have_strip)
		return missing("Strip Size", err);
	rc = geometry(&s, &r, err);
	if (rc < 0)
		return rc;
	r.chunk_bytes = s.strip_bytes;
	snprintf(r.drive, sizeof(r.drive), "logical drive %s", s.drive_number);
	memcpy(r.device, s.device, sizeof(r.device));
	memcpy(r.naa_id, s.naa_id, sizeof(r.naa_id));
	*ret = r;
	return 0;
}
