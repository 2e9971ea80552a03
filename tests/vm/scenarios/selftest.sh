#!/bin/bash
# The harness can fail (tests/vm/guest/selftest.sh): a broken udev rule and
# a wrong md geometry must each produce a FAIL line, the boot must exit 1,
# and nothing else may fail.
. "$SRCDIR/tests/vm/lib.bash"
vm_init
vm_image lun 1G
vm_scsi lun "serial=LUN0001,wwn=0x5000c500a1b2c3e1"
for i in 0 1 2 3; do
	vm_image "m$i" 512M
	vm_scsi "m$i" "serial=m$i"
done
rc=0
vm_boot selftest "$VM_DIR/guest/selftest.sh" || rc=$?
log=$VM_LOGS/selftest.log
bad=0
[ "$rc" = 1 ] || { echo "selftest: the boot exited $rc, want 1"; bad=1; }
for what in "SELFTEST broken udev rule: 1 of 2 knobs differ" "SELFTEST wrong md geometry"; do
	grep -q "^FAIL - .*$what" "$log" || { echo "selftest: no FAIL line for '$what'"; bad=1; }
done
[ "$(grep -c '^FAIL - ' "$log")" = 2 ] || { echo "selftest: other assertions failed too"; bad=1; }
[ "$bad" = 0 ] && echo "selftest: both deliberate faults were caught"
exit "$bad"
