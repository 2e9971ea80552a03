#!/bin/bash
# Boot persistence on a debootstrap root, three QEMU processes: the installer
# snippets install (initramfs), a cold boot of the installed system, and a
# cold boot with the array's disk removed (tests/vm/guest/{install,booted,missing}.sh).
. "$SRCDIR/tests/vm/lib.bash"
vm_init
cp --sparse=always "$VM_GUEST/root.ext4" "$VM_RUN/disks/root"
vm_image arr 2G
vm_image ks 2G
rc=0
# the array is the only SCSI disk in every boot, so it is sda in each: the
# files apply writes are named after the kernel name (see guest/booted.sh)
vm_virtio root "serial=ROOT"
vm_scsi arr "serial=ARR0001,wwn=0x5000c500a1b2c3d4"
vm_virtio ks "serial=KS00001"
vm_boot install "$VM_DIR/guest/install.sh" || rc=1
if [ "$rc" = 0 ]; then
	vm_reset_disks
	vm_virtio root "serial=ROOT"
	vm_scsi arr "serial=ARR0001,wwn=0x5000c500a1b2c3d4"
	vm_boot booted "$VM_DIR/guest/booted.sh" sp.root=LABEL=vmroot || rc=1
	vm_reset_disks
	vm_virtio root "serial=ROOT"
	vm_boot missing "$VM_DIR/guest/missing.sh" sp.root=LABEL=vmroot || rc=1
fi
exit "$rc"
