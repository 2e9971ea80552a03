/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scan: every block device that holds or could hold an array, with its
 * controller, geometry, contents and the verdict check would give.  It
 * reads only: the probe and libblkid open read-only, the check runs
 * without the disk's lock and without libparted (struct sp_run_opts
 * read_only), and nothing is written anywhere.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "format.h"
#include "inputs.h"
#include "pipeline.h"
#include "probe.h"
#include "scan.h"
#include "array/recognise.h"

static const char usage_scan[] =
	"Usage: stripeplan scan [--format text|json] [--root DIR] [--device PATH ...]\n"
	"                       [--controller NAME --level LEVEL --disks N --chunk SIZE]\n"
	"                       [--controller-report FILE ...]\n"
	"\n"
	"List every block device that holds or could hold a data array: md arrays,\n"
	"disks and logical drives (their controller recognised from what the kernel\n"
	"says), multipath maps.  For each: its size, controller profile and the facts\n"
	"that decided it, its geometry and where each value came from, what is on it,\n"
	"and when its geometry is known and something is on it, the verdict\n"
	"'stripeplan check' gives (costly, suboptimal and differs counts, the worst\n"
	"finding).  A disk the running system needs (/, /boot, /usr, /var, swap,\n"
	"through partitions, md and device-mapper) is marked and never a candidate.\n"
	"Loop, ram and zram devices and partitions are not listed.  Nothing is\n"
	"written, locked or run.\n"
	"\n"
	"      --device PATH       look at this device only (repeat for more; a loop\n"
	"                          device too)\n"
	"      --controller NAME   with --device: the profile, instead of recognition\n"
	"      --level, --disks, --chunk, --spans, --layout\n"
	"                          with --device: the geometry of a device whose\n"
	"                          kernel does not tell it (an md array tells its own;\n"
	"                          a LUN that exports its strip and full stripe needs\n"
	"                          --level alone, and without it is judged from that\n"
	"                          stripe, its costs as raid0's)\n"
	"      --controller-report FILE\n"
	"                          a controller CLI's saved report of one drive\n"
	"                          (storcli/perccli 'show all J', ssacli 'show detail'),\n"
	"                          repeated for more: the disk whose wwid carries its\n"
	"                          NAA id (else the disk it names) is judged with its\n"
	"                          level, disks and strip; a report of no disk scanned\n"
	"                          is a warning, of two disks an error\n"
	"      --kernel VERSION    judge for this kernel release (default: the running one)\n"
	"      --root DIR          target root check reads fstab and udev rules from;\n"
	"                          default /\n"
	"      --profiles DIR      read extra controller profiles from DIR\n"
	"      --format text|json  output format\n"
	"  -h, --help              show this help\n"
	"\n"
	"Exit status: 0 nothing costly, 1 an array has a costly finding, 2 invalid\n"
	"input, 4 a device could not be read (its row says what failed; the other\n"
	"rows are still printed).\n";

static const char *const kind_names[] = {
	[SP_SCAN_DISK] = "disk", [SP_SCAN_MD] = "md", [SP_SCAN_MULTIPATH] = "multipath",
};

/* A controller's report of one drive, and the disk it was tied to. */
struct scan_report {
	struct sp_controller_report rep;
	char name[SP_PATH_MAX];       /* "storcli report FILE (VD 1)" */
	char tied_by[SP_MSG_MAX / 4]; /* how it names its disk */
	size_t disk;                  /* index in the device list; SIZE_MAX: none */
};

struct scan {
	struct sp_cli_args *args;
	struct sp_profile_set *set;
	bool declared_level;
	struct scan_report *reports;  /* args->n_reports of them */
};

static void join_by(const struct sp_recognition *rec, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < rec->n_by && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "; " : "", rec->by[i]);
}

