/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fstab merging against golden files (tests/unit/fstab/NAME.in ->
 * NAME.expected; UPDATE_GOLDEN=1 rewrites the expected files, to be
 * reviewed by eye), the refusals, the reader and the atomic writer, and
 * the fstab step's verify and dry run on a scratch root.  No device and
 * no mount: the mount test is covered by tests/device/test-fstab-step.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "exec.h"
#include "fstab-file.h"
#include "steps.h"
#include "textfile.h"

#define UUID "0f5e8a9c-1b2d-4e3f-9a8b-7c6d5e4f3a21"
#define OTHER_UUID "11111111-2222-4333-8444-555555555555"
#define OPTS "noatime,logbufs=8,logbsize=256k,nofail,x-systemd.device-timeout=30s"
#define LINE "UUID=" UUID " /data xfs " OPTS " 0 0"

static char scratch[PATH_MAX];

/* ------------------------------------------------------------- helpers */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
	assert_int_equal(fclose(f), 0);
}

static void golden_path(const char *name, const char *ext, char *buf, size_t len)
{
	const char *src = getenv("SRCDIR");

	if (src)
		snprintf(buf, len, "%s/tests/unit/fstab/%s.%s", src, name, ext);
	else /* run by hand from the build tree: __FILE__ is absolute under cmake */
		snprintf(buf, len, "%.*s/fstab/%s.%s",
			 (int)(strrchr(__FILE__, '/') - __FILE__), __FILE__, name, ext);
}

static char *merge_ok(const char *old, const char *line, const char *mp, const char *uuid)
{
	struct sp_error err = { 0 };
	char *text = NULL;

	if (sp_fstab_merge(old, line, mp, uuid, &text, &err) < 0)
		fail_msg("merge refused: %s", err.message);
	return text;
}

/* Refused with exit code 2, ret_text untouched, message containing needle. */
static void merge_refused(const char *old, const char *line, const char *mp, const char *uuid,
			  int code, const char *needle)
{
	struct sp_error err = { 0 };
	char *text = (char *)"untouched";

	assert_int_equal(sp_fstab_merge(old, line, mp, uuid, &text, &err), code);
	assert_int_equal(err.kind, SP_ERR_INVALID);
	assert_string_equal(text, "untouched");
	if (!strstr(err.message, needle))
		fail_msg("message '%s' should contain '%s'", err.message, needle);
}

/* -------------------------------------------------------------- golden */

struct golden_case {
	const char *name;
	const char *mountpoint;
	const char *line;
	enum sp_fstab_action action;
};

static const struct golden_case cases[] = {
	{ "awkward", "/data", LINE, SP_FSTAB_ADD },
	{ "no-final-newline", "/data", LINE, SP_FSTAB_ADD },
	{ "space-mountpoint", "/srv/array data",
	  "UUID=" UUID " /srv/array\\040data xfs " OPTS " 0 0", SP_FSTAB_ADD },
	{ "replace-options", "/data", LINE, SP_FSTAB_REPLACE },
	{ "new-uuid", "/data", LINE, SP_FSTAB_REPLACE },
	{ "two-owned", "/data", LINE, SP_FSTAB_REPLACE },
	{ "other-array", "/data", LINE, SP_FSTAB_ADD },
	{ "empty", "/data", LINE, SP_FSTAB_ADD },
	/* starts with two numbers: libmount would guess mountinfo and see /data */
	{ "mountinfo-line", "/data", LINE, SP_FSTAB_ADD },
};

static void run_golden(const struct golden_case *c)
{
	char in_path[PATH_MAX], exp_path[PATH_MAX];
	enum sp_fstab_action action, again_action;
	struct sp_error err = { 0 };
	char *in, *out, *again, *expected;

	golden_path(c->name, "in", in_path, sizeof(in_path));
	golden_path(c->name, "expected", exp_path, sizeof(exp_path));
	in = slurp(in_path);
	if (!in)
		fail_msg("cannot read '%s'", in_path);
	if (sp_fstab_merge_action(in, c->line, c->mountpoint, UUID, &out, &action, &err) < 0)
		fail_msg("%s: merge refused: %s", c->name, err.message);
	if (getenv("UPDATE_GOLDEN") && !strcmp(getenv("UPDATE_GOLDEN"), "1")) {
		spit(exp_path, out);
		print_message("updated %s\n", exp_path);
	}
	expected = slurp(exp_path);
	if (!expected)
		fail_msg("cannot read '%s' (UPDATE_GOLDEN=1 creates it)", exp_path);
	if (strcmp(out, expected))
		fail_msg("%s: merge result differs from %s:\n%s", c->name, exp_path, out);
	assert_int_equal(action, c->action);

	/* a second run changes nothing and says so */
	if (sp_fstab_merge_action(out, c->line, c->mountpoint, UUID, &again, &again_action,
				  &err) < 0)
		fail_msg("%s: second merge refused: %s", c->name, err.message);
	assert_string_equal(again, out);
	assert_int_equal(again_action, SP_FSTAB_KEEP);
	free(again);
	free(expected);
	free(out);
	free(in);
}

