/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Recognition: fake sysfs trees as the kernel lays them out for each
 * controller family (megaraid_sas, mpi3mr, smartpqi, a virtio disk, NVMe,
 * IMSM and native md), read by the probe's sp_probe_controller_at() and
 * sp_probe_md(), then matched against the shipped profiles' recognition
 * rows.  The trees are built in a temporary directory; nothing else is
 * touched.
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "probe.h"
#include "stripeplan.h"

static char root[PATH_MAX];
/* the shipped profiles, for the whole test: a recognition points into them */
static struct sp_profile_set *shipped;

static void mkdirs(const char *path)
{
	char buf[PATH_MAX];

	assert_true(strlen(path) < sizeof(buf));
	strcpy(buf, path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		assert_true(mkdir(buf, 0755) == 0 || errno == EEXIST);
		*p = '/';
	}
	assert_true(mkdir(buf, 0755) == 0 || errno == EEXIST);
}

/* root/REL, its directories made first */
static void put(const char *rel, const char *text)
{
	char path[PATH_MAX], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	slash = strrchr(path, '/');
	*slash = '\0';
	mkdirs(path);
	*slash = '/';
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void link_at(const char *target, const char *rel)
{
	char path[PATH_MAX], *slash;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	slash = strrchr(path, '/');
	*slash = '\0';
	mkdirs(path);
	*slash = '/';
	assert_int_equal(symlink(target, path), 0);
}

struct scsi_lun {
	const char *pci; /* "devices/pci0000:00/0000:17:00.0" */
	const char *vendor, *device, *subvendor, *subdevice;
	const char *proc_name;
	const char *inq_vendor, *inq_model, *inq_rev; /* NULL: no INQUIRY files */
};

/* the fake LUN's SCSI address: a logical drive's on megaraid_sas unless a
 * test says otherwise (setup() resets it) */
static const char *lun_address = "0:2:0:0";

/*
 * /sys/block/sdb -> .../PCI/host0/target0:2:0/0:2:0:0/block/sdb, with
 * device -> ../../../0:2:0:0 (its scsi_device/ and INQUIRY files),
 * host0/scsi_host/host0/proc_name, and the PCI function's ids as the
 * kernel prints them ("0x1000\n").
 */
static void make_scsi_lun(const struct scsi_lun *l)
{
	const char *addr = lun_address;
	char rel[PATH_MAX], sdev[PATH_MAX], text[PATH_MAX], target[64];

	/* the target's directory is the address without its LUN: target0:2:0 */
	snprintf(target, sizeof(target), "target%.*s", (int)(strrchr(addr, ':') - addr), addr);

	snprintf(rel, sizeof(rel), "sys/%s/vendor", l->pci);
	snprintf(text, sizeof(text), "0x%s\n", l->vendor);
	put(rel, text);
	snprintf(rel, sizeof(rel), "sys/%s/device", l->pci);
	snprintf(text, sizeof(text), "0x%s\n", l->device);
	put(rel, text);
	snprintf(rel, sizeof(rel), "sys/%s/subsystem_vendor", l->pci);
	snprintf(text, sizeof(text), "0x%s\n", l->subvendor);
	put(rel, text);
	snprintf(rel, sizeof(rel), "sys/%s/subsystem_device", l->pci);
	snprintf(text, sizeof(text), "0x%s\n", l->subdevice);
	put(rel, text);
	snprintf(rel, sizeof(rel), "sys/%s/host0/scsi_host/host0/proc_name", l->pci);
	snprintf(text, sizeof(text), "%s\n", l->proc_name);
	put(rel, text);
	snprintf(sdev, sizeof(sdev), "sys/%s/host0/%s/%s", l->pci, target, addr);
	snprintf(rel, sizeof(rel), "%s/scsi_device/%s/.keep", sdev, addr);
	put(rel, "");
	if (l->inq_vendor) {
		/* sd pads the INQUIRY fields with blanks, as the kernel prints them */
		snprintf(rel, sizeof(rel), "%s/vendor", sdev);
		snprintf(text, sizeof(text), "%-8s\n", l->inq_vendor);
		put(rel, text);
		snprintf(rel, sizeof(rel), "%s/model", sdev);
		snprintf(text, sizeof(text), "%-16s\n", l->inq_model);
		put(rel, text);
		snprintf(rel, sizeof(rel), "%s/rev", sdev);
		snprintf(text, sizeof(text), "%-4s\n", l->inq_rev);
		put(rel, text);
	}
	snprintf(rel, sizeof(rel), "%s/block/sdb/device", sdev);
	snprintf(text, sizeof(text), "../../../%s", addr);
	link_at(text, rel);
	snprintf(text, sizeof(text), "../%s/host0/%s/%s/block/sdb", l->pci, target, addr);
	link_at(text, "sys/block/sdb");
}

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	lun_address = "0:2:0:0";
	snprintf(root, sizeof(root), "%s/sp-recognise.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(root));
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	(void)state;
	/* only the directory mkdtemp made for this test; links are removed, never followed */
	assert_int_equal(strncmp(strrchr(root, '/'), "/sp-recognise.", 14), 0);
	assert_int_equal(nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	return 0;
}

static struct sp_profile_set *profiles(void)
{
	struct sp_error err = { 0 };

	if (!shipped)
		assert_int_equal(sp_profiles_embedded(&shipped, &err), 0);
	return shipped;
}

/* the fake LUN's controller facts, recognised */
static void recognise_lun(const struct scsi_lun *l, struct sp_facts *f, struct sp_recognition *rec)
{
	struct sp_profile_set *set = profiles();
	char disk[PATH_MAX];

	make_scsi_lun(l);
	memset(f, 0, sizeof(*f));
	snprintf(f->path, sizeof(f->path), "/dev/sdb");
	snprintf(disk, sizeof(disk), "%s/sys/block/sdb", root);
	sp_probe_controller_at(disk, &f->controller);
	sp_recognise(set, f, rec);
}

static const char *decided(const struct sp_recognition *rec)
{
	return rec->profile ? rec->profile->name : "(none)";
}

static void test_megaraid_sas_h755(void **state)
{
	static const struct scsi_lun l = { "devices/pci0000:00/0000:17:00.0", "1000", "10e2", "1028",
					   "1ae1", "megaraid_sas", "DELL", "PERC H755 Front", "5.16" };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&l, &f, &rec);
	assert_string_equal(f.controller.proc_name, "megaraid_sas");
	assert_string_equal(f.controller.vendor, "DELL");
	assert_string_equal(f.controller.model, "PERC H755 Front");
	assert_string_equal(f.controller.revision, "5.16");
	assert_string_equal(f.controller.pci_vendor, "1000");
	assert_string_equal(f.controller.pci_device, "10e2");
	assert_string_equal(f.controller.pci_subvendor, "1028");
	assert_string_equal(f.controller.pci_subdevice, "1ae1");
	assert_string_equal(f.controller.scsi_address, "0:2:0:0");
	assert_false(rec.passthrough);
	assert_string_equal(decided(&rec), "dell-perc-h755");
	assert_int_equal(rec.n_by, 3);
	assert_string_equal(rec.by[0], "PCI 1000:10e2 subsystem 1028:1ae1, PERC H755 Front");
	assert_string_equal(rec.by[1], "INQUIRY vendor 'DELL' model 'PERC H755 Front'");
	assert_string_equal(rec.by[2], "SCSI host proc_name 'megaraid_sas'");
}

/*
 * A disk the H755 passes through (JBOD, a system PD): megaraid_sas puts it
 * on a physical-disk channel (0 or 1), its INQUIRY the drive's own; no
 * profile, as it is no array.  A logical drive on channel 3 is one.
 */
static void test_megaraid_sas_jbod(void **state)
{
	static const struct scsi_lun jbod = { "devices/pci0000:00/0000:17:00.0", "1000", "10e2",
					      "1028", "1ae1", "megaraid_sas", "ATA",
					      "SAMSUNG MZ7LH960", "404Q" };
	static const struct scsi_lun ld3 = { "devices/pci0000:00/0000:17:00.0", "1000", "10e2",
					     "1028", "1ae1", "megaraid_sas", "DELL",
					     "PERC H755 Front", "5.16" };
	struct sp_controller_facts c = { .proc_name = "megaraid_sas", .scsi_address = "0:1:0:0" };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	lun_address = "0:0:5:0";
	recognise_lun(&jbod, &f, &rec);
	assert_string_equal(f.controller.scsi_address, "0:0:5:0");
	assert_true(rec.passthrough);
	assert_null(rec.profile);
	assert_int_equal(rec.n_by, 0);
	assert_non_null(strstr(rec.seen, "SCSI address 0:0:5:0: a physical disk megaraid_sas "
					 "passes through (JBOD)"));
	assert_true(sp_controller_passthrough(&c));
	/* channels 2 and 3 are logical drives; other drivers' channels say nothing */
	snprintf(c.scsi_address, sizeof(c.scsi_address), "0:2:0:0");
	assert_false(sp_controller_passthrough(&c));
	snprintf(c.scsi_address, sizeof(c.scsi_address), "0:0:0:0");
	snprintf(c.proc_name, sizeof(c.proc_name), "smartpqi");
	assert_false(sp_controller_passthrough(&c));
	snprintf(c.proc_name, sizeof(c.proc_name), "megaraid_sas");
	for (size_t i = 0; i < 5; i++) {
		static const char *const bad[] = { "", "0:0:0", "0:0:0:0:0", "0:x:0:0", "0::0:0" };

		snprintf(c.scsi_address, sizeof(c.scsi_address), "%s", bad[i]);
		assert_false(sp_controller_passthrough(&c));
	}
	teardown(state);
	setup(state);
	lun_address = "0:3:1:0";
	recognise_lun(&ld3, &f, &rec);
	assert_false(rec.passthrough);
	assert_string_equal(decided(&rec), "dell-perc-h755");
}

/* the same Aero chip on Broadcom's own board: the subsystem decides */
static void test_megaraid_sas_9560(void **state)
{
	static const struct scsi_lun l = { "devices/pci0000:00/0000:3b:00.0", "1000", "10e2", "1000",
					   "4000", "megaraid_sas", "BROADCOM", "MR9560-16i", "5.29" };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&l, &f, &rec);
	assert_string_equal(decided(&rec), "broadcom-mr9560");
	assert_string_equal(rec.by[0], "PCI 1000:10e2 subsystem 1000:4000, MegaRAID 9560-16i");
}

