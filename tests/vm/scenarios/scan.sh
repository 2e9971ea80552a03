#!/bin/bash
# scan on a real kernel, in one boot (tests/vm/guest/scan.sh): an md RAID5
# laid out by apply, a LUN with an msdos partition at sector 63, a blank
# LUN and a system disk (/boot and swap on a virtio disk), the machine
# scanned whole.
. "$SRCDIR/tests/vm/lib.bash"
vm_init
for i in 0 1 2 3; do
	vm_image "m$i" 256M
	vm_scsi "m$i" "serial=m$i,wwn=0x5000c5000000b10$i"
done
vm_image lun 1G
vm_scsi lun "serial=LUN0001,wwn=0x5000c5000000c101"
vm_image blank 256M
vm_scsi blank "serial=BLANK01,wwn=0x5000c5000000c102"
vm_image sys 512M
vm_virtio sys "serial=SYS0001"
vm_boot scan "$VM_DIR/guest/scan.sh"
