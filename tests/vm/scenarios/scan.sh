#!/bin/bash
# scan on a real kernel, in one boot (tests/vm/guest/scan.sh): an md RAID5
# laid out by apply, a RAID10 LUN exporting its strip and full stripe with
# an msdos partition at sector 63, a blank
# LUN and a system disk (/boot and swap on a virtio disk), the machine
# scanned whole.
. "$SRCDIR/tests/vm/lib.bash"
vm_init
for i in 0 1 2 3; do
	vm_image "m$i" 256M
	vm_scsi "m$i" "serial=m$i,wwn=0x5000c5000000b10$i"
done
vm_image lun 1G
# a RAID10 4 x 64K LUN as a controller filling the Block Limits VPD shows it:
# the strip (64 KiB) and the full stripe (2 strips), no level
vm_scsi lun "serial=LUN0001,wwn=0x5000c5000000c101,min_io_size=65536,opt_io_size=131072"
vm_image blank 256M
vm_scsi blank "serial=BLANK01,wwn=0x5000c5000000c102"
vm_image sys 512M
vm_virtio sys "serial=SYS0001"
vm_boot scan "$VM_DIR/guest/scan.sh"
