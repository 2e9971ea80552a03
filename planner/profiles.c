/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Controller profiles are data (JSON files in planner/profiles/, embedded at build
 * time; users add their own).  Parsing is strict: an unknown key is a
 * typo that would silently drop a knob, so it is an error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "embedded.h"
#include "textfile.h"
#include "stripeplan.h"

#define MAX_PROFILES 64U

struct sp_profile_set {
	size_t n;
	struct sp_profile profiles[MAX_PROFILES];
};

struct knob_rule {
	const char *knob;
	uint64_t min, max;
};

/* The knobs a profile may set, with the kernel's own bounds. */
static const struct knob_rule knob_rules[] = {
	{ "queue/read_ahead_kb", 0, 1048576 },
	{ "queue/max_sectors_kb", 4, 1048576 },
	{ "queue/nr_requests", 4, 65536 },
	{ "device/queue_depth", 1, 65536 },
	{ "md/stripe_cache_size", 17, 32768 },
	{ "md/sync_speed_min", 1, 100000000 },
	{ "md/sync_speed_max", 1, 100000000 },
};

struct parse_ctx {
	const char *origin;
	struct sp_error *err;
};

static int bad(struct parse_ctx *ctx, const char *key, const char *why)
{
	return sp_error_set(ctx->err, EINVAL, SP_ERR_INVALID,
			    "profile %s: '%s' %s", ctx->origin, key, why);
}

static int get_string(struct parse_ctx *ctx, json_object *obj, const char *key, bool required,
		      char *out, size_t len)
{
	json_object *v;
	const char *s;

	if (!json_object_object_get_ex(obj, key, &v)) {
		if (required)
			return bad(ctx, key, "is missing");
		return 0;
	}
	if (!json_object_is_type(v, json_type_string))
		return bad(ctx, key, "must be a string");
	s = json_object_get_string(v);
	if (strlen(s) >= len)
		return bad(ctx, key, "is too long");
	memcpy(out, s, strlen(s) + 1);
	return 0;
}

static int get_bool(struct parse_ctx *ctx, json_object *obj, const char *key, bool *out)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return bad(ctx, key, "must be true or false");
	*out = json_object_get_boolean(v);
	return 0;
}

static int get_levels(struct parse_ctx *ctx, json_object *obj, const char *key, unsigned *mask)
{
	json_object *v;

	*mask = 0;
	if (!json_object_object_get_ex(obj, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_array) || json_object_array_length(v) == 0)
		return bad(ctx, key, "must be a non-empty list of RAID levels");
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		json_object *e = json_object_array_get_idx(v, i);
		enum sp_level level;
		char text[16];

		if (!json_object_is_type(e, json_type_int))
			return bad(ctx, key, "must list levels as numbers (0, 1, 5, 6, 10, 50, 60)");
		snprintf(text, sizeof(text), "%" PRId64, json_object_get_int64(e));
		if (sp_parse_level(text, &level, NULL) < 0)
			return bad(ctx, key, "lists an unknown RAID level");
		*mask |= sp_level_bit(level);
	}
	return 0;
}

static int check_keys(struct parse_ctx *ctx, json_object *obj, const char *const *allowed)
{
	json_object_object_foreach(obj, key, val)
	{
		bool ok = false;

		(void)val;
		for (size_t i = 0; allowed[i]; i++)
			ok = ok || !strcmp(key, allowed[i]);
		if (!ok)
			return bad(ctx, key, "is not a profile key (a typo?)");
	}
	return 0;
}

