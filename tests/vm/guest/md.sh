#!/bin/bash
# md arrays on a real kernel, in one boot: RAID5 10 x 1 MiB (the field
# report's array) planned, applied, checked and applied again; then RAID6,
# RAID10 and RAID1 side by side.  The filesystem geometry must equal what
# mkfs.xfs derives by itself from the array's exported topology, and the
# tuning must read back from sysfs.
# shellcheck source=lib.bash
. /share/lib.bash
ROOT=/tmp/root
mkdir -p "$ROOT/etc"

members=()
for i in 0 1 2 3 4 5 6 7 8 9; do members+=("$(disk_by_serial "m$i")"); done
echo "members: ${members[*]}"

# ---- RAID5, 10 x 1 MiB -----------------------------------------------------
create_md /dev/md3 5 1024 "${members[@]}"
expect_eq "md3 level" "$(cat /sys/block/md3/md/level)" raid5
expect_eq "md3 chunk_size" "$(cat /sys/block/md3/md/chunk_size)" 1048576
expect_eq "md3 exported minimum_io_size" "$(cat /sys/block/md3/queue/minimum_io_size)" 1048576
expect_eq "md3 exported optimal_io_size (9 data disks)" "$(cat /sys/block/md3/queue/optimal_io_size)" 9437184
mkfs_derived /dev/md3 >/tmp/derived-md3
expect_eq "mkfs.xfs -N on md3 alone" "$(cat /tmp/derived-md3)" "256 2304"

# geometry, members and the table all come from the kernel: the flags the
# field report needed are not given, and the filesystem goes on md3 itself
R5=(--controller md --fs xfs --mountpoint /srv)
expect_rc 0 "plan raid5 (probed, no geometry flags)" stripeplan plan "${R5[@]}" --device /dev/md3
expect_out "the plan says the geometry is md3's own" "from the kernel"
cp "$OUT" /tmp/plan-md3
expect_rc 0 "apply raid5" stripeplan apply "${R5[@]}" --device /dev/md3 --root "$ROOT"
expect_rc 1 "no partition table on md3 (sfdisk -d fails)" sfdisk -d /dev/md3
expect_rc 1 "no md3p1 in sysfs" test -e /sys/block/md3/md3p1
expect_eq "filesystem type on md3 itself (blkid)" "$(blkid -o value -s TYPE /dev/md3)" xfs
xfs_matches_mkfs raid5 md3 /dev/md3
expect_eq "xfs log stripe unit (bytes)" "$(xfs_sb /dev/md3 logsunit)" 4096
expect_tuning "raid5 live tuning" /tmp/plan-md3
cache=$(tuning_of /tmp/plan-md3 | awk '$1 ~ /stripe_cache_size$/ { print $2 }')
expect_rc 0 "the plan sets md3's stripe cache" test -n "$cache"
expect_eq "md3 stripe_cache_size" "$(knob /sys/block/md3/md/stripe_cache_size)" "$cache"
expect_eq "member ${members[0]} scheduler" "$(knob "/sys/block/${members[0]}/queue/scheduler")" mq-deadline
# the rule is named by the array's UUID, as it matches it: not by "md3"
md_uuid=$(mdadm --detail --export /dev/md3 | sed -n 's/^MD_UUID=//p')
rule="$ROOT/etc/udev/rules.d/65-stripeplan-md-${md_uuid//:/-}.rules"
expect_eq "udev rule written as $(basename "$rule")" "$(grep -c "ATTR{md/stripe_cache_size}=\"$cache\"" "$rule")" 1
expect_eq "the rule matches md3 by its MD_UUID" "$(grep -c "ENV{MD_UUID}==\"$md_uuid\"" "$rule")" 1
expect_eq "... and the ten members by WWN" "$(grep -c 'ATTRS{wwid}=="naa.5000c5000000a10[0-9]"' "$rule")" 10
expect_rc 0 "the tune script is named by the UUID too" \
	test -x "$ROOT/usr/local/sbin/stripeplan-tune-md-${md_uuid//:/-}"
expect_rc 0 "fstab line for /srv" grep -q " /srv xfs .*swalloc" "$ROOT/etc/fstab"
expect_rc 0 "check raid5 (no geometry flags)" sp_check "${R5[@]}" --device /dev/md3 --root "$ROOT"

