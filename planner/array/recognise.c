/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Recognition: every profile is scored by the facts its rows match, and
 * excluded by a fact its rows contradict; the one best score above the
 * SCSI host's driver alone decides.
 *
 * Why these weights: a PCI function with subsystem ids names a board
 * (pci.ids: 1000:10e2 1028:1ae1 is a PERC H755 Front); an INQUIRY vendor
 * and model name the logical drive's maker; a PCI vendor:device without
 * subsystem names a chip that several boards share; the SCSI host's
 * proc_name names only the driver, which many cards share (megaraid_sas
 * drives seven of the shipped profiles), so it never decides alone.  A
 * driver or chip a profile does not list rules it out; an INQUIRY string
 * or subsystem it does not list does not (vendors add models and boards).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "recognise.h"

enum {
	SCORE_PROC_NAME = 1,
	SCORE_PCI_CHIP = 2,
	SCORE_INQUIRY = 3,
	SCORE_MD_METADATA = 3,
	SCORE_PCI_BOARD = 4,
	SCORE_DECIDES = 2, /* more than the driver alone */
};

struct match {
	unsigned score;
	bool excluded;
	size_t n_by;
	char by[SP_RECOGNISED_BY_MAX][SP_MSG_MAX / 2];
};

static void add_by(struct match *m, unsigned score, const char *fmt, const char *a, const char *b,
		   const char *c)
{
	m->score += score;
	if (m->n_by < SP_RECOGNISED_BY_MAX)
		snprintf(m->by[m->n_by++], sizeof(m->by[0]), fmt, a, b, c);
}

static void match_md(const struct sp_profile_recognition *r, const struct sp_md_facts *md,
		     struct match *m)
{
	if (!md->present) {
		/* a profile that recognises md arrays only: not this device */
		m->excluded = r->n_md_metadata > 0;
		return;
	}
	if (!r->n_md_metadata) {
		m->excluded = true; /* a controller's profile: md is not behind one */
		return;
	}
	for (size_t i = 0; i < r->n_md_metadata; i++)
		if (!strcmp(r->md_metadata[i], md->metadata)) {
			add_by(m, SCORE_MD_METADATA, "md superblock format '%s'%s%s", md->metadata,
			       "", "");
			return;
		}
	m->excluded = true;
}

static void match_proc_name(const struct sp_profile_recognition *r,
			    const struct sp_controller_facts *c, struct match *m)
{
	if (!c->proc_name[0] || !r->n_proc_names)
		return;
	for (size_t i = 0; i < r->n_proc_names; i++)
		if (!strcmp(r->proc_names[i], c->proc_name)) {
			add_by(m, SCORE_PROC_NAME, "SCSI host proc_name '%s'%s%s", c->proc_name, "", "");
			return;
		}
	m->excluded = true;
}

static void match_pci(const struct sp_profile_recognition *r, const struct sp_controller_facts *c,
		      struct match *m)
{
	const struct sp_profile_pci *chip = NULL;
	char ids[64];

	if (!c->pci_vendor[0] || !c->pci_device[0] || !r->n_pci)
		return;
	for (size_t i = 0; i < r->n_pci; i++) {
		const struct sp_profile_pci *p = &r->pci[i];

		if (strcmp(p->vendor, c->pci_vendor) || strcmp(p->device, c->pci_device))
			continue;
		if (p->subvendor[0] && !strcmp(p->subvendor, c->pci_subvendor) &&
		    !strcmp(p->subdevice, c->pci_subdevice)) {
			snprintf(ids, sizeof(ids), "%s:%s subsystem %s:%s", c->pci_vendor,
				 c->pci_device, c->pci_subvendor, c->pci_subdevice);
			add_by(m, SCORE_PCI_BOARD, "PCI %s%s%s", ids, p->name[0] ? ", " : "", p->name);
			return;
		}
		if (!p->subvendor[0] || !chip)
			chip = p;
	}
	if (!chip) {
		m->excluded = true; /* another chip altogether */
		return;
	}
	if (!chip->subvendor[0]) {
		snprintf(ids, sizeof(ids), "%s:%s", c->pci_vendor, c->pci_device);
		add_by(m, SCORE_PCI_CHIP, "PCI %s%s%s", ids, chip->name[0] ? ", " : "", chip->name);
	}
	/* the chip, on a board the profile does not list: no evidence either way */
}