static int parse_knob(struct parse_ctx *ctx, json_object *e, struct sp_profile_knob *knob)
{
	static const char *const keys[] = { "target", "knob", "value", "why", "levels", "holds",
					    "default", NULL };
	const struct knob_rule *rule = NULL;
	char target[16] = "";
	uint64_t value;
	int r;

	knob->on_by_default = true;
	if (!json_object_is_type(e, json_type_object))
		return bad(ctx, "tuning", "entries must be objects");
	if ((r = check_keys(ctx, e, keys)) < 0 ||
	    (r = get_string(ctx, e, "target", true, target, sizeof(target))) < 0 ||
	    (r = get_string(ctx, e, "knob", true, knob->knob, sizeof(knob->knob))) < 0 ||
	    (r = get_string(ctx, e, "value", true, knob->value, sizeof(knob->value))) < 0 ||
	    (r = get_string(ctx, e, "why", true, knob->why, sizeof(knob->why))) < 0 ||
	    (r = get_levels(ctx, e, "levels", &knob->levels_mask)) < 0 ||
	    (r = get_string(ctx, e, "holds", false, knob->holds, sizeof(knob->holds))) < 0 ||
	    (r = get_bool(ctx, e, "default", &knob->on_by_default)) < 0)
		return r;
	if (!strcmp(target, "device"))
		knob->target = SP_TARGET_DEVICE;
	else if (!strcmp(target, "members"))
		knob->target = SP_TARGET_MEMBERS;
	else
		return bad(ctx, "target", "must be \"device\" or \"members\"");
	for (size_t i = 0; i < ARRAY_SIZE(knob_rules); i++)
		if (!strcmp(knob->knob, knob_rules[i].knob))
			rule = &knob_rules[i];
	if (!rule)
		return bad(ctx, knob->knob,
			   "is not a knob stripeplan sets (queue/read_ahead_kb, queue/max_sectors_kb, "
			   "queue/nr_requests, device/queue_depth, md/stripe_cache_size, "
			   "md/sync_speed_min, md/sync_speed_max; the scheduler has its own key)");
	/* the planner sizes md's stripe cache from the array and a memory budget */
	if (!strcmp(knob->value, "auto"))
		return strcmp(knob->knob, "md/stripe_cache_size") ? bad(ctx, knob->knob, "cannot be \"auto\"") : 0;
	if (sp_parse_count(knob->value, knob->knob, rule->min, rule->max, &value, ctx->err) < 0)
		return bad(ctx, knob->knob, "has a value out of the kernel's range");
	return 0;
}

static int parse_module_option(struct parse_ctx *ctx, json_object *e,
			       struct sp_profile_module_option *opt)
{
	static const char *const keys[] = { "module", "param", "value", "why", "holds",
					    "driver_default", NULL };
	int r;

