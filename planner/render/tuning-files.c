/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plan's tuning as files that outlive a reboot: a POSIX sh script
 * that sets and reads back the sysfs knobs (templates/stripeplan-tune.sh.in),
 * a udev rule that sets them whenever the device appears or changes, and
 * modprobe.d options for module parameters.
 *
 * A plan may come from a JSON file somebody edited, and these files run
 * as root.  So every name that lands in them is checked against a strict
 * character set, sh values are single-quoted, and text from the plan that
 * goes into a comment loses its control characters (a newline would end
 * the comment and start a command).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/knob.h"
#include "raid/raid.h"
#include "template.h"
#include "tuning-files.h"

#define TUNE_TEMPLATE "stripeplan-tune.sh.in"
/* what a file name keeps of an identity; anything else becomes '-' */
#define FILE_NAME_CHARS "._-"

/* What every file is rendered from, and nothing else: the plan and the
 * identities its devices are found by. */
struct inputs {
	const struct sp_plan *plan;
	const struct sp_identities *ids;
};

static bool udev_ok(const char *s);
static bool md_matched_by_uuid(const struct sp_identities *ids);

/*
 * What a device is found by, in the udev rule and in the tune script
 * alike: an md array by its UUID, a disk, LUN or md member by the `wwid`
 * or `serial` the probe read from sysfs, and only what has none of them
 * by its kernel name.  This is the one place that decides; the rule, the
 * script and the file names follow it, so they cannot disagree.
 */
enum id_kind { ID_MD_UUID, ID_WWN, ID_SERIAL, ID_KERNEL };

struct identity {
	enum id_kind kind;
	const char *value; /* the kernel name for ID_KERNEL */
	const char *what;  /* "the array", "the device", "md member": for comments, logs */
	const char *why;   /* ID_KERNEL: why there is no identity */
};

static const struct sp_md_member *member_identity(const struct sp_identities *ids,
						  const char *disk);

static bool pick_identity(struct identity *id, const char *wwn, const char *serial)
{
	if (udev_ok(wwn)) {
		id->kind = ID_WWN;
		id->value = wwn;
		return true;
	}
	if (udev_ok(serial)) {
		id->kind = ID_SERIAL;
		id->value = serial;
		return true;
	}
	return false;
}

static void device_identity(const struct inputs *in, const char *disk, struct identity *id)
{
	const struct sp_identities *ids = in->ids;
	const struct sp_md_member *m = member_identity(ids, disk);
	bool is_device = !strcmp(disk, in->plan->device.kernel_name);

	/* a plan tunes the device and, of an md array, its member disks */
	id->what = !is_device ? "md member" : ids->md ? "the array" : "the device";
	id->why = NULL;
	if (is_device && md_matched_by_uuid(ids)) {
		id->kind = ID_MD_UUID;
		id->value = ids->md_uuid;
		return;
	}
	if (is_device && pick_identity(id, ids->wwn, ids->serial))
		return;
	if (!is_device && m && pick_identity(id, m->wwn, m->serial))
		return;
	id->kind = ID_KERNEL;
	id->value = disk;
	id->why = is_device ? "the plan knows no identity (WWN, serial, md UUID) for it" :
			      "no WWN or serial number was probed for this md member";
}

/*
 * What the files are named after: the device's identity (md-<MD_UUID>,
 * wwn-<wwid>, serial-<serial>), else the kernel name.  A
 * name that moves between boots (sdb -> sda, md3 -> md127) then leaves the
 * files where apply wrote them: check finds them, and the next apply
 * rewrites them in place instead of adding a second rule for the same
 * disk.  Characters outside [A-Za-z0-9._-] ('!', ':', spaces of a t10
 * wwid) become '-'; '!' would also trip bash history expansion.
 */
static int identity_name(const struct inputs *in, char *buf, size_t len)
{
	static const char *const prefixes[] = {
		[ID_MD_UUID] = "md-", [ID_WWN] = "wwn-", [ID_SERIAL] = "serial-", [ID_KERNEL] = ""
	};
	struct identity ident;
	const char *prefix, *id;
	size_t i, n;

	device_identity(in, in->plan->device.kernel_name, &ident);
	prefix = prefixes[ident.kind];
	id = ident.value;
	n = strlen(prefix);
	if (!id[0] || n + strlen(id) >= len)
		return id[0] ? -ENAMETOOLONG : -EINVAL;
	memcpy(buf, prefix, n);
	for (i = 0; id[i]; i++) {
		char c = id[i];

		buf[n + i] = isalnum((unsigned char)c) || strchr(FILE_NAME_CHARS, c) ? c : '-';
	}
	buf[n + i] = '\0';
	return 0;
}

