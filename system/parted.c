/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Opens libparted on first use (why: parted.h). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "parted.h"

#ifndef SP_LIBPARTED_SONAME
#define SP_LIBPARTED_SONAME "libparted.so.2"
#endif

struct sp_parted sp_parted;

/*
 * Debian's and Ubuntu's libparted (their gptsync patch) runs
 * `sh -c "dmidecode -s system-manufacturer"` through popen(), from PATH
 * and with no time limit, in the GPT label's constructor
 * ped_disk_gpt_init(), to give Intel Macs a "synced" hybrid MBR instead of
 * the protective one -- unless PARTED_GPT_APPLE is set: "1" forces the
 * hybrid MBR, anything else the protective one, and then nothing is run
 * (parted's own tests set it so).  Set to "0" before libparted's
 * constructor can run, no shell and no dmidecode are ever started, and
 * every GPT written has the protective MBR, whatever the caller's
 * environment said.  A constructor, because the installer build links
 * libparted in (cmake/static-deps.cmake) and its constructor then runs
 * before main(); priority 101 puts ours first, ahead of every constructor
 * without one.  Upstream parted has no such code and ignores the variable.
 */
static void no_dmidecode(void)
{
	setenv("PARTED_GPT_APPLE", "0", 1);
}

static void __attribute__((constructor(101))) no_dmidecode_at_start(void)
{
	no_dmidecode();
}

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
	no_dmidecode();
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