	if (!json_object_is_type(e, json_type_object))
		return bad(ctx, "module_options", "entries must be objects");
	if ((r = check_keys(ctx, e, keys)) < 0 ||
	    (r = get_string(ctx, e, "module", true, opt->module, sizeof(opt->module))) < 0 ||
	    (r = get_string(ctx, e, "param", true, opt->param, sizeof(opt->param))) < 0 ||
	    (r = get_string(ctx, e, "value", true, opt->value, sizeof(opt->value))) < 0 ||
	    (r = get_string(ctx, e, "why", true, opt->why, sizeof(opt->why))) < 0 ||
	    (r = get_string(ctx, e, "holds", false, opt->holds, sizeof(opt->holds))) < 0 ||
	    (r = get_string(ctx, e, "driver_default", false, opt->driver_default,
			    sizeof(opt->driver_default))) < 0)
		return r;
	/* these end up in modprobe.d and a shell script: keep them to safe characters */
	for (const char *p = opt->module; *p; p++)
		if (!(*p == '_' || *p == '-' || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
			return bad(ctx, "module", "must be a module name ([a-z0-9_-])");
	for (const char *p = opt->param; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
			return bad(ctx, "param", "must be a parameter name ([a-z0-9_])");
	for (const char *p = opt->value; *p; p++)
		if (!(*p == ',' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z')))
			return bad(ctx, "value", "must be [a-z0-9,]");
	return 0;
}

static int parse_warning(struct parse_ctx *ctx, json_object *e, struct sp_profile_warning *w)
{
	static const char *const keys[] = { "code", "levels", "message", NULL };
	int r;

	if (!json_object_is_type(e, json_type_object))
		return bad(ctx, "warnings", "entries must be objects");
	if ((r = check_keys(ctx, e, keys)) < 0 ||
	    (r = get_string(ctx, e, "code", true, w->code, sizeof(w->code))) < 0 ||
	    (r = get_string(ctx, e, "message", true, w->message, sizeof(w->message))) < 0 ||
	    (r = get_levels(ctx, e, "levels", &w->levels_mask)) < 0)
		return r;
	return 0;
}

static int parse_layouts(struct parse_ctx *ctx, json_object *e, struct sp_level_rule *rule)
{
	json_object *v;

	if (!json_object_object_get_ex(e, "layouts", &v))
		return 0;
	if (rule->level != SP_LEVEL_10)
		return bad(ctx, "layouts", "apply to raid10 only");
	if (!json_object_is_type(v, json_type_array) || json_object_array_length(v) == 0 ||
	    json_object_array_length(v) > SP_PROFILE_MAX_LAYOUTS)
		return bad(ctx, "layouts", "must be a list of 1 to 8 md layouts (\"n2\", \"f2\" ...)");
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		json_object *l = json_object_array_get_idx(v, i);

		if (!json_object_is_type(l, json_type_string) ||
		    sp_parse_md_layout(json_object_get_string(l), &rule->layouts[i], NULL) < 0)
			return bad(ctx, "layouts", "lists an unknown layout (n2, n3, f2, f3, o2, o3)");
		rule->n_layouts = i + 1;
	}
	return 0;
}

/*
 * { "level": 10, "min_disks": 2, "layouts": ["n2", ...], "stripe": "near-copies" }:
 * what the controller allows for one level (md's rules differ from a
 * hardware controller's).  Unset keys keep the hardware rule's values.
 */
static int parse_level_rule(struct parse_ctx *ctx, json_object *e, struct sp_level_rule *rule)
{
	static const char *const keys[] = { "level", "min_disks", "even_disks", "layouts",
					    "stripe", NULL };
	json_object *v;
	char text[16] = "";
	enum sp_level level;
	int r;

	if (!json_object_is_type(e, json_type_object))
		return bad(ctx, "level_rules", "entries must be objects");
	if ((r = check_keys(ctx, e, keys)) < 0)
		return r;
	if (!json_object_object_get_ex(e, "level", &v) || !json_object_is_type(v, json_type_int))
		return bad(ctx, "level", "must be a RAID level number");
	snprintf(text, sizeof(text), "%" PRId64, json_object_get_int64(v));
	if (sp_parse_level(text, &level, NULL) < 0)
		return bad(ctx, "level", "is an unknown RAID level");
	*rule = *sp_level_default_rule(level);
	if (json_object_object_get_ex(e, "min_disks", &v)) {
		int64_t n = json_object_get_int64(v);

		if (!json_object_is_type(v, json_type_int) || n < 1 || n > SP_MAX_DISKS)
			return bad(ctx, "min_disks", "must be a number from 1 to 1024");
		rule->min_disks = (unsigned)n;
	}
	if ((r = get_bool(ctx, e, "even_disks", &rule->even_disks)) < 0 ||
	    (r = parse_layouts(ctx, e, rule)) < 0 ||
	    (r = get_string(ctx, e, "stripe", false, text, sizeof(text))) < 0)
		return r;
	if (json_object_object_get_ex(e, "stripe", NULL)) {
		if (!strcmp(text, "near-copies"))
			rule->stripe = SP_STRIPE_NEAR_COPIES;
		else if (!strcmp(text, "pairs"))
			rule->stripe = SP_STRIPE_PAIRS;
		else
			return bad(ctx, "stripe", "must be \"pairs\" or \"near-copies\"");
		if (rule->level != SP_LEVEL_10)
			return bad(ctx, "stripe", "applies to raid10 only");
	}
	if (rule->stripe == SP_STRIPE_NEAR_COPIES && !rule->n_layouts)
		return bad(ctx, "stripe", "\"near-copies\" needs the layouts the level takes");
	return 0;
}

const struct sp_level_rule *sp_profile_level_rule(const struct sp_profile *profile,
						  enum sp_level level)
{
	for (size_t i = 0; profile && i < profile->n_level_rules; i++)
		if (profile->level_rules[i].level == level)
			return &profile->level_rules[i];
	return sp_level_default_rule(level);
}

/* Calls parse(ctx, element, &items[i]) for each element of array `key`. */
#define PARSE_LIST(ctx, obj, key, items, count, max, parse)                                \
	({                                                                                  \
		json_object *list_;                                                         \
		int r_ = 0;                                                                 \
		if (json_object_object_get_ex(obj, key, &list_)) {                         \
			if (!json_object_is_type(list_, json_type_array))                   \
				r_ = bad(ctx, key, "must be a list");                       \
			else if (json_object_array_length(list_) > (max))                   \
				r_ = bad(ctx, key, "has too many entries");                 \
			for (size_t i_ = 0; r_ == 0 && i_ < json_object_array_length(list_); \
			     i_++) {                                                        \
				r_ = parse(ctx, json_object_array_get_idx(list_, i_),       \
					   &(items)[i_]);                                   \
				if (r_ == 0)                                                \
					(count)++;                                          \
			}                                                                   \
		}                                                                           \
		r_;                                                                         \
	})

static int parse_advice(struct parse_ctx *ctx, json_object *e, char (*out)[SP_MSG_MAX])
{
	if (!json_object_is_type(e, json_type_string) ||
	    strlen(json_object_get_string(e)) >= SP_MSG_MAX)
		return bad(ctx, "advice", "entries must be strings");
	snprintf(*out, SP_MSG_MAX, "%s", json_object_get_string(e));
	return 0;
}

static int parse_scheduler(struct parse_ctx *ctx, json_object *obj, struct sp_profile *p)
{
	static const char *const keys[] = { "name", "why", NULL };
	json_object *v;
	int r;

	if (!json_object_object_get_ex(obj, "scheduler", &v))
		return 0;
	if (!json_object_is_type(v, json_type_object))
		return bad(ctx, "scheduler", "must be an object with name and why");
	if ((r = check_keys(ctx, v, keys)) < 0 ||
	    (r = get_string(ctx, v, "name", true, p->scheduler, sizeof(p->scheduler))) < 0 ||
	    (r = get_string(ctx, v, "why", true, p->scheduler_why, sizeof(p->scheduler_why))) < 0)
		return r;
	if (!sp_kernel_scheduler_alias(p->scheduler))
		return bad(ctx, "scheduler", "names an unknown I/O scheduler");
	return 0;
}

static int parse_chunks(struct parse_ctx *ctx, json_object *obj, struct sp_profile *p)
{
	char text[32] = "";
	int r;

	if ((r = get_string(ctx, obj, "chunk_min", true, text, sizeof(text))) < 0 ||
	    (r = sp_parse_size(text, "chunk_min", &p->chunk_min_bytes, ctx->err)) < 0 ||
	    (r = get_string(ctx, obj, "chunk_max", true, text, sizeof(text))) < 0 ||
	    (r = sp_parse_size(text, "chunk_max", &p->chunk_max_bytes, ctx->err)) < 0)
		return r;
	if (!sp_is_power_of_two(p->chunk_min_bytes) || !sp_is_power_of_two(p->chunk_max_bytes) ||
	    p->chunk_min_bytes > p->chunk_max_bytes)
		return bad(ctx, "chunk_min", "and chunk_max must be powers of two, min <= max");
	return 0;
}

int sp_profile_parse(const char *json_text, const char *origin, struct sp_profile *ret,
		     struct sp_error *err)
{
	static const char *const keys[] = {
		"name", "description", "driver", "device_naming", "source", "levels",
		"chunk_min", "chunk_max", "max_disks", "protected_write_cache", "md",
		"scheduler", "member_scheduler", "tuning", "module_options",
		"warnings", "advice", "level_rules", NULL,
	};
	struct parse_ctx ctx = { origin, err };
	struct sp_profile *p = calloc(1, sizeof(*p));
	json_tokener *tok = json_tokener_new();
	json_object *obj = NULL, *v;
	int r = -ENOMEM;

	if (!p || !tok)
		goto out;
	obj = json_tokener_parse_ex(tok, json_text, (int)strlen(json_text));
	if (!obj || json_tokener_get_error(tok) != json_tokener_success) {
		r = sp_error_set(err, EINVAL, SP_ERR_INVALID, "profile %s: not JSON: %s",
				 origin, json_tokener_error_desc(json_tokener_get_error(tok)));
		goto out;
	}
	if (!json_object_is_type(obj, json_type_object)) {
		r = bad(&ctx, "(top level)", "must be an object");
		goto out;
	}
	if ((r = check_keys(&ctx, obj, keys)) < 0 ||
	    (r = get_string(&ctx, obj, "name", true, p->name, sizeof(p->name))) < 0 ||
	    (r = get_string(&ctx, obj, "description", true, p->description,
			    sizeof(p->description))) < 0 ||
	    (r = get_string(&ctx, obj, "driver", false, p->driver, sizeof(p->driver))) < 0 ||
	    (r = get_string(&ctx, obj, "device_naming", false, p->device_naming,
			    sizeof(p->device_naming))) < 0 ||
	    (r = get_string(&ctx, obj, "source", false, p->source, sizeof(p->source))) < 0 ||
	    (r = get_levels(&ctx, obj, "levels", &p->levels_mask)) < 0 ||
	    (r = parse_chunks(&ctx, obj, p)) < 0 ||
	    (r = get_bool(&ctx, obj, "protected_write_cache", &p->protected_write_cache)) < 0 ||
	    (r = get_bool(&ctx, obj, "md", &p->is_md)) < 0 ||
	    (r = parse_scheduler(&ctx, obj, p)) < 0 ||
	    (r = get_string(&ctx, obj, "member_scheduler", false, p->member_scheduler,
			    sizeof(p->member_scheduler))) < 0)
		goto out;
	if (p->member_scheduler[0] && !sp_kernel_scheduler_alias(p->member_scheduler)) {
		r = bad(&ctx, "member_scheduler", "names an unknown I/O scheduler");
		goto out;
	}
	if (p->levels_mask == 0) {
		r = bad(&ctx, "levels", "is missing");
		goto out;
	}
	if (json_object_object_get_ex(obj, "max_disks", &v)) {
		int64_t n = json_object_get_int64(v);

		if (!json_object_is_type(v, json_type_int) || n < 2 || n > SP_MAX_DISKS) {
			r = bad(&ctx, "max_disks", "must be a number from 2 to 1024");
			goto out;
		}
		p->max_disks = (unsigned)n;
	}
	if (!p->name[0]) {
		r = bad(&ctx, "name", "must not be empty");
		goto out;
	}
	for (const char *c = p->name; *c; c++) {
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-')) {
			r = bad(&ctx, "name", "must be lowercase letters, digits and '-'");
			goto out;
		}
	}
	if ((r = PARSE_LIST(&ctx, obj, "tuning", p->knobs, p->n_knobs, SP_PROFILE_MAX_KNOBS,
			    parse_knob)) < 0 ||
	    (r = PARSE_LIST(&ctx, obj, "module_options", p->module_options, p->n_module_options,
			    SP_PROFILE_MAX_MODOPTS, parse_module_option)) < 0 ||
	    (r = PARSE_LIST(&ctx, obj, "warnings", p->warnings, p->n_warnings,
			    SP_PROFILE_MAX_WARNINGS, parse_warning)) < 0 ||
	    (r = PARSE_LIST(&ctx, obj, "advice", p->advice, p->n_advice, SP_PROFILE_MAX_ADVICE,
			    parse_advice)) < 0 ||
	    (r = PARSE_LIST(&ctx, obj, "level_rules", p->level_rules, p->n_level_rules,
			    SP_PROFILE_MAX_LEVEL_RULES, parse_level_rule)) < 0)
		goto out;
	*ret = *p;
	r = 0;
out:
	json_object_put(obj);
	if (tok)
		json_tokener_free(tok);
	free(p);
	if (r == -ENOMEM)
		sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	return r;
}

/* A later profile with the same name replaces the earlier one, so a
 * site can override a shipped profile from /etc/stripeplan/controllers.d. */
static int set_add(struct sp_profile_set *set, const char *text, const char *origin,
		   struct sp_error *err)
{
	struct sp_profile p;
	int r = sp_profile_parse(text, origin, &p, err);

	if (r < 0)
		return r;
	for (size_t i = 0; i < set->n; i++) {
		if (!strcmp(set->profiles[i].name, p.name)) {
			set->profiles[i] = p;
			return 0;
		}
	}
	if (set->n >= MAX_PROFILES)
		return sp_error_set(err, ENOSPC, SP_ERR_INVALID,
				    "too many profiles (at most %u)", MAX_PROFILES);
	set->profiles[set->n++] = p;
	return 0;
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

static int set_add_dir(struct sp_profile_set *set, const char *dir, struct sp_error *err)
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
				r = set_add(set, text, path, err);
			free(text);
		}
		free(names[i]);
	}
	free(names);
	return r;
}

int sp_profiles_load(const char *const *dirs, struct sp_profile_set **ret, struct sp_error *err)
{
	struct sp_profile_set *set = calloc(1, sizeof(*set));
	int r = 0;

	if (!set)
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	for (const struct sp_embedded *e = sp_embedded_profiles; r == 0 && e->name; e++)
		r = set_add(set, e->text, e->name, err);
	for (size_t i = 0; r == 0 && dirs && dirs[i]; i++)
		r = set_add_dir(set, dirs[i], err);
	if (r < 0) {
		sp_profiles_free(set);
		return r;
	}
	*ret = set;
	return 0;
}

struct sp_profile_set *sp_profiles_free(struct sp_profile_set *set)
{
	free(set);
	return NULL;
}

size_t sp_profiles_count(const struct sp_profile_set *set)
{
	return set ? set->n : 0;
}

const struct sp_profile *sp_profiles_get(const struct sp_profile_set *set, size_t i)
{
	return set && i < set->n ? &set->profiles[i] : NULL;
}

const struct sp_profile *sp_profiles_find(const struct sp_profile_set *set, const char *name)
{
	for (size_t i = 0; set && i < set->n; i++)
		if (!strcmp(set->profiles[i].name, name))
			return &set->profiles[i];
	return NULL;
}

void sp_profiles_names(const struct sp_profile_set *set, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; set && i < set->n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 set->profiles[i].name);
}

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