static void test_golden(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		run_golden(&cases[i]);
}

/* Every old line survives byte for byte, in order, in the merged text. */
static void test_old_lines_kept(void **state)
{
	char path[PATH_MAX];
	char *in, *out, *p, *q;

	(void)state;
	golden_path("awkward", "in", path, sizeof(path));
	in = slurp(path);
	assert_non_null(in);
	out = merge_ok(in, LINE, "/data", UUID);
	assert_true(!strncmp(out, in, strlen(in)));
	p = out + strlen(in);
	q = strchr(p, '\n');
	assert_non_null(q);
	assert_true(!strncmp(p, "# stripeplan: /data\n", (size_t)(q - p) + 1));
	assert_string_equal(q + 1, LINE "\n");
	free(out);
	free(in);
}

static void test_missing_newline_added(void **state)
{
	char *out;

	(void)state;
	out = merge_ok("LABEL=a /a ext4 defaults 0 2", LINE, "/data", UUID);
	assert_string_equal(out, "LABEL=a /a ext4 defaults 0 2\n# stripeplan: /data\n" LINE "\n");
	free(out);
	/* our own line last, without a newline: replaced, and the file ends in one */
	out = merge_ok("# stripeplan: /data\nUUID=" UUID " /data xfs defaults 0 0", LINE, "/data",
		       UUID);
	assert_string_equal(out, "# stripeplan: /data\n" LINE "\n");
	free(out);
}

static void test_placeholder_uuid(void **state)
{
	char *out;

	(void)state;
	/* dry run before mkfs: no UUID yet, the mount point is still checked */
	out = merge_ok("", "UUID=@FS_UUID@ /data xfs " OPTS " 0 0", "/data", NULL);
	assert_string_equal(out, "# stripeplan: /data\nUUID=@FS_UUID@ /data xfs " OPTS " 0 0\n");
	free(out);
	merge_refused("LABEL=x /data ext4 defaults 0 2\n", "UUID=@FS_UUID@ /data xfs " OPTS " 0 0",
		      "/data", "", -EEXIST, "line 1 already mounts '/data'");
}

/* ----------------------------------------------------------- refusals */

static void test_refuse_mountpoint(void **state)
{
	(void)state;
	merge_refused("# comment\n\nLABEL=old /data ext4 defaults 0 2\n", LINE, "/data", UUID,
		      -EEXIST, "line 3 already mounts '/data': 'LABEL=old /data ext4 defaults 0 2'");
	/* the same directory, spelled differently */
	merge_refused("/dev/sdb1  /data/  xfs defaults 0 0\n", LINE, "/data", UUID, -EEXIST,
		      "line 1 already mounts '/data'");
	merge_refused("/dev/sdb1 //data xfs defaults 0 0\n", LINE, "/data", UUID, -EEXIST,
		      "line 1 already mounts");
	/* compared unescaped: \040 is a space */
	merge_refused("LABEL=media /mnt/my\\040disk ext4 defaults 0 2\n",
		      "UUID=" UUID " /mnt/my\\040disk xfs " OPTS " 0 0", "/mnt/my disk", UUID,
		      -EEXIST, "line 1 already mounts '/mnt/my disk'");
	/* a marker that is not directly above does not make the line ours */
	merge_refused("# stripeplan: /data\n\n" LINE "\n", LINE, "/data", UUID, -EEXIST,
		      "line 3 already mounts '/data'");
}

