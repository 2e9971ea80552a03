# shellcheck shell=bash
# Installer environments for the device tests: a root directory holding only
# busybox, one stripeplan binary with the libraries ldd names for it, and
# mkfs.xfs with its own libraries in a directory of their own (an installer
# has mkfs.xfs from its xfsprogs package; stripeplan must not find those
# libraries).  Needs tests/device/lib.bash (sp_loop_mount cleans up the
# bind mounts).

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
