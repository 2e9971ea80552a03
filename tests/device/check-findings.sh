#!/bin/bash
# check on arrays someone else built, with parted, mkfs.xfs and mke2fs the
# way admins and installers do: each finding's severity and code, the exit
# code with and without --strict, the model's cost (the figures derived by
# hand in tests/unit/test-cost.c), and messages that name the device, the
# value and the fix, with no advice the disk does not call for.
. "$SRCDIR/tests/device/lib.bash"
# shellcheck source=check-json.bash
. "$SRCDIR/tests/device/check-json.bash"

G5=(--controller generic --level 5 --disks 4 --chunk 64K --kernel 6.1)
R0=(--controller generic --level 0 --disks 2 --chunk 8K --kernel 6.1)

# readme_example NAME DEV CMD...: README.md's example NAME (docs/examples
# keeps it: only a block device makes it) is CMD's partition step, DEV
# named /dev/sdb, the time it took aside; UPDATE_GOLDEN=1 rewrites it
readme_example() {
	local name=$1 dev=$2 start rest
	shift 2
	start="<!-- example: $name (made on a loop device by tests/device/check-findings.sh) -->"
	sp "$@" >"$WORK/example.raw" 2>&1 || true
	{
		echo '```'
		printf 'stripeplan %s \\\n' "${*:1:5}"
		rest="${*:6}"
		printf '    %s\n' "${rest//$dev//dev/sdb}"
		echo '```'
		echo '```'
		sed -n '/^\[1\/4\]/,/^\[2\/4\]/p' "$WORK/example.raw" | sed '$d' |
			sed -e "s#${dev}p1#/dev/sdb1#g" -e "s#$dev#/dev/sdb#g"
		echo '```'
	} >"$WORK/example.md"
	START=$start awk -v frag="$WORK/example.md" '
		$0 == ENVIRON["START"] { print; while ((getline l < frag) > 0) print l; skip = 1; next }
		skip && $0 == "<!-- /example -->" { skip = 0 }
		!skip' "$SRCDIR/README.md" >"$WORK/README.md"
	checks=$((checks + 1))
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cmp -s "$WORK/README.md" "$SRCDIR/README.md" || cat "$WORK/README.md" >"$SRCDIR/README.md"
	elif ! diff -u <(sed -E 's/  [0-9]+\.[0-9]{2} s  /  (time)  /' "$SRCDIR/README.md") \
		<(sed -E 's/  [0-9]+\.[0-9]{2} s  /  (time)  /' "$WORK/README.md") >"$WORK/example.diff"; then
		fail "README.md's example $name is not what '$*' prints (UPDATE_GOLDEN=1 rewrites it):
$(cat "$WORK/example.diff")"
	fi
	grep -qF "$start" "$SRCDIR/README.md" || fail "README.md has no example $name"
}

# layout DEV LABEL START END: one partition made by parted, node waited for
layout() {
	parted -s "$1" mklabel "$2" mkpart primary "$3" "$4" 2>/dev/null || fail "parted $*"
	for _ in $(seq 50); do [ -e "${1}p1" ] && return; sleep 0.1; done
	fail "no ${1}p1 after parted"
}

# actionable: every finding names a device or file and a fix (or that none is needed)
actionable() {
	checks=$((checks + 1))
	python3 - "$WORK/json" <<'EOF' || fail "a message lacks its device or fix: $(cat "$WORK/json")"
import json, sys
r = json.load(open(sys.argv[1]))
for f in r["findings"]:
    m = f["message"]
    if not any(p in m for p in ("/dev/", "/etc/", "/sys/")):
        sys.exit("no device named: " + m)
    if "fix: " not in m and "nothing to fix" not in m:
        sys.exit("no fix: " + m)
    if "partprobe" in m and f["code"] != "kernel-stale":
        sys.exit("partprobe advised: " + m)
    if "1 B" in m:
        sys.exit("a unit of 1 B: " + m)
EOF
}

# exit_code CODE: the last JSON report's exit code
exit_code() {
	checks=$((checks + 1))
	grep -q "\"exit_code\": $1," "$WORK/json" || fail "exit code is not $1: $(cat "$WORK/json")"
}

