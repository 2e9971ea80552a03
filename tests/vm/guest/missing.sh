#!/bin/bash
# Third boot, the array's disk removed: the fstab line's nofail lets the
# boot complete, and check reports the array missing.
# shellcheck source=lib.bash
. /share/lib.bash
ARR=/dev/disk/by-id/wwn-0x5000c500a1b2c3d4
P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --mountpoint /data)
state=$(systemctl is-system-running)
echo "system state: $state"
expect_rc 0 "multi-user.target reached without the array" systemctl is-active multi-user.target
expect_rc 3 "not in emergency mode (is-active: inactive)" systemctl is-active emergency.target
expect_rc 0 "the fstab line is still there" grep -q ' /data xfs ' /etc/fstab
expect_rc 1 "/data is not mounted" findmnt /data
expect_rc 2 "check reports the array missing" stripeplan check "${P400[@]}" --device "$ARR" --root /
expect_out "check names the missing device" "wwn-0x5000c500a1b2c3d4"
cat "$ERR"
vm_finish