/* the SAS3108 (1000:005d) on Dell's H730P Mini: the board decides */
static void test_megaraid_sas_h730p(void **state)
{
	static const struct scsi_lun l = { "devices/pci0000:00/0000:02:00.0", "1000", "005d", "1028",
					   "1f47", "megaraid_sas", "DELL", "PERC H730P Mini", "4.30" };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&l, &f, &rec);
	assert_string_equal(decided(&rec), "dell-perc-h730p");
	assert_string_equal(rec.by[0], "PCI 1000:005d subsystem 1028:1f47, PERC H730P Mini");
}

/* the SAS3508 (1000:0016) is both the H740P's and the 9460-8i's chip: each
 * board decides its own profile, and neither is the other's */
static void test_megaraid_sas_3508_boards(void **state)
{
	static const struct scsi_lun h740p = { "devices/pci0000:00/0000:18:00.0", "1000", "0016",
					       "1028", "1fcd", "megaraid_sas", "DELL",
					       "PERC H740P Mini", "5.13" };
	static const struct scsi_lun mr9460 = { "devices/pci0000:00/0000:18:00.0", "1000", "0016",
						"1000", "9461", "megaraid_sas", "AVAGO",
						"MR9460-8i", "5.14" };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&h740p, &f, &rec);
	assert_string_equal(decided(&rec), "dell-perc-h740p");
	assert_string_equal(rec.by[0], "PCI 1000:0016 subsystem 1028:1fcd, PERC H740P Mini");
	assert_int_equal(teardown(state), 0);
	assert_int_equal(setup(state), 0);
	recognise_lun(&mr9460, &f, &rec);
	assert_string_equal(decided(&rec), "broadcom-mr9460");
	assert_string_equal(rec.by[0], "PCI 1000:0016 subsystem 1000:9461, MegaRAID 9460-8i");
}

