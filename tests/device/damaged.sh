#!/bin/bash
# A damaged filesystem is still data; check tells the truth about what is on
# disk (issue 21, rules 1 and 5).  Each filesystem below holds a file, is
# damaged the way xfs_db -x, dd or a dying disk damages one, and then:
#   - check reports 'damaged filesystem' with the repair, exit 1, never
#     "no filesystem; fix: mkfs" and never a match;
#   - apply without --force is refused, exit 3, the whole image, sfdisk's view
#     and the scratch root unchanged, --dry-run too;
#   - the repair check named restores it: the file reads back the same.
# And one damaged GPT copy, primary or backup: check's gpt-copy-damaged with
# the repair, apply refused untouched, the repair named works, and then apply
# converges with nothing to do.  Our own intact result re-runs unchanged.
. "$SRCDIR/tests/device/lib.bash"

P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --kernel 6.1)
dev=$(sp_loop_create 1G) || exit 1
part="${dev}p1"
mnt="$SP_LOOP_TMPDIR/mnt"

# filled FS: a fresh FS of the plan (--force over the last case's) holding
# 1 MiB of random bytes; its digest in $sum
filled() {
	expect_ok "apply --force $1" sp apply "${P400[@]}" --fs "$1" --device "$dev" --force
	sp_loop_mount "$part" "$mnt"
	head -c 1M /dev/urandom >"$mnt/data"
	sum=$(sha256sum <"$mnt/data")
	umount "$mnt"
}

# refused FS PATTERN REPAIR: check names it damaged with REPAIR, apply (and
# --dry-run) refuse it untouched; both say PATTERN
refused() {
	local fs=$1 pattern=$2 repair=$3
	expect_rc 1 "costly: damaged filesystem: the $fs on $part will not mount: $pattern" \
		sp check "${P400[@]}" --fs "$fs" --device "$dev"
	expect_out "; it still holds its files; fix: $repair $part \\(never mkfs: that destroys them\\)"
	checks=$((checks + 1))
	! grep -q 'no filesystem\|mkfs\.\|mke2fs ' "$WORK/out" ||
		fail "check advises making a filesystem over it: $(cat "$WORK/out")"
	expect_refused "$dev" "'$dev' holds a damaged $fs filesystem at 1 MiB \\($pattern.*\\); repair: $repair $part; stripeplan will not overwrite it without --force" \
		sp apply "${P400[@]}" --fs "$fs" --device "$dev"
	expect_refused "$dev" "holds a damaged $fs filesystem" \
		sp apply "${P400[@]}" --fs "$fs" --device "$dev" --dry-run
	# --table none writes over it too: refused (the label is found first)
	expect_refused "$dev" "will not overwrite it without --force" \
		sp apply "${P400[@]}" --fs "$fs" --device "$dev" --table none
}

# mounts_ro DEV: the kernel mounts it (read-only, on a directory of ours)
mounts_ro() {
	local dir="$SP_LOOP_TMPDIR/mnt-try"
	mkdir -p "$dir"
	echo "$dir" >>"$SP_LOOP_TMPDIR/.mounts"
	mount -o ro "$1" "$dir" 2>/dev/null || return 1
	umount "$dir"
}

# restored CMD...: CMD (the repair check named) brings the file back
restored() {
	local rc=0
	"$@" >"$WORK/repair" 2>&1 || rc=$?
	checks=$((checks + 1))
	# e2fsck: 1 and 2 mean "errors corrected"
	[ "$rc" -le 2 ] || fail "'$*' exited $rc: $(tail -5 "$WORK/repair")"
	sp_loop_mount "$part" "$mnt" ro
	checks=$((checks + 1))
	[ "$(sha256sum <"$mnt/data")" = "$sum" ] || fail "'$*' did not bring the file back"
	umount "$mnt"
}

# --- XFS: agcount 0 with a valid CRC (xfs_db recomputes it) -----------------
filled xfs
xfs_db -x -c 'sb 0' -c 'write -d agcount 0' "$part" >/dev/null 2>&1
checks=$((checks + 1))
[ -z "$(blkid -p -o value -s TYPE "$part" 2>/dev/null)" ] ||
	fail "libblkid still sees the xfs: the test shows nothing new"
refused xfs "its primary superblock: sb_agcount is 0; its secondary superblock at byte [0-9]+ \\(allocation group 1\\) is intact" xfs_repair
restored xfs_repair "$part"

# --- XFS: its first sector zeroed ------------------------------------------
filled xfs
dd if=/dev/zero of="$part" bs=512 count=1 conv=fsync status=none
refused xfs "no primary superblock; its secondary superblock at byte [0-9]+ \\(allocation group 1\\) is intact" xfs_repair
restored xfs_repair "$part"

# --- XFS: a bad superblock CRC (a byte of the sector beyond the fields) ----
filled xfs
printf '\001' | dd of="$part" bs=1 seek=400 conv=notrunc,fsync status=none
refused xfs "its primary superblock: superblock CRC is 0x[0-9a-f]{8}, its contents give 0x[0-9a-f]{8}" xfs_repair
restored xfs_repair "$part"

# --- XFS: sb_logstart 0, CRC valid: libblkid calls it xfs, the kernel refuses
filled xfs
xfs_db -x -c 'sb 0' -c 'write -d logstart 0' "$part" >/dev/null 2>&1
checks=$((checks + 1))
[ "$(blkid -p -o value -s TYPE "$part")" = xfs ] || fail "libblkid no longer sees the xfs"
checks=$((checks + 1))
! mounts_ro "$part" || fail "the kernel mounts an xfs with sb_logstart 0: the test proves nothing"
refused xfs "its primary superblock: sb_logstart is 0 \\(an external log\\): the kernel refuses to mount it without logdev=" xfs_repair
restored xfs_repair "$part"

