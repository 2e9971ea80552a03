#!/bin/bash
# apply and check on real loop devices: aligned partitions and filesystems
# verified by reading back, idempotent re-runs, dry runs that write nothing.
. "$SRCDIR/tests/device/lib.bash"

P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --kernel 6.1)

# --- 512-byte sectors, xfs, gpt: the seed P400 array ------------------------
dev=$(sp_loop_create 1G) || exit 1
before=$(digest "$dev")
expect_ok "dry run" sp apply "${P400[@]}" --fs xfs --device "$dev" --mountpoint /data --root "$SP_TEST_ROOT" --dry-run
expect_out 'would: .*mkfs.xfs -b size=4096 -d su=256k,sw=4 -l su=4k '"${dev}p1"
expect_out 'dry run: nothing was written'
unchanged "$dev" "$before" "dry run"

expect_ok "apply xfs" sp apply "${P400[@]}" --fs xfs --device "$dev"
expect_out '^\[1/[0-9]\] partition .*done, verified'
expect_out '^\[3/[0-9]\] filesystem .*done, verified'
# the help says the steps apply runs, in its order
steps=$(sed -n 's/^\[[0-9]*\/[0-9]*\] \([a-z]*\) .*/\1/p' "$WORK/out" | paste -sd, | sed 's/,/, /g')
checks=$((checks + 1))
[ "$steps" = "partition, tuning, filesystem, fstab" ] || fail "apply ran the steps '$steps'"
checks=$((checks + 1))
"$STRIPEPLAN" --help | tr -s ' \n' ' ' | grep -F "apply apply a plan: $steps; verified" >/dev/null ||
	fail "stripeplan --help does not name apply's steps '$steps': $("$STRIPEPLAN" --help)"
checks=$((checks + 1))
"$STRIPEPLAN" apply --help | tr -s ' \n' ' ' | grep -F "in four steps: partition (" >/dev/null ||
	fail "apply --help does not name its four steps"
checks=$((checks + 1))
[ "$(kernel_start "${dev}p1")" = 2048 ] || fail "partition does not start at sector 2048"
checks=$((checks + 1))
[ "$(blkid -o value -s TYPE "${dev}p1")" = xfs ] || fail "no xfs on ${dev}p1"
checks=$((checks + 1))
xfs_db -r -c 'sb 0' -c 'p unit width logsunit' "${dev}p1" >"$WORK/sb"
if ! grep -qx 'unit = 64' "$WORK/sb" || ! grep -qx 'width = 256' "$WORK/sb" ||
	! grep -qx 'logsunit = 4096' "$WORK/sb"; then
	fail "xfs geometry read by xfs_db: $(cat "$WORK/sb")"
fi

expect_ok "check after apply" sp check --strict "${P400[@]}" --fs xfs --device "$dev"
expect_out 'match: the device matches the plan'

