#!/bin/bash
# The kickstart %post body and the preseed late_command, run as the
# installers would, against loop devices: they must leave a correct fstab
# line, udev rule and tuning script in the new system, and check must then
# find no drift — and must find it once a knob changes.
# - Anaconda runs %post --nochroot in its own environment, the new system
#   at /mnt/sysimage: here a root of busybox, the installer binary at
#   /usr/sbin/stripeplan (where an updates image puts it) and mkfs.xfs.
# - debian-installer runs late_command in the installer, and in-target runs
#   a command chrooted into /target, where pkgsel installed the package;
#   /dev is bound there by base-installer, /proc and /sys mounted by
#   chroot_setup.  Here /target is a root holding the package's binary with
#   its libraries and mkfs.xfs (xfsprogs, which the package recommends).
. "$SRCDIR/tests/device/lib.bash"
# shellcheck source=installer-root.bash
. "$SRCDIR/tests/device/installer-root.bash"
ARRAY=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --mountpoint /data)

# installed_ok DEV ROOT NAME: what the snippet left in ROOT is right
installed_ok() {
	local dev=$1 root=$2 name=$3 uuid knob
	uuid=$(blkid -o value -s UUID "${dev}p1")
	checks=$((checks + 1))
	grep -qx "UUID=$uuid /data xfs noatime,nofail,x-systemd.device-timeout=30s 0 0" \
		"$root/etc/fstab" || fail "$name: no fstab line for $uuid: $(cat "$root/etc/fstab")"
	checks=$((checks + 1))
	grep -q '^# existing line kept$' "$root/etc/fstab" || fail "$name: the existing fstab line was lost"
	checks=$((checks + 1))
	[ -d "$root/data" ] || fail "$name: mount point not created in the target root"
	checks=$((checks + 1))
	grep -q "KERNEL==\"$(basename "$dev")\".*ATTR{queue/read_ahead_kb}=\"4096\"" \
		"$root/etc/udev/rules.d/60-stripeplan-$(basename "$dev").rules" ||
		fail "$name: udev rule missing or wrong"
	checks=$((checks + 1))
	[ -x "$root/usr/local/sbin/stripeplan-tune-$(basename "$dev")" ] || fail "$name: tune script missing"
	knob="/sys/block/$(basename "$dev")/queue/read_ahead_kb"
	checks=$((checks + 1))
	[ "$(cat "$knob")" = 4096 ] || fail "$name: read_ahead_kb is $(cat "$knob"), not 4096"
	expect_ok "$name: check" sp check --strict "${ARRAY[@]}" --device "$dev" --root "$root"
	expect_out 'match: the device matches the plan'
	# drift: someone lowers the read-ahead; check names it, the script restores it
	echo 128 >"$knob"
	expect_rc 1 "suboptimal: queue/read_ahead_kb on $(basename "$dev") is 128 KiB \(blockdev --setra 256\), the plan says 4096 KiB; fix: echo 4096 > /sys/block/$(basename "$dev")/queue/read_ahead_kb" \
		sp check "${ARRAY[@]}" --device "$dev" --root "$root"
	expect_ok "$name: tune script" "$root/usr/local/sbin/stripeplan-tune-$(basename "$dev")"
	checks=$((checks + 1))
	[ "$(cat "$knob")" = 4096 ] || fail "$name: the tune script did not restore read_ahead_kb"
}

new_root() {
	mkdir -p "$1/etc"
	printf '# existing line kept\nproc /proc proc defaults 0 0\n' >"$1/etc/fstab"
}

