#!/bin/bash
# apply --stack on loop devices, where the host kernel has no
# device-mapper: what needs none of it.  The dry run lists the luks and lvm
# steps' actions and exact commands (the plan's offset, sector size,
# alignment, extent size and extents) and writes nothing; every refusal of
# the layers comes before the first write, the image and the scratch root
# as they were: a LUKS2 header or an LVM PV that is not the plan's without
# --force, a missing, group-readable or misplaced key, a VG name that
# exists.  (Making, opening and reading back the layers: vm/stack.)
. "$SRCDIR/tests/device/lib.bash"

G5=(--controller generic --level 5 --disks 4 --chunk 64K --kernel 6.1 --fs xfs --mountpoint /data)
KEY="$SP_LOOP_TMPDIR/key"
head -c 32 /dev/urandom >"$KEY"
chmod 0600 "$KEY"

# layout DEV: the plan's own GPT partition (its start and size), so the
# partition step matches and the refusal is the layer's
layout() {
	local p
	p=$(sp plan "${G5[@]}" --device "$1" --format json | jq -r '.partition | "\(.start_sector) \(.size_sectors)"')
	parted -s "$1" mklabel gpt unit s mkpart primary "${p% *}" "$((${p% *} + ${p#* } - 1))" 2>/dev/null ||
		fail "parted $*"
	for _ in $(seq 50); do [ -e "${1}p1" ] && return; sleep 0.1; done
	fail "no ${1}p1 after parted"
}

d=$(sp_loop_create 400M) || exit 1

# --- the dry run: every layer's action and command, nothing written ----------
plan=$(sp plan "${G5[@]}" --device "$d" --stack luks,lvm --format json)
offset=$(jq -r .stack.luks.offset_sectors <<<"$plan")
extents=$(jq -r .stack.lvm.extents <<<"$plan")
name=$(jq -r .stack.luks.name <<<"$plan")
before=$(state "$d")
expect_ok "apply --dry-run --stack luks,lvm" sp apply "${G5[@]}" --device "$d" --stack luks,lvm --dry-run
expect_out "luks .*dry run"
expect_out "cryptsetup luksFormat --batch-mode --type luks2 --offset $offset --sector-size 512 --key-file - ${d}p1 \(the key on stdin\)"
expect_out "cryptsetup open --type luks2 --key-file - ${d}p1 $name"
expect_out "lvm pvcreate --dataalignment 3072k --dataalignmentoffset 0 /dev/mapper/$name --devices /dev/mapper/$name --config 'backup\{backup=0 archive=0\}'"
expect_out "lvm vgcreate -s 6144k vg_$(basename "$d") /dev/mapper/$name"
expect_out "lvm lvcreate -l $extents -n data -y -Wy -Zy vg_$(basename "$d")"
expect_out "mkfs.xfs .*/dev/vg_$(basename "$d")/data"
expect_out "would: write $SP_TEST_ROOT/etc/crypttab: '$name UUID=@LUKS2_UUID@ none luks,nofail'"
checks=$((checks + 1))
[ "$(state "$d")" = "$before" ] || fail "the dry run changed $d or the root"
expect_ok "apply --dry-run --format json" sp apply "${G5[@]}" --device "$d" --stack luks,lvm --dry-run --format json
checks=$((checks + 1))
[ "$(jq -r '[.actions[] | select(.step == "luks" or .step == "lvm") | .step + ":" + .action + ":" + .target] | join(" ")' "$WORK/out")" = \
	"luks:luks:${d}p1 luks:luks:/dev/mapper/$name lvm:lvm:/dev/mapper/$name lvm:lvm:vg_$(basename "$d") lvm:lvm:/dev/vg_$(basename "$d")/data" ] ||
	fail "the JSON dry run's luks and lvm actions: $(jq -c .actions "$WORK/out")"

# --- the key: needed, and only its owner's -------------------------------------
expect_untouched 2 "$d" "give its key with --key-file FILE" \
	sp apply "${G5[@]}" --device "$d" --stack luks
chmod 0644 "$KEY"
expect_refused "$d" "key file '$KEY' has mode 0644" \
	sp apply "${G5[@]}" --device "$d" --stack luks --key-file "$KEY"