/*
 * The Aero chip (1000:10e2) on HPE's MR416i-p Gen10+ board, subsystem
 * 1590:0293, as the controller reports itself through iLO 5's Redfish
 * (PCIDevices: VendorID 4096, DeviceID 4322, SubsystemVendorID 5520,
 * SubsystemDeviceID 659); pci.ids lists no HPE board on it.  The same chip
 * is the 9560's and the H755's: the board decides, and the logical drive's
 * INQUIRY (not captured anywhere found) is left out.
 */
static void test_megaraid_sas_mr416i_p(void **state)
{
	static const struct scsi_lun l = { "devices/pci0000:00/0000:0f:00.0", "1000", "10e2", "1590",
					   "0293", "megaraid_sas", NULL, NULL, NULL };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&l, &f, &rec);
	assert_string_equal(f.controller.pci_subvendor, "1590");
	assert_string_equal(f.controller.pci_subdevice, "0293");
	assert_string_equal(decided(&rec), "hpe-mr416i");
	assert_int_equal(rec.n_by, 2);
	assert_string_equal(rec.by[0], "PCI 1000:10e2 subsystem 1590:0293, MR416i-p Gen10+");
	assert_string_equal(rec.by[1], "SCSI host proc_name 'megaraid_sas'");
	assert_string_equal(rec.candidates, "");
}

