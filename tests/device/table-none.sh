#!/bin/bash
# --table none (the md default) on real loop devices: the filesystem on the
# whole device, no label; a label already there is refused without --force
# and wiped with it; check reports a label as a difference.  And a mirror
# (RAID1): no stripe in the filesystem.
. "$SRCDIR/tests/device/lib.bash"

GEN=(--controller generic --level 5 --disks 4 --chunk 64K --kernel 6.1)

dev=$(sp_loop_create 1G) || exit 1
before=$(digest "$dev")
expect_ok "dry run" sp apply "${GEN[@]}" --table none --fs xfs --device "$dev" --dry-run
expect_out "would: .*mkfs.xfs -b size=4096 -d su=64k,sw=3,agsize=[0-9]+k? -l su=4k $dev\$"
unchanged "$dev" "$before" "dry run"

expect_ok "apply on the whole device" sp apply "${GEN[@]}" --table none --fs xfs --device "$dev" --mountpoint /r1
expect_out 'no partition table: the filesystem on the whole device'
checks=$((checks + 1))
[ "$(blkid -o value -s TYPE "$dev")" = xfs ] || fail "no xfs on $dev itself"
checks=$((checks + 1))
[ -z "$(blkid -o value -s PTTYPE "$dev")" ] || fail "$dev has a partition table"
checks=$((checks + 1))
xfs_db -r -c 'sb 0' -c 'p unit width' "$dev" >"$WORK/sb"
if ! grep -qx 'unit = 16' "$WORK/sb" || ! grep -qx 'width = 48' "$WORK/sb"; then
	fail "xfs geometry read by xfs_db: $(cat "$WORK/sb")"
fi
checks=$((checks + 1))
grep -q ' /r1 xfs ' "$SP_TEST_ROOT/etc/fstab" || fail "no fstab line for /r1"
expect_ok "check" sp check "${GEN[@]}" --table none --fs xfs --device "$dev" --mountpoint /r1
expect_out 'match: the device matches the plan'
before=$(digest "$dev")
expect_ok "re-run" sp apply "${GEN[@]}" --table none --fs xfs --device "$dev" --mountpoint /r1
expect_out 'unchanged'
unchanged "$dev" "$before" "idempotent re-run"

# a GPT label where the plan wants none: check says so, apply refuses
# without --force (bytes unchanged) and replaces it with --force
expect_ok "label it" sp apply "${GEN[@]}" --table gpt --fs xfs --device "$dev" --force
before=$(digest "$dev")
expect_rc 1 "has a gpt partition table" sp check "${GEN[@]}" --table none --fs xfs --device "$dev"
expect_rc 3 "without --force" sp apply "${GEN[@]}" --table none --fs xfs --device "$dev"
unchanged "$dev" "$before" "refusal to drop a label"
expect_ok "apply --force" sp apply "${GEN[@]}" --table none --fs ext4 --device "$dev" --force
checks=$((checks + 1))
if [ "$(blkid -o value -s TYPE "$dev")" != ext4 ] || [ -n "$(blkid -o value -s PTTYPE "$dev")" ]; then
	fail "after --force: $(blkid "$dev")"
fi
checks=$((checks + 1))
[ ! -e "${dev}p1" ] || fail "the kernel still has ${dev}p1"
checks=$((checks + 1))
dumpe2fs -h "$dev" 2>/dev/null | grep -Eq '^RAID stride: +16$' || fail "ext4 stride is not 16"

# a mirror has no stripe: xfs without sunit, ext4 without stride
mirror=$(sp_loop_create 1G) || exit 1
expect_ok "raid1 xfs" sp apply --controller generic --level 1 --disks 2 --kernel 6.1 --fs xfs --device "$mirror"
checks=$((checks + 1))
[ "$(kernel_start "${mirror}p1")" = 2048 ] || fail "the mirror's partition does not start at 1 MiB"
checks=$((checks + 1))
xfs_db -r -c 'sb 0' -c 'p unit width' "${mirror}p1" >"$WORK/sb"
if ! grep -qx 'unit = 0' "$WORK/sb" || ! grep -qx 'width = 0' "$WORK/sb"; then
	fail "a mirror's xfs has a stripe: $(cat "$WORK/sb")"
fi
expect_ok "raid1 check" sp check --controller generic --level 1 --disks 2 --kernel 6.1 --fs xfs --device "$mirror"
expect_out 'match: the device matches the plan'
device_finish
