/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The files a user hands over, read as untrusted text for the core. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "textfile.h"

int sp_plan_load_file(const char *path, struct sp_plan *ret, struct sp_error *err)
{
	char *text = NULL;
	int r = sp_read_input_at(AT_FDCWD, path, 0, "plan", path, &text, NULL, err);

	if (r < 0)
		return r;
	if (!text[strspn(text, " \t\r\n")])
		r = sp_error_set(err, ENODATA, SP_ERR_INVALID,
				 "plan: '%s' is empty; give the output of 'stripeplan plan "
				 "--format json'",
				 path);
	else
		r = sp_plan_from_json(text, ret, err);
	free(text);
	return r;
}

int sp_facts_load_json(const char *path, struct sp_facts *ret, struct sp_error *err)
{
	char *text = NULL;
	int r;

	if (!path || !path[0])
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "no facts file given");
	r = sp_read_input_at(AT_FDCWD, path, 0, NULL, path, &text, NULL, err);
	if (r == 0)
		r = sp_facts_from_json(text, path, ret, err);
	free(text);
	return r;
}

static int compare_names(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int json_file(const struct dirent *d)
{
	size_t len = strlen(d->d_name);

	return d->d_name[0] != '.' && len > 5 && !strcmp(d->d_name + len - 5, ".json");
}

static int profiles_add_dir(struct sp_profile_set *set, const char *dir, struct sp_error *err)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, json_file, compare_names);
	int r = 0;

	if (n < 0)
		return errno == ENOENT ? 0 :
			sp_error_set(err, errno, SP_ERR_INVALID,
				     "cannot read profile directory '%s': %s", dir, strerror(errno));
	for (int i = 0; i < n; i++) {
		char path[SP_PATH_MAX];
		char *text = NULL;

		if (r == 0) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
			r = sp_read_input_at(AT_FDCWD, path, 0, "profile", path, &text, NULL, err);
			if (r == 0)
				r = sp_profiles_add(set, text, path, err);
			free(text);
		}
		free(names[i]);
	}
	free(names);
	return r;
}

int sp_profiles_load(const char *const *dirs, struct sp_profile_set **ret, struct sp_error *err)
{
	struct sp_profile_set *set = NULL;
	int r = sp_profiles_embedded(&set, err);

	for (size_t i = 0; r == 0 && dirs && dirs[i]; i++)
		r = profiles_add_dir(set, dirs[i], err);
	if (r < 0) {
		sp_profiles_free(set);
		return r;
	}
	*ret = set;
	return 0;
}
