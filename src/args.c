/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Flags -> spec.  Every value is bounded here; reasoning is the planner's. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "exec.h"
#include "format.h"
#include "inputs.h"
#include "probe.h"
#include "textfile.h"
#include "base/utf8.h"

enum {
	OPT_CONTROLLER = 256, OPT_LEVEL, OPT_DISKS, OPT_CHUNK, OPT_SPANS, OPT_FS, OPT_DEVICE,
	OPT_SIZE, OPT_SECTOR_SIZE, OPT_MOUNTPOINT, OPT_KERNEL, OPT_FORMAT, OPT_TABLE,
	OPT_MEMBERS, OPT_PROFILES, OPT_LABEL, OPT_BARRIERS, OPT_FACTS, OPT_PLAN, OPT_ROOT,
	OPT_FORCE, OPT_DRY_RUN, OPT_TUNING, OPT_WORKLOAD, OPT_MEMORY_BUDGET, OPT_STRICT, OPT_LAYOUT,
	OPT_STACK, OPT_VG, OPT_LV, OPT_LUKS_NAME, OPT_CONTROLLER_REPORT, OPT_KEY_FILE,
};

struct opt_info {
	struct option opt;
	unsigned needs;
};

static const struct opt_info opt_table[] = {
	{ { "controller", required_argument, NULL, OPT_CONTROLLER }, SP_OPT_PLAN_FLAGS | SP_OPT_SCAN },
	{ { "level", required_argument, NULL, OPT_LEVEL }, SP_OPT_PLAN_FLAGS | SP_OPT_SCAN },
	{ { "disks", required_argument, NULL, OPT_DISKS }, SP_OPT_PLAN_FLAGS | SP_OPT_SCAN },
	{ { "chunk", required_argument, NULL, OPT_CHUNK }, SP_OPT_PLAN_FLAGS | SP_OPT_SCAN },
	{ { "spans", required_argument, NULL, OPT_SPANS }, SP_OPT_PLAN_FLAGS | SP_OPT_SCAN },
	{ { "layout", required_argument, NULL, OPT_LAYOUT }, SP_OPT_PLAN_FLAGS | SP_OPT_SCAN },
	{ { "fs", required_argument, NULL, OPT_FS }, SP_OPT_PLAN_FLAGS },
	{ { "device", required_argument, NULL, OPT_DEVICE },
	  SP_OPT_PLAN_FLAGS | SP_OPT_PLAN_FILE | SP_OPT_SCAN },
	{ { "size", required_argument, NULL, OPT_SIZE }, SP_OPT_PLAN_FLAGS },
	{ { "sector-size", required_argument, NULL, OPT_SECTOR_SIZE }, SP_OPT_PLAN_FLAGS },
	{ { "mountpoint", required_argument, NULL, OPT_MOUNTPOINT }, SP_OPT_PLAN_FLAGS },
	{ { "kernel", required_argument, NULL, OPT_KERNEL }, SP_OPT_PLAN_FLAGS | SP_OPT_SCAN },
	{ { "table", required_argument, NULL, OPT_TABLE }, SP_OPT_PLAN_FLAGS },
	{ { "members", required_argument, NULL, OPT_MEMBERS }, SP_OPT_PLAN_FLAGS },
	{ { "profiles", required_argument, NULL, OPT_PROFILES }, 0 },
	{ { "label", required_argument, NULL, OPT_LABEL }, SP_OPT_PLAN_FLAGS },
	{ { "barriers", required_argument, NULL, OPT_BARRIERS }, SP_OPT_PLAN_FLAGS },
	{ { "tuning", required_argument, NULL, OPT_TUNING }, SP_OPT_PLAN_FLAGS },
	{ { "workload", required_argument, NULL, OPT_WORKLOAD }, SP_OPT_PLAN_FLAGS },
	{ { "memory-budget", required_argument, NULL, OPT_MEMORY_BUDGET }, SP_OPT_PLAN_FLAGS },
	{ { "facts", required_argument, NULL, OPT_FACTS }, SP_OPT_PLAN_FLAGS },
	{ { "controller-report", required_argument, NULL, OPT_CONTROLLER_REPORT },
	  SP_OPT_PLAN_FLAGS | SP_OPT_SCAN },
	{ { "stack", required_argument, NULL, OPT_STACK }, SP_OPT_PLAN_FLAGS },
	{ { "vg", required_argument, NULL, OPT_VG }, SP_OPT_PLAN_FLAGS },
	{ { "lv", required_argument, NULL, OPT_LV }, SP_OPT_PLAN_FLAGS },
	{ { "luks-name", required_argument, NULL, OPT_LUKS_NAME }, SP_OPT_PLAN_FLAGS },
	{ { "format", required_argument, NULL, OPT_FORMAT }, 0 },
	{ { "output", required_argument, NULL, 'o' }, SP_OPT_OUTPUT },
	{ { "plan", required_argument, NULL, OPT_PLAN }, SP_OPT_PLAN_FILE },
	{ { "root", required_argument, NULL, OPT_ROOT }, SP_OPT_ROOT },
	{ { "force", no_argument, NULL, OPT_FORCE }, SP_OPT_FORCE },
	{ { "dry-run", no_argument, NULL, OPT_DRY_RUN }, SP_OPT_APPLY },
	{ { "key-file", required_argument, NULL, OPT_KEY_FILE }, SP_OPT_APPLY | SP_OPT_KEY_PATH },
	{ { "strict", no_argument, NULL, OPT_STRICT }, SP_OPT_CHECK },
	{ { "help", no_argument, NULL, 'h' }, 0 },
};

