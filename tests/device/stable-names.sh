#!/bin/bash
# A disk named by a stable link, as installers and fleets name it
# (/dev/disk/by-id/wwn-..., by-path/...): plan, apply and check through
# the link.  udev names the partition's link "...-part1", and nothing here
# makes it (as in a chroot or an installer without udev): apply must find
# the partition by what the kernel says, partition 1 of the link's disk,
# not wait for a name.  The link lives in this test's scratch tree, shaped
# as udev's, and points at this test's loop device.
. "$SRCDIR/tests/device/lib.bash"

ARRAY=(--controller generic --level 5 --disks 4 --chunk 64K --kernel 6.1 --mountpoint /r1)

dev=$(sp_loop_create 1G) || exit 1
mkdir -p "$WORK/dev/disk/by-id"
link="$WORK/dev/disk/by-id/wwn-0x5000c500deadbeef"
ln -s "$dev" "$link"

# the probed plan keeps the name it was given; the partition is udev's
expect_ok "plan through the link" sp plan "${ARRAY[@]}" --fs xfs --device "$link"
expect_out "^Device $link \\($(basename "$dev")\\)"
expect_out "^Partition $link-part1 \\(gpt label\\)"
expect_out "mkfs.xfs .* $link-part1\$"

before=$(digest "$dev")
expect_ok "dry run" sp apply "${ARRAY[@]}" --fs xfs --device "$link" --dry-run
unchanged "$dev" "$before" "dry run through the link"

expect_ok "apply through the link" sp apply "${ARRAY[@]}" --fs xfs --device "$link"
expect_out "done: the device now matches the plan"
expect_out "^filesystem xfs on $link-part1, UUID="
checks=$((checks + 1))
[ ! -e "$link-part1" ] || fail "something made $link-part1"
checks=$((checks + 1))
[ "$(blkid -o value -s TYPE "${dev}p1")" = xfs ] || fail "no xfs on ${dev}p1: $(blkid "${dev}p1")"
uuid=$(blkid -o value -s UUID "${dev}p1")
checks=$((checks + 1))
grep -q "^UUID=$uuid /r1 xfs " "$SP_TEST_ROOT/etc/fstab" ||
	fail "no fstab line for $uuid: $(cat "$SP_TEST_ROOT/etc/fstab")"

expect_ok "check through the link" sp check --strict "${ARRAY[@]}" --fs xfs --device "$link"
expect_out 'match: the device matches the plan'
# check without --fs reads the filesystem of the kernel's partition 1
expect_ok "check without --fs through the link" sp check --strict "${ARRAY[@]}" --device "$link"
expect_out 'match: the device matches the plan'
before=$(digest "$dev")
expect_ok "re-run through the link" sp apply "${ARRAY[@]}" --fs xfs --device "$link"
expect_out 'unchanged'
unchanged "$dev" "$before" "idempotent re-run through the link"
# a plan file made through the link, probed or offline, applies through it
expect_ok "plan file through the link" \
	sp plan "${ARRAY[@]}" --fs xfs --device "$link" --format json -o "$WORK/plan.json"
expect_ok "apply --plan through the link" sp apply --plan "$WORK/plan.json" --device "$link"
expect_out 'unchanged'
expect_ok "offline plan file through the link" sp plan "${ARRAY[@]}" --fs xfs --device "$link" \
	--size "$(blockdev --getsize64 "$dev")" --format json -o "$WORK/offline.json"
expect_ok "apply --plan (offline) --dry-run through the link" \
	sp apply --plan "$WORK/offline.json" --device "$link" --dry-run
unchanged "$dev" "$before" "plan files through the link"

# once udev's "-part1" link is there, it is the node used; one that points
# at another device is not followed (the kernel's partition is)
ln -s "${dev}p1" "$link-part1"
expect_ok "check with the -part1 link" sp check --strict "${ARRAY[@]}" --fs xfs --device "$link"
expect_out 'match: the device matches the plan'
other=$(sp_loop_create 1G) || exit 1
ln -sfn "$other" "$link-part1"
before=$(digest "$other")
expect_ok "check with a -part1 link to another device" \
	sp check --strict "${ARRAY[@]}" --fs xfs --device "$link"
expect_out 'match: the device matches the plan'
expect_ok "re-chunk --force with a -part1 link to another device" \
	sp apply "${ARRAY[@]/#64K/128K}" --fs xfs --device "$link" --force
unchanged "$other" "$before" "a -part1 link to another device"
checks=$((checks + 1))
xfs_db -r -c 'sb 0' -c 'p unit' "${dev}p1" | grep -qx 'unit = 32' ||
	fail "the re-chunk did not reach ${dev}p1: $(xfs_db -r -c 'sb 0' -c 'p unit' "${dev}p1")"
rm -f "$link-part1"

# a refusal through the link leaves every byte alone
expect_refused "$dev" "without --force" sp apply "${ARRAY[@]}" --fs ext4 --device "$link"
device_finish