static void recognise(const struct scan *s, const struct sp_facts *facts, struct sp_scan_row *row)
{
	struct sp_recognition *rec = calloc(1, sizeof(*rec));

	if (s->args->have_controller) {
		snprintf(row->controller, sizeof(row->controller), "%s", s->args->spec.controller);
		snprintf(row->controller_by, sizeof(row->controller_by), "declared: --controller");
		free(rec);
		return;
	}
	if (!rec)
		return;
	sp_recognise(s->set, facts, rec);
	if (rec->passthrough) {
		/* listed as the disk it is: no controller array, no profile */
		snprintf(row->controller, sizeof(row->controller), "none");
		snprintf(row->controller_by, sizeof(row->controller_by),
			 "not a logical drive: %s", rec->seen);
	} else if (rec->profile) {
		snprintf(row->controller, sizeof(row->controller), "%s", rec->profile->name);
		join_by(rec, row->controller_by, sizeof(row->controller_by));
	} else {
		snprintf(row->controller, sizeof(row->controller), "generic");
		snprintf(row->controller_by, sizeof(row->controller_by), "not recognised: %s%s%s",
			 rec->seen, rec->candidates[0] ? "; it could be " : "", rec->candidates);
	}
	free(rec);
}

static void take_findings(const struct sp_report *report, struct sp_scan_row *row)
{
	const struct sp_finding *worst = NULL;

	for (size_t i = 0; i < report->n_steps; i++) {
		const struct sp_findings *fs = &report->steps[i].findings;

		for (size_t j = 0; j < fs->n; j++) {
			const struct sp_finding *f = &fs->f[j];

			row->costly += f->severity == SP_SEVERITY_COSTLY;
			row->suboptimal += f->severity == SP_SEVERITY_SUBOPTIMAL;
			row->differs += f->severity == SP_SEVERITY_DIFFERS;
			if (!worst || f->severity > worst->severity)
				worst = f;
		}
	}
	if (!worst)
		return;
	snprintf(row->worst_severity, sizeof(row->worst_severity), "%s",
		 sp_severity_name(worst->severity));
	snprintf(row->worst_code, sizeof(row->worst_code), "%s", worst->code);
	snprintf(row->worst, sizeof(row->worst), "%s", worst->message);
}

static void take_geometry(const struct sp_plan *plan, struct sp_scan_row *row)
{
	const struct sp_facts *d = &plan->device;

	row->chunk_bytes = plan->chunk_bytes;
	row->stripe_bytes = plan->stripe_width_bytes;
	if (plan->level_source == SP_SOURCE_ASSUMED) {
		/* level and disks stay unknown: the stand-in only prices findings */
		snprintf(row->geometry_from, sizeof(row->geometry_from),
			 "the exported topology: queue/minimum_io_size %" PRIu64 " is the strip, "
			 "optimal_io_size %" PRIu64 " the full stripe of %u strips; level unknown: "
			 "costs as %s over %u disks, as raid10 over %u costs too, parity RAID more; "
			 "--device %s --level LEVEL judges it as its level",
			 d->min_io_bytes, d->optimal_io_bytes, plan->data_disks,
			 sp_level_name(plan->level), plan->disks, plan->disks * 2, row->device);
		return;
	}
	snprintf(row->level, sizeof(row->level), "%s", sp_level_name(plan->level));
	row->disks = plan->disks;
	if (plan->level_source == SP_SOURCE_KERNEL)
		snprintf(row->geometry_from, sizeof(row->geometry_from),
			 "the kernel's md attributes (md/level, md/raid_disks, md/chunk_size)");
	else if (plan->level_source == SP_SOURCE_REPORT)
		snprintf(row->geometry_from, sizeof(row->geometry_from), "the %s",
			 plan->geometry_report);
	else if (plan->chunk_source == SP_SOURCE_TOPOLOGY)
		snprintf(row->geometry_from, sizeof(row->geometry_from),
			 "declared: --level; the strip and full stripe the exported topology's "
			 "(queue/minimum_io_size %" PRIu64 ", optimal_io_size %" PRIu64 ")",
			 d->min_io_bytes, d->optimal_io_bytes);
	else
		snprintf(row->geometry_from, sizeof(row->geometry_from),
			 "declared: --level, --disks, --chunk");
}