# --- kickstart: %post --nochroot in Anaconda's environment ------------------
checks=$((checks + 1))
static=$(installer_binary) || fail "the installer binary did not build: $(tail -20 "$WORK/static-build.log")"
# libparted is linked into it and its constructor runs at every start:
# Debian's would start dmidecode through a shell, from PATH
mkdir -p "$WORK/dmi"
printf '#!/bin/sh\ntouch %q/dmidecode-ran\n' "$WORK" >"$WORK/dmi/dmidecode"
chmod +x "$WORK/dmi/dmidecode"
expect_ok "installer binary --version" env -u PARTED_GPT_APPLE PATH="$WORK/dmi:$PATH" "$static" --version
checks=$((checks + 1))
[ ! -e "$WORK/dmidecode-ran" ] || fail "the installer binary started dmidecode"
dev=$(sp_loop_create 1G) || exit 1
ks="$WORK/ks.cfg"
expect_ok "kickstart snippet" sp plan "${ARRAY[@]}" --device "$dev" --format kickstart -o "$ks"
checks=$((checks + 1))
grep -q '^#   inst.updates=' "$ks" || fail "the kickstart snippet does not say how stripeplan reaches Anaconda"
anaconda="$WORK/anaconda"
installer_root "$anaconda" "$static"
sysimage="$anaconda/mnt/sysimage"
new_root "$sysimage"
mkdir -p "$sysimage/var/log"
sed -n '/^%post --nochroot/,/^%end/{/^%/d;p}' "$ks" >"$anaconda/tmp/post.sh"
checks=$((checks + 1))
[ -s "$anaconda/tmp/post.sh" ] || fail "no %post --nochroot body in the kickstart snippet"
checks=$((checks + 1))
log=$(sed -n 's|^%post --nochroot.*--log=\([^ ]*\).*|\1|p' "$ks")
[ "$log" = /mnt/sysimage/var/log/stripeplan.log ] || fail "the %post logs to '$log'"
# Anaconda runs the body with its shell, output to --log
expect_ok "kickstart %post" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C \
	chroot "$anaconda" sh -e -c "sh -e /tmp/post.sh >$log 2>&1"
checks=$((checks + 1))
grep -q 'done: the device now matches the plan' "$sysimage/var/log/stripeplan.log" ||
	fail "the %post log does not report apply: $(cat "$sysimage/var/log/stripeplan.log")"
installed_ok "$dev" "$sysimage" kickstart

# --- preseed: late_command, in-target into /target --------------------------
dev2=$(sp_loop_create 1G) || exit 1
expect_ok "preseed snippet" sp plan "${ARRAY[@]}" --device "$dev2" --format preseed -o "$WORK/preseed.cfg"
checks=$((checks + 1))
grep -qx 'd-i pkgsel/include string stripeplan' "$WORK/preseed.cfg" ||
	fail "the preseed snippet does not install the package: $(cat "$WORK/preseed.cfg")"
target="$WORK/target"
installer_root "$target" "$STRIPEPLAN"
# the package depends on libparted2, which the partition step dlopen()s
# awk reads all of ldconfig's output: leaving early can kill ldconfig with
# SIGPIPE, which pipefail turns into a silent exit of this test (seen in CI)
libparted=$(ldconfig -p | awk '$1 == "libparted.so.2" && !found { print $NF; found = 1 }')
copy_with_libs "$libparted" "$target" "$libparted"
new_root "$target"
# the sanitizer build's options (and suppressions) go into the chroot with it
sanitizer_env=""
for var in ASAN_OPTIONS UBSAN_OPTIONS; do
	[ -z "${!var:-}" ] || sanitizer_env="$sanitizer_env $var=$(printf '%q' "${!var}")"
done
supp=$(sed -n 's/.*suppressions=\([^:]*\).*/\1/p' <<<"${ASAN_OPTIONS:-}")
if [ -n "$supp" ]; then
	mkdir -p "$target$(dirname "$supp")"
	cp "$supp" "$target$supp"
fi
mkdir "$WORK/d-i"
printf '#!/bin/sh\nexec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C%s chroot %s "$@"\n' \
	"$sanitizer_env" "$target" >"$WORK/d-i/in-target"
chmod +x "$WORK/d-i/in-target"
sed -n 's|^d-i preseed/late_command string ||p' "$WORK/preseed.cfg" >"$WORK/late.sh"
checks=$((checks + 1))
grep -q '^in-target stripeplan apply .* --root /$' "$WORK/late.sh" ||
	fail "late_command is not 'in-target stripeplan apply ... --root /': $(cat "$WORK/late.sh")"
expect_ok "preseed late_command" env PATH="$WORK/d-i:$PATH" sh -e "$WORK/late.sh"
installed_ok "$dev2" "$target" preseed

# an installer run again (a retried install) converges: nothing changes
before=$(digest "$dev2")
expect_ok "preseed again" env PATH="$WORK/d-i:$PATH" sh -e "$WORK/late.sh"
expect_out 'unchanged: the device already matched the plan'
unchanged "$dev2" "$before" "second late_command"
checks=$((checks + 1))
[ "$(grep -c '^UUID=' "$target/etc/fstab")" = 1 ] || fail "second run added a second fstab line"

device_finish