static int file_name(const char *fmt, const struct inputs *in, char *buf, size_t len)
{
	char name[SP_NAME_MAX + 8];
	int n, r;

	r = identity_name(in, name, sizeof(name));
	if (r < 0)
		return r;
	n = snprintf(buf, len, fmt, name);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int rule_name(const struct inputs *in, char *buf, size_t len)
{
	/* ENV{MD_UUID} exists only after mdadm's 63-md-raid-arrays.rules */
	return file_name(md_matched_by_uuid(in->ids) ? "65-stripeplan-%s.rules" :
						       "60-stripeplan-%s.rules",
			 in, buf, len);
}

static int script_name(const struct inputs *in, char *buf, size_t len)
{
	return file_name("stripeplan-tune-%s", in, buf, len);
}

int sp_udev_rule_name(const struct sp_plan *plan, const struct sp_identities *ids, char *buf,
		      size_t len)
{
	return rule_name(&(const struct inputs){ plan, ids }, buf, len);
}

int sp_tune_script_name(const struct sp_plan *plan, const struct sp_identities *ids, char *buf,
			size_t len)
{
	return script_name(&(const struct inputs){ plan, ids }, buf, len);
}

/* ------------------------------------------------------------ helpers */

static void put_comment_text(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(iscntrl((unsigned char)*s) ? ' ' : *s, f);
}

/* sh single quotes take every byte literally but ' itself: 'it'\''s' */
static void put_sh_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* open_memstream() sets *buf only at fclose(), so it is read after it */
static char *close_stream(FILE *f, char **buf)
{
	if (fclose(f) != 0) {
		free(*buf);
		return NULL;
	}
	return *buf;
}

static void array_words(const struct inputs *in, char *buf, size_t len);

/* s with control characters as spaces, for a comment line */
static void comment_text(const char *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s", s);
	for (char *p = buf; *p; p++)
		if (iscntrl((unsigned char)*p))
			*p = ' ';
}

/* How the files name a device found by identity, and where the script
 * reads that identity (system/probe.c reads the same files). */
static const char *const id_nouns[] = { [ID_MD_UUID] = "the md array with UUID",
					[ID_WWN] = "the disk with WWN",
					[ID_SERIAL] = "the disk with serial number",
					[ID_KERNEL] = NULL };
static const char *const id_sources[] = { [ID_MD_UUID] = "its md/uuid",
					  [ID_WWN] = "its wwid or device/wwid",
					  [ID_SERIAL] = "its device/serial or serial",
					  [ID_KERNEL] = NULL };

/*
 * The device as the files' headers name it: by the identity the rule and
 * the script find it by ("the disk with WWN naa.6005..."), so that the
 * files apply wrote stay what check renders after a reboot that renamed
 * the device; by its path only when it is matched by kernel name.
 */
static void device_words(const struct inputs *in, char *buf, size_t len)
{
	struct identity id;
	char value[SP_PATH_MAX];

	device_identity(in, in->plan->device.kernel_name, &id);
	if (id.kind == ID_KERNEL) {
		comment_text(in->plan->device.path, buf, len);
		return;
	}
	comment_text(id.value, value, sizeof(value));
	snprintf(buf, len, "%s %s", id_nouns[id.kind], value);
}

/* templates/NAME with @DEVICE@, @ARRAY@ and @key@ = body (its last
 * newline dropped: the template's line ends there). */
static char *render_file(const char *name, const struct inputs *in, const char *key,
			 char *body)
{
	const char *tpl = sp_embedded_template(name);
	char device[SP_PATH_MAX], array[SP_NAME_MAX + 64], *buf = NULL;
	size_t len = 0, n;
	FILE *f;

	if (!body || !tpl || !(f = open_memstream(&buf, &len))) {
		free(body);
		return NULL;
	}
	n = strlen(body);
	if (n && body[n - 1] == '\n')
		body[n - 1] = '\0';
	device_words(in, device, sizeof(device));
	array_words(in, array, sizeof(array));
	sp_fill_template(f, tpl,
			 (const struct sp_subst[]){ { "@DEVICE@", device },
						    { "@ARRAY@", array },
						    { key, body } },
			 3);
	free(body);
	return close_stream(f, &buf);
}

/* "hp-p400 raid10, 8 disks", safe inside a comment */
static void array_words(const struct inputs *in, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s, %u disks", in->plan->controller, sp_level_name(in->plan->level),
		 in->plan->disks);
	for (char *p = buf; *p; p++)
		if (iscntrl((unsigned char)*p))
			*p = ' ';
}