/*
 * The plan check would make for the device: from the flags given, or,
 * for a device that tells no level but exports its stripe, with raid0
 * standing in for the level (its costs are raid10's; spec.level_assumed).
 */
static int plan_for(const struct scan *s, const struct sp_scan_row *row, bool assumed,
		    const struct scan_report *report, bool fs_from_device, bool geometry_only,
		    struct sp_plan *plan, struct sp_error *err)
{
	struct sp_cli_args *a = malloc(sizeof(*a));
	int r;

	if (!a)
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	r = sp_cli_args_for_device(s->args, row->device, a, err);
	if (r == 0) {
		if (assumed) {
			a->spec.level = SP_LEVEL_0;
			a->spec.level_assumed = true;
			a->spec.omitted &= ~SP_FIELD_LEVEL;
		}
		if (report) {
			a->spec.have_report = true;
			a->spec.report = report->rep;
			snprintf(a->spec.report_name, sizeof(a->spec.report_name), "%s", report->name);
		}
		if (fs_from_device)
			sp_cli_fs_from_device(a);
		r = (geometry_only ? sp_cli_make_geometry : sp_cli_make_plan)(a, plan, err);
	}
	free(a);
	return r;
}

/*
 * No plan fits the device (too small for the filesystem's minimum, ...):
 * not judged, for the reason given, but the geometry the flags, the
 * kernel or the controller's report tell is still the row's, when the
 * array's stage alone takes it.
 */
static void no_plan(const struct scan *s, bool assumed, const struct scan_report *report,
		    const struct sp_error *why, struct sp_scan_row *row)
{
	struct sp_plan *plan = calloc(1, sizeof(*plan));
	struct sp_error err = { 0 };

	snprintf(row->not_checked, sizeof(row->not_checked), "%s",
		 why->message[0] ? why->message : "out of memory");
	if (plan && plan_for(s, row, assumed, report, false, true, plan, &err) == 0)
		take_geometry(plan, row);
	if (plan)
		sp_plan_release(plan);
	free(plan);
}

/* What check says of the device: the same plan check makes, its verifies
 * run read-only.  -1 when the device could not be read (row->error). */
static int judge(const struct scan *s, bool assumed, const struct scan_report *tied,
		 struct sp_scan_row *row)
{
	struct sp_plan *plan = calloc(1, sizeof(*plan));
	struct sp_report *report = calloc(1, sizeof(*report));
	struct sp_run_opts opts = { 0 };
	struct sp_error err = { 0 };
	int r = 0;

	if (!plan || !report) {
		snprintf(row->error, sizeof(row->error), "out of memory");
		r = -1;
		goto out;
	}
	r = plan_for(s, row, assumed, tied, true, false, plan, &err);
	if (r < 0) {
		/* the geometry given does not make a plan for this device (too
		 * small for the filesystem, a level md does not plan): not judged */
		no_plan(s, assumed, tied, &err, row);
		r = 0;
		goto out;
	}
	take_geometry(plan, row);
	opts.root = s->args->root[0] ? s->args->root : "/";
	opts.sysfs = &s->args->sysfs;
	opts.read_only = true;
	sp_pipeline_check(plan, &opts, report);
	if (report->outcome == SP_OUTCOME_FAILED) {
		snprintf(row->error, sizeof(row->error), "check: %s", report->error.message);
		r = -1;
		goto out;
	}
	row->checked = true;
	take_findings(report, row);
out:
	if (report)
		sp_report_free(report);
	free(report);
	if (plan)
		sp_plan_release(plan);
	free(plan);
	return r;
}

/*
 * A blank device is a candidate only when nothing uses it by apply's own
 * rule (sp_probe_usage(): open in a process, locked, held, backing a
 * loop device, its node bound): a database on the raw disk writes no
 * signature.  Reading /proc and sysfs only.
 */
