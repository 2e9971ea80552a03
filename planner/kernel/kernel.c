/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a kernel accepts.  The seeds were written for 2.6 kernels; the
 * names they use (noop, deadline, cfq, XFS nobarrier) changed or went away.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "kernel.h"
#include "limits/limit.h"

static int parse_component(const char **p, unsigned *out)
{
	unsigned v = 0;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	while (isdigit((unsigned char)**p)) {
		if (v > 100000)
			return -ERANGE;
		v = v * 10 + (unsigned)(**p - '0');
		(*p)++;
	}
	*out = v;
	return 0;
}

static bool has_suffix_word(const char *release, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(release, word); p; p = strstr(p + 1, word))
		if (p[n] == '\0' || p[n] == '.' || p[n] == '-' || p[n] == '+' || p[n] == '_')
			return true;
	return false;
}

/* ".el8", ".el8_10", ".el9_4" -> 8, 9; 0 when absent */
static unsigned rhel_major(const char *release)
{
	for (const char *p = strstr(release, ".el"); p; p = strstr(p + 1, ".el"))
		if (isdigit((unsigned char)p[3]))
			return (unsigned)strtoul(p + 3, NULL, 10);
	return 0;
}

static void classify(struct sp_kernel *k, const char *rest)
{
	static const char *const ubuntu[] = { "-generic", "-lowlatency", "-aws", "-azure", "-gcp",
					      "-oracle", "-kvm", "-ibm", "-raspi", NULL };
	static const char *const debian[] = { "-amd64", "-arm64", "-686", "-686-pae", "-armmp",
					      "-ppc64el", "-s390x", "+deb", NULL };
	unsigned el = rhel_major(rest);

	k->family = SP_KERNEL_UNKNOWN;
	if (!*rest || !strcmp(rest, "+")) {
		k->family = SP_KERNEL_MAINLINE;
		snprintf(k->vendor, sizeof(k->vendor), "mainline");
		return;
	}
	if (el) {
		k->family = SP_KERNEL_RHEL;
		k->vendor_major = el;
		snprintf(k->vendor, sizeof(k->vendor), "el%u", el);
		return;
	}
	if (strstr(rest, ".fc")) {
		k->family = SP_KERNEL_FEDORA;
		snprintf(k->vendor, sizeof(k->vendor), "Fedora");
		return;
	}
	if (has_suffix_word(rest, "-default") && *rest == '-' && isdigit((unsigned char)rest[1])) {
		/* SLE 15 builds are numbered from 150 ("4.12.14-150.47",
		 * "4.12.14-195", "5.14.21-150500.55"); SLE 12's below ("4.12.14-122.37") */
		unsigned long build = strtoul(rest + 1, NULL, 10);

		k->family = SP_KERNEL_SLES;
		k->vendor_major = build >= 150 || k->major >= 5 ? 15 : 12;
		snprintf(k->vendor, sizeof(k->vendor), "SLES %u", k->vendor_major);
		return;
	}
	for (size_t i = 0; ubuntu[i]; i++)
		if (has_suffix_word(rest, ubuntu[i])) {
			k->family = SP_KERNEL_UBUNTU;
			snprintf(k->vendor, sizeof(k->vendor), "Ubuntu");
			return;
		}
	for (size_t i = 0; debian[i]; i++)
		if (strstr(rest, debian[i])) {
			k->family = SP_KERNEL_DEBIAN;
			snprintf(k->vendor, sizeof(k->vendor), "Debian");
			return;
		}
	snprintf(k->vendor, sizeof(k->vendor), "unknown vendor");
}