/* an HPE board on the Aero chip that no profile lists (an MR416i-a, whose
 * subsystem was not found, or any other): nothing decides, and the three
 * profiles of that chip are named */
static void test_megaraid_sas_aero_unlisted_hpe(void **state)
{
	static const struct scsi_lun l = { "devices/pci0000:00/0000:0f:00.0", "1000", "10e2", "1590",
					   "02ff", "megaraid_sas", NULL, NULL, NULL };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&l, &f, &rec);
	assert_null(rec.profile);
	assert_string_equal(rec.candidates, "broadcom-mr9560, dell-perc-h755, hpe-mr416i");
}

/* a board pci.ids does not know and a model no profile lists: the driver
 * alone decides nothing; the profiles it leaves are named */
static void test_megaraid_sas_unknown_board(void **state)
{
	static const struct scsi_lun l = { "devices/pci0000:00/0000:3b:00.0", "1000", "10e2", "1028",
					   "1ae9", "megaraid_sas", "DELL", "PERC H999", "1.00" };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&l, &f, &rec);
	assert_null(rec.profile);
	assert_int_equal(rec.n_by, 0);
	assert_string_equal(rec.candidates, "broadcom-mr9560, dell-perc-h755, hpe-mr416i");
	assert_non_null(strstr(rec.seen, "PCI 1000:10e2 subsystem 1028:1ae9"));
	assert_non_null(strstr(rec.seen, "SCSI host proc_name 'megaraid_sas'"));
}

/* the seed controllers' chips (seeds 000 and 003): a PERC 6/i on its Dell
 * board, the SAS1078, and a PERC 5/E, Dell's own 1028:0015 */
static void test_megaraid_sas_perc6i(void **state)
{
	static const struct scsi_lun l = { "devices/pci0000:00/0000:03:00.0", "1000", "0060", "1028",
					   "1f0c", "megaraid_sas", "DELL", "PERC 6/i", "1.11" };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&l, &f, &rec);
	assert_string_equal(decided(&rec), "dell-perc6i");
	assert_int_equal(rec.n_by, 3);
	assert_string_equal(rec.by[0], "PCI 1000:0060 subsystem 1028:1f0c, PERC 6/i Integrated");
	assert_string_equal(rec.by[1], "INQUIRY vendor 'DELL' model 'PERC 6/i'");
	assert_string_equal(rec.by[2], "SCSI host proc_name 'megaraid_sas'");
}

