#!/bin/bash
# What lies where apply will write is found and kept, whether or not a
# partition table still points at it (issue 9, item 1): an old filesystem
# swap, LVM PV or md 1.2 member at the planned start after the table alone
# was wiped (and the same on the whole disk), a backup GPT whose primary
# is gone.  Every refusal: exit 3, the whole image,
# sfdisk's view and the scratch root unchanged; --force then writes.
# Also a --device given as a symlink, which is the node it names (item 12).
. "$SRCDIR/tests/device/lib.bash"

P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --kernel 6.1)
dev=$(sp_loop_create 1G) || exit 1

# forget_table: remove the label (as `wipefs -a` of the table does) and the
# kernel's partition, keeping everything the partition held
forget_table() {
	wipefs -q -a "$dev"
	delpart "$dev" 1 2>/dev/null || true
	checks=$((checks + 1))
	[ ! -e "${dev}p1" ] || fail "the kernel still has ${dev}p1"
}

# --- an ext4 at 1 MiB, no table --------------------------------------------
expect_ok "apply ext4" sp apply "${P400[@]}" --fs ext4 --device "$dev"
forget_table
checks=$((checks + 1))
[ -z "$(blkid -p -o value -s TYPE "$dev" 2>/dev/null)" ] || fail "the whole disk still shows a signature"
expect_refused "$dev" "holds an ext4 filesystem .* at 1 MiB, where the plan's partition ${dev}p1 starts; .*without --force" \
	sp apply "${P400[@]}" --fs xfs --device "$dev"
expect_refused "$dev" "holds an ext4 filesystem" sp apply "${P400[@]}" --fs xfs --device "$dev" --dry-run
expect_refused "$dev" "holds an ext4 filesystem" sp apply "${P400[@]}" --fs ext4 --device "$dev"

# --- swap at 1 MiB, no table -------------------------------------------------
expect_ok "apply --force" sp apply "${P400[@]}" --fs xfs --device "$dev" --force
mkswap -q "${dev}p1"
forget_table
expect_refused "$dev" "holds a swap signature" sp apply "${P400[@]}" --fs xfs --device "$dev"

# --- an LVM physical volume at 1 MiB, no table -------------------------------
# pvcreate needs no device-mapper to write its label; --devices keeps LVM
# from looking at any disk but ours
expect_ok "apply --force" sp apply "${P400[@]}" --fs xfs --device "$dev" --force
wipefs -q -a "${dev}p1"
pvcreate -q -y --devices "${dev}p1" "${dev}p1" >/dev/null 2>&1
forget_table
checks=$((checks + 1))
[ "$(blkid -p -O 1048576 -o value -s TYPE "$dev")" = LVM2_member ] ||
	fail "the test made no LVM PV at 1 MiB: $(blkid -p -O 1048576 "$dev")"
expect_refused "$dev" "holds an LVM2_member signature .*used for raid at 1 MiB, where the plan's partition" \
	sp apply "${P400[@]}" --fs xfs --device "$dev"
# ... and on the whole disk
wipefs -q -a "$dev"
pvcreate -q -y --devices "$dev" "$dev" >/dev/null 2>&1
expect_refused "$dev" "holds an LVM2_member signature" sp apply "${P400[@]}" --fs xfs --device "$dev"
wipefs -q -a "$dev"

# --- an md 1.2 member at 1 MiB (its superblock at 1 MiB + 4 KiB), no table --
# The host has no md for mdadm --create: sp-md-sb writes what mdadm writes
# for metadata 1.2, checksum included (mdadm --examine calls it correct);
# tests/vm/guest/md.sh refuses a real, stopped array's member the same way.
dd if=/dev/zero of="$dev" bs=1M count=8 conv=fsync status=none
"$MD_SB" "$dev" 1048576
checks=$((checks + 1))
[ "$(blkid -p -O 1048576 -o value -s TYPE "$dev")" = linux_raid_member ] ||
	fail "the test made no md 1.2 member at 1 MiB: $(blkid -p -O 1048576 "$dev")"
expect_refused "$dev" "holds a linux_raid_member signature .*used for raid at 1 MiB, where the plan's partition" \
	sp apply "${P400[@]}" --fs xfs --device "$dev"