#define N_OPTS (ARRAY_SIZE(opt_table))

static int copy_arg(char *dst, size_t len, const char *src, const char *field,
		    struct sp_error *err)
{
	if (strlen(src) >= len)
		return sp_error_set(err, ENAMETOOLONG, SP_ERR_INVALID,
				    "%s: '%.40s...' is too long", field, src);
	memcpy(dst, src, strlen(src) + 1);
	return 0;
}

static int parse_members(const char *list, struct sp_spec *spec, struct sp_error *err)
{
	char buf[SP_MAX_MEMBERS * SP_NAME_MAX];
	char *save = NULL;

	if (copy_arg(buf, sizeof(buf), list, "members", err) < 0)
		return -EINVAL;
	spec->n_members = 0;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *name;

		if (spec->n_members >= SP_MAX_MEMBERS)
			return sp_error_set(err, E2BIG, SP_ERR_INVALID,
					    "members: more than %u member disks", SP_MAX_MEMBERS);
		name = spec->members[spec->n_members];
		if (!strncmp(tok, "/dev/", 5)) {
			if (sp_kernel_name_from_path(tok, name, SP_NAME_MAX, err) < 0)
				return -EINVAL;
		} else if (copy_arg(name, SP_NAME_MAX, tok, "members", err) < 0) {
			return -EINVAL;
		}
		if (!name[0])
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "members: empty name in '%s'", list);
		if (!sp_block_name_ok(name))
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "members: '%s' is not a block device name", tok);
		spec->n_members++;
	}
	return 0;
}

/* A file on this machine (--root, -o, --plan, --facts): its name goes
 * into no plan and no generated file, so it may be any bytes. */
static bool is_local_path(int c)
{
	return c == OPT_ROOT || c == 'o' || c == OPT_PLAN || c == OPT_FACTS;
}

static int not_utf8(const char *name, const char *arg, struct sp_error *err)
{
	char *shown = sp_utf8_escape(arg);

	sp_error_set(err, EILSEQ, SP_ERR_INVALID,
		     "%s: '%.200s' is not valid UTF-8 (shown with \\xNN for each byte that is not)",
		     name, shown ? shown : "?");
	free(shown);
	return -EILSEQ;
}

static int parse_format(const char *arg, struct sp_cli_args *a, struct sp_error *err)
{
	static const char *const names[] = {
		[SP_FORMAT_TEXT] = "text",       [SP_FORMAT_JSON] = "json",
		[SP_FORMAT_KICKSTART] = "kickstart", [SP_FORMAT_PRESEED] = "preseed",
		[SP_FORMAT_FSTAB] = "fstab",     [SP_FORMAT_SCRIPT] = "script",
		[SP_FORMAT_UDEV] = "udev",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(arg, names[i])) {
			a->format = (enum sp_output_format)i;
			return 0;
		}
	}
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "format: unknown format '%s' (known: text, json, kickstart, preseed, "
			    "fstab, script, udev)",
			    arg);
}

/*
 * A number alone is bytes (what blockdev --getsize64 prints), but below
 * what the option can mean it is a forgotten unit: mdadm reads
 * '--chunk 256' as KiB, and 256 bytes is no chunk.  Refused with the
 * unit the option is usually given in.
 */
static int parse_size_unit(const char *arg, const char *field, uint64_t bare_min_bytes,
			   char unit, uint64_t *ret_bytes, struct sp_error *err)
{
	uint64_t bytes;
	int r = sp_parse_size(arg, field, &bytes, err);

	if (r < 0)
		return r;
	if (bytes && bytes < bare_min_bytes && arg[strspn(arg, "0123456789")] == '\0')
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "%s: %s has no unit (a number alone is bytes): did you mean %s%c?",
				    field, arg, arg, unit);
	*ret_bytes = bytes;
	return 0;
}

