#!/bin/bash
# Every knob value and mount option the planner produces for the guest's
# kernel, written to real devices and read back, and each sysfs limit the
# planner holds tried on both sides (tests/vm/guest/knobs.sh).  One boot.
. "$SRCDIR/tests/vm/lib.bash"
vm_init
vm_image lun 2G
vm_scsi lun "serial=KNOB0001,wwn=0x5000c500a1b2c3e1"
for fs in xfs ext4 ext3; do
	vm_image "fs-$fs" 1G
	vm_scsi "fs-$fs" "serial=FS-$fs"
done
for i in 0 1 2; do
	vm_image "k$i" 512M
	vm_scsi "k$i" "serial=k$i,wwn=0x5000c5000000b10$i"
done
vm_image vd 1G
vm_virtio vd
vm_boot knobs "$VM_DIR/guest/knobs.sh"
