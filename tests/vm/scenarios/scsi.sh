#!/bin/bash
# SCSI LUNs with WWNs, serials and exported topology (topo: a RAID5 of 4 x
# 128 KiB in QEMU's Block Limits VPD page), udev running the
# generated rule, scsi_debug with an alignment offset (tests/vm/guest/scsi.sh).
. "$SRCDIR/tests/vm/lib.bash"
vm_init
vm_image ctl 2G
vm_scsi ctl "serial=CTL0001,wwn=0x5000c500a1b2c301"
vm_image topo 2G
vm_scsi topo "serial=TOPO0001,wwn=0x5000c500a1b2c302,physical_block_size=4096,logical_block_size=512,min_io_size=131072,opt_io_size=393216"
vm_image 4kn 1G
vm_scsi 4kn "serial=4KN00001,physical_block_size=4096,logical_block_size=4096"
vm_boot scsi "$VM_DIR/guest/scsi.sh"