static bool is_sysfs(const struct sp_tuning *t)
{
	return t->kind == SP_TUNING_SYSFS;
}

/*
 * "# WHY" above an entry stripeplan writes, its path in path; or, for one
 * it does not write (sp_tuning_check() refuses it), a "# skipped, not a
 * WHAT stripeplan writes: PATH" line instead, and false.
 */
static bool put_why(FILE *f, const struct sp_tuning *t, const char *what, char *path, size_t len)
{
	path[0] = '\0';
	if (sp_tuning_path(t, path, len) < 0 || sp_tuning_check(t) < 0) {
		fprintf(f, "# skipped, not a %s stripeplan writes: ", what);
		put_comment_text(f, path);
		fputc('\n', f);
		return false;
	}
	fputs("# ", f);
	put_comment_text(f, t->why);
	return true;
}

/* ------------------------------------------------------------- script */

static bool written(const struct sp_tuning *t);

/*
 * The devices the plan tunes, each once, in the order the files list
 * them: the planned device, then the others matched by identity in the
 * order of their identities, then those matched by kernel name by name.
 * Not plan order: the probe lists md members by kernel name, and a
 * reboot that permutes the names must not reorder the files.
 */
/* A knob the files write: its device, and its place in the plan. */
struct knob_ref {
	const char *disk;
	size_t i;
};

/* A device and its knobs, knob[0..n) in plan order. */
struct disk_entry {
	const char *disk;
	const struct knob_ref *knob;
	size_t n;
	int rank;
	struct identity id;
};

struct disk_order {
	struct knob_ref *knobs; /* the knobs the files write, by device, each device's in plan order */
	struct disk_entry *e;
	size_t n;
};

static int disk_rank(const struct inputs *in, const char *disk, struct identity *id)
{
	device_identity(in, disk, id);
	if (!strcmp(disk, in->plan->device.kernel_name))
		return 0;
	return id->kind == ID_KERNEL ? 2 : 1;
}

static int compare_disks(const void *pa, const void *pb)
{
	const struct disk_entry *a = pa, *b = pb;
	int r;

	if (a->rank != b->rank)
		return a->rank - b->rank;
	if (a->rank == 1 && a->id.kind != b->id.kind)
		return (int)a->id.kind - (int)b->id.kind;
	r = a->rank == 1 ? strcmp(a->id.value, b->id.value) : 0;
	/* two devices of one identity (a copied WWN): still one order */
	return r ? r : strcmp(a->disk, b->disk);
}

/* by device name, then plan order */
static int compare_knobs(const void *pa, const void *pb)
{
	const struct knob_ref *a = pa, *b = pb;
	int r = strcmp(a->disk, b->disk);

	return r ? r : (a->i > b->i) - (a->i < b->i);
}

static void disk_order_free(struct disk_order *o)
{
	free(o->knobs);
	free(o->e);
}

/*
 * -ENOMEM, or 0 with o to disk_order_free().  The knobs are sorted by
 * device, so that each device's are found together and its identity is
 * looked up once (among md's members): sorting, not searching, keeps a
 * plan of 1920 members quick.
 */
static int order_disks(const struct inputs *in, struct disk_order *o)
{
	const struct sp_plan *plan = in->plan;
	size_t n = 0;

	o->n = 0;
	o->knobs = calloc(plan->n_tuning ? plan->n_tuning : 1, sizeof(*o->knobs));
	o->e = calloc(plan->n_tuning ? plan->n_tuning : 1, sizeof(*o->e));
	if (!o->knobs || !o->e) {
		disk_order_free(o);
		return -ENOMEM;
	}
	for (size_t i = 0; i < plan->n_tuning; i++)
		if (written(&plan->tuning[i]))
			o->knobs[n++] = (struct knob_ref){ .disk = plan->tuning[i].device, .i = i };
	qsort(o->knobs, n, sizeof(*o->knobs), compare_knobs);
	for (size_t i = 0; i < n; i++) {
		const char *disk = o->knobs[i].disk;
		struct disk_entry *e = &o->e[o->n];

		if (o->n && !strcmp(o->e[o->n - 1].disk, disk)) {
			o->e[o->n - 1].n++;
			continue;
		}
		e->disk = disk;
		e->knob = &o->knobs[i];
		e->n = 1;
		e->rank = disk_rank(in, disk, &e->id);
		o->n++;
	}
	qsort(o->e, o->n, sizeof(*o->e), compare_disks);
	return 0;
}