static int parse_one(int c, const char *arg, struct sp_cli_args *a, struct sp_error *err)
{
	struct sp_spec *s = &a->spec;
	uint64_t v;
	int r = 0;

	/* every value may end up in a generated file (fstab, udev rule,
	 * script, kickstart, preseed): one line of text, nothing else */
	for (size_t i = 0; i < N_OPTS; i++) {
		const struct option *o = &opt_table[i].opt;

		if (o->val != c || o->has_arg == no_argument)
			continue;
		for (const unsigned char *p = (const unsigned char *)arg; *p; p++)
			if (*p < 0x20 || *p == 0x7f)
				return sp_error_set(err, EINVAL, SP_ERR_INVALID,
						    "%s: control character 0x%02x is not allowed",
						    o->name, *p);
		/* and text: the plan's JSON and the files are UTF-8, and a value
		 * escaped there would not read back as what was typed */
		if (!is_local_path(c) && !sp_utf8_valid(arg))
			return not_utf8(o->name, arg, err);
	}
	switch (c) {
	case OPT_CONTROLLER:
		a->have_controller = true;
		return copy_arg(s->controller, sizeof(s->controller), arg, "controller", err);
	case OPT_LEVEL:
		a->have_level = true;
		return sp_parse_level(arg, &s->level, err);
	case OPT_DISKS:
		a->have_disks = true;
		r = sp_parse_count(arg, "disks", 1, SP_MAX_DISKS, &v, err);
		s->disks = (unsigned)v;
		return r;
	case OPT_SPANS:
		r = sp_parse_count(arg, "spans", 1, SP_MAX_DISKS, &v, err);
		s->spans = (unsigned)v;
		return r;
	case OPT_CHUNK:
		a->have_chunk = true;
		r = parse_size_unit(arg, "chunk", SP_FS_BLOCK_BYTES, 'K', &s->chunk_bytes, err);
		if (r == 0 && s->chunk_bytes > SP_CHUNK_MAX_BYTES)
			r = sp_error_set(err, ERANGE, SP_ERR_INVALID,
					 "chunk: '%s' is larger than any controller's chunk (1G at most)", arg);
		return r;
	case OPT_FS:
		a->have_fs = true;
		return sp_parse_fs(arg, &s->fs, err);
	case OPT_DEVICE:
		if (a->n_devices == SP_CLI_MAX_DEVICES)
			return sp_error_set(err, E2BIG, SP_ERR_INVALID,
					    "device: more than %u --device options", SP_CLI_MAX_DEVICES);
		if (copy_arg(a->devices[a->n_devices], sizeof(a->devices[0]), arg, "device", err) < 0)
			return -EINVAL;
		a->n_devices++;
		return copy_arg(a->device, sizeof(a->device), arg, "device", err);
	case OPT_SIZE:
		r = parse_size_unit(arg, "size", SP_MIB, 'G', &a->size_bytes, err);
		if (r == 0 && (a->size_bytes == 0 || a->size_bytes > (1ULL << 62)))
			r = sp_error_set(err, ERANGE, SP_ERR_INVALID,
					 "size: '%s' is not a device size (1 byte .. 4 EiB)", arg);
		return r;
	case OPT_SECTOR_SIZE:
		r = sp_parse_count(arg, "sector-size", 512, 4096, &v, err);
		if (r == 0 && v != 512 && v != 4096)
			r = sp_error_set(err, EINVAL, SP_ERR_INVALID,
					 "sector-size: %s is not 512 or 4096", arg);
		a->sector_bytes = (unsigned)v;
		return r;
	case OPT_MOUNTPOINT:
		return copy_arg(s->mountpoint, sizeof(s->mountpoint), arg, "mountpoint", err);
	case OPT_KERNEL:
		a->have_kernel = true;
		return sp_parse_kernel(arg, &s->kernel, err);
	case OPT_TABLE:
		a->have_table = true;
		return sp_parse_table(arg, &s->table, err);
	case OPT_LAYOUT:
		return sp_parse_md_layout(arg, &s->layout, err);
	case OPT_MEMBERS:
		return parse_members(arg, s, err);
	case OPT_PROFILES:
		return copy_arg(a->profiles_dir, sizeof(a->profiles_dir), arg, "profiles", err);
	case OPT_LABEL:
		return copy_arg(s->label, sizeof(s->label), arg, "label", err);
	case OPT_BARRIERS:
		if (!strcmp(arg, "off"))
			s->barriers = SP_BARRIERS_OFF;
		else if (!strcmp(arg, "on") || !strcmp(arg, "default"))
			s->barriers = SP_BARRIERS_DEFAULT;
		else
			r = sp_error_set(err, EINVAL, SP_ERR_INVALID,
					 "barriers: '%s' is not on or off", arg);
		return r;
	case OPT_TUNING:
		return sp_parse_tuning_recipe(arg, &s->tuning_recipe, err);
	case OPT_WORKLOAD:
		return sp_parse_workload(arg, &s->workload, err);
	case OPT_MEMORY_BUDGET:
		r = parse_size_unit(arg, "memory-budget", SP_MEMORY_BUDGET_MIN, 'M',
				    &s->memory_budget_bytes, err);
		if (r == 0 && (s->memory_budget_bytes < SP_MEMORY_BUDGET_MIN ||
			       s->memory_budget_bytes > SP_MEMORY_BUDGET_MAX))
			r = sp_error_set(err, ERANGE, SP_ERR_INVALID,
					 "memory-budget: '%s' is outside 1M..64G", arg);
		return r;
	case OPT_FACTS:
		return copy_arg(a->facts_file, sizeof(a->facts_file), arg, "facts", err);
	case OPT_CONTROLLER_REPORT:
		if (a->n_reports == SP_CLI_MAX_REPORTS)
			return sp_error_set(err, E2BIG, SP_ERR_INVALID,
					    "controller-report: more than %u --controller-report "
					    "options", SP_CLI_MAX_REPORTS);
		if (copy_arg(a->reports[a->n_reports], sizeof(a->reports[0]), arg,
			     "controller-report", err) < 0)
			return -EINVAL;
		a->n_reports++;
		return copy_arg(a->report_file, sizeof(a->report_file), arg, "controller-report", err);
	case OPT_STACK:
		return sp_parse_stack(arg, s->layers, &s->n_layers, err);
	case OPT_VG:
	case OPT_LV:
	case OPT_LUKS_NAME:
		if (!arg[0])
			return sp_error_set(err, EINVAL, SP_ERR_INVALID, "%s: the name is empty",
					    c == OPT_VG ? "vg" : c == OPT_LV ? "lv" : "luks-name");
		break;
	}
	switch (c) {
	case OPT_VG:
		return copy_arg(s->vg_name, sizeof(s->vg_name), arg, "vg", err);
	case OPT_LV:
		return copy_arg(s->lv_name, sizeof(s->lv_name), arg, "lv", err);
	case OPT_LUKS_NAME:
		return copy_arg(s->luks_name, sizeof(s->luks_name), arg, "luks-name", err);
	case OPT_FORMAT:
		return parse_format(arg, a, err);
	case 'o':
		return copy_arg(a->output, sizeof(a->output), arg, "output", err);
	case OPT_PLAN:
		return copy_arg(a->plan_file, sizeof(a->plan_file), arg, "plan", err);
	case OPT_ROOT:
		return copy_arg(a->root, sizeof(a->root), arg, "root", err);
	case OPT_FORCE:
		a->force = true;
		s->force_mountpoint = true;
		return 0;
	case OPT_DRY_RUN:
		a->dry_run = true;
		return 0;
	case OPT_KEY_FILE:
		return copy_arg(a->key_file, sizeof(a->key_file), arg, "key-file", err);
	case OPT_STRICT:
		a->strict = true;
		return 0;
	}
	return sp_error_set(err, EINVAL, SP_ERR_INVALID, "unexpected option");
}

