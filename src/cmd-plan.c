/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "format.h"
#include "inputs.h"

static const char usage_plan[] =
	"Usage: stripeplan plan --controller NAME [--level LEVEL --disks N --chunk SIZE]\n"
	"                       --fs xfs|ext3|ext4 --device PATH [OPTIONS]\n"
	"\n"
	"Compute a stripe-aligned plan: partition, filesystem geometry, mount options\n"
	"and queue tuning.  Nothing is written to any device.\n"
	"\n"
	"The array (a probed md array tells its own level, disks, chunk, layout and\n"
	"members: give them only to have them checked; a difference is refused):\n"
	"      --controller NAME   controller profile (see 'stripeplan controllers');\n"
	"                          without it, recognised from what the kernel says\n"
	"      --level LEVEL       RAID level: 0, 1, 4 (md), 5, 6, 10, 50, 60 (raid5 too)\n"
	"      --disks N           disks in the array, parity and mirrors included\n"
	"      --spans G           RAID50/60: number of RAID5/6 sets striped together\n"
	"      --chunk SIZE        per-disk chunk (strip, stripe element, Adaptec's and\n"
	"                          old LSI's stripe size): 64K, 256K, 1M ...;\n"
	"                          a mirror (RAID1) has none\n"
	"      --layout LAYOUT     md RAID10: n2 (default), n3, f2, f3, o2, o3\n"
	"      --members LIST      md only: member disks to tune (sdb,sdc or /dev/sdb,...)\n"
	"      --controller-report FILE  level, disks, spans and strip from the\n"
	"                          controller's own report of the drive, saved from\n"
	"                          'storcli64 /cX/vY show all J' (perccli64 alike) or\n"
	"                          'ssacli ctrl slot=N ld N show detail'; flags given\n"
	"                          are checked against it\n"
	"\n"
	"The device:\n"
	"      --device PATH       target block device; probed read-only unless --size\n"
	"      --size SIZE         plan offline for a device of this size (nothing probed)\n"
	"      --sector-size N     offline only: 512 (default) or 4096-byte sectors\n"
	"      --facts FILE        device facts from a JSON file instead of a probe\n"
	"      --table gpt|msdos|none  partition table (default gpt; none, the filesystem\n"
	"                          on the whole device, for md arrays; msdos only below\n"
	"                          2^32 sectors; 'dos' and 'mbr' mean msdos)\n"
	"\n"
	"The stack between the partition (or the md device) and the filesystem:\n"
	"      --stack LAYERS      bottom up: luks, lvm, luks,lvm (LUKS2 under LVM) or\n"
	"                          lvm,luks; each layer starts on a full stripe (default\n"
	"                          none: the filesystem on the partition)\n"
	"      --vg NAME           the LVM volume group (default vg_DEVICE, as vg_sdb)\n"
	"      --lv NAME           the logical volume (default data)\n"
	"      --luks-name NAME    the dm-crypt mapping (default PARTITION_crypt, as\n"
	"                          sdb1_crypt)\n"
	"      --key-file PATH     kickstart and preseed with luks: where the installer\n"
	"                          finds the key (never read here, never in the snippet)\n"
	"\n"
	"The filesystem and mount:\n"
	"      --fs TYPE           xfs, ext3 or ext4\n"
	"      --label TEXT        filesystem label\n"
	"      --mountpoint PATH   where it mounts; without it no fstab line is planned\n"
	"      --barriers on|off   off only with a battery-backed cache on a kernel that\n"
	"                          accepts it (default on; 'default' means on)\n"
	"      --kernel VERSION    plan for this kernel release (default: the running one,\n"
	"                          whose device's queue/scheduler list is then read)\n"
	"      --force             accept a system directory (/usr, /var, /boot ...) as\n"
	"                          --mountpoint\n"
	"\n"
	"Tuning:\n"
	"      --tuning RECIPE     default (what holds on current kernels and disks) or\n"
	"                          field-report (the seed report's whole recipe); the text\n"
	"                          plan lists what the default leaves out, and why\n"
	"      --memory-budget SIZE  RAM md's stripe cache may hold (default 256M)\n"
	"      --workload NAME     general (default: data, fsync'd files), metadata\n"
	"                          (many small files made and removed without fsync:\n"
	"                          XFS's 8 x 256 KiB log buffers) or small-sync (many\n"
	"                          small files, each fsynced: mail spools, queues; XFS\n"
	"                          without a stripe unit, so log writes are padded to\n"
	"                          the sector)\n"
	"\n"
	"Output:\n"
	"      --format FORMAT     text (explains every value), json (the plan artifact),\n"
	"                          kickstart, preseed (installer snippets), or one\n"
	"                          artifact: fstab, script (tuning), udev (rule)\n"
	"  -o, --output FILE       write the plan to FILE (atomically) instead of stdout\n"
	"      --profiles DIR      read extra controller profiles (*.json) from DIR instead\n"
	"                          of /etc/stripeplan/controllers.d\n"
	"  -h, --help              show this help\n"
	"\n"
	"Sizes are binary: B, K=KiB, M=MiB, G=GiB, T=TiB, P=PiB; 'kB'/'MB' are refused\n"
	"as ambiguous.\n"
	"Exit status: 0 planned, 2 invalid input (one line names the field and reason),\n"
	"4 the output could not be written.\n";