/* CRLF files keep CRLF: the lines kept, and the block replaced or added. */
static void test_crlf_kept(void **state)
{
	const char *old = "# dos\r\nLABEL=a /a ext4 defaults 0 2\r\n";
	const char *owned = "# dos\r\n" SP_FSTAB_MARKER " /data\r\nUUID=old /data xfs defaults 0 0\r\n";
	char *text;

	(void)state;
	text = merge_ok(old, LINE, "/data", UUID);
	assert_string_equal(text, "# dos\r\nLABEL=a /a ext4 defaults 0 2\r\n" SP_FSTAB_MARKER
				  " /data\r\n" LINE "\r\n");
	free(text);
	/* an owned line that ends in CRLF is ours, and its fsck pass parses */
	text = merge_ok(owned, LINE, "/data", NULL);
	assert_string_equal(text, "# dos\r\n" SP_FSTAB_MARKER " /data\r\n" LINE "\r\n");
	free(text);
	/* a CRLF file without its last line end gets one, CRLF */
	text = merge_ok("LABEL=a /a ext4 defaults 0 2\r", LINE, "/data", UUID);
	assert_string_equal(text, "LABEL=a /a ext4 defaults 0 2\r\n" SP_FSTAB_MARKER " /data\r\n" LINE
				  "\r\n");
	free(text);
	/* and a foreign CRLF line is still a conflict */
	merge_refused("LABEL=x /data ext4 defaults 0 2\r\n", LINE, "/data", UUID, -EEXIST,
		      "line 1 already mounts '/data'");
}

/* Below the marker, but not a line the tool writes: never replaced. */
static void test_user_line_under_marker(void **state)
{
	char *text;

	(void)state;
	merge_refused(SP_FSTAB_MARKER " /data\n/dev/sdz1 /data ext4 defaults 0 2\n", LINE, "/data",
		      UUID, -EEXIST, "line 2 is below a '# stripeplan:' marker but is not one");
	merge_refused(SP_FSTAB_MARKER " /other\nUUID=x /data ext4 defaults 0 2\n", LINE, "/data",
		      UUID, -EEXIST, "line 2 is below a '# stripeplan:' marker but is not one");
	/* the same mount point in another spelling is still ours */
	text = merge_ok(SP_FSTAB_MARKER " /./data/\nUUID=old /data//  xfs defaults 0 0\n", LINE,
			"/data", UUID);
	assert_string_equal(text, SP_FSTAB_MARKER " /data\n" LINE "\n");
	free(text);
	/* a foreign line in another spelling of the mount point conflicts */
	merge_refused("LABEL=x /./data// ext4 defaults 0 2\n", LINE, "/data", UUID, -EEXIST,
		      "line 1 already mounts '/data'");
}

static void test_refuse_uuid(void **state)
{
	(void)state;
	merge_refused("UUID=" UUID " /srv xfs defaults 0 0\n", LINE, "/data", UUID, -EEXIST,
		      "line 1 already uses UUID=" UUID);
	/* quoted and upper case is the same UUID */
	merge_refused("#\nUUID=\"0F5E8A9C-1B2D-4E3F-9A8B-7C6D5E4F3A21\" /srv xfs defaults 0 0\n",
		      LINE, "/data", UUID, -EEXIST, "line 2 already uses UUID=");
	merge_refused("/dev/disk/by-uuid/" UUID " /srv xfs defaults 0 0\n", LINE, "/data", UUID,
		      -EEXIST, "line 1 already uses UUID=" UUID);
	/* a PARTUUID or a LABEL that happens to look the same is something else */
	free(merge_ok("PARTUUID=" UUID " /srv xfs defaults 0 0\n", LINE, "/data", UUID));
}

/* A fake resolver: PARTUUID=OURS, LABEL=ours and /dev/sdz1 name what
 * apply writes; LABEL=other names another device present now. */
static bool fake_ours(const char *tag, const char *value, const char *source, void *userdata)
{
	(void)userdata;
	if (!strcmp(tag, "PARTUUID"))
		return !strcasecmp(value, "OURS");
	if (!strcmp(tag, "LABEL"))
		return !strcmp(value, "ours");
	return !tag[0] && !strcmp(source, "/dev/sdz1");
}

static void fake_node_of(const char *tag, const char *value, const char *source, char *buf,
			 size_t len, void *userdata)
{
	snprintf(buf, len, "%s", fake_ours(tag, value, source, userdata) ? "/dev/sdz1" :
				 !strcmp(tag, "LABEL") && !strcmp(value, "other") ? "/dev/sdy1" :
				 !strcmp(tag, "UUID") && !strcmp(value, OTHER_UUID) ? "/dev/sdy1" :
										 "");
}