# a declaration that contradicts the kernel: exit 2, one line naming it
expect_rc 2 "--chunk 512K on md3 (1 MiB chunk): refused" \
	stripeplan plan "${R5[@]}" --level 5 --disks 10 --chunk 512K --device /dev/md3
expect_eq "one line, naming the difference" "$(cat "$ERR")" \
	"stripeplan: chunk: --chunk 512K, but md3 has a 1 MiB chunk"

uuid=$(blkid -o value -s UUID /dev/md3)
sb=$(dd if=/dev/md3 bs=64K count=1 2>/dev/null | sha256sum)
expect_rc 0 "apply raid5 again" stripeplan apply "${R5[@]}" --device /dev/md3 --root "$ROOT"
expect_out "second apply reports nothing to do" "unchanged"
expect_rc 1 "still no partition table after the second apply" sfdisk -d /dev/md3
expect_eq "filesystem uuid after the second apply" "$(blkid -o value -s UUID /dev/md3)" "$uuid"
expect_eq "superblock bytes after the second apply" "$(dd if=/dev/md3 bs=64K count=1 2>/dev/null | sha256sum)" "$sb"

# drift on the real array: check names it
echo 64 >/sys/block/md3/md/stripe_cache_size
expect_rc 1 "check finds a lowered stripe cache" sp_check "${R5[@]}" --device /dev/md3 --root "$ROOT"
expect_out "check names the knob" "stripe_cache_size"

# persistence by identity: md3 assembled again as md127 (what happens when
# mdadm.conf is not in the initramfs) still gets its tuning, because the
# rule matches ENV{MD_UUID}, not the kernel name
cp "$rule" /etc/udev/rules.d/
udevadm control --reload
mdadm --stop /dev/md3 >/dev/null
paths=()
for d in "${members[@]}"; do paths+=("/dev/$d"); done
expect_rc 0 "mdadm --assemble md3's members as /dev/md127" mdadm --assemble --run /dev/md127 "${paths[@]}"
expect_knob_within 10 "md127 stripe_cache_size set by the rule" /sys/block/md127/md/stripe_cache_size "$cache"
rm "/etc/udev/rules.d/$(basename "$rule")"
udevadm control --reload
# ... and so does the tune script md3's apply installed, run by hand: it
# finds the array by md/uuid (which 6.1 has: the script compares it, in
# MD_UUID's spelling, with the plan's) and the members by WWN or serial
expect_rc 0 "md127 has md/uuid" test -s /sys/block/md127/md/uuid
echo "md127 md/uuid $(cat /sys/block/md127/md/uuid), metadata $(cat /sys/block/md127/md/metadata_version), MD_UUID $md_uuid"
script="$ROOT/usr/local/sbin/stripeplan-tune-md-${md_uuid//:/-}"
sed -n '/^# Each device/,/^#$/s/^#   /    identity: /p' "$script"
expect_eq "the script finds the ten members by WWN" \
	"$(grep -c "^#   md member: the disk with WWN naa.5000c5000000a10[0-9] " "$script")" 10
echo 64 >/sys/block/md127/md/stripe_cache_size
echo none >"/sys/block/${members[3]}/queue/scheduler"
expect_rc 0 "md3's tune script on md127" "$script"
expect_eq "it says nothing (every device found)" "$(cat "$ERR")" ""
expect_eq "md127 stripe_cache_size set by md3's tune script" \
	"$(knob /sys/block/md127/md/stripe_cache_size)" "$cache"
expect_eq "member ${members[3]} scheduler set by it" \
	"$(knob "/sys/block/${members[3]}/queue/scheduler")" mq-deadline
expect_eq "the script names no md3 path" "$(grep -c '/sys/block/md3' "$script")" 0
# udev's %k: only the device that has that name now
echo 64 >/sys/block/md127/md/stripe_cache_size
expect_rc 0 "md3's tune script for ${members[3]} only" "$script" "${members[3]}"
expect_eq "md127 left alone" "$(knob /sys/block/md127/md/stripe_cache_size)" 64
expect_rc 0 "md3's tune script for md127 only" "$script" md127
expect_eq "md127 stripe_cache_size set for md127" \
	"$(knob /sys/block/md127/md/stripe_cache_size)" "$cache"
# check finds the files under the new name, and their text names the
# array and its members by identity only: no drift
members_re=$(IFS='|'; echo "${members[*]}")
expect_eq "the rule md3's apply wrote names no md3 or member" \
	"$(grep -cwE "md3|$members_re" "$rule")" 0
