#!/bin/bash
# Second boot (the debootstrap root's systemd, a new QEMU process), the
# array's LUN the only SCSI disk, so it has another kernel name than at
# install (sdb there, behind a scratch LUN): what the late_command
# installed works with no command run: udevd applied the tuning at boot on
# the new name, systemd mounted the filesystem from the fstab line, and
# check finds no drift, in the files apply wrote either.
# shellcheck source=lib.bash
. /share/lib.bash
ARR=$(readlink -f /dev/disk/by-id/wwn-0x5000c500a1b2c3d4)
P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --mountpoint /data)
dev=$(basename "$ARR")
installed_as=$(cat /root/array-install-name)
echo "array LUN: $dev (at install: $installed_as); $(uname -r); $(systemctl is-system-running)"
expect_rc 0 "the array LUN is a disk" test -b "$ARR"
expect_rc 1 "the array LUN's kernel name moved ($installed_as at install, $dev now)" \
	test "$dev" = "$installed_as"
# The rule and the tune script are named after the LUN's WWN (what the
# rule matches), not after the kernel name at install: check finds them
# whatever name the LUN has after the boot.
rule=/etc/udev/rules.d/60-stripeplan-wwn-$(cat "/sys/block/$dev/device/wwid").rules
script=/usr/local/sbin/stripeplan-tune-wwn-$(cat "/sys/block/$dev/device/wwid")
expect_rc 0 "the rule installed at install time is named by the WWN" test -f "$rule"
expect_rc 0 "so is the tune script" test -x "$script"
expect_eq "the rule names no kernel name" "$(grep -cwE "$installed_as|$dev" "$rule")" 0
expect_eq "the tune script finds none by kernel name" "$(grep -c '^if found name ' "$script")" 0
expect_eq "read_ahead_kb set at boot on $dev" "$(knob "/sys/block/$dev/queue/read_ahead_kb")" 4096
expect_eq "scheduler set at boot on $dev" "$(knob "/sys/block/$dev/queue/scheduler")" none
expect_eq "/data mounted from the fstab line" "$(findmnt -no SOURCE,FSTYPE /data)" "/dev/${dev}1 xfs"
mount_opts=$(findmnt -no OPTIONS /data)
# the plan leaves the log buffers at the kernel's 32 KiB
case $mount_opts in
*logbsize=256k*) fail "/data options: $mount_opts" ;;
*noatime*) ok "/data options: $mount_opts" ;;
*) fail "/data options: $mount_opts" ;;
esac
expect_rc 0 "check after the boot, the LUN renamed" stripeplan check "${P400[@]}" --device "$ARR" --root /
cat "$OUT"
expect_eq "check: nothing differs" "$(cat "$OUT" "$ERR" | grep -c differs)" 0
expect_rc 0 "check --strict: everything matches" \
	stripeplan check --strict "${P400[@]}" --device "$ARR" --root /
# a rule whose content really differs (another read_ahead_kb) is still drift
cp "$rule" /root/rule.installed
sed -i 's|ATTR{queue/read_ahead_kb}="4096"|ATTR{queue/read_ahead_kb}="2048"|' "$rule"
expect_rc 1 "check: a rule with another read_ahead_kb" \
	stripeplan check "${P400[@]}" --device "$ARR" --root /
expect_out "check names the rule" "$(basename "$rule") differs"
cp /root/rule.installed "$rule"
vm_finish
