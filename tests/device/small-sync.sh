#!/bin/bash
# --workload small-sync on a loop device: XFS without a stripe unit
# (-d noalign: sunit=0, swidth=0, no log stripe unit), no swalloc in the
# fstab line, the partition still on the full stripe; the plan file
# replans identically, check of it matches, and check with the general
# plan still reports what small-sync gave up.
. "$SRCDIR/tests/device/lib.bash"

# RAID5 4 x 64 KiB: a 192 KiB stripe, parity, so general plans swalloc
ARRAY=(--controller dell-perc6i --level 5 --disks 4 --chunk 64K --kernel 6.1 --fs xfs --mountpoint /mail)
dev=$(sp_loop_create 1G) || exit 1
fstab="$SP_TEST_ROOT/etc/fstab"

expect_ok "plan small-sync" sp plan "${ARRAY[@]}" --workload small-sync --device "$dev"
expect_out '^  workload +small-sync'
expect_out "^  command +mkfs.xfs -b size=4096 -d noalign ${dev}p1$"
expect_ok "plan small-sync json" sp plan "${ARRAY[@]}" --workload small-sync --device "$dev" \
	--format json -o "$WORK/plan.json"
checks=$((checks + 1))
[ "$(jq -c '[.workload, .filesystem.xfs.su_bytes, .filesystem.xfs.sw, .filesystem.xfs.log_su_bytes]' \
	"$WORK/plan.json")" = '["small-sync",0,0,0]' ] || fail "plan file: $(jq -c .filesystem "$WORK/plan.json")"

# apply --plan replans the file's own fields and finds it the same plan
expect_ok "apply --plan small-sync" sp apply --plan "$WORK/plan.json" --device "$dev"
expect_out '^\[1/[0-9]\] partition .*done, verified'
expect_out '^\[3/[0-9]\] filesystem .*done, verified'
expect_out 'xfs without a stripe unit'
expect_out '^\[4/[0-9]\] fstab .*done, verified'
# the full stripe and 1 MiB: lcm(192 KiB, 1 MiB) = 3 MiB, sector 6144
checks=$((checks + 1))
[ "$(kernel_start "${dev}p1")" = 6144 ] || fail "partition starts at sector $(kernel_start "${dev}p1"), not 6144"
checks=$((checks + 1))
xfs_info "${dev}p1" >"$WORK/info" 2>&1 || fail "xfs_info ${dev}p1: $(cat "$WORK/info")"
grep -Eq ' sunit=0 +swidth=0 blks$' "$WORK/info" || fail "xfs_info data sunit/swidth: $(cat "$WORK/info")"
checks=$((checks + 1))
grep -Eq '^ += +sectsz=[0-9]+ +sunit=[01] blks, lazy-count' "$WORK/info" ||
	fail "xfs_info log sunit: $(cat "$WORK/info")"
checks=$((checks + 1))
xfs_db -r -c 'sb 0' -c 'p unit width logsunit' "${dev}p1" >"$WORK/sb"
if ! grep -qx 'unit = 0' "$WORK/sb" || ! grep -qx 'width = 0' "$WORK/sb" ||
	! grep -Eqx 'logsunit = [01]' "$WORK/sb"; then
	fail "superblock read by xfs_db: $(cat "$WORK/sb")"
fi
checks=$((checks + 1))
grep -Eq "^UUID=[0-9a-f-]+ /mail xfs noatime,nofail,x-systemd.device-timeout=30s 0 0$" "$fstab" ||
	fail "fstab line: $(cat "$fstab")"
checks=$((checks + 1))
! grep -q swalloc "$fstab" || fail "swalloc in the fstab: $(cat "$fstab")"

# check agrees, from the plan file and from the flags, even --strict
expect_ok "check --plan" sp check --plan "$WORK/plan.json" --device "$dev"
expect_out 'match: the device matches the plan'
expect_ok "check --strict --workload small-sync" sp check --strict "${ARRAY[@]}" --workload small-sync --device "$dev"
expect_out 'match: the device matches the plan'
# a re-run converges
before=$(digest "$dev")
expect_ok "re-apply --plan" sp apply --plan "$WORK/plan.json" --device "$dev"
expect_out 'unchanged: the device already matched the plan'
unchanged "$dev" "$before" "re-apply of the small-sync plan"

# the general plan still says what this filesystem lacks for it
expect_rc 1 "costly: .*xfs on ${dev}p1 has no stripe unit" sp check "${ARRAY[@]}" --device "$dev"
expect_out "suboptimal: .*has no 'swalloc'"
# a plan file whose workload was edited is not the plan its fields make
jq '.workload = "general"' "$WORK/plan.json" >"$WORK/general.json"
expect_untouched 2 "$dev" "filesystem.xfs.su_bytes is 0, but stripeplan plans 65536" \
	sp apply --plan "$WORK/general.json" --device "$dev" --force

# made by the general plan, checked for small-sync: its 4 KiB log stripe
# unit pads every fsync's log write; its stripe unit alone is harmless
expect_ok "apply general --force" sp apply "${ARRAY[@]}" --device "$dev" --force
expect_rc 1 "suboptimal: xfs on ${dev}p1 has a 4 KiB log stripe unit" \
	sp check "${ARRAY[@]}" --workload small-sync --device "$dev"
expect_out "differs: xfs on ${dev}p1 has su=64k,sw=3, the plan \(--workload small-sync\) has none"

# --workload metadata plans the same filesystem, with 256 KiB log buffers
expect_ok "apply metadata --force" sp apply "${ARRAY[@]}" --workload metadata --device "$dev" --force
expect_out 'xfs without a stripe unit \(--workload metadata\)'
checks=$((checks + 1))
xfs_info "${dev}p1" >"$WORK/info" 2>&1 || fail "xfs_info ${dev}p1: $(cat "$WORK/info")"
grep -Eq ' sunit=0 +swidth=0 blks$' "$WORK/info" || fail "metadata: xfs_info data sunit/swidth: $(cat "$WORK/info")"
checks=$((checks + 1))
grep -Eq "^UUID=[0-9a-f-]+ /mail xfs noatime,logbufs=8,logbsize=256k,nofail,x-systemd.device-timeout=30s 0 0$" "$fstab" ||
	fail "metadata fstab line: $(cat "$fstab")"
expect_ok "check metadata" sp check "${ARRAY[@]}" --workload metadata --device "$dev"
expect_out 'match: the device matches the plan'
device_finish