static const struct sp_fstab_names fake = { fake_ours, fake_node_of, "/dev/sdz1", NULL };

static int merge_names(const char *old, const char *uuid, char **text, struct sp_error *err)
{
	return sp_fstab_merge_names(old, LINE, "/data", uuid, &fake, text, NULL, err);
}

/* Any spelling of what apply writes, mounted elsewhere, and a mount point
 * another device has (issue 21): refused, both devices named. */
static void test_names(void **state)
{
	static const char *const ours[] = {
		"PARTUUID=ours /srv xfs defaults 0 2\n",
		"PARTUUID=\"OURS\" /srv xfs defaults 0 2\n",
		"LABEL='ours' /home ext4 defaults 0 2\n",
		"/dev/sdz1 /srv xfs defaults 0 2\n",
		/* libblkid reads a quoted value up to its last quote, mount(8) too */
		"PARTUUID=\"ours\"junk /srv xfs defaults 0 2\n",
		/* and a pass number too large for a long is still a number */
		"/dev/sdz1 /srv xfs defaults 0 99999999999999999999999\n",
		/* any three octal digits, cut to a byte: \400 is a NUL that ends the source */
		"/dev/sdz1\\400 /srv xfs defaults 0 2\n",
		"/dev/sdz\\461 /srv xfs defaults 0 2\n",
	};
	struct sp_error err = { 0 };
	char *text = NULL;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ours); i++) {
		sp_error_clear(&err);
		assert_int_equal(merge_names(ours[i], NULL, &text, &err), -EEXIST);
		assert_int_equal(err.kind, SP_ERR_INVALID);
		if (!strstr(err.message, "line 1 mounts ") ||
		    !strstr(err.message, "which is /dev/sdz1 or on it"))
			fail_msg("'%s': %s", ours[i], err.message);
	}
	/* an unclosed quote is no tag to mount(8): not ours */
	assert_int_equal(merge_names("PARTUUID=\"ours /srv xfs defaults 0 2\n", NULL, &text, &err), 0);
	free(text);
	/* a dump number too large for a long, with more after it: no entry (next_s32()) */
	assert_int_equal(merge_names("/dev/sdz1 /srv xfs defaults 99999999999999999999 2\n", NULL,
				     &text, &err),
			 0);
	free(text);

	/* our block for /data, naming another device present now */
	sp_error_clear(&err);
	assert_int_equal(merge_names("# stripeplan: /data\nUUID=" OTHER_UUID
				     " /data xfs noatime 0 0\n",
				     UUID, &text, &err),
			 -EEXIST);
	if (!strstr(err.message, "mount point '/data' is /dev/sdy1's (line 2: 'UUID=") ||
	    !strstr(err.message, "will not give it to /dev/sdz1 as well"))
		fail_msg("%s", err.message);
	/* naming no device present now (a stopped run re-made it): replaced */
	assert_int_equal(merge_names("# stripeplan: /data\nUUID=99999999-aaaa-4bbb-8ccc-"
				     "dddddddddddd /data xfs noatime 0 0\n",
				     UUID, &text, &err),
			 0);
	assert_non_null(strstr(text, LINE));
	assert_null(strstr(text, "99999999"));
	free(text);
	/* a foreign line for the mount point names its device too */
	sp_error_clear(&err);
	assert_int_equal(merge_names("LABEL=other /data ext4 defaults 0 2\n", UUID, &text, &err),
			 -EEXIST);
	if (!strstr(err.message, "line 1 already mounts '/data'") ||
	    !strstr(err.message, "(/dev/sdy1)") || !strstr(err.message, "to /dev/sdz1 as well"))
		fail_msg("%s", err.message);
}

/* The merged file must stay within what stripeplan reads back. */
static void test_merged_size(void **state)
{
	size_t n = SP_INPUT_MAX_BYTES - strlen(LINE) - 8;
	char *old = malloc(n + 1), *text = NULL;
	struct sp_error err = { 0 };

	(void)state;
	assert_non_null(old);
	memset(old, '#', n - 1);
	old[n - 1] = '\n';
	old[n] = '\0';
	assert_int_equal(sp_fstab_merge(old, LINE, "/data", UUID, &text, &err), -EFBIG);
	assert_int_equal(err.kind, SP_ERR_INVALID);
	assert_non_null(strstr(err.message, "more than the 1048576 stripeplan reads back"));
	old[n - 200] = '\n';
	old[n - 199] = '\0';
	assert_int_equal(sp_fstab_merge(old, LINE, "/data", UUID, &text, &err), 0);
	free(text);
	free(old);
}