/*
 * The key of a snippet's LUKS2 layer: a path the installer will see (the
 * snippet says where), never read here, and never the key itself, which
 * would be in a file as readable as the plan.
 */
static int snippet_key_file(const struct sp_cli_args *args, const struct sp_plan *plan,
			    struct sp_error *err)
{
	bool luks = sp_plan_has_layer(plan, SP_LAYER_LUKS);

	if (luks && !args->key_file[0])
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "format: the LUKS2 layer's key cannot be in an installer "
				    "snippet; give --key-file PATH, where the installer will find "
				    "it (kickstart: in Anaconda's root; preseed: as in-target sees "
				    "it, e.g. under /run)");
	if (!luks && args->key_file[0])
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "key-file: the plan has no LUKS2 layer (--stack luks) to use it");
	if (args->key_file[0] && args->key_file[0] != '/')
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "key-file: '%s' is not an absolute path (an installer runs "
				    "the snippet in a directory of its own%s)",
				    args->key_file,
				    !strcmp(args->key_file, "-") ? ", with no standard input" : "");
	return 0;
}

static char *render(const struct sp_cli_args *args, const struct sp_plan *plan, struct sp_error *err)
{
	char command[8192], *snippet;
	struct sp_identities ids;

	/* the tuning files as apply renders them, from the plan's own facts:
	 * nothing is probed now that the plan does not already hold */
	sp_identities_of(&plan->device, NULL, &ids);
	switch (args->format) {
	case SP_FORMAT_JSON:
		return sp_format_plan_json(plan);
	case SP_FORMAT_FSTAB:
		return sp_format_fstab(plan);
	case SP_FORMAT_SCRIPT:
		return sp_format_tuning_script(plan, &ids);
	case SP_FORMAT_UDEV:
		return sp_format_udev_rule(plan, &ids, NULL, 0);
	case SP_FORMAT_KICKSTART:
	case SP_FORMAT_PRESEED:
		if (args->force) {
			sp_error_set(err, EINVAL, SP_ERR_INVALID,
				     "format: installer snippets never carry --force (it would "
				     "overwrite whatever the installed machine's disk holds)");
			return NULL;
		}
		if (snippet_key_file(args, plan, err) < 0)
			return NULL;
		if (!args->device[0] || args->facts_file[0]) {
			sp_error_set(err, EINVAL, SP_ERR_INVALID,
				     "format: installer snippets need --device (the installer probes it)");
			return NULL;
		}
		if (sp_cli_apply_command(args, command, sizeof(command)) < 0) {
			sp_error_set(err, ENAMETOOLONG, SP_ERR_INVALID,
				     "format: the apply command line would be too long");
			return NULL;
		}
		errno = 0;
		snippet = args->format == SP_FORMAT_KICKSTART ?
				  sp_format_kickstart(plan, command, args->key_file) :
				  sp_format_preseed(plan, command, args->key_file);
		if (!snippet && errno == EINVAL)
			sp_error_set(err, EINVAL, SP_ERR_INVALID,
				     "format: a value has a control character; it cannot go into "
				     "an installer snippet");
		return snippet;
	default:
		if (args->key_file[0]) {
			sp_error_set(err, EINVAL, SP_ERR_INVALID,
				     "key-file: plan reads no key; only an installer snippet "
				     "(--format kickstart or preseed) names one, for its apply");
			return NULL;
		}
		return sp_format_plan_text(plan);
	}
}