/* the script's found() takes these; its own messages name them the same */
static const char *const script_kinds[] = {
	[ID_MD_UUID] = "md", [ID_WWN] = "wwn", [ID_SERIAL] = "serial", [ID_KERNEL] = "name"
};

/*
 * "#   md member: the disk with WWN naa.5000 (its wwid or device/wwid)";
 * the kernel name only of a device matched by it, so that the text does
 * not change when the kernel names the device otherwise.
 */
static void put_identity_comment(FILE *f, const struct inputs *in, const char *disk)
{
	struct identity id;

	device_identity(in, disk, &id);
	if (id.kind == ID_KERNEL) {
		fprintf(f, "#   %s  %s, by kernel name: %s\n", disk, id.what, id.why);
		return;
	}
	fprintf(f, "#   %s: %s ", id.what, id_nouns[id.kind]);
	put_comment_text(f, id.value);
	fprintf(f, " (%s)\n", id_sources[id.kind]);
}

static int put_identities(FILE *f, const struct inputs *in)
{
	struct disk_order o;

	if (order_disks(in, &o) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < o.n; i++)
		put_identity_comment(f, in, o.e[i].disk);
	if (!o.n)
		fputs("#   (the plan has no sysfs knobs)\n", f);
	disk_order_free(&o);
	return 0;
}

static void put_knob(FILE *f, const struct sp_tuning *t)
{
	fputs("\t# ", f);
	put_comment_text(f, t->why);
	fputc('\n', f);
	fputs("\ttune ", f);
	put_sh_quoted(f, t->attribute);
	fputc(' ', f);
	put_sh_quoted(f, SP_VALUE_TEXT(&t->value));
	fputc('\n', f);
}

/*
 * One block per device, its knobs in plan order (a new scheduler resets
 * nr_requests, so the scheduler, first in the plan, is set before it),
 * run only when found() resolves the device's identity to one device
 * now.
 */
static void put_device_knobs(FILE *f, const struct inputs *in, const struct disk_entry *e)
{
	const struct identity id = e->id;

	fprintf(f, "if found %s ", script_kinds[id.kind]);
	put_sh_quoted(f, id.value);
	fputc(' ', f);
	put_sh_quoted(f, id.what);
	fputs("; then\n", f);
	for (size_t i = 0; i < e->n; i++)
		put_knob(f, &in->plan->tuning[e->knob[i].i]);
	fputs("fi\n", f);
}

static int put_knobs(FILE *f, const struct inputs *in)
{
	char path[SP_PATH_MAX];
	struct disk_order o;
	size_t skipped = 0;

	for (size_t i = 0; i < in->plan->n_tuning; i++) {
		const struct sp_tuning *t = &in->plan->tuning[i];

		/* an entry it does not write leaves a comment saying so */
		if (is_sysfs(t) && (sp_tuning_path(t, path, sizeof(path)) < 0 ||
				    sp_tuning_check(t) < 0))
			skipped += !put_why(f, t, "/sys/block knob", path, sizeof(path));
	}
	if (skipped)
		fputc('\n', f);
	if (order_disks(in, &o) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < o.n; i++) {
		if (i)
			fputc('\n', f);
		put_device_knobs(f, in, &o.e[i]);
	}
	if (!o.n)
		fputs("# the plan has no sysfs knobs\n", f);
	disk_order_free(&o);
	return 0;
}