# ... and a whole-disk member, superblock at 4 KiB
dd if=/dev/zero of="$dev" bs=1M count=8 conv=fsync status=none
"$MD_SB" "$dev" 0
expect_refused "$dev" "'$dev' holds a linux_raid_member signature \(UUID 73747269-7065-706c-616e-2d7465737400\), used for raid; stripeplan will not overwrite it without --force" \
	sp apply "${P400[@]}" --fs xfs --device "$dev"
expect_ok "apply --force over the md member" sp apply "${P400[@]}" --fs xfs --device "$dev" --force
expect_out 'wiped the linux_raid_member signature at offset 4096 on '"$dev"

# --- an xfs at 1 MiB whose table was zeroed by dd, not wipefs ---------------
expect_ok "apply --force" sp apply "${P400[@]}" --fs xfs --device "$dev" --force
delpart "$dev" 1
dd if=/dev/zero of="$dev" bs=512 count=2048 conv=fsync status=none
# (the backup GPT left is exactly the plan's, which alone would be written
# again; the filesystem its partition holds is what refuses)
expect_refused "$dev" "holds an xfs filesystem .* at 1 MiB, where the plan's partition" sp apply "${P400[@]}" --fs xfs --device "$dev"
# ... and with the backup GPT at the end gone too: the xfs itself
wipefs -q -a "$dev"
expect_refused "$dev" "holds an xfs filesystem .* at 1 MiB" sp apply "${P400[@]}" --fs ext4 --device "$dev"

# --- only the backup GPT is left: the primary and the XFS's first 7 MiB gone --
dd if=/dev/zero of="$dev" bs=1M count=8 conv=fsync status=none
expect_ok "apply --force" sp apply "${P400[@]}" --fs xfs --device "$dev" --force
delpart "$dev" 1
dd if=/dev/zero of="$dev" bs=1M count=8 conv=fsync status=none
checks=$((checks + 1))
wipefs -n "$dev" | grep -q 'gpt' || fail "the test lost its backup GPT: $(wipefs -n "$dev")"
expect_refused "$dev" "holds a damaged xfs filesystem at 1 MiB \\(no primary superblock" sp apply "${P400[@]}" --fs xfs --device "$dev"

# --- --force is the way through, and the result checks ----------------------
expect_ok "apply --force" sp apply "${P400[@]}" --fs xfs --device "$dev" --force
expect_out '^\[3/[0-9]\] filesystem .*done, verified'
expect_ok "check" sp check "${P400[@]}" --fs xfs --device "$dev"

# --- a --device symlink is the node it names ---------------------------------
link_dir="$SP_LOOP_TMPDIR/by-id"
mkdir -p "$link_dir"
ln -s "$dev" "$link_dir/wwn-0xtest"
dev2=$(sp_loop_create 1G) || exit 1
ln -s "$dev2" "$link_dir/wwn-0xother"
expect_ok "plan through a link" sp plan "${P400[@]}" --fs xfs --device "$link_dir/wwn-0xother" \
	--format json -o "$WORK/link.json"
checks=$((checks + 1))
grep -q "\"path\": \"${dev2}p1\"" "$WORK/link.json" || fail "the plan does not name ${dev2}p1: $(grep '"path"' "$WORK/link.json")"
expect_ok "apply through a link" sp apply "${P400[@]}" --fs xfs --device "$link_dir/wwn-0xother"
expect_out '^\[1/[0-9]\] partition .*done, verified'
expect_out '^\[3/[0-9]\] filesystem .*done, verified'
checks=$((checks + 1))
[ "$(blkid -o value -s TYPE "${dev2}p1")" = xfs ] || fail "no xfs on ${dev2}p1"
expect_ok "check through a link" sp check "${P400[@]}" --fs xfs --device "$link_dir/wwn-0xother"
expect_ok "apply --plan through a link" sp apply --plan "$WORK/link.json" --device "$link_dir/wwn-0xother"
expect_out 'unchanged'
# a link to another disk is another disk
expect_refused "$dev" "the plan was made for '$dev2', not '$link_dir/wwn-0xtest' \\($dev\\)" \
	sp apply --plan "$WORK/link.json" --device "$link_dir/wwn-0xtest"

device_finish