/* --level, --disks and --chunk may be left to the kernel (a probed md
 * array); the planner says when they are needed. */
static unsigned omitted_fields(const struct sp_cli_args *a)
{
	return (a->have_level ? 0 : SP_FIELD_LEVEL) | (a->have_disks ? 0 : SP_FIELD_DISKS) |
	       (a->have_chunk ? 0 : SP_FIELD_CHUNK) | (a->have_table ? 0 : SP_FIELD_TABLE);
}

static int check_required(const struct sp_cli_args *a, unsigned allowed, struct sp_error *err)
{
	static const char *const names[] = { "--controller", "--fs" };
	/* check finds the filesystem on the device when --fs is not given;
	 * a probed device or a facts file tells its controller (recognition) */
	const bool have[] = { a->have_controller || !a->size_bytes,
			      a->have_fs || (allowed & SP_OPT_CHECK) };

	for (size_t i = 0; i < ARRAY_SIZE(have); i++)
		if (!have[i])
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "%s: required%s (see 'stripeplan plan --help')", names[i] + 2,
					    i == 0 ? " for an offline plan (--size): there is no device "
						     "to recognise the controller from" : "");
	if (!a->device[0] && !a->facts_file[0])
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "device: give --device PATH (probed read-only), with --size for an "
				    "offline plan");
	if (a->sector_bytes && !a->size_bytes)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "sector-size: only for offline plans (with --size); a probed "
				    "device reports its own");
	if (a->size_bytes && a->facts_file[0])
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "size: --size and --facts both describe the device; give one");
	return 0;
}

/*
 * --controller-report FILE: the controller CLI's saved report, read here
 * (a regular file, at most SP_INPUT_MAX_BYTES) and parsed by the planner,
 * which takes level, disks, spans and strip from it.
 */
int sp_cli_load_report(const char *file, struct sp_controller_report *ret, char *name,
		       size_t name_len, struct sp_error *err)
{
	struct sp_controller_report r;
	char *text = NULL;
	int rc = sp_read_input_at(AT_FDCWD, file, 0, "controller-report", file, &text, NULL, err);

	if (rc < 0)
		return rc;
	rc = sp_report_parse(text, strlen(text), &r, err);
	free(text);
	if (rc < 0) {
		char msg[SP_MSG_MAX];

		snprintf(msg, sizeof(msg), "%s", err->message);
		return sp_error_set(err, -rc, err->kind, "controller-report: '%s': %s", file, msg);
	}
	*ret = r;
	snprintf(name, name_len, "%s report %.4000s (%s)", sp_report_kind_name(r.kind), file,
		 r.drive);
	return 0;
}

static int load_report(struct sp_cli_args *a, struct sp_error *err)
{
	struct sp_spec *s = &a->spec;
	int r = sp_cli_load_report(a->report_file, &s->report, s->report_name,
				   sizeof(s->report_name), err);

	if (r == 0)
		s->have_report = true;
	return r;
}

/* Without --kernel, or with the running one's release, the plan is for
 * this kernel: what the probed device offers then overrides the rules. */
static int plan_for_running_kernel(struct sp_cli_args *a, struct sp_error *err)
{
	struct sp_kernel running;

	if (!a->have_kernel) {
		a->spec.kernel_is_running = true;
		return sp_cli_running_kernel(&a->spec.kernel, err);
	}
	a->spec.kernel_is_running = sp_cli_running_kernel(&running, NULL) == 0 &&
				    !strcmp(running.release, a->spec.kernel.release);
	return 0;
}

