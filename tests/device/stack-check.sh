#!/bin/bash
# check on stacks made by hand with the tools' defaults, read without
# device-mapper (the host kernel has none): a LUKS2 volume cryptsetup
# formats with its default 16 MiB data offset, and an LVM PV pvcreate
# makes with its default 1 MiB pe_start, each on a GPT partition at
# 3 MiB of a RAID5 4 x 64 KiB (a 192 KiB stripe, a LUN that exports no
# topology), are costly with the model's cost and their fix; the same
# made with the plan's numbers are not; a damaged header is said to be;
# check reads and never writes (the image's sha256).
. "$SRCDIR/tests/device/lib.bash"
# shellcheck source=check-json.bash
. "$SRCDIR/tests/device/check-json.bash"

G5=(--controller generic --level 5 --disks 4 --chunk 64K --kernel 6.1)
KEY="$SP_LOOP_TMPDIR/key"
head -c 32 /dev/urandom >"$KEY"
# a fast PBKDF: the key's strength is not what is tested
LUKS=(cryptsetup luksFormat --batch-mode --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000
	--key-file "$KEY")

# layout DEV: GPT, partition 1 at 3 MiB (the plan's start), node waited for
layout() {
	parted -s "$1" mklabel gpt mkpart primary 3MiB 100% 2>/dev/null || fail "parted $*"
	for _ in $(seq 50); do [ -e "${1}p1" ] && return; sleep 0.1; done
	fail "no ${1}p1 after parted"
}

# check_readonly DEV: the check above changed nothing on the device
check_readonly() {
	local before
	before=$(digest "$1")
	json_check "${G5[@]}" --device "$1"
	unchanged "$1" "$before" "check on a stack"
}

# --- LUKS2 with cryptsetup's default offset: 16 MiB is 85.33 stripes ---------
d=$(sp_loop_create 400M) || exit 1
layout "$d"
"${LUKS[@]}" "${d}p1" || fail "luksFormat"
check_readonly "$d"
finding luks-offset-misaligned costly
cost luks-offset-misaligned 2.00 1.00
no_finding fs-type-unjudged
expect_rc 1 "costly: the LUKS2 volume on ${d}p1 starts its data 16 MiB in \(byte 19922944 of the array, 101.33 stripes\), 64 KiB past a 192 KiB stripe boundary: .*fix: back up the data, then re-create the volume with 'cryptsetup luksFormat --type luks2 --offset 33024'" \
	sp check "${G5[@]}" --device "$d"

# --- the offset the plan gives (stripeplan plan --stack luks): aligned ---------
"${LUKS[@]}" --offset "$(sp plan "${G5[@]}" --fs xfs --device "$d" --stack luks --format json |
	jq -r .stack.luks.offset_sectors)" "${d}p1" || fail "luksFormat --offset"
check_readonly "$d"
no_finding luks-offset-misaligned
finding luks-found differs

# --- a header damaged on the disk: said, not judged by a wrong offset ---------
printf 'X' | dd of="${d}p1" bs=1 seek=4200 conv=notrunc status=none
sync
check_readonly "$d"
finding luks-damaged costly
no_finding luks-offset-misaligned

# --- an LVM PV with pvcreate's defaults: pe_start 1 MiB, 3 + 1 = 4 MiB is
#     21.33 stripes (pvcreate needs no device-mapper) ------------------------
wipefs -aq "${d}p1"
pvcreate -q -y --devices "${d}p1" "${d}p1" >/dev/null 2>&1 || fail "pvcreate"
check_readonly "$d"
finding pv-start-misaligned costly
expect_rc 1 "costly: the LVM physical volume on ${d}p1 starts its extents \(pe_start\) 1 MiB in \(byte 4194304 of the array, 21.33 stripes\), 64 KiB past a 192 KiB stripe boundary: .*fix: pvmove its extents to a PV made with 'pvcreate --dataalignment 3072k --dataalignmentoffset 0'" \
	sp check "${G5[@]}" --device "$d"

# --- the plan's --dataalignment: pe_start 3 MiB, aligned ------------------------
wipefs -aq "${d}p1"
pvcreate -q -y --devices "${d}p1" --dataalignment \
	"$(sp plan "${G5[@]}" --fs xfs --device "$d" --stack lvm --format json |
		jq -r '.stack.lvm.data_alignment_bytes / 1024')k" --dataalignmentoffset 0 "${d}p1" \
	>/dev/null 2>&1 || fail "pvcreate --dataalignment"
check_readonly "$d"
no_finding pv-start-misaligned
finding pv-found differs
device_finish