static void test_megaraid_sas_perc5e(void **state)
{
	static const struct scsi_lun l = { "devices/pci0000:00/0000:05:00.0", "1028", "0015", "1028",
					   "1f01", "megaraid_sas", NULL, NULL, NULL };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&l, &f, &rec);
	assert_string_equal(decided(&rec), "dell-perc5e");
	assert_string_equal(rec.by[0], "PCI 1028:0015 subsystem 1028:1f01, PERC 5/E Adapter");
}

/*
 * QEMU's -device megasas as the guest's megaraid_sas shows it (vm/scsi):
 * the SAS1078 (1000:0060) on subsystem 1000:1013, an LSI board (QEMU names
 * it the 8708EM2) that pci.ids does not list.  A logical drive whose
 * INQUIRY is a PERC 6/i's is decided by it and the driver; with QEMU's own
 * INQUIRY the chip decides nothing (other boards than Dell's carry it) and
 * the PERC 6/i is named as what it could be; every other megaraid_sas
 * profile lists its chips, none of them this one, and is ruled out.
 */
static void test_qemu_megasas_perc6i_inquiry(void **state)
{
	static const struct scsi_lun l = { "devices/pci0000:00/0000:00:05.0", "1000", "0060", "1000",
					   "1013", "megaraid_sas", "DELL", "PERC 6/i", "1.11" };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&l, &f, &rec);
	assert_string_equal(decided(&rec), "dell-perc6i");
	assert_int_equal(rec.n_by, 2);
	assert_string_equal(rec.by[0], "INQUIRY vendor 'DELL' model 'PERC 6/i'");
	assert_string_equal(rec.by[1], "SCSI host proc_name 'megaraid_sas'");
}

static void test_qemu_megasas(void **state)
{
	static const struct scsi_lun l = { "devices/pci0000:00/0000:00:05.0", "1000", "0060", "1000",
					   "1013", "megaraid_sas", "QEMU", "QEMU HARDDISK", "2.5+" };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&l, &f, &rec);
	assert_null(rec.profile);
	assert_string_equal(rec.candidates, "dell-perc6i");
	assert_string_equal(rec.seen, "SCSI host proc_name 'megaraid_sas', INQUIRY vendor 'QEMU' "
				      "model 'QEMU HARDDISK' revision '2.5+', PCI 1000:0060 subsystem "
				      "1000:1013");
}

/* QEMU's -device megasas-gen2, the SAS2108 (1000:0079, the PERC H700/H800's
 * chip) on LSI's own 9260-8i subsystem 1000:9261: not a Dell board, so the
 * dell-perc-h700 profile, which lists the chip on Dell's boards only, is not
 * decided but not ruled out either (the same chip); every other
 * megaraid_sas profile lists its chips and is */
static void test_qemu_megasas_gen2(void **state)
{
	static const struct scsi_lun l = { "devices/pci0000:00/0000:00:06.0", "1000", "0079", "1000",
					   "9261", "megaraid_sas", "QEMU", "QEMU HARDDISK", "2.5+" };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&l, &f, &rec);
	assert_null(rec.profile);
	assert_string_equal(rec.candidates, "dell-perc-h700");
	assert_non_null(strstr(rec.seen, "PCI 1000:0079 subsystem 1000:9261"));
}

/* a PERC H700 Integrated (SAS2108 on Dell's 1f17): the board and the INQUIRY decide */
static void test_megaraid_sas_h700(void **state)
{
	static const struct scsi_lun l = { "devices/pci0000:00/0000:03:00.0", "1000", "0079", "1028",
					   "1f17", "megaraid_sas", "DELL", "PERC H700", "2.10" };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&l, &f, &rec);
	assert_string_equal(decided(&rec), "dell-perc-h700");
	assert_int_equal(rec.n_by, 3);
	assert_string_equal(rec.by[0], "PCI 1000:0079 subsystem 1028:1f17, PERC H700 Integrated");
	assert_string_equal(rec.by[1], "INQUIRY vendor 'DELL' model 'PERC H700'");
}