/* The test hook that makes luksFormat's PBKDF cheap (cli.h): "1" or unset. */
static int fast_pbkdf_hook(bool *ret, struct sp_error *err)
{
	const char *v = getenv("STRIPEPLAN_TEST_FAST_PBKDF");

	if (!v)
		return 0;
	if (strcmp(v, "1"))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "STRIPEPLAN_TEST_FAST_PBKDF: '%.32s' is not 1", v);
	*ret = true;
	return 0;
}

/* The test hook that shortens how long a program may run (cli.h). */
static int deadline_hook(unsigned *ret_s, struct sp_error *err)
{
	const char *deadline = getenv("STRIPEPLAN_TEST_DEADLINE");
	uint64_t v;

	if (!deadline)
		return 0;
	if (sp_parse_count(deadline, "STRIPEPLAN_TEST_DEADLINE", 1, SP_EXEC_DEADLINE_S, &v, err) < 0)
		return -EINVAL;
	*ret_s = (unsigned)v;
	return 0;
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	char msg[SP_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sp_cli_usage_error("%s", msg);
}

/* getopt_long returned c, the val of exactly one row */
static size_t opt_index(int c)
{
	size_t i = 0;

	while (i < N_OPTS - 1 && opt_table[i].opt.val != c)
		i++;
	return i;
}

/* The option as typed when short (-o), by its whole name when long, so
 * an abbreviation ('--ch') is told by the name it stood for. */
static const char *shown_name(size_t i, const char *word)
{
	static char name[64];

	if (word[0] == '-' && word[1] != '-')
		return word;
	snprintf(name, sizeof(name), "--%s", opt_table[i].opt.name);
	return name;
}

/* The word after '--chunk' was the next option ('--chunk --fs xfs'):
 * the value was forgotten.  Only a separate word: '--label=--x' says
 * what it means. */
static bool value_is_option(const char *value, const char *word)
{
	size_t len;

	if (!value || value != word || strncmp(value, "--", 2) != 0)
		return false;
	len = strcspn(value + 2, "=");
	for (size_t i = 0; i < N_OPTS; i++)
		if (strlen(opt_table[i].opt.name) == len &&
		    !strncmp(opt_table[i].opt.name, value + 2, len))
			return true;
	return false;
}

/*
 * getopt_long's '?': a flag given a value ('--force=yes'), an unknown
 * short option, an abbreviation of several long ones ('--f'), or an
 * unknown long one, with the nearest this command takes.
 */
static int bad_option(const char *word, unsigned allowed)
{
	const char *names[N_OPTS], *prefixed = NULL, *near;
	const char *name = word + 2;
	size_t len = strcspn(name, "="), n = 0, n_prefix = 0;
	char list[256] = "";

	if (optopt && optopt != '?' && (optopt >= 256 || strchr("ho", optopt)))
		return usage_error("option '--%s' takes no value", opt_table[opt_index(optopt)].opt.name);
	if (optopt || strncmp(word, "--", 2) != 0)
		return usage_error("unknown option '-%c'", optopt ? optopt : word[1]);
	for (size_t i = 0; i < N_OPTS; i++) {
		const char *o = opt_table[i].opt.name;

		if (opt_table[i].needs && !(opt_table[i].needs & allowed))
			continue;
		names[n++] = o;
		if (len && !strncmp(o, name, len)) {
			size_t used = strlen(list);

			snprintf(list + used, sizeof(list) - used, "%s--%s", n_prefix++ ? ", " : "", o);
			prefixed = o;
		}
	}
	if (n_prefix > 1)
		return usage_error("option '%.*s' is ambiguous: %s", (int)(len + 2), word, list);
	/* getopt found it ambiguous among every command's options */
	near = n_prefix ? prefixed : sp_cli_nearest(name, len, names, n);
	if (near)
		return usage_error("unknown option '%.*s': did you mean '--%s'?", (int)(len + 2), word,
				   near);
	return usage_error("unknown option '%.*s'", (int)(len + 2), word);
}

int sp_cli_parse(int argc, char **argv, unsigned allowed, const char *help,
		 struct sp_cli_args *args, bool *done)
{
	struct option longopts[N_OPTS + 1];
	const char *given[N_OPTS] = { 0 };
	struct sp_error err = { 0 };
	int c;

	memset(args, 0, sizeof(*args));
	args->sysfs.root = getenv("SP_SYSFS_ROOT");
	args->stop_after = getenv("STRIPEPLAN_TEST_STOP_AFTER");
	args->pause_dir = getenv("STRIPEPLAN_TEST_PAUSE_BEFORE_WRITE");
	args->program_dirs = getenv("STRIPEPLAN_TEST_PROGRAM_DIRS");
	*done = false;
	if (deadline_hook(&args->program_deadline_s, &err) < 0 ||
	    fast_pbkdf_hook(&args->fast_pbkdf, &err) < 0)
		return sp_cli_fail(&err);
	for (size_t i = 0; i < N_OPTS; i++)
		longopts[i] = opt_table[i].opt;
	memset(&longopts[N_OPTS], 0, sizeof(longopts[N_OPTS]));
	optind = 1;
	opterr = 0;
	/* ':' first: a missing value is told apart from an unknown option */
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		const char *word = argv[optind - 1];
		size_t i;

		if (c == 'h') {
			sp_cli_outcome("the help text", "nothing was done");
			sp_cli_print(help);
			*done = true;
			return 0;
		}
		if (c == '?')
			return bad_option(word, allowed);
		i = opt_index(c == ':' ? optopt : c);
		if (c == ':' || value_is_option(optarg, word))
			return usage_error("option '%s' needs a value", shown_name(i, word));
		if (opt_table[i].needs && !(opt_table[i].needs & allowed))
			return usage_error("option '--%s' does not apply to this command",
					   opt_table[i].opt.name);
		/* a bad value first: it is what is wrong with it, repeated or not */
		if (parse_one(c, optarg, args, &err) < 0)
			return sp_cli_fail(&err);
		if ((c == OPT_DEVICE || c == OPT_CONTROLLER_REPORT) && (allowed & SP_OPT_SCAN))
			continue; /* scan: each --device one more device to look at, each
				   * report one more drive's */
		if (opt_table[i].opt.has_arg == required_argument) {
			if (given[i])
				return usage_error("option '--%s' is given twice ('%s', then '%s'); "
						   "give it once", opt_table[i].opt.name, given[i],
						   optarg);
			given[i] = optarg;
		}
	}
	if (optind < argc)
		return sp_cli_usage_error("unexpected argument '%s'", argv[optind]);
	if ((allowed & SP_OPT_PLAN_FLAGS) && !args->plan_file[0]) {
		if (check_required(args, allowed, &err) < 0)
			return sp_cli_fail(&err);
		args->spec.omitted = omitted_fields(args);
		if (plan_for_running_kernel(args, &err) < 0)
			return sp_cli_fail(&err);
		if (args->report_file[0] && load_report(args, &err) < 0)
			return sp_cli_fail(&err);
	}
	return 0;
}

