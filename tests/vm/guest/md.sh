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

csv=$(IFS=,; echo "${members[*]}")
R5=(--controller md --level 5 --disks 10 --chunk 1M --fs xfs --members "$csv" --mountpoint /srv --table gpt)
expect_rc 0 "plan raid5 (probed)" stripeplan plan "${R5[@]}" --device /dev/md3
cp "$OUT" /tmp/plan-md3
expect_rc 0 "apply raid5" stripeplan apply "${R5[@]}" --device /dev/md3 --root "$ROOT"
# TODO(issue 10): the filesystem belongs on md3 itself; today it is on md3p1
expect_eq "partition start (sfdisk -d, sectors): 9 MiB full stripe" \
	"$(sfdisk -d /dev/md3 | sed -n 's|^/dev/md3p1 : start= *\([0-9]*\),.*|\1|p')" 18432
expect_eq "filesystem type (blkid)" "$(blkid -o value -s TYPE /dev/md3p1)" xfs
xfs_matches_mkfs raid5 md3 /dev/md3p1
expect_eq "xfs log stripe unit (bytes)" "$(xfs_sb /dev/md3p1 logsunit)" 32768
expect_tuning "raid5 live tuning" /tmp/plan-md3
cache=$(tuning_of /tmp/plan-md3 | awk '$1 ~ /stripe_cache_size$/ { print $2 }')
expect_rc 0 "the plan sets md3's stripe cache" test -n "$cache"
expect_eq "md3 stripe_cache_size" "$(knob /sys/block/md3/md/stripe_cache_size)" "$cache"
expect_eq "member ${members[0]} scheduler" "$(knob "/sys/block/${members[0]}/queue/scheduler")" mq-deadline
expect_eq "udev rule written" "$(grep -c "ATTR{md/stripe_cache_size}=\"$cache\"" "$ROOT/etc/udev/rules.d/65-stripeplan-md3.rules")" 1
expect_rc 0 "fstab line for /srv" grep -q " /srv xfs .*swalloc" "$ROOT/etc/fstab"
expect_rc 0 "check raid5" sp_check "${R5[@]}" --device /dev/md3 --root "$ROOT"

table=$(sfdisk -d /dev/md3)
uuid=$(blkid -o value -s UUID /dev/md3p1)
sb=$(dd if=/dev/md3p1 bs=64K count=1 2>/dev/null | sha256sum)
expect_rc 0 "apply raid5 again" stripeplan apply "${R5[@]}" --device /dev/md3 --root "$ROOT"
expect_out "second apply reports nothing to do" "unchanged"
expect_eq "partition table after the second apply" "$(sfdisk -d /dev/md3)" "$table"
expect_eq "filesystem uuid after the second apply" "$(blkid -o value -s UUID /dev/md3p1)" "$uuid"
expect_eq "superblock bytes after the second apply" "$(dd if=/dev/md3p1 bs=64K count=1 2>/dev/null | sha256sum)" "$sb"

# drift on the real array: check names it
echo 64 >/sys/block/md3/md/stripe_cache_size
expect_rc 1 "check finds a lowered stripe cache" sp_check "${R5[@]}" --device /dev/md3 --root "$ROOT"
expect_out "check names the knob" "stripe_cache_size"

mdadm --stop /dev/md3 >/dev/null
# zeroes, not just no signatures: an array made with --assume-clean reads
# old data back, and RAID1 would read different bytes from each mirror
for d in "${members[@]}"; do mdadm --zero-superblock "/dev/$d"; blkdiscard -f "/dev/$d"; done

# ---- RAID6 4 x 512K, RAID10 4 x 256K (near 2), RAID1 2 disks --------------
create_md /dev/md4 6 512 "${members[@]:0:4}"
create_md /dev/md5 10 256 "${members[@]:4:4}"
create_md /dev/md6 1 - "${members[@]:8:2}"
expect_eq "md4 raid6 optimal_io_size (2 data disks)" "$(cat /sys/block/md4/queue/optimal_io_size)" 1048576
expect_eq "md5 raid10 n2 optimal_io_size (4 / 2 copies)" "$(cat /sys/block/md5/queue/optimal_io_size)" 524288
expect_eq "md6 raid1 exports no io_min" "$(cat /sys/block/md6/queue/minimum_io_size)" 512
expect_eq "md6 raid1 exports no io_opt" "$(cat /sys/block/md6/queue/optimal_io_size)" 0
for md in md4 md5 md6; do mkfs_derived "/dev/$md" >"/tmp/derived-$md"; done

m4=$(IFS=,; echo "${members[*]:0:4}")
m5=$(IFS=,; echo "${members[*]:4:4}")
m6=$(IFS=,; echo "${members[*]:8:2}")
R6=(--controller md --level 6 --disks 4 --chunk 512K --fs xfs --members "$m4" --table gpt)
R10=(--controller md --level 10 --disks 4 --chunk 256K --fs xfs --members "$m5" --table gpt)
R1=(--controller md --level 1 --disks 2 --chunk 64K --fs xfs --members "$m6" --table gpt)
expect_rc 0 "plan raid6" stripeplan plan "${R6[@]}" --device /dev/md4
cp "$OUT" /tmp/plan-md4
expect_rc 0 "apply raid6" stripeplan apply "${R6[@]}" --device /dev/md4 --root "$ROOT"
xfs_matches_mkfs raid6 md4 /dev/md4p1
expect_tuning "raid6 live tuning" /tmp/plan-md4
expect_rc 0 "check raid6" sp_check "${R6[@]}" --device /dev/md4 --root "$ROOT"

expect_rc 0 "plan raid10" stripeplan plan "${R10[@]}" --device /dev/md5
cp "$OUT" /tmp/plan-md5
expect_rc 0 "apply raid10" stripeplan apply "${R10[@]}" --device /dev/md5 --root "$ROOT"
xfs_matches_mkfs raid10 md5 /dev/md5p1
expect_tuning "raid10 live tuning" /tmp/plan-md5
expect_rc 0 "check raid10" sp_check "${R10[@]}" --device /dev/md5 --root "$ROOT"
# md5 has 4 disks: a declared 3 contradicts the kernel
expect_rc 2 "raid10 --disks 3 on a 4-disk array: refused" \
	stripeplan plan --controller md --level 10 --disks 3 --chunk 256K --fs xfs --device /dev/md5

expect_rc 0 "plan raid1" stripeplan plan "${R1[@]}" --device /dev/md6
cp "$OUT" /tmp/plan-md6
# a mirror has no stripe: no su/sw, as mkfs.xfs derives on its own
expect_rc 0 "apply raid1" stripeplan apply "${R1[@]}" --device /dev/md6 --root "$ROOT"
expect_eq "mkfs.xfs -N on md6 alone: no stripe" "$(cat /tmp/derived-md6)" "0 0"
expect_eq "raid1 xfs sunit swidth: none" \
	"$(xfs_sb /dev/md6p1 unit) $(xfs_sb /dev/md6p1 width)" "0 0"

mdadm --stop /dev/md4 /dev/md5 /dev/md6 >/dev/null
vm_finish
