#!/bin/bash
# SCSI LUNs with WWNs, serials and exported topology (topo: a RAID5 of 4 x
# 128 KiB in QEMU's Block Limits VPD page), udev running the
# generated rule, scsi_debug with an alignment offset, and logical drives on
# QEMU's MegaRAID HBAs under the guest's own megaraid_sas: the SAS1078
# (megasas, the PERC 6's chip) and the SAS2108 (megasas-gen2, the PERC H700's
# generation), and a disk passed through by a second 2108 (JBOD)
# (tests/vm/guest/scsi.sh).
. "$SRCDIR/tests/vm/lib.bash"
vm_init
vm_image ctl 2G
vm_scsi ctl "serial=CTL0001,wwn=0x5000c500a1b2c301"
vm_image topo 2G
vm_scsi topo "serial=TOPO0001,wwn=0x5000c500a1b2c302,physical_block_size=4096,logical_block_size=512,min_io_size=131072,opt_io_size=393216"
vm_image 4kn 1G
vm_scsi 4kn "serial=4KN00001,physical_block_size=4096,logical_block_size=4096"
# a logical drive that names itself as a PERC 6/i does, one with QEMU's own
# INQUIRY on the same HBA, and a RAID5 4 x 64K exporting its geometry on the
# 2108
vm_image mr6 1G
vm_hba megasas mr6 0 "vendor=DELL,product=PERC 6/i,ver=1.11"
vm_image mrq 1G
vm_hba megasas mrq 1
vm_image mr2 1G
vm_hba megasas-gen2 mr2 0 "min_io_size=65536,opt_io_size=196608"
# and one naming itself as a PERC H700's, the 2108's Dell board
vm_image mrh 1G
vm_hba megasas-gen2 mrh 1 "vendor=DELL,product=PERC H700,ver=2.10"
# a disk the 2108 passes through (JBOD) beside its logical drive
vm_image jbod 1G
vm_jbod megasas-gen2 jbod
vm_boot scsi "$VM_DIR/guest/scsi.sh"