chmod 0600 "$KEY"
expect_untouched 2 "$d" "key-file: the plan has no LUKS2 layer" \
	sp apply "${G5[@]}" --device "$d" --stack lvm --key-file "$KEY"

# --- a LUKS2 volume of the plan's own numbers, closed: not refused; the dry
#     run opens it and reads nothing above it (no pvcreate, mkfs or fstab);
#     its crypttab line, already there, is not written again ----------------
layout "$d"
cryptsetup luksFormat --batch-mode --type luks2 --offset "$offset" --sector-size 512 --pbkdf pbkdf2 \
	--pbkdf-force-iterations 1000 --key-file "$KEY" "${d}p1" || fail "luksFormat --offset $offset"
printf '%s UUID=%s none luks,nofail\n' "$name" "$(blkid -s UUID -o value "${d}p1")" >"$SP_TEST_ROOT/etc/crypttab"
before=$(state "$d")
expect_ok "apply --dry-run over the plan's closed volume" sp apply "${G5[@]}" --device "$d" --stack luks,lvm --dry-run
expect_out "/dev/mapper/$name: \(nothing\) -> opened on ${d}p1"
expect_out "not read while the LUKS2 volume '/dev/mapper/$name' is closed"
checks=$((checks + 1))
! grep -qE "luksFormat|pvcreate|mkfs|fstab-add|crypttab: " "$WORK/out" ||
	fail "the dry run over a closed volume lists what apply would not do: $(cat "$WORK/out")"
checks=$((checks + 1))
[ "$(state "$d")" = "$before" ] || fail "the dry run changed $d or the root"
expect_ok "check over the plan's closed volume" sp check "${G5[@]}" --device "$d" --stack luks,lvm
expect_out "differs: the LUKS2 volume on '${d}p1' is closed: its header is the plan's, what is on it \\(LVM, the filesystem, its fstab line\\) was not read"
expect_out "differs harmlessly"
checks=$((checks + 1))
grep -q "match: the device matches the plan" "$WORK/out" && fail "check over a closed volume says it matches: $(cat "$WORK/out")"
expect_rc 1 "is closed: its header is the plan.s" sp check "${G5[@]}" --device "$d" --stack luks,lvm --strict
rm "$SP_TEST_ROOT/etc/crypttab"
wipefs -aq "${d}p1"

# --- what is on the partition already: refused without --force -----------------
cryptsetup luksFormat --batch-mode --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
	--key-file "$KEY" "${d}p1" || fail "luksFormat"
expect_refused "$d" "crypto_LUKS.*where the plan's LUKS2 volume goes; stripeplan will not overwrite it without --force" \
	sp apply "${G5[@]}" --device "$d" --stack luks --key-file "$KEY"
wipefs -aq "${d}p1"
pvcreate -q -y --devices "${d}p1" "${d}p1" >/dev/null 2>&1 || fail "pvcreate"
expect_refused "$d" "LVM2_member.*where the plan's LVM PV goes; stripeplan will not overwrite it without --force" \
	sp apply "${G5[@]}" --device "$d" --stack lvm
expect_refused "$d" "LVM2_member.*without --force" \
	sp apply "${G5[@]}" --device "$d" --stack luks,lvm --key-file "$KEY"

# --- a VG of the plan's name on this machine: refused even with --force --------
pvremove -q -y --devices "${d}p1" "${d}p1" >/dev/null 2>&1 || fail "pvremove"
e=$(sp_loop_create 64M) || exit 1
# vgcreate makes the VG's metadata without activating anything
vgcreate -q --devices "$e" --config 'backup{backup=0 archive=0}' vg_taken "$e" >/dev/null 2>&1 ||
	fail "vgcreate vg_taken"
# (lvm sees the other loop device only if its devices filter lets it: the
# refusal names the VG when it does)
if vgs --readonly vg_taken >/dev/null 2>&1; then
	expect_refused "$d" "a VG named 'vg_taken' already exists on this machine" \
		sp apply "${G5[@]}" --device "$d" --stack lvm --vg vg_taken --force
else
	fail "vgs does not see vg_taken on $e"
fi
vgremove -q -y --devices "$e" --config 'backup{backup=0 archive=0}' vg_taken >/dev/null 2>&1 ||
	fail "vgremove vg_taken"
device_finish
