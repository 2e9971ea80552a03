# shellcheck shell=bash
# Installer environments for the device tests: a root directory holding only
# busybox, one stripeplan binary with the libraries ldd names for it, and
# mkfs.xfs with its own libraries in a directory of their own (an installer
# has mkfs.xfs from its xfsprogs package; stripeplan must not find those
# libraries).  Needs tests/device/lib.bash (sp_loop_mount cleans up the
# bind mounts).

# the libraries the installer binary may load (sonames, as ldd lists them;
# x86_64's loader): what the Anaconda and debian-installer images carry
# (README, "What to put in the installer image")
# shellcheck disable=SC2034 # used by the scripts that source this one
INSTALLER_LIBS="ld-linux-x86-64.so.2
libc.so.6
libdevmapper.so.1.02.1
libm.so.6
libpcre2-8.so.0
libselinux.so.1
libudev.so.1"

# installer_libs BIN: the sonames ldd lists for BIN, sorted
installer_libs() {
	ldd "$1" | awk '$1 != "linux-vdso.so.1" { n = $1; sub(".*/", "", n); print n }' | sort
}

# bare_root ROOT BIN: ROOT holds BIN as /usr/sbin/stripeplan with its
# libraries and nothing else: no /dev (so no /dev/null), no shell, no /proc
bare_root() {
	mkdir -p "$1"
	copy_with_libs "$2" "$1" /usr/sbin/stripeplan
}

# processes_started TRACE [PROGRAM...]: what a run under
# 'strace -f -e trace=execve,clone,clone3,fork,vfork -o TRACE' started, one
# line each: every new process (a clone that is not a thread's, a fork), and
# every program executed but the PROGRAMs (full paths: the chain that
# started stripeplan, and what it may run)
processes_started() {
	local trace=$1
	shift
	awk -v allowed="$*" '
		BEGIN { n = split(allowed, a, " "); for (i = 1; i <= n; i++) ok["\"" a[i] "\""] = 1 }
		/ (clone|clone3|fork|vfork)\(/ && !/CLONE_THREAD/ && !/= -1 / { print "process: " $0; next }
		/ execve\(/ { p = $2; sub(/^execve\(/, "", p); sub(/,$/, "", p); if (!(p in ok)) print "program: " $0 }
	' "$trace"
}

# installer_binary: the path of the -DSTRIPEPLAN_STATIC_DEPS=ON binary, built
# in build-installer/ (the README's directory; ignored by git) once, and
# incrementally by every test run after that, the ASan suite's included
installer_binary() {
	local dir="$SRCDIR/build-installer"
	{ cmake -S "$SRCDIR" -B "$dir" -DSTRIPEPLAN_STATIC_DEPS=ON -DBUILD_TESTING=OFF &&
		cmake --build "$dir" --target stripeplan -j "$(nproc)"; } >"$WORK/static-build.log" 2>&1 ||
		return 1
	echo "$dir/stripeplan"
}

# copy_with_libs BIN ROOT DEST: BIN at ROOT/DEST, each library it loads at
# the path the loader found it at
copy_with_libs() {
	local lib
	mkdir -p "$2$(dirname "$3")"
	cp "$1" "$2$3"
	ldd "$1" | awk '/=> \// { print $3 } /^\t\/lib/ { print $1 }' | while read -r lib; do
		mkdir -p "$2$(dirname "$lib")"
		cp -L "$lib" "$2$lib"
	done
}

# installer_root ROOT BIN: ROOT holds busybox, BIN as /usr/sbin/stripeplan,
# mkfs.xfs; /dev, /proc and /sys are bind-mounted into it
installer_root() {
	local root=$1 applet mkfs lib fs
	mkdir -p "$root"/{bin,sbin,usr/sbin,etc,run,tmp,dev,proc,sys,opt/xfsprogs/lib}
	cp /bin/busybox "$root/bin/busybox"
	for applet in sh ls cat mkdir mount umount; do
		ln -sf busybox "$root/bin/$applet"
	done
	copy_with_libs "$2" "$root" /usr/sbin/stripeplan
	mkfs=$(command -v mkfs.xfs)
	cp "$mkfs" "$root/opt/xfsprogs/mkfs.xfs"
	ldd "$mkfs" | awk '/=> \// { print $3 }' | while read -r lib; do
		cp -L "$lib" "$root/opt/xfsprogs/lib/"
	done
	printf '#!/bin/sh\nLD_LIBRARY_PATH=/opt/xfsprogs/lib exec /opt/xfsprogs/mkfs.xfs "$@"\n' \
		>"$root/sbin/mkfs.xfs"
	chmod +x "$root/sbin/mkfs.xfs"
	for fs in dev proc sys; do
		sp_loop_mount "/$fs" "$root/$fs" bind
	done
}