# the tune script as versions before it found devices by identity wrote
# it (literal /sys/block/<apply-time name>/ paths): check reports it as
# differing, apply rewrites it, and check matches again
script=$SP_TEST_ROOT/usr/local/sbin/stripeplan-tune-${dev#/dev/}
checks=$((checks + 1))
grep -q "^if found name '${dev#/dev/}' " "$script" || fail "the tune script does not find ${dev#/dev/}: $(grep -n found "$script")"
sed -i -e '/^if found /d' -e '/^fi$/d' \
	-e "s|^\ttune '\\([^']*\\)'|tune '/sys/block/${dev#/dev/}/\\1'|" "$script"
checks=$((checks + 1))
grep -q "^tune '/sys/block/${dev#/dev/}/queue/read_ahead_kb' " "$script" || fail "no old-format script: $(cat "$script")"
expect_rc 1 "$(basename "$script") differs" sp check --strict "${P400[@]}" --fs xfs --device "$dev"
expect_ok "apply rewrites it" sp apply "${P400[@]}" --fs xfs --device "$dev"
expect_ok "check after the rewrite" sp check --strict "${P400[@]}" --fs xfs --device "$dev"
expect_out 'match: the device matches the plan'
expect_rc 2 "'${dev}p1' is a partition; give the whole disk" sp plan "${P400[@]}" --fs xfs --device "${dev}p1"

# a second apply does nothing and says so
before=$(digest "$dev")
expect_ok "re-run" sp apply "${P400[@]}" --fs xfs --device "$dev"
expect_out 'unchanged: the device already matched the plan'
unchanged "$dev" "$before" "idempotent re-run"

# something different on the disk: refused without --force, bytes unchanged
# (the refusal says what differs and why only a rewrite gets the plan)
expect_rc 3 "holds .*without --force; it differs from the plan in the filesystem step: differs: ${dev}p1 holds xfs, the plan says ext4.*; a filesystem's type and stripe geometry are set when it is made: only a new one has the plan's" \
	sp apply "${P400[@]}" --fs ext4 --device "$dev"
unchanged "$dev" "$before" "refusal of a different plan"
expect_rc 3 "without --force; it differs from the plan in the partition step: differs: $dev has a gpt label, the plan says msdos.*; a partition cannot move or change size under a filesystem" \
	sp apply "${P400[@]}" --fs xfs --table msdos --device "$dev"
unchanged "$dev" "$before" "refusal of another label"
# another chunk: the partition is a few stripes shorter (costs nothing),
# the XFS on it has the old stripe unit (costly); the refusal names the
# worst difference, without the in-place fix a finding offers
expect_rc 3 "without --force; it differs from the plan in the filesystem step: costly: xfs on ${dev}p1 has su=256k,sw=4 \\(sb_unit 64, sb_width 256 blocks\\), the array's is su=128k,sw=4 \\(and [0-9]+ more\\); a partition cannot move" \
	sp apply --controller hp-p400 --level 10 --disks 8 --chunk 128K --kernel 6.1 --fs xfs --device "$dev"
unchanged "$dev" "$before" "refusal of another chunk"
checks=$((checks + 1))
grep -q "mount with sunit" "$WORK/err" && fail "the refusal offers a finding's in-place fix: $(cat "$WORK/err")"
# xfs where the plan says ext4, both aligned: harmless, unless --strict,
# as every help text says check's exit status is
expect_ok "check, another fs" sp check "${P400[@]}" --fs ext4 --device "$dev"
expect_out "differs: ${dev}p1 holds xfs, the plan says ext4"
expect_out 'differs harmlessly'
expect_rc 1 "DIFFERS" sp check --strict "${P400[@]}" --fs ext4 --device "$dev"
checks=$((checks + 1))
"$STRIPEPLAN" --help | tr -s ' \n' ' ' |
	grep -qF "1 check found a costly or suboptimal difference (with --strict: any difference)" ||
	fail "stripeplan --help misstates check's exit status: $("$STRIPEPLAN" --help)"
checks=$((checks + 1))
"$STRIPEPLAN" check --help | tr -s ' \n' ' ' |
	grep -qF "1 a costly or suboptimal finding (with --strict: any difference)" ||
	fail "check --help misstates its exit status"
expect_ok "apply --force ext4" sp apply "${P400[@]}" --fs ext4 --device "$dev" --force
checks=$((checks + 1))
[ "$(blkid -o value -s TYPE "${dev}p1")" = ext4 ] || fail "no ext4 after --force"
checks=$((checks + 1))
dumpe2fs -h "${dev}p1" 2>/dev/null | grep -Eq '^RAID stride: +64$' || fail "ext4 stride is not 64"

# mounted partition: refused even with --force, nothing written (mounted
# read-only so the filesystem itself writes nothing while we compare)
sp_loop_mount "${dev}p1" "$SP_LOOP_TMPDIR/mnt" ro
before=$(digest "$dev")
expect_rc 3 "${dev#/dev/}p1 is mounted on .*even with --force" \
	sp apply "${P400[@]}" --fs xfs --device "$dev" --force
unchanged "$dev" "$before" "refusal of a mounted partition"
umount "$SP_LOOP_TMPDIR/mnt"

# a plan file applies exactly; the device must be the one it was made for
expect_ok "plan file" sp plan "${P400[@]}" --fs xfs --device "$dev" --format json -o "$WORK/plan.json"
expect_ok "apply --plan" sp apply --plan "$WORK/plan.json" --device "$dev" --force
expect_ok "check --plan" sp check --strict --plan "$WORK/plan.json" --device "$dev"
sp plan "${P400[@]}" --fs xfs --device "$dev" --size 2G --format json -o "$WORK/other.json"
before=$(digest "$dev")
expect_rc 3 "has 1073741824 bytes, the plan was made for 2147483648" \
	sp apply --plan "$WORK/other.json" --device "$dev" --force
unchanged "$dev" "$before" "refusal of a plan made for another device"
expect_rc 3 "the plan was made for '$dev', not '/dev/loop999'" \
	sp apply --plan "$WORK/plan.json" --device /dev/loop999

# --- the whole disk holds a filesystem: refused, even the dry run says so ----
dev2=$(sp_loop_create 600M) || exit 1
mkfs.ext4 -q -F "$dev2"
before=$(digest "$dev2")
expect_rc 3 "holds .*ext4.*without --force" sp apply "${P400[@]}" --fs xfs --device "$dev2"
expect_rc 3 "holds .*ext4" sp apply "${P400[@]}" --fs xfs --device "$dev2" --dry-run
unchanged "$dev2" "$before" "refusal of a disk with a filesystem"
# ... mounted as a whole: refused with --force too
sp_loop_mount "$dev2" "$SP_LOOP_TMPDIR/mnt2" ro
before=$(digest "$dev2")
expect_rc 3 "is mounted on .*even with --force" sp apply "${P400[@]}" --fs xfs --device "$dev2" --force
unchanged "$dev2" "$before" "refusal of a mounted disk"
umount "$SP_LOOP_TMPDIR/mnt2"
before=$(digest "$dev2")

# --- read-only device: refused before anything is attempted ------------------
losetup --read-only --partscan --find --show "$(image_of "$dev2")" >"$WORK/rodev"
rodev=$(cat "$WORK/rodev")
printf '%s %s\n' "$rodev" "$(image_of "$dev2")" >>"$SP_LOOP_TMPDIR/.devices"
expect_rc 3 "is read-only" sp apply "${P400[@]}" --fs xfs --device "$rodev" --force
unchanged "$dev2" "$before" "refusal of a read-only device"

# --- 4096-byte sectors, ext3, msdos, non-power-of-two stripe -----------------
dev4=$(sp_loop_create 1G 4096) || exit 1
G5=(--controller generic --level 5 --disks 4 --chunk 64K --kernel 6.1)
expect_ok "4Kn ext3 msdos" sp apply "${G5[@]}" --fs ext3 --table msdos --device "$dev4"
checks=$((checks + 1))
[ "$(kernel_start "${dev4}p1")" = 6144 ] || fail "4Kn partition does not start at 3 MiB"
checks=$((checks + 1))
[ "$(blkid -o value -s PTTYPE "$dev4")" = dos ] || fail "no msdos label on $dev4"
checks=$((checks + 1))
dumpe2fs -h "${dev4}p1" 2>/dev/null | grep -Eq '^RAID stripe width: +48$' || fail "ext3 stripe width is not 48"
expect_ok "4Kn check" sp check --strict "${G5[@]}" --fs ext3 --table msdos --device "$dev4"

# --- parity RAID with xfs: allocation groups of whole stripes ---------------
dev5=$(sp_loop_create 1G) || exit 1
expect_ok "raid5 xfs" sp apply "${G5[@]}" --fs xfs --device "$dev5"
checks=$((checks + 1))
agblocks=$(xfs_db -r -c 'sb 0' -c 'p agblocks' "${dev5}p1" | sed 's/.* = //')
[ $((agblocks * 4096 % 196608)) = 0 ] || fail "xfs AGs of $agblocks blocks are not whole 192 KiB stripes"

# --- a sparse image over 2 TiB gets GPT --------------------------------------
big=$(sp_loop_create 3T) || exit 1
expect_ok "3 TiB plan" sp plan "${P400[@]}" --fs xfs --device "$big"
expect_out 'gpt-required'
expect_ok "3 TiB apply" sp apply "${P400[@]}" --fs xfs --device "$big"
checks=$((checks + 1))
[ "$(blkid -o value -s PTTYPE "$big")" = gpt ] || fail "3 TiB device did not get gpt"
expect_rc 2 "msdos labels stop" sp apply "${P400[@]}" --fs xfs --device "$big" --table msdos

# --- check finds the 2006-era layout: msdos at sector 63 ---------------------
old=$(sp_loop_create 1G) || exit 1
parted -s "$old" mklabel msdos mkpart primary 63s 100%
partx -u "$old" 2>/dev/null || true
for _ in $(seq 50); do [ -e "${old}p1" ] && break; sleep 0.1; done
mkfs.xfs -q -f "${old}p1"
expect_rc 1 "costly: partition 1 of $old starts at sector 63 \\(byte 32256\\), 31.50 KiB past a 192 KiB stripe boundary" \
	sp check "${G5[@]}" --fs xfs --table msdos --device "$old"

# --- the medium behind the device changed since the plan ---------------------
expect_ok "plan for old medium" sp plan "${P400[@]}" --fs xfs --device "$dev" --format json -o "$WORK/seq.json"
img=$(image_of "$dev")
losetup -d "$dev"
# the freed number is anyone's: attach wherever the kernel says, and keep
# that name (most often it is the same number, which is the case tested)
new=$(losetup --partscan --find --show "$img") || fail "cannot re-attach $img"
printf '%s %s\n' "$new" "$img" >>"$SP_LOOP_TMPDIR/.devices"
checks=$((checks + 1))
grep -q '"diskseq": [0-9]' "$WORK/seq.json" || fail "the plan recorded no diskseq for $dev"
if [ "$new" = "$dev" ]; then
	expect_rc 3 "disk sequence .*re-attached" sp apply --plan "$WORK/seq.json" --device "$new" --force
else
	expect_rc 3 "the plan was made for '$dev', not '$new'" \
		sp apply --plan "$WORK/seq.json" --device "$new" --force
fi

device_finish