expect_eq "its tune script finds none by kernel name" "$(grep -c '^if found name ' "$script")" 0
expect_rc 0 "check md127: the files md3's apply wrote match" \
	sp_check "${R5[@]}" --device /dev/md127 --root "$ROOT"
expect_eq "check md127: nothing differs" "$(cat "$OUT" "$ERR" | grep -c differs)" 0
# the rule as earlier versions wrote it, naming md3: it differs, and
# apply rewrites it in place, not beside it
sed -i '1s|.*|# stripeplan: block-device tuning for /dev/md3|' "$rule"
expect_rc 1 "check md127: a rule naming md3" sp_check "${R5[@]}" --device /dev/md127 --root "$ROOT"
expect_out "check finds the rule md3's apply wrote" "$(basename "$rule") differs"
expect_rc 0 "apply on md127" stripeplan apply "${R5[@]}" --device /dev/md127 --root "$ROOT"
expect_eq "still one rule file" "$(find "$ROOT/etc/udev/rules.d" -type f | wc -l)" 1
expect_eq "still one tune script" "$(find "$ROOT/usr/local/sbin" -type f | wc -l)" 1
expect_rc 0 "check md127 after apply" sp_check "${R5[@]}" --device /dev/md127 --root "$ROOT"

# --workload small-sync on the real array: mkfs.xfs takes su/sw from md's
# exported topology by itself (above), -d noalign keeps it from doing so
expect_eq "mkfs.xfs -N -d noalign on md127: no stripe" \
	"$(mkfs.xfs -N -f -d noalign /dev/md127 2>/dev/null | sed -n 's/.*sunit=\([0-9]*\) *swidth=\([0-9]*\) blks.*/\1 \2/p' | head -1)" "0 0"
S=(--controller md --fs xfs --mountpoint /mail --workload small-sync)
expect_rc 0 "apply small-sync on md127 (--force: md3's xfs is on it)" \
	stripeplan apply "${S[@]}" --device /dev/md127 --root "$ROOT" --force
expect_eq "small-sync xfs on md127: sb unit, width" "$(xfs_sb /dev/md127 unit) $(xfs_sb /dev/md127 width)" "0 0"
expect_rc 0 "small-sync xfs on md127: log stripe unit 0 or 1" \
	test "$(xfs_sb /dev/md127 logsunit)" -le 1
# the allocation groups the plan leaves to mkfs.xfs: one device's 4, not
# the 8 or 16 it makes from md's exported topology
expect_rc 0 "plan small-sync on md127" stripeplan plan "${S[@]}" --device /dev/md127
expect_out "the plan says mkfs.xfs's own 4 allocation groups" "^  agcount +4 +mkfs.xfs's own for one device"
expect_eq "small-sync xfs on md127: agcount" "$(xfs_sb /dev/md127 agcount)" 4
expect_rc 1 "no swalloc in the small-sync fstab line" grep -q " /mail xfs .*swalloc" "$ROOT/etc/fstab"
expect_rc 0 "check small-sync on md127" sp_check "${S[@]}" --device /dev/md127 --root "$ROOT"

mdadm --stop /dev/md127 >/dev/null
# zeroes, not just no signatures: an array made with --assume-clean reads
# old data back, and RAID1 would read different bytes from each mirror
for d in "${members[@]}"; do mdadm --zero-superblock "/dev/$d"; blkdiscard -f "/dev/$d"; done

# ---- RAID6 4 x 512K (declared, on a GPT partition), RAID10 near 2 on 3
# disks and RAID1 on 2 (geometry from the kernel, the filesystem on the array)
create_md /dev/md4 6 512 "${members[@]:0:4}"
create_md /dev/md5 10 256 "${members[@]:4:3}"
create_md /dev/md6 1 - "${members[@]:8:2}"
expect_eq "md4 raid6 optimal_io_size (2 data disks)" "$(cat /sys/block/md4/queue/optimal_io_size)" 1048576
expect_eq "md5 raid10 n2 on 3 disks: layout" "$(cat /sys/block/md5/md/layout)" 258
expect_eq "md5 raid10 n2 on 3 disks optimal_io_size (3 chunks: 3 is not a multiple of 2 copies)" \
	"$(cat /sys/block/md5/queue/optimal_io_size)" 786432