# --- ext4: its primary superblock zeroed ------------------------------------
filled ext4
dd if=/dev/zero of="$part" bs=1024 seek=1 count=1 conv=fsync status=none
refused ext4 "no primary superblock; its backup superblock in group 1 \\(block 32768\\) is intact" "e2fsck -b 32768 -B 4096"
restored e2fsck -b 32768 -B 4096 -y "$part"

# --- ext4: a bad superblock checksum (a byte of the volume label) ----------
filled ext4
printf '\001' | dd of="$part" bs=1 seek=$((1024 + 0x78)) conv=notrunc,fsync status=none
refused ext4 "its primary superblock: superblock checksum is 0x[0-9a-f]{8}, its contents give 0x[0-9a-f]{8}; its backup superblock in group 1 \\(block 32768\\) is intact" "e2fsck -b 32768 -B 4096"
restored e2fsck -b 32768 -B 4096 -y "$part"

# --- the table and the filesystem's first sector gone: found at 1 MiB ------
filled xfs
dd if=/dev/zero of="$part" bs=512 count=1 conv=fsync status=none
delpart "$dev" 1
wipefs -q -a "$dev"
expect_refused "$dev" "'$dev' holds a damaged xfs filesystem at 1 MiB \\(no primary superblock; .*repair: xfs_repair a device starting at byte 1048576 of $dev \\(losetup --offset 1048576" \
	sp apply "${P400[@]}" --fs ext4 --device "$dev"
# ... and wipefs of the filesystem itself leaves its secondaries: still data
filled xfs
wipefs -q -a "$part"
expect_refused "$dev" "holds a damaged xfs filesystem at 1 MiB \\(no primary superblock" \
	sp apply "${P400[@]}" --fs xfs --device "$dev"
expect_ok "--force overwrites it" sp apply "${P400[@]}" --fs xfs --device "$dev" --force
expect_out '^\[3/[0-9]\] filesystem .*done, verified'

# --- our own intact result: apply twice changes nothing, check --strict 0 --
expect_ok "apply again" sp apply "${P400[@]}" --fs xfs --device "$dev"
expect_out "already matches the plan: nothing to do"
expect_ok "check --strict" sp check "${P400[@]}" --fs xfs --device "$dev" --strict

# --- one damaged GPT copy: a finding with the repair, never re-creation ----
# corrupt_gpt LBA: flip a byte of the header at LBA (its disk GUID)
corrupt_gpt() {
	printf 'X' | dd of="$dev" bs=1 seek=$(($1 * 512 + 60)) conv=notrunc,fsync status=none
}
last=$(($(blockdev --getsz "$dev") - 1))
for copy in primary backup; do
	filled xfs
	lba=1
	[ "$copy" = primary ] || lba=$last
	corrupt_gpt "$lba"
	other=backup
	[ "$copy" = primary ] || other=primary
	expect_rc 1 "costly: $dev: the $copy GPT header at LBA $lba is damaged: header CRC is 0x[0-9a-f]{8}, its contents give 0x[0-9a-f]{8}; the $other at LBA [0-9]+ is intact .*fix: sgdisk -e $dev, or sfdisk -d $dev >table && sfdisk $dev <table" \
		sp check "${P400[@]}" --fs xfs --device "$dev"
	checks=$((checks + 1))
	! grep -q 'destroys\|no partition table' "$WORK/out" ||
		fail "check advises destroying the label: $(cat "$WORK/out")"
	# the intact copy is judged: the filesystem on its partition matches
	expect_out '^\[3/[0-9]\] filesystem .*already matches'
	expect_refused "$dev" "'$dev' holds a gpt partition table: the $copy GPT header at LBA $lba is damaged: .* and holds exactly the plan's partition; repair it with sgdisk -e $dev" \
		sp apply "${P400[@]}" --fs xfs --device "$dev"
	# the repair named works, and then there is nothing to do
	sfdisk -q -d "$dev" >"$WORK/table" 2>/dev/null
	sfdisk -q "$dev" <"$WORK/table" >/dev/null 2>&1
	partx -u "$dev" # sfdisk's re-read left the kernel without partition 1
	expect_ok "check after the repair" sp check "${P400[@]}" --fs xfs --device "$dev" --strict
	expect_ok "apply after the repair" sp apply "${P400[@]}" --fs xfs --device "$dev"
	expect_out "already matches the plan: nothing to do"
	restored true
done

# --- a missing copy beside the plan's own table converges ------------------
# what an apply stopped between libparted's primary and backup writes leaves
# (kill -9 on a blank disk): the primary is exactly the plan's, no GPT at the
# end; writing the plan's table again loses nothing, so no --force is needed
expect_ok "a fresh layout" sp apply "${P400[@]}" --fs xfs --device "$dev" --force
blkdiscard -f "${dev}p1" >/dev/null 2>&1
dd if=/dev/zero of="$dev" bs=512 seek="$last" count=1 conv=notrunc,fsync status=none
expect_ok "apply over a missing backup copy" sp apply "${P400[@]}" --fs xfs --device "$dev"
expect_out '^\[1/[0-9]\] partition .*done, verified'
expect_ok "check --strict after it" sp check "${P400[@]}" --fs xfs --device "$dev" --strict
checks=$((checks + 1))
sfdisk -q --verify "$dev" >/dev/null 2>&1 || fail "sfdisk --verify: $(sfdisk --verify "$dev" 2>&1)"

device_finish
