/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a kernel accepts.  The seeds were written for 2.6 kernels; the
 * names they use (noop, deadline, cfq, XFS nobarrier) changed or went away.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "stripeplan.h"

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

int sp_parse_kernel(const char *release, struct sp_kernel *ret, struct sp_error *err)
{
	struct sp_kernel k = { 0 };
	const char *p = release ? release : "";

	if (strlen(p) >= sizeof(k.release))
		return sp_error_set(err, EINVAL, SP_EXIT_INVALID, "kernel",
				    "kernel: '%.40s...' is too long for a kernel release", p);
	if (parse_component(&p, &k.major) < 0 || *p != '.' ||
	    (p++, parse_component(&p, &k.minor)) < 0)
		return sp_error_set(err, EINVAL, SP_EXIT_INVALID, "kernel",
				    "kernel: '%s' is not a kernel release (like 6.1 or 4.18.0-553.el8)",
				    release ? release : "");
	if (*p == '.') {
		p++;
		if (parse_component(&p, &k.patch) < 0)
			k.patch = 0;
	}
	if (k.major < 2 || k.major > 99)
		return sp_error_set(err, ERANGE, SP_EXIT_INVALID, "kernel",
				    "kernel: '%s' is not a Linux release stripeplan knows", release);
	snprintf(k.release, sizeof(k.release), "%s", release);
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

bool sp_kernel_is_blk_mq_only(const struct sp_kernel *k)
{
	return sp_kernel_cmp(k, 5, 0) >= 0;
}

bool sp_kernel_xfs_accepts_barrier_opts(const struct sp_kernel *k)
{
	return sp_kernel_cmp(k, 4, 19) < 0;
}

struct scheduler_names {
	const char *legacy; /* single-queue name, before 5.0 */
	const char *mq;     /* blk-mq name, 5.0 and later */
};

static const struct scheduler_names schedulers[] = {
	{ "noop", "none" },
	{ "deadline", "mq-deadline" },
	{ "cfq", "bfq" },
	{ "kyber", "kyber" },
};

const char *sp_kernel_scheduler_name(const struct sp_kernel *k, const char *wanted)
{
	bool mq = sp_kernel_is_blk_mq_only(k);

	for (size_t i = 0; i < sizeof(schedulers) / sizeof(schedulers[0]); i++) {
		if (!strcmp(wanted, schedulers[i].legacy) || !strcmp(wanted, schedulers[i].mq)) {
			if (!mq && !strcmp(schedulers[i].legacy, "kyber"))
				return NULL; /* kyber came with blk-mq (4.12) */
			return mq ? schedulers[i].mq : schedulers[i].legacy;
		}
	}
	return NULL;
}