/* A stable link (/dev/disk/by-id/...) plans without the kernel's name:
 * it is read where apply probes the disk, and a name guessed here could
 * be another disk's there. */
static int offline_facts(const struct sp_cli_args *a, struct sp_facts *f, struct sp_error *err)
{
	int r = 0;

	if (!sp_is_stable_link(a->device))
		r = sp_kernel_name_from_path(a->device, f->kernel_name, sizeof(f->kernel_name), err);
	if (r < 0)
		return r;
	snprintf(f->path, sizeof(f->path), "%s", a->device);
	f->offline = true;
	f->size_bytes = a->size_bytes;
	f->logical_sector_bytes = a->sector_bytes ? a->sector_bytes : 512;
	f->physical_sector_bytes = f->logical_sector_bytes;
	f->rotational = -1;
	f->read_only = -1;
	return 0;
}

/* --profiles replaces the site directory rather than adding to it, so
 * a test or an installer sees exactly the profiles it names */
static int load_profile(const struct sp_cli_args *a, const char *name, struct sp_profile_set **ret_set,
			const struct sp_profile **ret, struct sp_error *err)
{
	const char *dirs[2] = { a->profiles_dir[0] ? a->profiles_dir : "/etc/stripeplan/controllers.d",
				NULL };
	struct sp_profile_set *set = NULL;
	const struct sp_profile *profile;
	char names[1024];
	int r;

	r = sp_profiles_load(dirs, &set, err);
	if (r < 0)
		return r;
	profile = sp_profiles_find(set, name);
	if (!profile) {
		sp_profiles_names(set, names, sizeof(names));
		sp_profiles_free(set);
		return sp_error_set(err, ENOENT, SP_ERR_INVALID,
				    "controller: unknown controller '%s' (known: %s)", name, names);
	}
	*ret_set = set;
	*ret = profile;
	return 0;
}

/*
 * The profile: the one --controller names, checked against what the kernel
 * says of the device (one it recognises as another controller is refused,
 * naming both; one it recognises nothing of, a virtual disk, is taken as
 * declared), or without --controller the one the kernel's facts decide,
 * else generic with a warning (sp_cli_note_recognition()).
 */
static int choose_profile(const struct sp_cli_args *a, const struct sp_profile_set *set,
			  const struct sp_facts *facts, struct sp_recognition *rec,
			  const struct sp_profile **ret, struct sp_error *err)
{
	const struct sp_profile *declared;
	char names[1024];

	sp_recognise(set, facts, rec);
	if (!a->have_controller) {
		*ret = rec->profile ? rec->profile : sp_profiles_find(set, "generic");
		if (!*ret)
			return sp_error_set(err, ENOENT, SP_ERR_INVALID,
					    "controller: none recognised (%s) and no 'generic' profile "
					    "to fall back on: give --controller", rec->seen);
		return 0;
	}
	declared = sp_profiles_find(set, a->spec.controller);
	if (!declared) {
		sp_profiles_names(set, names, sizeof(names));
		return sp_error_set(err, ENOENT, SP_ERR_INVALID,
				    "controller: unknown controller '%s' (known: %s)", a->spec.controller,
				    names);
	}
	if (rec->passthrough && strcmp(declared->name, "generic") != 0)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "controller: --controller %s, but %s is no logical drive of it (%s): "
				    "a disk the controller passes through is no array; give "
				    "--controller generic",
				    declared->name, facts->path, rec->seen);
	if (rec->profile && rec->profile != declared && strcmp(declared->name, "generic") != 0)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "controller: --controller %s, but what the kernel says of %s is "
				    "the %s profile's (%s%s%s%s%s); give --controller %s, or generic to "
				    "plan without controller knowledge",
				    declared->name, facts->path, rec->profile->name, rec->by[0],
				    rec->n_by > 1 ? "; " : "", rec->n_by > 1 ? rec->by[1] : "",
				    rec->n_by > 2 ? "; " : "", rec->n_by > 2 ? rec->by[2] : "",
				    rec->profile->name);
	rec->n_by = 0; /* declared: the plan says nothing of recognition */
	*ret = declared;
	return 0;
}