/* mpi3mr: one chip (SAS4116) under the H965i and the 9660 */
static void test_mpi3mr(void **state)
{
	static const struct scsi_lun h965i = { "devices/pci0000:00/0000:4b:00.0", "1000", "00a5", "1028",
					       "2115", "mpi3mr", NULL, NULL, NULL };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&h965i, &f, &rec);
	assert_string_equal(f.controller.vendor, "");
	assert_string_equal(decided(&rec), "dell-perc-h965i");
	assert_string_equal(rec.by[0], "PCI 1000:00a5 subsystem 1028:2115, PERC H965i Front");
}

static void test_mpi3mr_9660(void **state)
{
	static const struct scsi_lun mr9660 = { "devices/pci0000:00/0000:4b:00.0", "1000", "00a5",
						"1000", "46a0", "mpi3mr", NULL, NULL, NULL };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&mr9660, &f, &rec);
	assert_string_equal(decided(&rec), "broadcom-mr9660");
}

/* smartpqi: HPE's and Microchip's boards share 9005:028f */
static void test_smartpqi(void **state)
{
	static const struct scsi_lun p408i = { "devices/pci0000:00/0000:5c:00.0", "9005", "028f", "103c",
					       "0602", "smartpqi", "HPE", "LOGICAL VOLUME", "3.53" };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&p408i, &f, &rec);
	assert_string_equal(decided(&rec), "hpe-sr-p408i-p816i");
	assert_string_equal(rec.by[0], "PCI 9005:028f subsystem 103c:0602, Smart Array P408i-a SR Gen10");
}

static void test_smartpqi_smartraid(void **state)
{
	static const struct scsi_lun sr3154 = { "devices/pci0000:00/0000:5c:00.0", "9005", "028f",
						"9005", "1380", "smartpqi", NULL, NULL, NULL };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&sr3154, &f, &rec);
	assert_string_equal(decided(&rec), "microchip-smartraid-3100");
}

/* the SR932i-p's board (subsystem 1590:0294) beside the P408i's on the
 * same chip and with the same INQUIRY: the board decides */
static void test_smartpqi_sr932i(void **state)
{
	static const struct scsi_lun sr932i = { "devices/pci0000:00/0000:5c:00.0", "9005", "028f",
						"1590", "0294", "smartpqi", "HPE",
						"LOGICAL VOLUME", "3.53" };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&sr932i, &f, &rec);
	assert_string_equal(decided(&rec), "hpe-sr932i-p");
	assert_string_equal(rec.by[0], "PCI 9005:028f subsystem 1590:0294, SR932i-p Gen10+");
}

/* an HPE board no profile lists (E208i-a): "HPE LOGICAL VOLUME" is every
 * Smart Array's, so nothing is decided */
static void test_smartpqi_unlisted_hpe(void **state)
{
	static const struct scsi_lun e208i = { "devices/pci0000:00/0000:5c:00.0", "9005", "028f", "103c",
					       "0654", "smartpqi", "HPE", "LOGICAL VOLUME", "3.53" };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&e208i, &f, &rec);
	assert_null(rec.profile);
	assert_string_equal(rec.candidates,
			    "hpe-sr-p408i-p816i, hpe-sr932i-p, microchip-smartraid-3100");
}

/* a QEMU disk on virtio-scsi: nothing known, nobody named */
static void test_virtio(void **state)
{
	static const struct scsi_lun qemu = { "devices/pci0000:00/0000:00:04.0", "1af4", "1004", "1af4",
					      "0008", "virtio_scsi", "QEMU", "QEMU HARDDISK", "2.5+" };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&qemu, &f, &rec);
	assert_null(rec.profile);
	assert_string_equal(rec.candidates, "");
	assert_string_equal(rec.seen, "SCSI host proc_name 'virtio_scsi', INQUIRY vendor 'QEMU' "
				      "model 'QEMU HARDDISK' revision '2.5+', PCI 1af4:1004 subsystem "
				      "1af4:0008");
}