static void test_refuse_control_characters(void **state)
{
	(void)state;
	merge_refused("", "UUID=" UUID " /da\nta xfs defaults 0 0", "/da\nta", UUID, -EINVAL,
		      "control character 0x0a");
	merge_refused("", "UUID=" UUID "\t/data xfs defaults 0 0", "/data", UUID, -EINVAL,
		      "control character 0x09");
	merge_refused("", LINE, "/data", "0f5e;rm", -EINVAL, "UUID '0f5e;rm'");
	/* the line must be an entry for the mount point it claims */
	merge_refused("", LINE, "/srv", UUID, -EINVAL, "is not an fstab entry for '/srv'");
	merge_refused("", "not an entry", "/data", UUID, -EINVAL, "is not an fstab entry");
}

/* ------------------------------------------------------ render, find */

static void test_render(void **state)
{
	struct sp_plan *plan = calloc(1, sizeof(*plan));
	char buf[512];

	(void)state;
	assert_non_null(plan);
	snprintf(plan->fstab_line, sizeof(plan->fstab_line), "UUID=%s /data xfs %s 0 0",
		 SP_FSTAB_UUID_PLACEHOLDER, OPTS);
	assert_int_equal(sp_fstab_line_render(plan, UUID, buf, sizeof(buf)), 0);
	assert_string_equal(buf, LINE);
	assert_int_equal(sp_fstab_line_render(plan, UUID, buf, 20), -ENAMETOOLONG);
	assert_int_equal(sp_fstab_line_render(plan, "", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(sp_fstab_line_render(plan, "a b", buf, sizeof(buf)), -EINVAL);
	snprintf(plan->fstab_line, sizeof(plan->fstab_line), "UUID=x /data xfs defaults 0 0");
	assert_int_equal(sp_fstab_line_render(plan, UUID, buf, sizeof(buf)), -EINVAL);
	free(plan);
}

static void test_find_uuid(void **state)
{
	struct sp_fstab_entry e[2];
	struct sp_error err = { 0 };
	size_t n = 99;

	(void)state;
	assert_int_equal(sp_fstab_find_uuid("# x\n# stripeplan: /data\n" LINE "\n"
					    "/dev/disk/by-uuid/" UUID " /b ext4 defaults 0 2\n"
					    "UUID=" UUID " /c xfs ro 0 0\n",
					    UUID, e, 2, &n, &err),
			 0);
	assert_int_equal(n, 3);
	assert_int_equal(e[0].line, 3);
	assert_true(e[0].owned);
	assert_string_equal(e[0].target, "/data");
	assert_string_equal(e[0].fstype, "xfs");
	assert_string_equal(e[0].options, OPTS);
	assert_int_equal(e[0].passno, 0);
	assert_int_equal(e[1].line, 4);
	assert_false(e[1].owned);
	assert_int_equal(e[1].passno, 2);
	assert_int_equal(sp_fstab_find_uuid("", UUID, e, 2, &n, &err), 0);
	assert_int_equal(n, 0);
}

/* ---------------------------------------------------------------- I/O */

static void scratch_path(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", scratch, name);
}

/* No ".fstab.stripeplan-*" left beside the file. */
static void assert_no_temp_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (strstr(de->d_name, ".stripeplan-"))
			fail_msg("temporary file '%s' left in '%s'", de->d_name, dir);
	closedir(d);
}

static void test_read(void **state)
{
	struct sp_fstab_file file;
	struct sp_error err = { 0 };
	char path[PATH_MAX], link[PATH_MAX];
	char *text = NULL;
	int fd;

	(void)state;
	scratch_path("missing", path, sizeof(path));
	assert_int_equal(sp_fstab_read(path, &text, &file, &err), 0);
	assert_string_equal(text, "");
	assert_false(file.exists);
	assert_int_equal(file.mode, 0644);
	assert_int_equal(file.uid, 0);
	free(text);

	scratch_path("nul", path, sizeof(path));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "ab\0cd\n", 6), 6);
	close(fd);
	text = (char *)"untouched";
	assert_int_equal(sp_fstab_read(path, &text, &file, &err), -EINVAL);
	assert_int_equal(err.kind, SP_ERR_INVALID);
	assert_non_null(strstr(err.message, "NUL byte at offset 2"));
	assert_string_equal(text, "untouched");

	scratch_path("link", link, sizeof(link));
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(sp_fstab_read(link, &text, &file, &err), -ELOOP);
	assert_non_null(strstr(err.message, "symbolic link"));
}