static void match_inquiry(const struct sp_profile_recognition *r,
			  const struct sp_controller_facts *c, struct match *m)
{
	if (!c->vendor[0] || !c->model[0])
		return;
	for (size_t i = 0; i < r->n_inquiry; i++) {
		const struct sp_profile_inquiry *q = &r->inquiry[i];

		if (!strcasecmp(q->vendor, c->vendor) &&
		    !strncasecmp(q->model, c->model, strlen(q->model))) {
			add_by(m, SCORE_INQUIRY, "INQUIRY vendor '%s' model '%s'%s", c->vendor, c->model,
			       "");
			return;
		}
	}
}

static void describe_seen(const struct sp_facts *f, char *buf, size_t len)
{
	const struct sp_controller_facts *c = &f->controller;
	size_t used = 0;

	buf[0] = '\0';
#define SEEN(...)                                                                   \
	do {                                                                        \
		if (used < len)                                                     \
			used += (size_t)snprintf(buf + used, len - used, __VA_ARGS__); \
	} while (0)
	if (f->md.present)
		SEEN("md superblock format '%s'", f->md.metadata[0] ? f->md.metadata : "unknown");
	if (c->proc_name[0])
		SEEN("%sSCSI host proc_name '%s'", used ? ", " : "", c->proc_name);
	if (c->vendor[0] || c->model[0])
		SEEN("%sINQUIRY vendor '%s' model '%s' revision '%s'", used ? ", " : "", c->vendor,
		     c->model, c->revision);
	if (c->pci_vendor[0])
		SEEN("%sPCI %s:%s subsystem %s:%s", used ? ", " : "", c->pci_vendor, c->pci_device,
		     c->pci_subvendor[0] ? c->pci_subvendor : "?",
		     c->pci_subdevice[0] ? c->pci_subdevice : "?");
	if (sp_controller_passthrough(c))
		SEEN("%sSCSI address %s: a physical disk megaraid_sas passes through (JBOD), on "
		     "its physical-disk channels 0-1, not a logical drive (channels 2-3; "
		     "MEGASAS_IS_LOGICAL(), drivers/scsi/megaraid/megaraid_sas.h)",
		     used ? ", " : "", c->scsi_address);
	if (!used)
		SEEN("no controller: no SCSI host, INQUIRY, PCI function or md array");
#undef SEEN
}

void sp_recognise(const struct sp_profile_set *set, const struct sp_facts *f,
		  struct sp_recognition *ret)
{
	struct match best = { 0 }, m;
	size_t n_best = 0, used = 0;
	unsigned top = 0;

	memset(ret, 0, sizeof(*ret));
	describe_seen(f, ret->seen, sizeof(ret->seen));
	/* the controller's profile is for its arrays; a disk it passes
	 * through is a plain disk */
	if (!f->md.present && sp_controller_passthrough(&f->controller)) {
		ret->passthrough = true;
		return;
	}
	/* the best score first, then who reaches it */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < sp_profiles_count(set); i++) {
			const struct sp_profile *p = sp_profiles_get(set, i);
			const struct sp_profile_recognition *r = &p->recognition;

			if (!r->source[0])
				continue; /* no rows: generic, or a site's profile without them */
			memset(&m, 0, sizeof(m));
			match_md(r, &f->md, &m);
			if (!m.excluded && !f->md.present) {
				/* strongest first: the order "recognised by" lists them */
				match_pci(r, &f->controller, &m);
				match_inquiry(r, &f->controller, &m);
				match_proc_name(r, &f->controller, &m);
			}
			if (m.excluded || !m.score)
				continue;
			if (pass == 0) {
				top = m.score > top ? m.score : top;
				continue;
			}
			if (m.score != top)
				continue;
			if (n_best++ == 0) {
				best = m;
				ret->profile = p;
			}
			if (used < sizeof(ret->candidates))
				used += (size_t)snprintf(ret->candidates + used,
							 sizeof(ret->candidates) - used, "%s%s",
							 used ? ", " : "", p->name);
		}
	}
	if (n_best != 1 || top < SCORE_DECIDES) {
		ret->profile = NULL;
		return;
	}
	ret->candidates[0] = '\0';
	ret->n_by = best.n_by;
	memcpy(ret->by, best.by, sizeof(ret->by));
}