# --- msdos at sector 63 (the 2006 default), XFS with the right geometry -------
d63=$(sp_loop_create 1G) || exit 1
layout "$d63" msdos 63s 100%
mkfs.xfs -q -f -d su=64k,sw=3 -l su=64k "${d63}p1"
json_check "${G5[@]}" --device "$d63"
exit_code 1
finding start-misaligned costly
finding label-type differs
cost start-misaligned 2.25 2.00
no_finding kernel-stale
actionable
expect_rc 1 "costly: partition 1 of $d63 starts at sector 63 \\(byte 32256\\), 31.50 KiB past a 192 KiB stripe boundary; stripe-sized writes cost 2.25x the minimum member I/O of this raid5, chunk-sized reads 2.00x; fix: re-create" \
	sp check "${G5[@]}" --device "$d63"
expect_rc 1 "DIFFERS" sp check --strict "${G5[@]}" --device "$d63"
readme_example check-msdos63 "$d63" check "${G5[@]}" --device "$d63"

# --- gpt at sector 34 (fdisk's old default), XFS made without geometry --------
d34=$(sp_loop_create 1G) || exit 1
layout "$d34" gpt 34s 100%
mkfs.xfs -q -f "${d34}p1"
json_check "${G5[@]}" --device "$d34"
exit_code 1
finding start-misaligned costly
finding xfs-no-stripe-unit costly
finding xfs-no-log-stripe-unit differs
no_finding kernel-stale
no_finding label-type
actionable
expect_rc 1 "DIFFERS" sp check --strict "${G5[@]}" --device "$d34"

# --- gpt at 1 MiB (parted's default), right geometry: 1 MiB is not 192 KiB's --
d1m=$(sp_loop_create 1G) || exit 1
layout "$d1m" gpt 1MiB 100%
mkfs.xfs -q -f -d su=64k,sw=3 -l su=64k "${d1m}p1"
json_check "${G5[@]}" --device "$d1m"
exit_code 1
finding start-misaligned costly
# mkfs.xfs's own log stripe unit, the chunk: every log write padded to it
finding xfs-log-stripe-unit suboptimal
cost start-misaligned 2.00 1.00
actionable
expect_rc 1 "DIFFERS" sp check --strict "${G5[@]}" --device "$d1m"

# --- gpt at 6 MiB = 32 stripes, ending on a stripe, AGs of whole stripes ------
# harmless: exit 0, still listed; --strict exits 1.  12288s + 5000 stripes
# of 384 sectors ends at 1932287s; agsize 60000 blocks = 1250 stripes.
d6=$(sp_loop_create 1G) || exit 1
layout "$d6" gpt 12288s 1932287s
mkfs.xfs -q -f -L data -d su=64k,sw=3,agsize=240000k -l su=4k "${d6}p1" 2>/dev/null
json_check "${G5[@]}" --device "$d6"
exit_code 0
finding start differs
finding size differs
finding xfs-agsize differs
no_finding start-misaligned
actionable
expect_ok "aligned elsewhere" sp check "${G5[@]}" --device "$d6"
expect_out 'differs harmlessly: every difference from the plan costs nothing'
expect_out "differs: partition 1 of $d6 starts at 6 MiB \\(sector 12288\\), the plan says 3 MiB"
expect_rc 1 "DIFFERS" sp check --strict "${G5[@]}" --device "$d6"

# --- an fstab line by LABEL with nobarrier: the boot stops on XFS >= 4.19 -----
root=$SP_LOOP_TMPDIR/root-label
mkdir -p "$root/etc" "$root/data"
printf '# by hand\nLABEL=data /data xfs noatime,nobarrier,swalloc 0 0\n' >"$root/etc/fstab"
json_check "${G5[@]}" --device "$d6" --root "$root"
exit_code 1
finding mount-option-refused costly
actionable
expect_rc 1 "costly: $root/etc/fstab line 2 \\(LABEL=data on /data\\) has option 'nobarrier', which XFS refuses since Linux 4.19 .*emergency mode; fix: remove 'nobarrier'" \
	sp check "${G5[@]}" --device "$d6" --root "$root"
# the same line for a 4.14 target kernel is fine
json_check "${G5[@]/6.1/4.14}" --device "$d6" --root "$root"
exit_code 0
no_finding mount-option-refused
# found by a /dev path through a symlink, as /dev/disk/by-* links are; no swalloc
ln -s "${d6}p1" "$SP_LOOP_TMPDIR/by-id-link"
printf '%s /data xfs noatime 0 0\n' "$SP_LOOP_TMPDIR/by-id-link" >"$root/etc/fstab"
json_check "${G5[@]}" --device "$d6" --root "$root"
exit_code 1
finding mount-no-swalloc suboptimal
actionable