/* What recognition chose, in the plan: the facts that decided, or the
 * warning that none did. */
static void note_recognition(const struct sp_cli_args *a, const struct sp_recognition *rec,
			     struct sp_plan *plan)
{
	const char *why = "";

	if (a->have_controller)
		return;
	if (rec->profile) {
		for (size_t i = 0; i < rec->n_by && i < SP_MAX_RECOGNISED_BY; i++)
			snprintf(plan->recognised_by[i], sizeof(plan->recognised_by[i]), "%s",
				 rec->by[i]);
		plan->n_recognised_by = rec->n_by < SP_MAX_RECOGNISED_BY ? rec->n_by :
									   SP_MAX_RECOGNISED_BY;
		return;
	}
	/* one profile left is not ruled out but not decided either (its chip
	 * on a board it does not list); several are not told apart */
	if (rec->candidates[0])
		why = strchr(rec->candidates, ',') ? ", which the kernel's facts do not tell apart" :
						     ", which the kernel's facts do not decide";
	sp_plan_add_warning(plan, "controller-not-recognised",
			    "no controller profile recognises %s (%s)%s%s%s: planned with the "
			    "generic profile, which knows no controller's limits, tuning or advice; "
			    "give --controller NAME",
			    plan->device.path, rec->seen, rec->candidates[0] ? "; it could be " : "",
			    rec->candidates, why);
}

int sp_cli_args_for_device(const struct sp_cli_args *scan, const char *device,
			   struct sp_cli_args *ret, struct sp_error *err)
{
	*ret = *scan;
	ret->n_devices = 0;
	if (copy_arg(ret->device, sizeof(ret->device), device, "device", err) < 0)
		return -EINVAL;
	ret->spec.omitted = omitted_fields(ret);
	return plan_for_running_kernel(ret, err);
}

static int make_plan(const struct sp_cli_args *a, bool geometry_only, struct sp_plan *ret,
		     struct sp_error *err)
{
	const char *dirs[2] = { a->profiles_dir[0] ? a->profiles_dir : "/etc/stripeplan/controllers.d",
				NULL };
	struct sp_profile_set *set = NULL;
	const struct sp_profile *profile = NULL;
	struct sp_recognition *rec = calloc(1, sizeof(*rec));
	struct sp_facts facts = { 0 };
	int r;

	if (!rec)
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	r = sp_profiles_load(dirs, &set, err);
	if (r < 0)
		goto out;
	if (a->facts_file[0])
		r = sp_facts_load_json(a->facts_file, &facts, err);
	else if (a->size_bytes)
		r = offline_facts(a, &facts, err);
	else
		r = sp_probe_facts(&a->sysfs, a->device, &facts, err);
	if (r < 0)
		goto out;
	if (a->facts_file[0] && a->device[0] && strcmp(a->device, facts.path) != 0)
		snprintf(facts.path, sizeof(facts.path), "%s", a->device);
	r = choose_profile(a, set, &facts, rec, &profile, err);
	if (r == 0)
		r = (geometry_only ? sp_plan_make_geometry : sp_plan_make)(&a->spec, profile, &facts,
									   ret, err);
	if (r == 0)
		note_recognition(a, rec, ret);
out:
	sp_facts_release(&facts);
	sp_profiles_free(set);
	free(rec);
	return r;
}

int sp_cli_make_plan(const struct sp_cli_args *a, struct sp_plan *ret, struct sp_error *err)
{
	return make_plan(a, false, ret, err);
}

int sp_cli_make_geometry(const struct sp_cli_args *a, struct sp_plan *ret, struct sp_error *err)
{
	return make_plan(a, true, ret, err);
}

int sp_cli_replan(const struct sp_cli_args *a, struct sp_plan *plan, struct sp_error *err)
{
	struct sp_profile_set *set = NULL;
	const struct sp_profile *profile = NULL;
	struct sp_plan *again = calloc(1, sizeof(*again));
	int r;

	if (!again)
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	r = load_profile(a, plan->controller, &set, &profile, err);
	if (r == 0)
		r = sp_plan_replan(plan, profile, a->spec.force_mountpoint, again, err);
	if (r < 0 && err && err->kind == SP_ERR_INVALID) {
		char msg[SP_MSG_MAX];

		snprintf(msg, sizeof(msg), "%s", err->message);
		sp_error_set(err, -r, SP_ERR_INVALID,
			     "%s; '%s' was edited or made by another version: make it again "
			     "with 'stripeplan plan'", msg, a->plan_file);
	}
	if (r == 0) {
		/* the plan made again is the one applied: the file's goes */
		sp_plan_release(plan);
		*plan = *again;
	}
	sp_profiles_free(set);
	free(again);
	return r;
}

