#!/bin/bash
# A disk named by a stable link plans offline: the kernel's name is not
# needed to plan (it is read where apply probes the disk), the partition is
# named by udev's rule ("-part1"), and the installer snippets name the disk
# as it was given: the apply command by the link, kickstart's ignoredisk in
# the form Anaconda takes (disk/by-id/...).
. "$(dirname "$0")/lib.bash"

sp() { "$STRIPEPLAN" "$@"; }
ARRAY=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --size 2T --kernel 6.1.0
	--mountpoint /data)

# expect_plan NAME PATTERN ARGS...: plan exits 0 and its stdout matches
expect_plan() {
	local name=$1 pattern=$2
	shift 2
	checks=$((checks + 1))
	if ! sp plan "$@" >"$WORK/out" 2>"$WORK/err"; then
		fail "$name: plan exited non-zero: $(cat "$WORK/err")"
	elif ! grep -qE -- "$pattern" "$WORK/out"; then
		fail "$name: stdout does not match /$pattern/: $(cat "$WORK/out")"
	fi
}

for link in /dev/disk/by-id/wwn-0x5000c500a1b2c3d4 /dev/disk/by-id/scsi-3600508b1001c5e3d \
	/dev/disk/by-path/pci-0000:00:05.0-scsi-0:0:1:0 /dev/disk/by-id/nvme-eui.0025388b71b0a5e1; do
	expect_plan "$link" "^Partition $link-part1 \\(gpt label\\)" "${ARRAY[@]}" --device "$link"
	expect_plan "$link: kernel name" "^Device $link \\(kernel name read where apply probes it\\)" \
		"${ARRAY[@]}" --device "$link"
	expect_plan "$link: mkfs" "mkfs.xfs .* $link-part1\$" "${ARRAY[@]}" --device "$link"
	expect_plan "$link: no /sys/block// knob" "\\[kernel-name-unknown\\] the kernel's name of $link" \
		"${ARRAY[@]}" --device "$link"
	checks=$((checks + 1))
	! grep -q '/sys/block//' "$WORK/out" || fail "$link: a knob of no device: $(grep /sys/block "$WORK/out")"
	expect_plan "$link: kickstart ignoredisk" "^#   ignoredisk --drives=${link#/dev/}\$" \
		"${ARRAY[@]}" --device "$link" --format kickstart
	expect_plan "$link: kickstart apply" "^stripeplan apply .* --device $link --root /mnt/sysimage\$" \
		"${ARRAY[@]}" --device "$link" --format kickstart
	expect_plan "$link: preseed apply" "late_command string in-target stripeplan apply .* --device $link --root /\$" \
		"${ARRAY[@]}" --device "$link" --format preseed
	expect_plan "$link: json" "\"path\": \"$link-part1\"" \
		"${ARRAY[@]}" --device "$link" --format json
done
# a kernel name is still the kernel's, and ignoredisk takes it as it is
expect_plan "sdb" "^#   ignoredisk --drives=sdb\$" "${ARRAY[@]}" --device /dev/sdb --format kickstart
expect_plan "sdb" "^Partition /dev/sdb1 " "${ARRAY[@]}" --device /dev/sdb
expect_plan "nvme" "^Partition /dev/nvme0n1p1 " "${ARRAY[@]}" --device /dev/nvme0n1
# an md array's link: Anaconda must leave its member disks alone
expect_plan "md-uuid" "^#   ignoredisk --drives=<the member disks of /dev/disk/by-id/md-uuid-1a2b3c4d:5e6f7a8b:9c0d1e2f:3a4b5c6d>\$" \
	--controller md --level 5 --disks 4 --chunk 512K --fs xfs --size 2T --kernel 6.1.0 \
	--device /dev/disk/by-id/md-uuid-1a2b3c4d:5e6f7a8b:9c0d1e2f:3a4b5c6d --format kickstart
# names that say nothing for good still need the kernel's name offline
expect_exit 2 "device: cannot tell the kernel name of '/dev/mapper/mpatha'" \
	sp plan "${ARRAY[@]}" --device /dev/mapper/mpatha
finish
