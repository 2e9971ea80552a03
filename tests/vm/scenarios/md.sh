#!/bin/bash
# md RAID5 10 x 1 MiB, RAID6, RAID10 and RAID1 made by mdadm on SCSI disks,
# planned, applied, checked and read back in one boot (tests/vm/guest/md.sh).
. "$SRCDIR/tests/vm/lib.bash"
vm_init
for i in 0 1 2 3 4 5 6 7 8 9; do
	vm_image "m$i" 1G
	# a WWN, as SAS and FC disks have: the rule and the tune script find
	# the members by it (QEMU's serial= alone gives no wwid)
	vm_scsi "m$i" "serial=m$i,wwn=0x5000c5000000a10$i"
done
vm_boot md "$VM_DIR/guest/md.sh"