struct cmdline {
	char *buf;
	size_t len, used;
	int r;
};

static void cmd_word(struct cmdline *c, const char *word)
{
	char quoted[SP_PATH_MAX * 2];
	int w;

	if (c->r < 0)
		return;
	if (sp_shell_quote(word, quoted, sizeof(quoted)) < 0) {
		c->r = -ENAMETOOLONG;
		return;
	}
	w = snprintf(c->buf + c->used, c->len - c->used, "%s%s", c->used ? " " : "", quoted);
	if (w < 0 || (size_t)w >= c->len - c->used)
		c->r = -ENAMETOOLONG;
	else
		c->used += (size_t)w;
}

static void cmd_flag(struct cmdline *c, const char *flag, const char *value)
{
	cmd_word(c, flag);
	cmd_word(c, value);
}

/* --stack as given, bottom up, with the names the user chose (the
 * defaults are the planner's, the same on the target) and the key's path */
static void cmd_stack(struct cmdline *c, const struct sp_spec *s, const char *key_file)
{
	char layers[SP_MAX_LAYERS * 8] = "";
	size_t used = 0;

	if (!s->n_layers)
		return;
	for (size_t i = 0; i < s->n_layers && used < sizeof(layers); i++)
		used += (size_t)snprintf(layers + used, sizeof(layers) - used, "%s%s", i ? "," : "",
					 sp_layer_name(s->layers[i]));
	cmd_flag(c, "--stack", layers);
	if (s->vg_name[0])
		cmd_flag(c, "--vg", s->vg_name);
	if (s->lv_name[0])
		cmd_flag(c, "--lv", s->lv_name);
	if (s->luks_name[0])
		cmd_flag(c, "--luks-name", s->luks_name);
	if (key_file[0])
		cmd_flag(c, "--key-file", key_file);
}

int sp_cli_apply_command(const struct sp_cli_args *a, char *buf, size_t len)
{
	const struct sp_spec *s = &a->spec;
	const struct sp_controller_report *rep = s->have_report ? &s->report : NULL;
	struct cmdline c = { buf, len, 0, 0 };
	char num[32], members[SP_MAX_MEMBERS * SP_NAME_MAX] = "";
	size_t used = 0;

	cmd_word(&c, "stripeplan");
	cmd_word(&c, "apply");
	/* what the user left to the kernel is read again on the target; what
	 * a controller's report said is written out, as the target has no
	 * copy of the report */
	if (a->have_controller)
		cmd_flag(&c, "--controller", s->controller);
	if (!(s->omitted & SP_FIELD_LEVEL) || rep)
		cmd_flag(&c, "--level", sp_level_name(rep ? rep->level : s->level) + 4);
	snprintf(num, sizeof(num), "%u", rep ? rep->disks : s->disks);
	if (!(s->omitted & SP_FIELD_DISKS) || rep)
		cmd_flag(&c, "--disks", num);
	if (s->spans || (rep && rep->spans)) {
		snprintf(num, sizeof(num), "%u", s->spans ? s->spans : rep->spans);
		cmd_flag(&c, "--spans", num);
	}
	sp_format_size(rep ? rep->chunk_bytes : s->chunk_bytes, SP_SIZE_SHORT, num, sizeof(num));
	if ((!(s->omitted & SP_FIELD_CHUNK) || rep) && !(rep && sp_level_is_mirror(rep->level)))
		cmd_flag(&c, "--chunk", num);
	if (s->layout.near_copies) {
		sp_md_layout_name(&s->layout, num, sizeof(num));
		cmd_flag(&c, "--layout", num);
	}
	cmd_flag(&c, "--fs", sp_fs_name(s->fs));
	if (!(s->omitted & SP_FIELD_TABLE))
		cmd_flag(&c, "--table", sp_table_name(s->table));
	if (s->mountpoint[0])
		cmd_flag(&c, "--mountpoint", s->mountpoint);
	if (s->label[0])
		cmd_flag(&c, "--label", s->label);
	if (s->barriers == SP_BARRIERS_OFF)
		cmd_flag(&c, "--barriers", "off");
	if (s->tuning_recipe != SP_TUNING_DEFAULT)
		cmd_flag(&c, "--tuning", sp_tuning_recipe_name(s->tuning_recipe));
	if (s->workload != SP_WORKLOAD_GENERAL)
		cmd_flag(&c, "--workload", sp_workload_name(s->workload));
	if (s->memory_budget_bytes) {
		sp_format_size(s->memory_budget_bytes, SP_SIZE_SHORT, num, sizeof(num));
		cmd_flag(&c, "--memory-budget", num);
	}
	for (size_t i = 0; i < s->n_members && used < sizeof(members); i++)
		used += (size_t)snprintf(members + used, sizeof(members) - used, "%s%s", i ? "," : "",
					 s->members[i]);
	if (s->n_members)
		cmd_flag(&c, "--members", members);
	cmd_stack(&c, s, a->key_file);
	if (a->have_kernel)
		cmd_flag(&c, "--kernel", s->kernel.release);
	if (a->profiles_dir[0])
		cmd_flag(&c, "--profiles", a->profiles_dir);
	cmd_flag(&c, "--device", a->device);
	return c.r;
}