/* NVMe: no SCSI host and no INQUIRY; the PCI function is still read */
static void test_nvme(void **state)
{
	struct sp_profile_set *set = profiles();
	struct sp_recognition rec;
	struct sp_facts f = { 0 };
	char disk[PATH_MAX];
	const char *pci = "sys/devices/pci0000:00/0000:00:1d.0/0000:03:00.0";
	char rel[PATH_MAX];

	(void)state;
	snprintf(rel, sizeof(rel), "%s/vendor", pci);
	put(rel, "0x144d\n");
	snprintf(rel, sizeof(rel), "%s/device", pci);
	put(rel, "0xa808\n");
	snprintf(rel, sizeof(rel), "%s/subsystem_vendor", pci);
	put(rel, "0x144d\n");
	snprintf(rel, sizeof(rel), "%s/subsystem_device", pci);
	put(rel, "0xa801\n");
	snprintf(rel, sizeof(rel), "%s/nvme/nvme0/nvme0n1/device", pci);
	link_at("../../nvme0", rel);
	link_at("../devices/pci0000:00/0000:00:1d.0/0000:03:00.0/nvme/nvme0/nvme0n1", "sys/block/nvme0n1");
	snprintf(disk, sizeof(disk), "%s/sys/block/nvme0n1", root);
	sp_probe_controller_at(disk, &f.controller);
	assert_string_equal(f.controller.proc_name, "");
	assert_string_equal(f.controller.vendor, "");
	assert_string_equal(f.controller.pci_vendor, "144d");
	assert_string_equal(f.controller.pci_subdevice, "a801");
	sp_recognise(set, &f, &rec);
	assert_null(rec.profile);
}

/* A loop device has no device/ link: nothing at all */
static void test_no_device(void **state)
{
	struct sp_controller_facts c;
	char disk[PATH_MAX];

	(void)state;
	put("sys/devices/virtual/block/loop0/size", "0\n");
	link_at("../devices/virtual/block/loop0", "sys/block/loop0");
	snprintf(disk, sizeof(disk), "%s/sys/block/loop0", root);
	memset(&c, 'x', sizeof(c));
	sp_probe_controller_at(disk, &c);
	assert_string_equal(c.proc_name, "");
	assert_string_equal(c.pci_vendor, "");
	assert_string_equal(c.model, "");
}

/* Odd attribute text is dropped, never passed on */
static void test_bad_pci_ids(void **state)
{
	static const struct scsi_lun l = { "devices/pci0000:00/0000:17:00.0", "10000", "zz12", "1028",
					   "1ae1", "megaraid_sas", NULL, NULL, NULL };
	struct sp_controller_facts c;
	char disk[PATH_MAX];

	(void)state;
	make_scsi_lun(&l);
	snprintf(disk, sizeof(disk), "%s/sys/block/sdb", root);
	sp_probe_controller_at(disk, &c);
	assert_string_equal(c.pci_vendor, "");
	assert_string_equal(c.pci_device, "");
	assert_string_equal(c.pci_subvendor, "1028");
}

/* a device fills its own INQUIRY: what is not printable never reaches a message */
static void test_inquiry_escapes(void **state)
{
	static const struct scsi_lun l = { "devices/pci0000:00/0000:17:00.0", "1000", "10e2", "1028",
					   "1ae1", "megaraid_sas", "DELL", "PERC\033[2J H755", "5.16" };
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	recognise_lun(&l, &f, &rec);
	assert_string_equal(f.controller.model, "PERC?[2J H755");
	/* the board still decides; the model is no longer a prefix of the row */
	assert_string_equal(decided(&rec), "dell-perc-h755");
	assert_int_equal(rec.n_by, 2);
}

static void make_md(const char *name, const char *metadata)
{
	char rel[PATH_MAX];

	snprintf(rel, sizeof(rel), "sys/block/%s/md/level", name);
	put(rel, "raid5\n");
	snprintf(rel, sizeof(rel), "sys/block/%s/md/raid_disks", name);
	put(rel, "4\n");
	snprintf(rel, sizeof(rel), "sys/block/%s/md/chunk_size", name);
	put(rel, "131072\n");
	snprintf(rel, sizeof(rel), "sys/block/%s/md/metadata_version", name);
	put(rel, metadata);
}