static void test_write_keeps_mode_and_owner(void **state)
{
	struct sp_fstab_file file;
	struct sp_error err = { 0 };
	char path[PATH_MAX];
	struct stat st;
	char *text;

	(void)state;
	scratch_path("fstab-mode", path, sizeof(path));
	spit(path, "old\n");
	assert_int_equal(chmod(path, 0600), 0);
	if (geteuid() == 0)
		assert_int_equal(chown(path, 1234, 4321), 0);
	assert_int_equal(sp_fstab_read(path, &text, &file, &err), 0);
	free(text);
	assert_int_equal(sp_fstab_write_atomic(path, "new\n", &file, &err), 0);
	text = slurp(path);
	assert_string_equal(text, "new\n");
	free(text);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	if (geteuid() == 0) {
		assert_int_equal(st.st_uid, 1234);
		assert_int_equal(st.st_gid, 4321);
	}
	assert_no_temp_files(scratch);
}

/*
 * A write that fails half way (RLIMIT_FSIZE makes write() return EFBIG,
 * as ENOSPC would; root is not exempt) leaves the old file as it was and
 * no temporary file behind.
 */
static void test_write_failure_keeps_old(void **state)
{
	struct sp_fstab_file file = {
		.exists = true, .mode = 0644, .uid = getuid(), .gid = getgid()
	};
	struct sp_error err = { 0 };
	struct rlimit old_limit, small = { 64, 64 };
	char path[PATH_MAX], big[4096];
	void (*old_handler)(int);
	char *text;
	int r;

	(void)state;
	scratch_path("fstab-full", path, sizeof(path));
	spit(path, "# the old fstab\n");
	memset(big, 'x', sizeof(big) - 2);
	big[sizeof(big) - 2] = '\n';
	big[sizeof(big) - 1] = '\0';
	old_handler = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old_limit), 0);
	small.rlim_max = old_limit.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	r = sp_fstab_write_atomic(path, big, &file, &err);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old_limit), 0);
	signal(SIGXFSZ, old_handler);

	assert_int_equal(r, -EFBIG);
	assert_int_equal(err.kind, SP_ERR_FAILED);
	if (!strstr(err.message, "cannot write") || !strstr(err.message, "unchanged"))
		fail_msg("message: %s", err.message);
	text = slurp(path);
	assert_string_equal(text, "# the old fstab\n");
	free(text);
	assert_no_temp_files(scratch);
}

static void test_write_no_directory(void **state)
{
	struct sp_fstab_file file = { .mode = 0644 };
	struct sp_error err = { 0 };
	char etc[PATH_MAX], path[PATH_MAX];

	(void)state;
	scratch_path("etc-is-a-file", etc, sizeof(etc));
	spit(etc, "");
	snprintf(path, sizeof(path), "%s/fstab", etc);
	assert_int_equal(sp_fstab_write_atomic(path, "x\n", &file, &err), -ENOTDIR);
	assert_int_equal(err.kind, SP_ERR_FAILED);
	assert_non_null(strstr(err.message, "cannot create a temporary file beside"));
}

/* ------------------------------------------- the step, without a device */

struct step_fixture {
	struct sp_plan plan;
	struct sp_ctx ctx;
	struct sp_step_result res;
	char root[PATH_MAX];
	char fstab[PATH_MAX];
};

static struct step_fixture *fixture(const char *name)
{
	struct step_fixture *f = calloc(1, sizeof(*f));
	static const char *const opts[] = { "noatime", "logbufs=8", "logbsize=256k", "nofail",
					    "x-systemd.device-timeout=30s" };
	char etc[PATH_MAX];

	assert_non_null(f);
	snprintf(f->root, sizeof(f->root), "%s/%s", scratch, name);
	assert_int_equal(mkdir(f->root, 0755), 0);
	snprintf(etc, sizeof(etc), "%s/etc", f->root);
	snprintf(f->fstab, sizeof(f->fstab), "%s/etc/fstab", f->root);
	assert_int_equal(mkdir(etc, 0755), 0);