int sp_parse_kernel(const char *release, struct sp_kernel *ret, struct sp_error *err)
{
	struct sp_kernel k = { 0 };
	const char *p = release ? release : "";

	if (strlen(p) >= sizeof(k.release))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "kernel: '%.40s...' is too long for a kernel release", p);
	for (const unsigned char *c = (const unsigned char *)p; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "kernel: control character 0x%02x in a kernel release", *c);
	if (parse_component(&p, &k.major) < 0 || *p != '.' ||
	    (p++, parse_component(&p, &k.minor)) < 0)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "kernel: '%s' is not a kernel release (like 6.1 or 4.18.0-553.el8)",
				    release ? release : "");
	if (*p == '.') {
		p++;
		if (parse_component(&p, &k.patch) < 0)
			k.patch = 0;
	}
	if (k.major < 2 || k.major > 99)
		return sp_error_set(err, ERANGE, SP_ERR_INVALID,
				    "kernel: '%s' is not a Linux release stripeplan knows", release);
	for (const char *c = p; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr(".-_+~", *c))
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "kernel: '%s' has characters no kernel release has", release);
	snprintf(k.release, sizeof(k.release), "%s", release);
	classify(&k, p);
	*ret = k;
	return 0;
}

int sp_kernel_cmp(const struct sp_kernel *k, unsigned major, unsigned minor)
{
	if (k->major != major)
		return k->major < major ? -1 : 1;
	if (k->minor != minor)
		return k->minor < minor ? -1 : 1;
	return 0;
}

/* k is release row id's release or later; for a vendor's row (its unit
 * "RHEL", "SLES"), k is that vendor's kernel of its major release or later */
bool sp_kernel_from(const struct sp_kernel *k, enum sp_limit_id id)
{
	const struct sp_limit *l = sp_limit(id);
	uint64_t release = l->min;

	if (!strcmp(l->unit, "RHEL"))
		return k->family == SP_KERNEL_RHEL && k->vendor_major >= release;
	if (!strcmp(l->unit, "SLES"))
		return k->family == SP_KERNEL_SLES && k->vendor_major >= release;
	return sp_kernel_cmp(k, (unsigned)(release / 1000), (unsigned)(release % 1000)) >= 0;
}

bool sp_kernel_is_blk_mq_only(const struct sp_kernel *k)
{
	/* the vendors dropped the legacy path from kernels numbered before 5.0 */
	return sp_kernel_from(k, SP_LIMIT_RHEL_BLK_MQ_ONLY) ||
	       sp_kernel_from(k, SP_LIMIT_SLES_BLK_MQ_ONLY) ||
	       sp_kernel_from(k, SP_LIMIT_LEGACY_SCHED_REMOVED);
}

enum sp_queue_family sp_queue_family_of(const char *kernel_name)
{
	if (!strncmp(kernel_name, "nvme", 4))
		return SP_QUEUE_NVME;
	if (!strncmp(kernel_name, "vd", 2))
		return SP_QUEUE_VIRTIO;
	return SP_QUEUE_SCSI;
}

bool sp_kernel_queue_is_blk_mq(const struct sp_kernel *k, enum sp_queue_family family)
{
	/* NVMe and virtio-blk never had a single-queue scheduler to offer */
	if (family != SP_QUEUE_SCSI)
		return true;
	return sp_kernel_is_blk_mq_only(k) || sp_kernel_from(k, SP_LIMIT_SCSI_MQ_DEFAULT);
}

enum sp_xfs_barrier_opts sp_kernel_xfs_barrier_opts(const struct sp_kernel *k)
{
	/* RHEL 8's 4.18 carries the 4.19 removal, not 4.10's no-op */
	if (sp_kernel_from(k, SP_LIMIT_XFS_BARRIER_REMOVED) ||
	    sp_kernel_from(k, SP_LIMIT_RHEL_BARRIER_REMOVED))
		return SP_XFS_BARRIER_REJECTED;
	if (sp_kernel_from(k, SP_LIMIT_XFS_BARRIER_IGNORED))
		return SP_XFS_BARRIER_IGNORED;
	return SP_XFS_BARRIER_EFFECTIVE;
}

static enum sp_init_system systemd_from(const struct sp_kernel *k, enum sp_limit_id row)
{
	return sp_kernel_from(k, row) ? SP_INIT_SYSTEMD : SP_INIT_BEFORE_SYSTEMD;
}