static bool in_use(const struct scan *s, const struct sp_facts *facts, struct sp_scan_row *row)
{
	struct sp_usage *u = calloc(1, sizeof(*u));
	struct sp_error err = { 0 };
	bool used = true;

	if (!u)
		return true;
	if (sp_probe_usage(&s->args->sysfs, facts, getpid(), u, &err) < 0) {
		snprintf(row->in_use, sizeof(row->in_use), "cannot be told: %s", err.message);
	} else if (u->n) {
		snprintf(row->in_use, sizeof(row->in_use), "%s %s", u->e[0].node, u->e[0].what);
	} else {
		used = false;
	}
	free(u);
	return used;
}

/* A blank device's geometry, as the plan for it takes it. */
static void plan_geometry(const struct scan *s, bool assumed, const struct scan_report *report,
			  struct sp_scan_row *row)
{
	struct sp_plan *plan = calloc(1, sizeof(*plan));
	struct sp_error err = { 0 };

	if (plan && plan_for(s, row, assumed, report, false, false, plan, &err) == 0)
		take_geometry(plan, row);
	else
		no_plan(s, assumed, report, &err, row);
	if (plan)
		sp_plan_release(plan);
	free(plan);
}

/* One row; -1 when something of the device could not be read.  report:
 * the controller's report tied to it, or NULL. */
static int scan_one(const struct scan *s, const struct sp_scan_device *dev,
		    const struct scan_report *report, struct sp_scan_row *row)
{
	struct sp_facts facts = { 0 };
	struct sp_scan_contents c;
	struct sp_error err = { 0 }, unknown = { 0 };
	bool assumed;
	int r = 0;

	memset(row, 0, sizeof(*row));
	if (sp_node_of(dev->name, row->device, sizeof(row->device)) < 0)
		snprintf(row->device, sizeof(row->device), "/dev/%s", dev->name);
	snprintf(row->kind, sizeof(row->kind), "%s", kind_names[dev->kind]);
	snprintf(row->member_of, sizeof(row->member_of), "%s", dev->held_by);
	snprintf(row->system_use, sizeof(row->system_use), "%s", dev->system_use);
	snprintf(row->in_use, sizeof(row->in_use), "%s", dev->mounted);
	row->system = dev->system_use[0] != '\0';
	/* a device that cannot be opened still has the size the kernel says */
	row->size_bytes = dev->size_bytes;
	if (sp_probe_facts(&s->args->sysfs, row->device, &facts, &err) < 0) {
		snprintf(row->error, sizeof(row->error), "%s", err.message);
		return -1;
	}
	row->size_bytes = facts.size_bytes;
	recognise(s, &facts, row);
	if (sp_scan_contents_read(&s->args->sysfs, row->device, &c, &err) < 0) {
		snprintf(row->error, sizeof(row->error), "%s", err.message);
		r = -1;
		goto out;
	}
	snprintf(row->table, sizeof(row->table), "%s", c.table);
	row->partitions = c.n_partitions;
	snprintf(row->signature, sizeof(row->signature), "%s", c.signature);
	snprintf(row->contents, sizeof(row->contents), "%s", c.summary);
	row->blank = c.blank;
	row->candidate = c.blank && !row->system && !row->in_use[0] && !row->member_of[0] &&
			 !in_use(s, &facts, row);
	/* no level known: a stripe the LUN exports is enough to judge alignment */
	assumed = !facts.md.present && !s->declared_level && !report;
	if (row->member_of[0]) {
		snprintf(row->not_checked, sizeof(row->not_checked),
			 "a member of %s: check judges the array", row->member_of);
	} else if (assumed && sp_plan_exported_stripe(&facts, &unknown) < 0) {
		snprintf(row->geometry_from, sizeof(row->geometry_from),
			 "unknown: %s; give --device %s with --level, --disks and --chunk",
			 unknown.message, row->device);
		snprintf(row->not_checked, sizeof(row->not_checked), "its geometry is unknown");
	} else if (c.blank) {
		snprintf(row->not_checked, sizeof(row->not_checked), "nothing on it to judge");
		plan_geometry(s, assumed, report, row);
	} else {
		r = judge(s, assumed, report, row);
	}
	if (report && row->geometry_from[0]) {
		size_t used = strlen(row->geometry_from);

		snprintf(row->geometry_from + used, sizeof(row->geometry_from) - used,
			 ", tied to this disk by %s", report->tied_by);
	}
out:
	sp_facts_release(&facts);
	return r;
}

