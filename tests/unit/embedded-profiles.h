/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The built-in controller profiles, loaded once for a group of unit tests:
 * cmocka's group setup and teardown, shared by the tests that plan.
 */
#ifndef SP_TEST_EMBEDDED_PROFILES_H
#define SP_TEST_EMBEDDED_PROFILES_H

#include "array/profile.h"
#include "base/error.h"

static struct sp_profile_set *profiles;

static int setup(void **state)
{
	struct sp_error err = { 0 };

	(void)state;
	return sp_profiles_embedded(&profiles, &err);
}

static int teardown(void **state)
{
	(void)state;
	profiles = sp_profiles_free(profiles);
	return 0;
}

#endif