int sp_cmd_plan(int argc, char **argv)
{
	struct sp_cli_args *args = calloc(1, sizeof(*args));
	struct sp_plan *plan = calloc(1, sizeof(*plan));
	struct sp_error err = { 0 };
	char *text = NULL;
	bool done = false;
	int rc;

	if (!args || !plan) {
		rc = SP_EXIT_FAILED;
		sp_cli_error("out of memory");
		goto out;
	}
	rc = sp_cli_parse(argc, argv, SP_OPT_PLAN_FLAGS | SP_OPT_OUTPUT | SP_OPT_FORCE | SP_OPT_KEY_PATH,
			  usage_plan, args, &done);
	if (rc || done)
		goto out;
	if (sp_cli_make_plan(args, plan, &err) < 0) {
		rc = sp_cli_fail(&err);
		goto out;
	}
	text = render(args, plan, &err);
	if (!text && err.message[0]) {
		rc = sp_cli_fail(&err);
		goto out;
	}
	if (!text) {
		sp_cli_error("out of memory");
		rc = SP_EXIT_FAILED;
		goto out;
	}
	sp_cli_outcome("the plan", "the plan was made; nothing was touched");
	if (sp_cli_write_output(args->output[0] ? args->output : NULL, text, &err) < 0)
		rc = sp_cli_fail(&err);
out:
	free(text);
	sp_plan_release(plan);
	free(plan);
	free(args);
	return rc;
}

static const char usage_controllers[] =
	"Usage: stripeplan controllers [--format text|json] [--profiles DIR]\n"
	"\n"
	"List the controller profiles: the embedded ones and those in DIR\n"
	"(default /etc/stripeplan/controllers.d).\n"
	"\n"
	"      --format text|json  output format\n"
	"      --profiles DIR      read extra profiles from DIR instead of the default\n"
	"  -h, --help              show this help\n";

int sp_cmd_controllers(int argc, char **argv)
{
	struct sp_cli_args *args = calloc(1, sizeof(*args));
	struct sp_profile_set *set = NULL;
	struct sp_error err = { 0 };
	const char *dirs[2] = { NULL, NULL };
	char *text = NULL;
	bool done = false;
	int rc;

	if (!args) {
		sp_cli_error("out of memory");
		return SP_EXIT_FAILED;
	}
	rc = sp_cli_parse(argc, argv, 0, usage_controllers, args, &done);
	if (rc || done)
		goto out;
	dirs[0] = args->profiles_dir[0] ? args->profiles_dir : "/etc/stripeplan/controllers.d";
	if (sp_profiles_load(dirs, &set, &err) < 0) {
		rc = sp_cli_fail(&err);
		goto out;
	}
	text = args->format == SP_FORMAT_JSON ? sp_format_profiles_json(set) : sp_format_profiles_text(set);
	if (!text) {
		sp_cli_error("out of memory");
		rc = SP_EXIT_FAILED;
		goto out;
	}
	sp_cli_outcome("the controller list", "the profiles were read; nothing was touched");
	sp_cli_write_output(NULL, text, &err);
out:
	free(text);
	sp_profiles_free(set);
	free(args);
	return rc;
}