/* The devices --device names, or every device of the machine. */
static int devices(const struct scan *s, const struct sp_scan_needed *needed,
		   struct sp_scan_device *list, size_t *n, struct sp_error *err)
{
	const struct sp_cli_args *a = s->args;
	char name[SP_NAME_MAX], disk[SP_NAME_MAX];
	int r;

	if (!a->n_devices) {
		r = sp_scan_list(&a->sysfs, needed, list, SP_SCAN_MAX_DEVICES, n);
		if (r < 0)
			return sp_error_set(err, -r, SP_ERR_FAILED, "cannot list the block devices: %s",
					    strerror(-r));
		return 0;
	}
	*n = 0;
	for (size_t i = 0; i < a->n_devices; i++) {
		r = sp_scan_name_of(&a->sysfs, a->devices[i], name, sizeof(name), disk, sizeof(disk));
		if (r == -EISDIR)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "device: '%s' is a partition of %s; give the whole disk",
					    a->devices[i], disk);
		if (r < 0)
			return sp_error_set(err, -r, SP_ERR_INVALID, "device: '%s': %s",
					    a->devices[i], strerror(-r));
		r = sp_scan_classify(&a->sysfs, name, true, needed, &list[*n]);
		if (r < 0)
			return sp_error_set(err, -r, SP_ERR_INVALID, "device: '%s': %s",
					    a->devices[i], strerror(-r));
		if (r == 0)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "device: '%s' (%s) never holds an array (a device-mapper "
					    "layer, an md container or an empty drive)",
					    a->devices[i], name);
		for (size_t j = 0; j < *n; j++)
			if (!strcmp(list[j].name, name))
				return sp_error_set(err, EINVAL, SP_ERR_INVALID,
						    "device: '%s' is %s, given twice", a->devices[i],
						    name);
		(*n)++;
	}
	return 0;
}

/* Every --controller-report, read and parsed: a bad one is bad input. */
static int load_reports(struct scan *s, struct sp_error *err)
{
	size_t n = s->args->n_reports;

	if (!n)
		return 0;
	s->reports = calloc(n, sizeof(*s->reports));
	if (!s->reports)
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct scan_report *r = &s->reports[i];
		int rc = sp_cli_load_report(s->args->reports[i], &r->rep, r->name, sizeof(r->name),
					    err);

		if (rc < 0)
			return rc;
		r->disk = SIZE_MAX;
	}
	return 0;
}

/* How the report names the disk with these facts, or NULL when it is not its. */
static const char *ties(const struct scan_report *r, const struct sp_facts *f, char *buf,
			size_t len)
{
	if (!sp_report_describes(&r->rep, f->wwn, f->kernel_name))
		return NULL;
	if (r->rep.naa_id[0] && !strncmp(f->wwn, "naa.", 4))
		snprintf(buf, len, "its NAA id %s, the disk's wwid %s", r->rep.naa_id, f->wwn);
	else
		snprintf(buf, len, "the device name it gives, /dev/%s (%s)", r->rep.device,
			 r->rep.naa_id[0] ? "the disk has no naa. wwid" : "it gives no NAA id");
	return buf;
}

