/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What both report parsers share: which one a report is for, sizes, device names,
 * NAA identifiers, and which disk a report is of. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <strings.h>

#include "base/devname.h"
#include "base/error.h"
#include "base/units.h"
#include "report.h"

const char *sp_report_kind_name(enum sp_report_kind kind)
{
	return kind == SP_REPORT_SSACLI ? "ssacli" : "storcli";
}

int sp_report_parse(const char *text, size_t len, struct sp_controller_report *ret,
		    struct sp_error *err)
{
	size_t i = 0;

	if (len > SP_REPORT_MAX_BYTES)
		return sp_error_set(err, EFBIG, SP_ERR_INVALID,
				    "report: %zu bytes, more than a controller's report of one drive "
				    "holds (%u at most)",
				    len, SP_REPORT_MAX_BYTES);
	if (memchr(text, '\0', len))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "report: it holds a NUL byte: no controller CLI writes one");
	while (i < len && strchr(" \t\r\n", text[i]))
		i++;
	if (i == len)
		return sp_error_set(err, ENODATA, SP_ERR_INVALID,
				    "report: it is empty; give the saved output of 'storcli64 /cX/vY "
				    "show all J' or 'ssacli ctrl slot=N ld N show detail'");
	/* storcli's J prints one JSON object; ssacli prints text */
	if (text[i] == '{')
		return sp_report_parse_storcli(text, len, ret, err);
	return sp_report_parse_ssacli(text, len, ret, err);
}

/* the digits of a count or size: at most 9, so nothing overflows */
static int digits(const char **p, uint64_t *ret)
{
	uint64_t v = 0;
	size_t n = 0;

	while (**p >= '0' && **p <= '9') {
		if (++n > 9)
			return -ERANGE;
		v = v * 10 + (uint64_t)(**p - '0');
		(*p)++;
	}
	*ret = v;
	return n ? 0 : -EINVAL;
}

int sp_report_size(const char *text, const char *field, uint64_t *ret_bytes,
		   struct sp_error *err)
{
	static const struct {
		const char *name;
		uint64_t bytes;
	} units[] = { { "Bytes", 1 }, { "KB", SP_KIB }, { "MB", SP_MIB } };
	const char *p = text;
	uint64_t v, frac;
	int r = digits(&p, &v);

	/* storcli prints a 1 MiB strip as "1.000 MB": only a zero fraction */
	if (r == 0 && *p == '.') {
		p++;
		r = digits(&p, &frac);
		if (r == 0 && frac)
			r = -EINVAL;
	}
	if (r == 0 && *p++ != ' ')
		r = -EINVAL;
	for (size_t i = 0; r == 0 && i < ARRAY_SIZE(units); i++) {
		if (strcmp(p, units[i].name) != 0)
			continue;
		if (!v || v > SP_CHUNK_MAX_BYTES / units[i].bytes)
			return sp_error_set(err, ERANGE, SP_ERR_INVALID,
					    "%s: '%.40s' is no strip size (1 byte .. 1 GiB)", field,
					    text);
		*ret_bytes = v * units[i].bytes;
		return 0;
	}
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "%s: '%.40s' is not a size as the controller's CLI writes one "
			    "('256 KB', '1 MB')",
			    field, text);
}

int sp_report_device(const char *text, const char *field, char *buf, size_t len,
		     struct sp_error *err)
{
	char name[SP_NAME_MAX];

	if (strncmp(text, "/dev/", 5) != 0 || strlen(text) >= SP_NAME_MAX ||
	    sp_kernel_name_from_path(text, name, sizeof(name), NULL) < 0 || !sp_block_name_ok(name))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "%s: '%.60s' is not a block device such as /dev/sdb", field, text);
	if (strlen(name) >= len)
		return sp_error_set(err, ENAMETOOLONG, SP_ERR_INVALID, "%s: '%.60s' is too long",
				    field, text);
	memcpy(buf, name, strlen(name) + 1);
	return 0;
}

static bool hex_digits(const char *text, size_t n)
{
	return strlen(text) == n && strspn(text, "0123456789abcdefABCDEF") == n;
}

int sp_report_naa_id(const char *text, const char *field, char *buf, struct sp_error *err)
{
	/* the first digit is the NAA type: 6 (IEEE Registered Extended) is 128
	 * bits, 2, 3 and 5 are 64 (SPC-4's NAA designator formats) */
	bool ok = (hex_digits(text, 32) && text[0] == '6') ||
		  (hex_digits(text, 16) && (text[0] == '2' || text[0] == '3' || text[0] == '5'));

	if (!ok)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "%s: '%.40s' is not an NAA identifier (32 hex digits starting "
				    "with 6, or 16 starting with 2, 3 or 5)",
				    field, text);
	for (size_t i = 0; text[i]; i++)
		buf[i] = (char)tolower((unsigned char)text[i]);
	buf[strlen(text)] = '\0';
	return 0;
}

bool sp_report_describes(const struct sp_controller_report *r, const char *wwid,
			 const char *kernel_name)
{
	if (r->naa_id[0] && !strncmp(wwid, "naa.", 4))
		return !strcasecmp(wwid + 4, r->naa_id);
	return r->device[0] && !strcmp(r->device, kernel_name);
}