enum sp_init_system sp_kernel_init_system(const struct sp_kernel *k)
{
	/* a RHEL release string says its major release; RHEL 6's is 2.6.32 */
	if (k->family == SP_KERNEL_RHEL)
		return systemd_from(k, SP_LIMIT_RHEL_SYSTEMD);
	if (k->family == SP_KERNEL_UBUNTU && !sp_kernel_from(k, SP_LIMIT_UBUNTU_SYSTEMD) &&
	    sp_kernel_from(k, SP_LIMIT_SYSTEMD))
		return SP_INIT_CANNOT_TELL;
	return systemd_from(k, SP_LIMIT_SYSTEMD);
}

struct scheduler_names {
	const char *legacy;     /* single-queue name */
	const char *mq;         /* blk-mq name */
	enum sp_limit_id since; /* the release row from which blk-mq has it */
};

/* cfq's place on a blk-mq queue is bfq's; kyber has no single-queue form */
static const struct scheduler_names schedulers[] = {
	{ "noop", "none", SP_LIMIT_COUNT },
	{ "deadline", "mq-deadline", SP_LIMIT_MQ_DEADLINE },
	{ "cfq", "bfq", SP_LIMIT_MQ_BFQ_KYBER },
	{ "kyber", "kyber", SP_LIMIT_MQ_BFQ_KYBER },
};

#define N_SCHEDULERS (ARRAY_SIZE(schedulers))

/* blk-mq's own schedulers came after blk-mq: an NVMe disk on 4.9 has none only */
static bool mq_has(const struct sp_kernel *k, const struct scheduler_names *s)
{
	return s->since == SP_LIMIT_COUNT || sp_kernel_is_blk_mq_only(k) ||
	       sp_kernel_from(k, s->since);
}

const char *sp_kernel_scheduler_name(const struct sp_kernel *k, enum sp_queue_family family,
				     const char *wanted)
{
	bool mq = sp_kernel_queue_is_blk_mq(k, family);

	for (size_t i = 0; i < N_SCHEDULERS; i++) {
		if (!strcmp(wanted, schedulers[i].legacy) || !strcmp(wanted, schedulers[i].mq)) {
			if (!mq && !strcmp(schedulers[i].legacy, "kyber"))
				return NULL; /* kyber exists only for blk-mq (4.12) */
			if (mq && !mq_has(k, &schedulers[i]))
				return NULL;
			return mq ? schedulers[i].mq : schedulers[i].legacy;
		}
	}
	return NULL;
}

enum sp_limit_id sp_kernel_scheduler_missing(const struct sp_kernel *k, enum sp_queue_family family,
					     const char *wanted)
{
	bool mq = sp_kernel_queue_is_blk_mq(k, family);

	for (size_t i = 0; i < N_SCHEDULERS; i++) {
		if (strcmp(wanted, schedulers[i].legacy) != 0 && strcmp(wanted, schedulers[i].mq) != 0)
			continue;
		if (!mq && !strcmp(schedulers[i].legacy, "kyber"))
			return SP_LIMIT_MQ_BFQ_KYBER;
		if (mq && !mq_has(k, &schedulers[i]))
			return schedulers[i].since;
		break;
	}
	return SP_LIMIT_COUNT;
}

const char *sp_kernel_scheduler_alias(const char *name)
{
	for (size_t i = 0; i < N_SCHEDULERS; i++) {
		if (!strcmp(name, schedulers[i].legacy))
			return schedulers[i].mq;
		if (!strcmp(name, schedulers[i].mq))
			return schedulers[i].legacy;
	}
	return NULL;
}

size_t sp_parse_scheduler_list(const char *text, char (*names)[16], size_t max)
{
	size_t n = 0;

	while (*text && n < max) {
		size_t len = 0;

		while (*text == ' ' || *text == '\n' || *text == '[' || *text == ']')
			text++;
		while (text[len] && !strchr(" \n[]", text[len]))
			len++;
		if (!len)
			break;
		if (len < sizeof(names[0])) {
			memcpy(names[n], text, len);
			names[n++][len] = '\0';
		}
		text += len;
	}
	return n;
}
