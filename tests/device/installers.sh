#!/bin/bash
# The kickstart %post body and the preseed late_command, run as the
# installers would, against loop devices and scratch target roots: they
# must leave a correct fstab line, udev rule and tuning script there, and
# check must then find no drift — and must find it once a knob changes.
. "$SRCDIR/tests/device/lib.bash"

# the snippets call "stripeplan" by name, as an installer image would
PATH="$(dirname "$STRIPEPLAN"):$PATH"
ARRAY=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --mountpoint /data)

# installed_ok DEV ROOT NAME: what the snippet left in ROOT is right
installed_ok() {
	local dev=$1 root=$2 name=$3 uuid knob
	uuid=$(blkid -o value -s UUID "${dev}p1")
	checks=$((checks + 1))
	grep -qx "UUID=$uuid /data xfs noatime,logbufs=8,logbsize=256k,nofail,x-systemd.device-timeout=30s 0 0" \
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
	expect_ok "$name: check" sp check "${ARRAY[@]}" --device "$dev" --root "$root"
	expect_out 'match: the device matches the plan'
	# drift: someone lowers the read-ahead; check names it, the script restores it
	echo 128 >"$knob"
	expect_rc 1 "read_ahead_kb on $(basename "$dev") is 128, the plan says 4096" \
		sp check "${ARRAY[@]}" --device "$dev" --root "$root"
	expect_ok "$name: tune script" "$root/usr/local/sbin/stripeplan-tune-$(basename "$dev")"
	checks=$((checks + 1))
	[ "$(cat "$knob")" = 4096 ] || fail "$name: the tune script did not restore read_ahead_kb"
}

new_root() {
	mkdir -p "$1/etc"
	printf '# existing line kept\nproc /proc proc defaults 0 0\n' >"$1/etc/fstab"
}

# --- kickstart: %post --nochroot with /mnt/sysimage -----------------------
dev=$(sp_loop_create 1G) || exit 1
ks="$WORK/ks.cfg"
expect_ok "kickstart snippet" sp plan "${ARRAY[@]}" --device "$dev" --format kickstart -o "$ks"
sysimage="$WORK/sysimage"
new_root "$sysimage"
# the %post body, with the installed system where this test keeps it
sed -n '/^%post --nochroot/,/^%end/{/^%/d;p}' "$ks" | sed "s|/mnt/sysimage|$sysimage|g" >"$WORK/post.sh"
checks=$((checks + 1))
[ -s "$WORK/post.sh" ] || fail "no %post --nochroot body in the kickstart snippet"
expect_ok "kickstart %post" sh -e "$WORK/post.sh"
installed_ok "$dev" "$sysimage" kickstart

# --- preseed: late_command with /target ------------------------------------
dev2=$(sp_loop_create 1G) || exit 1
expect_ok "preseed snippet" sp plan "${ARRAY[@]}" --device "$dev2" --format preseed -o "$WORK/preseed.cfg"
target="$WORK/target"
new_root "$target"
sed -n 's|^d-i preseed/late_command string ||p' "$WORK/preseed.cfg" | sed "s|/target|$target|g" >"$WORK/late.sh"
expect_ok "preseed late_command" sh -e "$WORK/late.sh"
installed_ok "$dev2" "$target" preseed

# an installer run again (a retried install) converges: nothing changes
before=$(digest "$dev2")
expect_ok "preseed again" sh -e "$WORK/late.sh"
expect_out 'unchanged: the device already matched the plan'
unchanged "$dev2" "$before" "second late_command"
checks=$((checks + 1))
[ "$(grep -c '^UUID=' "$target/etc/fstab")" = 1 ] || fail "second run added a second fstab line"

device_finish