static char *render_part(const struct inputs *in, int (*put)(FILE *, const struct inputs *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (put(f, in) < 0) {
		fclose(f);
		free(buf);
		return NULL;
	}
	return close_stream(f, &buf);
}

static char *render_script(const struct inputs *in)
{
	const char *tpl = sp_embedded_template(TUNE_TEMPLATE);
	char script[SP_NAME_MAX + 32], device[SP_PATH_MAX], array[SP_NAME_MAX + 64];
	char *knobs, *identities, *buf = NULL;
	size_t len = 0;
	FILE *f = NULL;

	if (!tpl)
		return NULL;
	if (script_name(in, script, sizeof(script)) < 0)
		snprintf(script, sizeof(script), "stripeplan-tune");
	device_words(in, device, sizeof(device));
	array_words(in, array, sizeof(array));
	knobs = render_part(in, put_knobs);
	identities = render_part(in, put_identities);
	if (knobs && identities)
		f = open_memstream(&buf, &len);
	if (!f) {
		free(knobs);
		free(identities);
		return NULL;
	}
	/* its last newline is the template's */
	identities[strlen(identities) - (identities[0] ? 1 : 0)] = '\0';
	sp_fill_template(f, tpl,
			 (const struct sp_subst[]){ { "@SCRIPT@", script },
						    { "@DEVICE@", device },
						    { "@ARRAY@", array },
						    { "@IDENTITIES@", identities },
						    { "@KNOBS@", knobs } },
			 5);
	free(knobs);
	free(identities);
	return close_stream(f, &buf);
}

/* ---------------------------------------------------------- udev rule */

/*
 * A value udev takes literally in a match or an assignment: no quotes or
 * backslashes, no glob characters or '|' (matches), no '%' or '$'
 * (assignments are substituted), no control characters.
 */
static bool udev_ok(const char *s)
{
	if (!s[0] || isspace((unsigned char)s[0]))
		return false;
	for (; *s; s++)
		if (iscntrl((unsigned char)*s) || strchr("\"\\*?[]|%$", *s))
			return false;
	return true;
}

/* udev's KERNEL and %k spell the '!' of a sysfs name as '/' */
static void udev_kernel_name(const char *disk, char *buf, size_t len)
{
	snprintf(buf, len, "%s", disk);
	for (char *p = buf; *p; p++)
		if (*p == '!')
			*p = '/';
}

struct kernel_matches {
	char names[SP_MSG_MAX];
	size_t n;
};

static void note_kernel_match(struct kernel_matches *km, const char *disk)
{
	size_t used = strlen(km->names);

	snprintf(km->names + used, sizeof(km->names) - used, "%s'%s'", km->n ? ", " : "", disk);
	km->n++;
}

/* The md member whose whole disk this is, if the probe saw one. */
static const struct sp_md_member *member_identity(const struct sp_identities *ids,
						 const char *disk)
{
	for (size_t i = 0; ids->md && i < ids->n_members; i++)
		if (!strcmp(ids->members[i].disk, disk))
			return &ids->members[i];
	return NULL;
}

static bool md_matched_by_uuid(const struct sp_identities *ids)
{
	return ids->md && udev_ok(ids->md_uuid);
}

#define RULE_START "ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk\", "

/*
 * Devices are matched by identity (device_identity()), not by a name that
 * can change across boots: an md array by its UUID (udev's MD_UUID, which
 * mdadm's 63-md-raid-arrays.rules imports, so this rule file sorts after
 * it), whatever number the array comes back with; other devices and md
 * members by what the probe read from sysfs, their `wwid` or `serial`
 * attribute, compared as ATTRS{} so udev finds it on the disk or on its
 * SCSI parent.  (udev's ENV{ID_WWN} is a different spelling of the WWN,
 * "0x6005...", and would never equal "naa.6005...".)  Only what has no
 * identity falls back to the kernel name, which the caller is warned of.
 */
static void put_match(FILE *f, const struct inputs *in, const char *disk,
		      struct kernel_matches *km)
{
	struct identity id;
	char kernel[SP_NAME_MAX];

	device_identity(in, disk, &id);
	/* no kernel name in the comments of what is matched by identity:
	 * the rule stays what check renders after the device is renamed */
	switch (id.kind) {
	case ID_MD_UUID:
		/* KERNEL=="md*": mdadm --examine gives the members MD_UUID too */
		fprintf(f, "# %s, matched by its md array UUID: it may come back under\n"
			   "# another name (/dev/md127 when mdadm.conf is not in the initramfs)\n"
			   RULE_START "KERNEL==\"md*\", ENV{MD_UUID}==\"%s\"", id.what, id.value);
		return;
	case ID_WWN:
		fprintf(f, "# %s, matched by its WWN, whatever kernel name it has\n" RULE_START
			   "ATTRS{wwid}==\"%s\"", id.what, id.value);
		return;
	case ID_SERIAL:
		fprintf(f, "# %s, matched by its serial number, whatever kernel name it has\n"
			   RULE_START "ATTRS{serial}==\"%s\"", id.what, id.value);
		return;
	case ID_KERNEL:
		break;
	}
	udev_kernel_name(disk, kernel, sizeof(kernel));
	fprintf(f, "# %s, matched by kernel name: %s\n", disk, id.why);
	fprintf(f, RULE_START "KERNEL==\"%s\"", kernel);
	note_kernel_match(km, disk);
}

/* A knob the files write: a /sys/block one that sp_tuning_check() passes. */
static bool written(const struct sp_tuning *t)
{
	return is_sysfs(t) && sp_tuning_check(t) == 0 && strlen(t->device) < SP_NAME_MAX;
}

/* Plan order is kept: a new scheduler resets nr_requests, so the
 * scheduler (first in the plan) must be set before it. */
static void put_disk_rule(FILE *f, const struct inputs *in, const struct disk_entry *e,
			  struct kernel_matches *km)
{
	put_match(f, in, e->disk, km);
	for (size_t i = 0; i < e->n; i++) {
		const struct sp_tuning *t = &in->plan->tuning[e->knob[i].i];

		fprintf(f, ", ATTR{%s}=\"%s\"", t->attribute, SP_VALUE_TEXT(&t->value));
	}
	fputc('\n', f);
}

static void set_kernel_warning(const struct kernel_matches *km, char *warning, size_t len)
{
	if (!warning || !len)
		return;
	warning[0] = '\0';
	if (km->n)
		snprintf(warning, len, "matching by kernel name %s: names can change across boots",
			 km->names);
}

static char *render_rule(const struct inputs *in, char *warning, size_t len)
{
	struct kernel_matches km = { .n = 0 };
	struct disk_order o;
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return NULL;
	if (order_disks(in, &o) < 0) {
		fclose(f);
		free(buf);
		return NULL;
	}
	for (size_t i = 0; i < o.n; i++) {
		fputc('\n', f);
		put_disk_rule(f, in, &o.e[i], &km);
	}
	disk_order_free(&o);
	if (!o.n)
		fputs("\n# the plan has no sysfs knobs\n", f);
	buf = render_file("udev-rule.in", in, "@RULES@", close_stream(f, &buf));
	if (buf)
		set_kernel_warning(&km, warning, len);
	return buf;
}

/* ----------------------------------------------------------- modprobe */

static void put_option(FILE *f, const struct sp_tuning *t)
{
	char path[SP_PATH_MAX];

	if (!put_why(f, t, "module option", path, sizeof(path)))
		return;
	fprintf(f, "\noptions %s %s=%s\n", t->device, t->attribute, SP_VALUE_TEXT(&t->value));
}

static char *render_modprobe(const struct inputs *in)
{
	char *buf = NULL;
	size_t len = 0, n = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	for (size_t i = 0; i < in->plan->n_tuning; i++) {
		if (in->plan->tuning[i].kind != SP_TUNING_MODULE)
			continue;
		n++;
		put_option(f, &in->plan->tuning[i]);
	}
	buf = close_stream(f, &buf);
	/* no module options, no file */
	return n ? render_file("modprobe.conf.in", in, "@OPTIONS@", buf) : buf;
}

/* ------------------------------------------------------------- inputs */

void sp_identities_of(const struct sp_facts *planned, const struct sp_facts *now,
		      struct sp_identities *ret)
{
	const struct sp_md_facts *md = now && now->md.present ? &now->md : &planned->md;

	memset(ret, 0, sizeof(*ret));
	snprintf(ret->wwn, sizeof(ret->wwn), "%s", planned->wwn);
	snprintf(ret->serial, sizeof(ret->serial), "%s", planned->serial);
	ret->md = md->present;
	if (!md->present)
		return;
	snprintf(ret->md_uuid, sizeof(ret->md_uuid), "%s", md->uuid);
	ret->n_members = md->n_members;
	ret->members = md->members;
}

char *sp_format_tuning_script(const struct sp_plan *plan, const struct sp_identities *ids)
{
	return render_script(&(const struct inputs){ plan, ids });
}

char *sp_format_udev_rule(const struct sp_plan *plan, const struct sp_identities *ids,
			  char *warning, size_t len)
{
	return render_rule(&(const struct inputs){ plan, ids }, warning, len);
}

char *sp_format_modprobe_conf(const struct sp_plan *plan, const struct sp_identities *ids)
{
	return render_modprobe(&(const struct inputs){ plan, ids });
}