expect_eq "md6 raid1 exports no io_min" "$(cat /sys/block/md6/queue/minimum_io_size)" 512
expect_eq "md6 raid1 exports no io_opt" "$(cat /sys/block/md6/queue/optimal_io_size)" 0
for md in md4 md5 md6; do mkfs_derived "/dev/$md" >"/tmp/derived-$md"; done

m4=$(IFS=,; echo "${members[*]:0:4}")
R6=(--controller md --level 6 --disks 4 --chunk 512K --fs xfs --members "$m4" --table gpt)
R10=(--controller md --fs xfs)
R1=(--controller md --fs xfs)
expect_rc 0 "plan raid6" stripeplan plan "${R6[@]}" --device /dev/md4
cp "$OUT" /tmp/plan-md4
expect_rc 0 "apply raid6" stripeplan apply "${R6[@]}" --device /dev/md4 --root "$ROOT"
xfs_matches_mkfs raid6 md4 /dev/md4p1
expect_tuning "raid6 live tuning" /tmp/plan-md4
expect_rc 0 "check raid6" sp_check "${R6[@]}" --device /dev/md4 --root "$ROOT"

# md RAID10 takes an odd disk count (mdadm(8))
expect_rc 0 "plan raid10 n2 on 3 disks" stripeplan plan "${R10[@]}" --device /dev/md5
cp "$OUT" /tmp/plan-md5
expect_rc 0 "apply raid10 n2 on 3 disks" stripeplan apply "${R10[@]}" --device /dev/md5 --root "$ROOT"
xfs_matches_mkfs raid10 md5 /dev/md5
expect_tuning "raid10 live tuning" /tmp/plan-md5
expect_rc 0 "check raid10" sp_check "${R10[@]}" --device /dev/md5 --root "$ROOT"
# md5 has 3 disks: a declared 4 contradicts the kernel
expect_rc 2 "raid10 --disks 4 on a 3-disk array: refused" \
	stripeplan plan --controller md --level 10 --disks 4 --chunk 256K --fs xfs --device /dev/md5
expect_eq "one line, naming the difference" "$(cat "$ERR")" \
	"stripeplan: disks: --disks 4, but md5 has 3 disks"

expect_rc 0 "plan raid1" stripeplan plan "${R1[@]}" --device /dev/md6
cp "$OUT" /tmp/plan-md6
# a mirror has no stripe: no su/sw, as mkfs.xfs derives on its own
expect_rc 0 "apply raid1" stripeplan apply "${R1[@]}" --device /dev/md6 --root "$ROOT"
expect_eq "mkfs.xfs -N on md6 alone: no stripe" "$(cat /tmp/derived-md6)" "0 0"
xfs_matches_mkfs raid1 md6 /dev/md6
expect_tuning "raid1 live tuning" /tmp/plan-md6
expect_rc 0 "check raid1" sp_check "${R1[@]}" --device /dev/md6 --root "$ROOT"

mdadm --stop /dev/md4 /dev/md5 /dev/md6 >/dev/null

# ---- a stopped array's member is not a blank disk (issue 9) ----------------
# md6's members keep the md 1.2 superblock mdadm wrote at 4 KiB: libblkid
# finds it, and apply without --force refuses before writing anything
m=/dev/${members[8]}
expect_eq "libblkid on md6's stopped member $m" \
	"$(blkid -p -o value -s TYPE "$m") $(blkid -p -o value -s VERSION "$m")" "linux_raid_member 1.2"
expect_eq "mdadm puts the 1.2 superblock at 4 KiB (sector 8)" \
	"$(mdadm --examine "$m" | sed -n 's/^ *Super Offset : \([0-9]*\) sectors.*/\1/p')" 8
sum=$(dd if="$m" bs=1M count=8 2>/dev/null | sha256sum)
G=(--controller generic --level 10 --disks 4 --chunk 64K --fs ext4)
expect_rc 3 "apply on md6's stopped member, no --force: refused" \
	stripeplan apply "${G[@]}" --device "$m" --root "$ROOT"
expect_out "the refusal names the md superblock" \
	"'$m' holds a linux_raid_member signature .*without --force"
expect_eq "the member's first 8 MiB after the refusal" "$(dd if="$m" bs=1M count=8 2>/dev/null | sha256sum)" "$sum"
expect_rc 0 "mdadm still sees the member" mdadm --examine "$m"
vm_finish