static void recognise_md(const char *name, struct sp_facts *f, struct sp_recognition *rec)
{
	struct sp_profile_set *set = profiles();
	struct sp_sysfs sys = { .root = root };
	struct sp_error err = { 0 };

	memset(f, 0, sizeof(*f));
	snprintf(f->path, sizeof(f->path), "/dev/%s", name);
	assert_int_equal(sp_probe_md(&sys, name, &f->md, &err), 0);
	sp_recognise(set, f, rec);
}

/* IMSM: the volume names its container, whose format is imsm */
static void test_md_imsm(void **state)
{
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	make_md("md126", "external:/md127/0\n");
	put("sys/block/md127/md/metadata_version", "external:imsm\n");
	put("sys/block/md127/md/level", "container\n");
	recognise_md("md126", &f, &rec);
	assert_string_equal(f.md.metadata, "external:imsm");
	assert_string_equal(decided(&rec), "intel-vroc");
	assert_string_equal(rec.by[0], "md superblock format 'external:imsm'");
	sp_facts_release(&f);
}

static void test_md_native(void **state)
{
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	make_md("md3", "1.2\n");
	recognise_md("md3", &f, &rec);
	assert_string_equal(f.md.metadata, "1.2");
	assert_string_equal(decided(&rec), "md");
	sp_facts_release(&f);
}

/* a volume whose container is not there, or names a path: its own text stays */
static void test_md_container_missing(void **state)
{
	struct sp_recognition rec;
	struct sp_facts f;

	(void)state;
	make_md("md126", "external:/md127/0\n");
	recognise_md("md126", &f, &rec);
	assert_string_equal(f.md.metadata, "external:/md127/0");
	assert_null(rec.profile);
	sp_facts_release(&f);
	make_md("md125", "external:/../../etc/0\n");
	recognise_md("md125", &f, &rec);
	assert_string_equal(f.md.metadata, "external:/../../etc/0");
	sp_facts_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_megaraid_sas_h755, setup, teardown),
		cmocka_unit_test_setup_teardown(test_megaraid_sas_9560, setup, teardown),
		cmocka_unit_test_setup_teardown(test_megaraid_sas_h730p, setup, teardown),
		cmocka_unit_test_setup_teardown(test_megaraid_sas_3508_boards, setup, teardown),
		cmocka_unit_test_setup_teardown(test_megaraid_sas_unknown_board, setup, teardown),
		cmocka_unit_test_setup_teardown(test_megaraid_sas_mr416i_p, setup, teardown),
		cmocka_unit_test_setup_teardown(test_megaraid_sas_aero_unlisted_hpe, setup, teardown),
		cmocka_unit_test_setup_teardown(test_megaraid_sas_perc6i, setup, teardown),
		cmocka_unit_test_setup_teardown(test_megaraid_sas_perc5e, setup, teardown),
		cmocka_unit_test_setup_teardown(test_qemu_megasas_perc6i_inquiry, setup, teardown),
		cmocka_unit_test_setup_teardown(test_qemu_megasas, setup, teardown),
		cmocka_unit_test_setup_teardown(test_megaraid_sas_jbod, setup, teardown),
		cmocka_unit_test_setup_teardown(test_qemu_megasas_gen2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_megaraid_sas_h700, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mpi3mr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mpi3mr_9660, setup, teardown),
		cmocka_unit_test_setup_teardown(test_smartpqi, setup, teardown),
		cmocka_unit_test_setup_teardown(test_smartpqi_smartraid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_smartpqi_sr932i, setup, teardown),
		cmocka_unit_test_setup_teardown(test_smartpqi_unlisted_hpe, setup, teardown),
		cmocka_unit_test_setup_teardown(test_virtio, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nvme, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_device, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_pci_ids, setup, teardown),
		cmocka_unit_test_setup_teardown(test_inquiry_escapes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_md_imsm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_md_native, setup, teardown),
		cmocka_unit_test_setup_teardown(test_md_container_missing, setup, teardown),
	};

	int failed = cmocka_run_group_tests(tests, NULL, NULL);

	sp_profiles_free(shipped);
	return failed;
}
