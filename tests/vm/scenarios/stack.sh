#!/bin/bash
# md RAID5 4 x 64 KiB -> LUKS2 -> LVM -> XFS on a real kernel with
# device-mapper and dm-crypt, made with the commands `plan --stack` prints
# and read back from the kernel's dm tables and the tools' metadata
# (tests/vm/guest/stack.sh).
. "$SRCDIR/tests/vm/lib.bash"
vm_init
for i in 0 1 2 3; do
	vm_image "s$i" 1G
	vm_scsi "s$i" "serial=s$i"
done
# a controller's LUN: no topology exported
vm_image lun 2G
vm_scsi lun "serial=LUN0001,wwn=0x5000c500a1b2c3f1"
vm_boot stack "$VM_DIR/guest/stack.sh"