# --- ext4 with the wrong stride: costly, and tune2fs (the fix given) fixes it -
dext=$(sp_loop_create 1G) || exit 1
layout "$dext" gpt 3MiB 100%
mke2fs -q -F -t ext4 -E stride=16,stripe_width=64 "${dext}p1"
json_check "${G5[@]}" --device "$dext"
exit_code 1
finding ext-wrong-stripe costly
cost ext-wrong-stripe 1.67 1.00
actionable
expect_rc 1 "fix: tune2fs -E stride=16,stripe_width=48 ${dext}p1" sp check "${G5[@]}" --device "$dext"
tune2fs -E stride=16,stripe_width=48 "${dext}p1" >/dev/null
json_check "${G5[@]}" --device "$dext"
no_finding ext-wrong-stripe
exit_code 0

# --- mke2fs without geometry on RAID0 2 x 8 KiB ------------------------------
dr0=$(sp_loop_create 1G) || exit 1
layout "$dr0" gpt 1MiB 100%
mke2fs -q -F -t ext4 "${dr0}p1"
json_check "${R0[@]}" --device "$dr0"
exit_code 1
finding ext-no-stripe costly
cost ext-no-stripe 1.25 1.50
actionable

# --- XFS on the whole disk, no partition table: judged where it is -----------
dwd=$(sp_loop_create 1G) || exit 1
mkfs.xfs -q -f -d su=64k,sw=3 -l su=64k "$dwd"
json_check "${G5[@]}" --device "$dwd"
finding whole-disk differs
no_finding no-partition-node
no_finding xfs-no-stripe-unit
no_finding xfs-wrong-stripe
actionable

# --- apply'd, then read-ahead changed behind its back -------------------------
P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --kernel 6.1)
dap=$(sp_loop_create 1G) || exit 1
aroot=$SP_LOOP_TMPDIR/root-apply
mkdir -p "$aroot/etc"
expect_ok "apply" sp apply "${P400[@]}" --fs xfs --device "$dap" --mountpoint /data --root "$aroot"
expect_ok "strict after apply" sp check --strict "${P400[@]}" --fs xfs --device "$dap" --mountpoint /data --root "$aroot"
expect_out 'match: the device matches the plan'
knob=/sys/block/$(basename "$dap")/queue/read_ahead_kb
echo 128 >"$knob"
json_check "${P400[@]}" --device "$dap" --mountpoint /data --root "$aroot"
exit_code 1
finding read-ahead-below-plan suboptimal
actionable
expect_rc 1 "suboptimal: queue/read_ahead_kb on $(basename "$dap") is 128 KiB \\(blockdev --setra 256\\), the plan says 4096 KiB; fix: echo 4096 > $knob" \
	sp check "${P400[@]}" --device "$dap" --mountpoint /data --root "$aroot"
echo 4096 >"$knob"

# --- a check writes nothing ---------------------------------------------------
# not a byte, and no request at all: libparted, which check does not read
# the label with, opens the disk O_RDWR and fsyncs each partition (a flush
# request each; their close is a udev change event on someone else's disk)
# writes_and_flushes DEV: the write and flush requests the kernel completed
# on DEV and its partitions (/sys/block/X/stat fields 5 and 16)
writes_and_flushes() {
	sync
	awk '{ print $5, $16 }' "/sys/block/$(basename "$1")/stat"
}
for d in "$d63" "$dap"; do
	before=$(digest "$d")
	requests=$(writes_and_flushes "$d")
	sp check "${G5[@]}" --device "$d" --root "$aroot" --mountpoint /data >/dev/null 2>&1 || true
	unchanged "$d" "$before" "check of $d"
	checks=$((checks + 1))
	[ "$(writes_and_flushes "$d")" = "$requests" ] ||
		fail "check of $d sent write or flush requests: $requests -> $(writes_and_flushes "$d")"
done

# --- the LUN grew: its GPT's backup is no longer in the last sector ----------
# libparted would offer to fix it; check reads the label itself and says so,
# harmlessly (the partition, still aligned, is smaller than a new plan's)
truncate -s 1100M "$(image_of "$dap")"
losetup --set-capacity "$dap"
json_check "${P400[@]}" --fs xfs --device "$dap" --mountpoint /data --root "$aroot"
exit_code 0
finding gpt-not-at-end differs
expect_rc 0 "the backup GPT header of $dap is at LBA 2097151, not in the last one \\(2252799\\): the disk grew by 155648 sectors .*fix, to use them: sgdisk -e $dap" \
	sp check "${P400[@]}" --fs xfs --device "$dap" --mountpoint /data --root "$aroot"

device_finish