	f->plan.fs = SP_FS_XFS;
	snprintf(f->plan.partition_path, sizeof(f->plan.partition_path), "/dev/loop99p1");
	snprintf(f->plan.mountpoint, sizeof(f->plan.mountpoint), "/data");
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
		snprintf(f->plan.mount_options[f->plan.n_mount_options++], SP_NAME_MAX, "%s",
			 opts[i]);
	snprintf(f->plan.fstab_line, sizeof(f->plan.fstab_line), "UUID=%s /data xfs %s 0 0",
		 SP_FSTAB_UUID_PLACEHOLDER, OPTS);
	f->ctx.plan = &f->plan;
	f->ctx.root = f->root;
	snprintf(f->ctx.partition_path, sizeof(f->ctx.partition_path), "%s",
		 f->plan.partition_path);
	snprintf(f->ctx.fs_uuid, sizeof(f->ctx.fs_uuid), "%s", UUID);
	f->res.name = "fstab";
	return f;
}

static int verify(struct step_fixture *f)
{
	sp_step_result_clear(&f->res);
	f->res.status = SP_STEP_UNCHANGED;
	return sp_step_fstab.verify(&f->ctx, &f->res);
}

static void assert_line(const struct sp_step_result *res, const char *needle)
{
	for (size_t i = 0; i < res->n_lines; i++)
		if (strstr(res->lines[i], needle))
			return;
	fail_msg("no line contains '%s' (%zu lines, first: '%s')", needle, res->n_lines,
		 res->n_lines ? res->lines[0] : "");
}

static void test_step_verify(void **state)
{
	struct step_fixture *f = fixture("verify");
	char mnt[PATH_MAX + 8];

	(void)state;
	assert_int_equal(verify(f), 0);
	assert_int_equal(f->res.status, SP_STEP_DRIFT);
	assert_line(&f->res, "costly: no line in");
	assert_line(&f->res, "mounts /dev/loop99p1 (UUID=" UUID);

	spit(f->fstab, "# x\n# stripeplan: /data\n" LINE "\n");
	snprintf(mnt, sizeof(mnt), "%s/data", f->root);
	assert_int_equal(verify(f), 0);
	assert_int_equal(f->res.status, SP_STEP_DRIFT);
	assert_line(&f->res, "is not a directory");

	assert_int_equal(mkdir(mnt, 0755), 0);
	assert_int_equal(verify(f), 0);
	assert_int_equal(f->res.status, SP_STEP_UNCHANGED);
	assert_non_null(strstr(f->res.summary, LINE " in "));

	spit(f->fstab, "UUID=" UUID " /data xfs noatime,nobarrier 0 0\n");
	assert_int_equal(verify(f), 0);
	assert_int_equal(f->res.status, SP_STEP_DRIFT);
	assert_line(&f->res, "differs: " );
	assert_line(&f->res, "line 1 (UUID=" UUID " on /data) has options 'noatime,nobarrier', "
			     "the plan says '" OPTS "'");

	spit(f->fstab, LINE "\nUUID=" UUID " /srv ext4 " OPTS " 0 2\n");
	assert_int_equal(verify(f), 0);
	assert_int_equal(f->res.status, SP_STEP_DRIFT);
	assert_line(&f->res, "2 lines in");

	spit(f->fstab, "UUID=" UUID " /srv ext4 " OPTS " 0 2\n");
	assert_int_equal(verify(f), 0);
	assert_line(&f->res, "mounts on '/srv', the plan says '/data'");
	assert_line(&f->res, "costly: ");
	assert_line(&f->res, "says type 'ext4', the filesystem on /dev/loop99p1 is xfs");
	assert_line(&f->res, "has fsck pass 2, the plan says 0");

	f->ctx.fs_uuid[0] = '\0';
	assert_int_equal(verify(f), 0);
	assert_int_equal(f->res.status, SP_STEP_DRIFT);
	assert_line(&f->res, "no filesystem on /dev/loop99p1 to mount on /data");

	f->plan.mountpoint[0] = '\0';
	assert_int_equal(verify(f), 0);
	assert_int_equal(f->res.status, SP_STEP_UNCHANGED);
	assert_string_equal(f->res.summary, "no mount point planned");
	sp_step_result_clear(&f->res);
	sp_step_fstab_release(&f->ctx); /* what the pipeline does after a run */
	free(f);
}

