#!/bin/bash
# Second boot (the debootstrap root's systemd, a new QEMU process): what
# the late_command installed works with no command run: udevd applied the
# tuning at boot, systemd mounted the filesystem from the fstab line, and
# check finds no drift.
# shellcheck source=lib.bash
. /share/lib.bash
ARR=$(readlink -f /dev/disk/by-id/wwn-0x5000c500a1b2c3d4)
P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --mountpoint /data)
dev=$(basename "$ARR")
# The rule and the tune script are named after the LUN's WWN (what the
# rule matches), not after the kernel name at install: check finds them
# whatever name the LUN has after the boot.
expect_rc 0 "the rule installed at install time is named by the WWN" \
	test -f "/etc/udev/rules.d/60-stripeplan-wwn-$(cat "/sys/block/$dev/device/wwid").rules"
echo "array LUN: $dev; $(uname -r); $(systemctl is-system-running)"
expect_eq "read_ahead_kb set at boot" "$(knob "/sys/block/$dev/queue/read_ahead_kb")" 4096
expect_eq "scheduler set at boot" "$(knob "/sys/block/$dev/queue/scheduler")" none
expect_eq "/data mounted from the fstab line" "$(findmnt -no SOURCE,FSTYPE /data)" "/dev/${dev}1 xfs"
mount_opts=$(findmnt -no OPTIONS /data)
# the plan leaves the log buffers at the kernel's 32 KiB
case $mount_opts in
*logbsize=256k*) fail "/data options: $mount_opts" ;;
*noatime*) ok "/data options: $mount_opts" ;;
*) fail "/data options: $mount_opts" ;;
esac
expect_rc 0 "check after the boot" stripeplan check "${P400[@]}" --device "$ARR" --root /
cat "$OUT"
vm_finish
