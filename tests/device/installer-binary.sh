#!/bin/bash
# The installer binary (-DSTRIPEPLAN_STATIC_DEPS=ON): its dynamic libraries
# are exactly those Anaconda and debian-installer images carry (README,
# "What to put in the installer image"); in a chroot that holds nothing but
# it and those libraries (no /dev/null, no shell) --version, --help,
# controllers and plan in every format start no process (strace) and create
# nothing; in the chroot below plan and check start none and apply only mkfs;
# and it plans, applies and checks a
# loop device from inside a chroot that holds nothing but busybox, those
# libraries, and mkfs.xfs — which an installer has from its own xfsprogs
# package; here it is copied in with its own libraries, kept in a directory
# of their own so that stripeplan cannot find them.
# /dev, /proc and /sys are bind-mounted; fixtures/loop.sh's trap unmounts
# them (newest first) and detaches the device on every way out.
. "$SRCDIR/tests/device/lib.bash"
# shellcheck source=installer-root.bash
. "$SRCDIR/tests/device/installer-root.bash"

EXPECTED_LIBS=$INSTALLER_LIBS
if [ "$(uname -m)" != x86_64 ]; then
	fail "INSTALLER_LIBS names x86_64's loader; give this architecture's list"
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
installer_libs "$bin" >"$WORK/libs"
checks=$((checks + 1))
diff -u <(echo "$EXPECTED_LIBS") "$WORK/libs" >&2 || fail "ldd lists other libraries than the installer images carry"

# --- a chroot with no /dev/null, no shell: nothing started, nothing made ----
# (the static libparted's constructor ran 'sh -c dmidecode ... 2>/dev/null'
# at every start, which made /dev/null a regular file in such a chroot)
bare="$WORK/bare"
bare_root "$bare" "$bin"
(cd "$bare" && find . | sort) >"$WORK/bare-before"
OFFLINE=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --mountpoint /data
	--device /dev/sdb --size 2398G)
bare_run() {
	local name=$1
	shift
	checks=$((checks + 1))
	strace -f -qq -e trace=execve,clone,clone3,fork,vfork -o "$WORK/trace" \
		/usr/bin/env -i PATH=/usr/sbin:/sbin:/bin LC_ALL=C /usr/sbin/chroot "$bare" /usr/sbin/stripeplan "$@" \
		>"$WORK/out" 2>"$WORK/err" || fail "$name in the bare chroot: exit $?: $(cat "$WORK/err")"
	checks=$((checks + 1))
	processes_started "$WORK/trace" /usr/bin/env /usr/sbin/chroot /usr/sbin/stripeplan >"$WORK/started"
	[ ! -s "$WORK/started" ] || fail "$name started processes: $(cat "$WORK/started")"
}
bare_run --version --version
bare_run --help --help
bare_run controllers controllers
for format in text json kickstart preseed script udev fstab; do
	bare_run "plan --format $format" plan "${OFFLINE[@]}" --format "$format"
done
checks=$((checks + 1))
grep -q "UUID=@FS_UUID@ /data xfs " "$WORK/out" || fail "the offline plan has no fstab line: $(head -3 "$WORK/out")"
checks=$((checks + 1))
diff -u "$WORK/bare-before" <(cd "$bare" && find . | sort) >&2 || fail "the runs made files in the bare chroot (above)"

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

# traced CMD...: in_chroot CMD under strace (the trace in $WORK/trace)
traced() {
	strace -f -qq -e trace=execve,clone,clone3,fork,vfork -o "$WORK/trace" \
		/usr/bin/env -i PATH=/usr/sbin:/sbin:/bin LC_ALL=C /usr/sbin/chroot "$chroot" "$@"
}
# expect_started NAME PROGRAM...: the traced run started no process but
# those running the PROGRAMs
expect_started() {
	local name=$1
	shift
	checks=$((checks + 1))
	processes_started "$WORK/trace" /usr/bin/env /usr/sbin/chroot /usr/sbin/stripeplan "$@" >"$WORK/started"
	if [ $# = 0 ]; then
		[ ! -s "$WORK/started" ] || fail "$name started processes: $(cat "$WORK/started")"
	else
		# mkfs runs in a child (a fork, then the programs); nothing else is executed
		! grep -q '^program: ' "$WORK/started" || fail "$name ran other programs: $(grep '^program: ' "$WORK/started")"
	fi
}

ARRAY=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --mountpoint /data)
expect_ok "version in the chroot" traced stripeplan --version
expect_started "version in the chroot"
expect_ok "plan in the chroot" traced stripeplan plan "${ARRAY[@]}" --device "$dev"
expect_out 'su=256k,sw=4'
expect_started "plan in the chroot"
expect_ok "apply --dry-run in the chroot" traced stripeplan apply "${ARRAY[@]}" --device "$dev" --root /target --dry-run
expect_started "apply --dry-run in the chroot" /sbin/mkfs.xfs /opt/xfsprogs/mkfs.xfs
expect_ok "apply in the chroot" traced stripeplan apply "${ARRAY[@]}" --device "$dev" --root /target
expect_out 'done: the device now matches the plan'
expect_started "apply in the chroot" /sbin/mkfs.xfs /opt/xfsprogs/mkfs.xfs
checks=$((checks + 1))
grep -q 'execve("/opt/xfsprogs/mkfs.xfs"' "$WORK/trace" || fail "the traced apply ran no mkfs.xfs: the trace sees nothing"
expect_ok "check in the chroot" traced stripeplan check "${ARRAY[@]}" --device "$dev" --root /target
expect_out 'match: the device matches the plan'
expect_started "check in the chroot"

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
