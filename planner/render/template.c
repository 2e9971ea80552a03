/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text templates (templates/NAME.in, embedded at build time) and filling them. */
#include <stdio.h>
#include <string.h>

#include "base/embedded.h"
#include "template.h"

const char *sp_embedded_template(const char *name)
{
	for (const struct sp_embedded *e = sp_embedded_templates; e->name; e++)
		if (!strcmp(e->name, name))
			return e->text;
	return NULL;
}

void sp_fill_template(FILE *f, const char *tpl, const struct sp_subst *s, size_t n)
{
	const char *at;
	size_t i;

	while ((at = strchr(tpl, '@'))) {
		fwrite(tpl, 1, (size_t)(at - tpl), f);
		for (i = 0; i < n && strncmp(at, s[i].key, strlen(s[i].key)) != 0; i++)
			;
		if (i < n) {
			fputs(s[i].value, f);
			tpl = at + strlen(s[i].key);
		} else {
			fputc('@', f);
			tpl = at + 1;
		}
	}
	fputs(tpl, f);
}
