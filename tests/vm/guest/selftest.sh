#!/bin/bash
# The harness can fail: the same assertions the scenarios use, given a
# deliberately broken udev rule and a wrong md geometry, must report FAIL
# and make this boot exit non-zero (tests/vm/scenarios/selftest.sh expects
# exactly these two failures and nothing else).
# shellcheck source=lib.bash
. /share/lib.bash
ROOT=/tmp/root
mkdir -p "$ROOT/etc"

# ---- a broken udev rule: the generated rule with a misspelt attribute ----
lun=$(disk_by_serial LUN0001)
P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs)
expect_rc 0 "plan lun" stripeplan plan "${P400[@]}" --device "/dev/$lun"
cp "$OUT" /tmp/plan-lun
expect_rc 0 "apply lun" stripeplan apply "${P400[@]}" --device "/dev/$lun" --root "$ROOT"
echo 128 >"/sys/block/$lun/queue/read_ahead_kb"
sed 's|ATTR{queue/read_ahead_kb}|ATTR{queue/read_ahead_kib}|' \
	"$ROOT/etc/udev/rules.d/60-stripeplan-wwn-$(cat "/sys/block/$lun/device/wwid").rules" >/etc/udev/rules.d/60-broken.rules
udevadm control --reload
udev_event change "/dev/$lun"
expect_tuning "SELFTEST broken udev rule" /tmp/plan-lun

# ---- a wrong md geometry: the array is 4 x 64K, the plan says 128K -------
members=()
for i in 0 1 2 3; do members+=("$(disk_by_serial "m$i")"); done
create_md /dev/md7 5 64 "${members[@]}"
mkfs_derived /dev/md7 >/tmp/derived-md7
# stripeplan itself refuses the contradiction (exit 2), so the wrong
# filesystem is made by hand: what a wrong plan would have made
expect_rc 2 "apply md7 with a wrong chunk: refused" stripeplan apply --controller md --level 5 \
	--disks 4 --chunk 128K --fs xfs --device /dev/md7 --root "$ROOT"
expect_rc 0 "mkfs.xfs md7 with a 128K stripe unit" mkfs.xfs -q -f -d su=128k,sw=3 /dev/md7
xfs_matches_mkfs "SELFTEST wrong md geometry" md7 /dev/md7
mdadm --stop /dev/md7 >/dev/null
vm_finish
