#!/bin/bash
# The installer binary (-DSTRIPEPLAN_STATIC_DEPS=ON): its dynamic libraries
# are exactly those Anaconda and debian-installer images carry (README,
# "What to put in the installer image"), and it plans, applies and checks a
# loop device from inside a chroot that holds nothing but busybox, those
# libraries, and mkfs.xfs — which an installer has from its own xfsprogs
# package; here it is copied in with its own libraries, kept in a directory
# of their own so that stripeplan cannot find them.
# /dev, /proc and /sys are bind-mounted; fixtures/loop.sh's trap unmounts
# them (newest first) and detaches the device on every way out.
. "$SRCDIR/tests/device/lib.bash"
# shellcheck source=installer-root.bash
. "$SRCDIR/tests/device/installer-root.bash"

# the libraries the installer binary may load (sonames, as ldd lists them)
EXPECTED_LIBS="ld-linux-x86-64.so.2
libc.so.6
libdevmapper.so.1.02.1
libm.so.6
libpcre2-8.so.0
libselinux.so.1
libudev.so.1"
if [ "$(uname -m)" != x86_64 ]; then
	fail "EXPECTED_LIBS names x86_64's loader; give this architecture's list"
	device_finish
	exit 1
fi

# --- build it (in the build directory, beside the normal build) -----------
start=$(date +%s)
checks=$((checks + 1))
if ! bin=$(installer_binary); then
	fail "the static build failed: $(tail -20 "$WORK/static-build.log")"
	device_finish
	exit 1
fi
echo "static build: $(($(date +%s) - start)) s"

# --- exactly these libraries -----------------------------------------------
ldd "$bin" | awk '$1 != "linux-vdso.so.1" { n = $1; sub(".*/", "", n); print n }' | sort >"$WORK/libs"
checks=$((checks + 1))
diff -u <(echo "$EXPECTED_LIBS") "$WORK/libs" >&2 || fail "ldd lists other libraries than the installer images carry"

# --- a chroot with busybox, those libraries, and mkfs.xfs ----------------
chroot="$WORK/chroot"
dev=$(sp_loop_create 1G) || exit 1
installer_root "$chroot" "$bin"
mkdir -p "$chroot/target/etc"
printf '# the target system'"'"'s fstab\n' >"$chroot/target/etc/fstab"

# in_chroot CMD...: CMD inside, with an installer's PATH and nothing else
in_chroot() {
	env -i PATH=/usr/sbin:/sbin:/bin LC_ALL=C chroot "$chroot" "$@"
}

# nothing outside the listed libraries is in the loader's reach
checks=$((checks + 1))
find "$chroot/lib" "$chroot/lib64" -name '*.so*' -printf '%f\n' | sort >"$WORK/present"
diff -u <(echo "$EXPECTED_LIBS") "$WORK/present" >&2 || fail "the chroot holds other libraries than the list"

ARRAY=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --mountpoint /data)
expect_ok "version in the chroot" in_chroot stripeplan --version
expect_ok "plan in the chroot" in_chroot stripeplan plan "${ARRAY[@]}" --device "$dev"
expect_out 'su=256k,sw=4'
expect_ok "apply in the chroot" in_chroot stripeplan apply "${ARRAY[@]}" --device "$dev" --root /target
expect_out 'done: the device now matches the plan'
expect_ok "check in the chroot" in_chroot stripeplan check "${ARRAY[@]}" --device "$dev" --root /target
expect_out 'match: the device matches the plan'

# and the result, read from outside
uuid=$(blkid -o value -s UUID "${dev}p1")
checks=$((checks + 1))
[ "$(blkid -o value -s TYPE "${dev}p1")" = xfs ] || fail "no XFS on ${dev}p1 after apply in the chroot"
checks=$((checks + 1))
grep -q "^UUID=$uuid /data xfs " "$chroot/target/etc/fstab" ||
	fail "no fstab line in the chroot's /target: $(cat "$chroot/target/etc/fstab")"
checks=$((checks + 1))
[ "$(kernel_start "${dev}p1")" = 2048 ] || fail "partition not at 1 MiB: $(kernel_start "${dev}p1")"

device_finish
