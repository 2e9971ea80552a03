/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Opens libparted on first use (why: parted.h). */
#include <dlfcn.h>
#include <stdio.h>

#include "parted.h"

#ifndef SP_LIBPARTED_SONAME
#define SP_LIBPARTED_SONAME "libparted.so.2"
#endif

struct sp_parted sp_parted;

/* the one cast POSIX allows: dlsym's void * to a function pointer */
#define LOAD(t, f) ((t).f = (__typeof__((t).f))dlsym(handle, "ped_" #f))

const char *sp_parted_load(void)
{
	static void *handle;
	static char why[256];
	struct sp_parted t;

	if (handle)
		return NULL;
	/* kept open for the life of the process: libparted's own state
	 * (exception handler, device cache) lives as long as we use it */
	handle = dlopen(SP_LIBPARTED_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		snprintf(why, sizeof(why), "%s", dlerror());
		return why;
	}
	if (!LOAD(t, constraint_destroy) || !LOAD(t, constraint_exact) ||
	    !LOAD(t, device_destroy) || !LOAD(t, device_get) || !LOAD(t, disk_add_partition) ||
	    !LOAD(t, disk_commit_to_dev) || !LOAD(t, disk_commit_to_os) ||
	    !LOAD(t, disk_destroy) || !LOAD(t, disk_new) || !LOAD(t, disk_new_fresh) ||
	    !LOAD(t, disk_next_partition) || !LOAD(t, disk_probe) || !LOAD(t, disk_type_get) ||
	    !LOAD(t, exception_get_handler) || !LOAD(t, exception_set_handler) ||
	    !LOAD(t, partition_destroy) || !LOAD(t, partition_is_active) ||
	    !LOAD(t, partition_new)) {
		snprintf(why, sizeof(why), "%s", dlerror());
		dlclose(handle);
		handle = NULL;
		return why;
	}
	sp_parted = t;
	return NULL;
}