static void test_step_dry_run(void **state)
{
	struct step_fixture *f = fixture("dry-run");
	struct stat st;
	char mnt[PATH_MAX + 8];
	char *text;

	(void)state;
	spit(f->fstab, "# keep me\n");
	f->ctx.dry_run = true;
	assert_int_equal(sp_step_fstab.apply(&f->ctx, &f->res), 0);
	assert_line(&f->res, "mount-test /dev/loop99p1 with " OPTS " on a temporary directory");
	assert_line(&f->res, "create ");
	assert_line(&f->res, "/etc/fstab: add '" LINE "'");
	text = slurp(f->fstab);
	assert_string_equal(text, "# keep me\n");
	free(text);
	snprintf(mnt, sizeof(mnt), "%s/data", f->root);
	assert_int_equal(stat(mnt, &st), -1);

	/* before mkfs there is no UUID: the line shows the placeholder */
	sp_step_result_clear(&f->res);
	f->ctx.fs_uuid[0] = '\0';
	assert_int_equal(sp_step_fstab.apply(&f->ctx, &f->res), 0);
	assert_line(&f->res, "add 'UUID=" SP_FSTAB_UUID_PLACEHOLDER " /data xfs");
	sp_step_result_clear(&f->res);
	sp_step_fstab_release(&f->ctx); /* what the pipeline does after a run */
	free(f);
}

/* Refusals come before the mount test: no device is needed to see them. */
static void test_step_refuses_before_mounting(void **state)
{
	struct step_fixture *f = fixture("refuse");
	const char *old = "# a\nLABEL=old /data ext4 defaults 0 2\n";
	char *text;

	(void)state;
	spit(f->fstab, old);
	assert_true(sp_step_fstab.apply(&f->ctx, &f->res) < 0);
	assert_int_equal(f->res.error.kind, SP_ERR_INVALID);
	assert_non_null(strstr(f->res.error.message, "/etc/fstab: line 2 already mounts '/data'"));
	assert_non_null(strstr(f->res.error.message, f->fstab));
	text = slurp(f->fstab);
	assert_string_equal(text, old);
	free(text);

	/* no UUID outside a dry run: the step cannot write a line */
	sp_step_result_clear(&f->res);
	spit(f->fstab, "");
	f->ctx.fs_uuid[0] = '\0';
	assert_true(sp_step_fstab.apply(&f->ctx, &f->res) < 0);
	assert_int_equal(f->res.error.kind, SP_ERR_FAILED);
	assert_non_null(strstr(f->res.error.message,
			       "UUID of the filesystem on '/dev/loop99p1' is unknown"));
	sp_step_result_clear(&f->res);

	/* nothing planned: nothing done */
	f->plan.mountpoint[0] = '\0';
	assert_int_equal(sp_step_fstab.apply(&f->ctx, &f->res), 0);
	assert_string_equal(f->res.summary, "no mount point planned");
	sp_step_fstab_release(&f->ctx); /* what the pipeline does after a run */
	free(f);
}

/* -------------------------------------------------------------- setup */

static int group_setup(void **state)
{
	(void)state;
	snprintf(scratch, sizeof(scratch), "%s/stripeplan-fstab.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(scratch) ? 0 : -1;
}

static int group_teardown(void **state)
{
	const char *argv[] = { "rm", "-rf", "--one-file-system", "--", scratch, NULL };
	struct sp_exec_result res;
	struct sp_error err = { 0 };
	int status;

	(void)state;
	if (sp_exec(argv, NULL, &res, &err) < 0)
		return -1;
	status = res.exit_status;
	sp_exec_result_free(&res);
	return status == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_old_lines_kept),
		cmocka_unit_test(test_missing_newline_added),
		cmocka_unit_test(test_placeholder_uuid),
		cmocka_unit_test(test_refuse_mountpoint),
		cmocka_unit_test(test_refuse_uuid),
		cmocka_unit_test(test_crlf_kept),
		cmocka_unit_test(test_user_line_under_marker),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_merged_size),
		cmocka_unit_test(test_refuse_control_characters),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_find_uuid),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_write_keeps_mode_and_owner),
		cmocka_unit_test(test_write_failure_keeps_old),
		cmocka_unit_test(test_write_no_directory),
		cmocka_unit_test(test_step_verify),
		cmocka_unit_test(test_step_dry_run),
		cmocka_unit_test(test_step_refuses_before_mounting),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