static int tie_one(struct scan *s, size_t disk, const struct sp_facts *f, size_t *tied,
		   struct sp_error *err)
{
	for (size_t j = 0; j < s->args->n_reports; j++) {
		struct scan_report *r = &s->reports[j];
		char why[sizeof(r->tied_by)];

		if (!ties(r, f, why, sizeof(why)))
			continue;
		if (r->disk != SIZE_MAX)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "controller-report: %s is of two disks scanned, the "
					    "one before and /dev/%s (%s): give each disk's report "
					    "alone",
					    r->name, f->kernel_name, why);
		if (tied[disk] != SIZE_MAX)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "controller-report: %s and %s are both of /dev/%s: "
					    "give one report a drive",
					    s->reports[tied[disk]].name, r->name, f->kernel_name);
		r->disk = disk;
		tied[disk] = j;
		snprintf(r->tied_by, sizeof(r->tied_by), "%s", why);
	}
	return 0;
}

/*
 * Each report to the one disk it describes, by the NAA id against the
 * disk's wwid or by the name it gives: a report of two disks, or two
 * reports of one disk, is bad input (whose geometry is it?).  A disk that
 * cannot be probed is tied to nothing; its row says why.
 */
static int tie_reports(struct scan *s, const struct sp_scan_device *list, size_t n,
		       size_t *tied, struct sp_error *err)
{
	for (size_t i = 0; i < n; i++)
		tied[i] = SIZE_MAX;
	for (size_t i = 0; i < n && s->args->n_reports; i++) {
		struct sp_facts f = { 0 };
		struct sp_error ignored = { 0 };
		char node[SP_PATH_MAX];
		int r = 0;

		if (sp_node_of(list[i].name, node, sizeof(node)) < 0)
			snprintf(node, sizeof(node), "/dev/%s", list[i].name);
		if (sp_probe_facts(&s->args->sysfs, node, &f, &ignored) == 0)
			r = tie_one(s, i, &f, tied, err);
		sp_facts_release(&f);
		if (r < 0)
			return r;
	}
	return 0;
}

/* A report of no disk scanned is said (on standard error and in the JSON), never dropped. */
static size_t untied_warnings(const struct scan *s, char (*warnings)[SP_MSG_MAX])
{
	size_t n = 0;

	for (size_t j = 0; j < s->args->n_reports; j++) {
		const struct scan_report *r = &s->reports[j];

		if (r->disk != SIZE_MAX)
			continue;
		snprintf(warnings[n++], SP_MSG_MAX,
			 "controller-report: %s is of no disk scanned (it gives %s%s%s%s%s): "
			 "nothing was judged with it",
			 r->name, r->rep.naa_id[0] ? "NAA id " : "", r->rep.naa_id,
			 r->rep.naa_id[0] && r->rep.device[0] ? " and " : "",
			 r->rep.device[0] ? "/dev/" : "", r->rep.device[0] ? r->rep.device :
			 r->rep.naa_id[0] ? "" : "neither an NAA id nor a device name");
	}
	return n;
}

static int check_usage(const struct sp_cli_args *a, struct sp_error *err)
{
	struct stat st;
	bool geometry = a->have_level || a->have_disks || a->have_chunk || a->spec.spans ||
			a->spec.layout.near_copies || a->have_controller;

	if (geometry && !a->n_devices)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "scan: --controller, --level, --disks and --chunk describe the "
				    "devices given with --device; give them");
	/* --level alone is enough for a LUN that exports its stripe (the
	 * planner says so when the device does not) */
	if ((a->have_disks || a->have_chunk) && !a->have_level)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "scan: give --level with --disks and --chunk (--level alone for "
				    "a LUN that exports its strip and full stripe)");
	if (a->root[0] && (stat(a->root, &st) < 0 || !S_ISDIR(st.st_mode)))
		return sp_error_set(err, ENOTDIR, SP_ERR_INVALID, "root: '%s' is not a directory",
				    a->root);
	if (a->format != SP_FORMAT_TEXT && a->format != SP_FORMAT_JSON)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "format: scan writes text or json");
	return 0;
}

static int run(struct scan *s, struct sp_error *err)
{
	const char *dirs[2] = { s->args->profiles_dir[0] ? s->args->profiles_dir :
							    "/etc/stripeplan/controllers.d",
				NULL };
	struct sp_scan_needed *needed = calloc(1, sizeof(*needed));
	struct sp_scan_device *list = calloc(SP_SCAN_MAX_DEVICES, sizeof(*list));
	struct sp_scan_row *rows = NULL;
	char (*warnings)[SP_MSG_MAX] = calloc(SP_CLI_MAX_REPORTS, sizeof(*warnings));
	bool failed = false, costly = false;
	char *text = NULL;
	size_t n = 0, *tied = NULL, n_warnings;
	int rc = SP_EXIT_FAILED, r;

	if (!needed || !list || !warnings) {
		sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
		goto out;
	}
	if (sp_profiles_load(dirs, &s->set, err) < 0 || load_reports(s, err) < 0) {
		rc = sp_cli_fail(err);
		goto out;
	}
	r = sp_scan_needed_read(needed);
	if (r < 0) {
		sp_error_set(err, -r, SP_ERR_FAILED,
			     "cannot read /proc/self/mountinfo: %s (what the system needs is unknown)",
			     strerror(-r));
		rc = sp_cli_fail(err);
		goto out;
	}
	if (devices(s, needed, list, &n, err) < 0) {
		rc = sp_cli_fail(err);
		goto out;
	}
	rows = calloc(n ? n : 1, sizeof(*rows));
	tied = calloc(n ? n : 1, sizeof(*tied));
	if (!rows || !tied) {
		sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
		rc = sp_cli_fail(err);
		goto out;
	}
	if (tie_reports(s, list, n, tied, err) < 0) {
		rc = sp_cli_fail(err);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (scan_one(s, &list[i], tied[i] == SIZE_MAX ? NULL : &s->reports[tied[i]],
			     &rows[i]) < 0)
			failed = true;
		costly |= rows[i].costly > 0;
	}
	n_warnings = untied_warnings(s, warnings);
	rc = failed ? SP_EXIT_FAILED : costly ? SP_EXIT_DRIFT : SP_EXIT_OK;
	text = s->args->format == SP_FORMAT_JSON ?
		       sp_format_scan_json(rows, n, (const char(*)[SP_MSG_MAX])warnings, n_warnings,
					   rc) :
		       sp_format_scan_text(rows, n, (const char(*)[SP_MSG_MAX])warnings, n_warnings);
	sp_cli_outcome("the scan", "%zu devices were read; nothing was touched", n);
	if (!text) {
		sp_cli_error("cannot format the scan: out of memory");
		rc = SP_EXIT_FAILED;
		goto out;
	}
	sp_cli_print(text);
	for (size_t i = 0; i < n; i++)
		if (rows[i].error[0])
			sp_cli_error("%s: %s", rows[i].device, rows[i].error);
	for (size_t i = 0; i < n_warnings; i++)
		sp_cli_error("warning: %s", warnings[i]);
out:
	free(text);
	free(tied);
	free(warnings);
	free(rows);
	free(list);
	free(needed);
	return rc;
}

int sp_cmd_scan(int argc, char **argv)
{
	struct sp_cli_args *args = calloc(1, sizeof(*args));
	struct scan s = { args, NULL, false, NULL };
	struct sp_error err = { 0 };
	bool done = false;
	int rc;

	if (!args) {
		sp_cli_error("out of memory");
		return SP_EXIT_FAILED;
	}
	rc = sp_cli_parse(argc, argv, SP_OPT_SCAN | SP_OPT_ROOT, usage_scan, args, &done);
	if (rc || done)
		goto out;
	if (check_usage(args, &err) < 0) {
		rc = sp_cli_fail(&err);
		goto out;
	}
	s.declared_level = args->have_level;
	rc = run(&s, &err);
out:
	sp_profiles_free(s.set);
	free(s.reports);
	free(args);
	return rc;
}
